// A CHECK-MESSAGES line that no warning matches fails the test, and so does
// a CHECK-FIXES line that the fixed file does not match.
// RUN: not %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RUN: not %check_clang_tidy -check-suffix=FIX %s misc-unused-alias-decls %t -- -- %cuda_stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=FIX-RESULT
// RESULT: error: {{CHECK-MESSAGES}}: expected string not found in input
// RESULT: check_clang_tidy.py: FAIL: {{.*}}missing-warning.cu: FileCheck of the messages failed (prefixes CHECK-MESSAGES)
// FIX-RESULT: error: {{CHECK-FIXES-FIX}}: expected string not found in input
// FIX-RESULT: check_clang_tidy.py: FAIL: {{.*}}missing-warning.cu: FileCheck of the fixed file failed (prefixes CHECK-FIXES-FIX)

#include <cuda_runtime.h>

namespace detail {
__device__ int twice(int x);
}

namespace unused = detail;
// CHECK-MESSAGES: :[[@LINE-1]]:11: warning: namespace alias decl 'unused' is unused [misc-unused-alias-decls]
// CHECK-MESSAGES-FIX: :[[@LINE-2]]:11: warning: namespace alias decl 'unused' is unused [misc-unused-alias-decls]

namespace used = detail;
// CHECK-MESSAGES: :[[@LINE-1]]:11: warning: namespace alias decl 'used' is unused [misc-unused-alias-decls]
// CHECK-FIXES-FIX: {{^}}namespace unused = detail;

__global__ void kernel(int *out) { out[0] = used::twice(1); }
