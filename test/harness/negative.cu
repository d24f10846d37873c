// A file with no CHECK-MESSAGES, CHECK-NOTES or CHECK-FIXES lines is a
// negative test: it passes when the check is silent and fails on any warning.
// RUN: %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub
// RUN: %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub --cuda-host-only
// RUN: not %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub -DUNUSED_ALIAS 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RESULT: check_clang_tidy.py: FAIL: {{.*}}negative.cu: no CHECK-MESSAGES, CHECK-NOTES or CHECK-FIXES for suffixes '', so no diagnostic was expected, but clang-tidy printed:
// RESULT-NEXT: negative.cu.tmp.cu:[[#@LINE+11]]:11: warning: namespace alias decl 'unused' is unused [misc-unused-alias-decls]

#include <cuda_runtime.h>

namespace detail {
__device__ int twice(int x);
}

namespace used = detail;

#ifdef UNUSED_ALIAS
namespace unused = detail;
#endif

__global__ void kernel(int *out) {
  out[threadIdx.x] = used::twice(static_cast<int>(threadIdx.x));
}
