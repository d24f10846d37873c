// clang-tidy fails on code that does not compile: the test fails with a
// readable message, unless -expect-clang-tidy-error says that is the point.
// RUN: not %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RUN: %check_clang_tidy -expect-clang-tidy-error %s misc-unused-alias-decls %t -- -- %cuda_stub
// RESULT: check_clang_tidy.py: FAIL: {{.*}}compile-error.cu: clang-tidy exited with 1 (compile errors? see its output above; pass -expect-clang-tidy-error if that is the point)

#include <cuda_runtime.h>

__global__ void kernel(int *out) { out[0] = undeclared(threadIdx.x); }
// CHECK-MESSAGES: :[[@LINE-1]]:45: error: use of undeclared identifier 'undeclared' [clang-diagnostic-error]
