// Minimal stand-in for the CUDA toolkit's cuda_pipeline.h (the pipeline
// primitives), for lit tests only: declared, not defined, as a check must
// recognise them by name (see cuda_runtime.h next to this file).
#ifndef CUDA_TIDY_TEST_STUB_CUDA_PIPELINE_H
#define CUDA_TIDY_TEST_STUB_CUDA_PIPELINE_H
#include <cuda_runtime.h>
__device__ void __pipeline_memcpy_async(void *dst, const void *src,
                                        size_t size, size_t zfill = 0);
__device__ void __pipeline_commit();
__device__ void __pipeline_wait_prior(size_t prior);
#endif
