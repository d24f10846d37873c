// Stand-in written for the oracle (not NVIDIA code): the toolkit's cusparse.h,
// plus declarations of the legacy cuSPARSE API that CUDA 12 removed and that
// the RAPIDS headers of 2020-21 still wrap. Host-only; never called by the
// kernels under test. Each function is a variadic template, so that any
// argument list of the old signatures is accepted.
#pragma once
#include_next <cusparse.h>

typedef enum { CUSPARSE_ALG0 = 0, CUSPARSE_ALG1 = 1, CUSPARSE_ALG_NAIVE = 0,
               CUSPARSE_ALG_MERGE_PATH = 1 } cusparseAlgMode_t;
typedef struct csrgemm2Info* csrgemm2Info_t;
typedef struct csrsv2Info* csrsv2Info_t_oracle_unused;

#define ORACLE_LEGACY_CUSPARSE(name) \
  template <typename... Args> inline cusparseStatus_t name(Args...) { return CUSPARSE_STATUS_SUCCESS; }
ORACLE_LEGACY_CUSPARSE(cusparseSgthr)
ORACLE_LEGACY_CUSPARSE(cusparseDgthr)
ORACLE_LEGACY_CUSPARSE(cusparseSgemmi)
ORACLE_LEGACY_CUSPARSE(cusparseDgemmi)
ORACLE_LEGACY_CUSPARSE(cusparseCsrmvEx)
ORACLE_LEGACY_CUSPARSE(cusparseCsrmvEx_bufferSize)
ORACLE_LEGACY_CUSPARSE(cusparseCreateCsrgemm2Info)
ORACLE_LEGACY_CUSPARSE(cusparseDestroyCsrgemm2Info)
ORACLE_LEGACY_CUSPARSE(cusparseScsrgemm2_bufferSizeExt)
ORACLE_LEGACY_CUSPARSE(cusparseDcsrgemm2_bufferSizeExt)
ORACLE_LEGACY_CUSPARSE(cusparseXcsrgemm2Nnz)
ORACLE_LEGACY_CUSPARSE(cusparseScsrgemm2)
ORACLE_LEGACY_CUSPARSE(cusparseDcsrgemm2)
ORACLE_LEGACY_CUSPARSE(cusparseScsr2csc)
ORACLE_LEGACY_CUSPARSE(cusparseDcsr2csc)
ORACLE_LEGACY_CUSPARSE(cusparseScsrmv)
ORACLE_LEGACY_CUSPARSE(cusparseDcsrmv)
ORACLE_LEGACY_CUSPARSE(cusparseScsrmm)
ORACLE_LEGACY_CUSPARSE(cusparseDcsrmm)
ORACLE_LEGACY_CUSPARSE(cusparseScsrmm2)
ORACLE_LEGACY_CUSPARSE(cusparseDcsrmm2)
ORACLE_LEGACY_CUSPARSE(cusparseSdoti)
ORACLE_LEGACY_CUSPARSE(cusparseDdoti)
ORACLE_LEGACY_CUSPARSE(cusparseSaxpyi)
ORACLE_LEGACY_CUSPARSE(cusparseDaxpyi)
ORACLE_LEGACY_CUSPARSE(cusparseScsr2dense)
ORACLE_LEGACY_CUSPARSE(cusparseDcsr2dense)
ORACLE_LEGACY_CUSPARSE(cusparseSdense2csr)
ORACLE_LEGACY_CUSPARSE(cusparseDdense2csr)
#undef ORACLE_LEGACY_CUSPARSE
