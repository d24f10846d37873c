// A passing test of an upstream check on CUDA code: CHECK-MESSAGES with
// [[@LINE]] arithmetic, CHECK-FIXES, check suffixes, and the two passes.
// The temporary copy keeps the .cu extension, or __global__ would not parse.
// RUN: %check_clang_tidy %s misc-unused-alias-decls %t -- -- %cuda_stub
// RUN: %check_clang_tidy -check-suffix=HOST %s misc-unused-alias-decls %t -- -- %cuda_stub --cuda-host-only
// RUN: %check_clang_tidy -check-suffixes=HOST,EXTRA %s misc-unused-alias-decls %t -- -- %cuda_stub --cuda-host-only -DEXTRA
// RUN: %check_clang_tidy %s misc-unused-alias-decls %t -- -config="{CheckOptions: {}}" -- %cuda_stub

#include <cuda_runtime.h>

namespace detail {
__device__ int twice(int x);
}

namespace unused = detail;
// CHECK-MESSAGES: :[[@LINE-1]]:11: warning: namespace alias decl 'unused' is unused [misc-unused-alias-decls]
// CHECK-MESSAGES-HOST: :[[@LINE-2]]:11: warning: namespace alias decl 'unused' is unused [misc-unused-alias-decls]
// CHECK-FIXES-NOT: namespace unused
// CHECK-FIXES-HOST-NOT: namespace unused

// clang-tidy analyses the device pass of a .cu file unless told otherwise.
#ifdef __CUDA_ARCH__
namespace device_only = detail;
// CHECK-MESSAGES: :[[@LINE-1]]:11: warning: namespace alias decl 'device_only' is unused [misc-unused-alias-decls]
#else
namespace host_only = detail;
// CHECK-MESSAGES-HOST: :[[@LINE-1]]:11: warning: namespace alias decl 'host_only' is unused [misc-unused-alias-decls]
#endif

#ifdef EXTRA
namespace extra = detail;
// CHECK-MESSAGES-EXTRA: :[[@LINE-1]]:11: warning: namespace alias decl 'extra' is unused [misc-unused-alias-decls]
#endif

namespace used = detail;
// CHECK-FIXES: {{^}}namespace used = detail;{{$}}
// CHECK-FIXES-HOST: {{^}}namespace used = detail;{{$}}

__global__ void kernel(int *out) {
  out[threadIdx.x] = used::twice(static_cast<int>(threadIdx.x));
}

int main() {
  kernel<<<1, 32, 0, nullptr>>>(nullptr);
  return 0;
}
