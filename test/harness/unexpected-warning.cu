// A warning that no CHECK-MESSAGES line expects fails the test.
// RUN: not %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// The same with CHECK-NOTES.
// RUN: not %check_clang_tidy -check-suffix=NOTES %s misc-unused-alias-decls %t -- -- %cuda_stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NOTES-RESULT
// RESULT: IMPLICIT-CHECK-NOT: excluded string found in input
// RESULT: unexpected-warning.cu.tmp.cu:[[#@LINE+14]]:11: warning: namespace alias decl 'second' is unused
// RESULT: check_clang_tidy.py: FAIL: {{.*}}unexpected-warning.cu: FileCheck of the messages failed (prefixes CHECK-MESSAGES)
// NOTES-RESULT: IMPLICIT-CHECK-NOT: excluded string found in input
// NOTES-RESULT: unexpected-warning.cu.tmp.cu:[[#@LINE+11]]:11: warning: namespace alias decl 'second' is unused
// NOTES-RESULT: check_clang_tidy.py: FAIL: {{.*}}unexpected-warning.cu: FileCheck of the notes failed (prefixes CHECK-NOTES-NOTES)

#include <cuda_runtime.h>

namespace detail {}

namespace first = detail;
// CHECK-MESSAGES: :[[@LINE-1]]:11: warning: namespace alias decl 'first' is unused [misc-unused-alias-decls]
// CHECK-NOTES-NOTES: :[[@LINE-2]]:11: warning: namespace alias decl 'first' is unused [misc-unused-alias-decls]

namespace second = detail;

__global__ void kernel() {}
