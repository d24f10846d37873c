// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// What the launches establish about a kernel's parameters (HostFacts.h):
// `if (i >= n) return;` before a full-mask shuffle leaves some lanes of the
// last warp out unless n is a multiple of 32, and the host code that
// launches the kernel may check that it is, or pass a constant that is.
// Every launch must: one launch that does not keeps the warning.

#include <cuda_runtime.h>
#include <cassert>
#include <cstdlib>

#define DEFINE_KERNEL(name)                                                    \
  __global__ void name(const float *in, float *out, int n) {                   \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
    if (i >= n)                                                                \
      return;                                                                  \
    float v = in[i];                                                           \
    v += __shfl_xor_sync(0xffffffff, v, 1);                                    \
    out[i] = v;                                                                \
  }

// Launched with n unchecked: the last warp may be partial.
__global__ void unchecked(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 5-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 5 and 'blockDim.x' is 64: it depends on 'threadIdx.x' through 'i'
  out[i] = v;
}

// Checked by an assertion macro that aborts (ggml's GGML_ASSERT shape).
#define CHECK_OR_ABORT(x)                                                      \
  do {                                                                         \
    if (!(x))                                                                  \
      abort();                                                                 \
  } while (0)
DEFINE_KERNEL(checkedByMacro)
void launchCheckedByMacro(const float *in, float *out, int n) {
  CHECK_OR_ABORT(n % 32 == 0);
  checkedByMacro<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Checked by assert(), and by an early return on the remainder.
DEFINE_KERNEL(checkedByAssert)
DEFINE_KERNEL(checkedByReturn)
void launchChecked(const float *in, float *out, int n, int m) {
  assert(n % 64 == 0);
  checkedByAssert<<<(n + 255) / 256, 256>>>(in, out, n);
  if (m & 31)
    return;
  checkedByReturn<<<(m + 255) / 256, 256>>>(in, out, m);
}

// A constant that is a multiple of 32.
DEFINE_KERNEL(constantLength)
void launchConstant(const float *in, float *out) {
  constantLength<<<4, 256>>>(in, out, 1024);
}

// Checked at one launch, not at the other: still reported.
__global__ void checkedOnce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
  out[i] = v;
}
void launchCheckedOnce(const float *in, float *out, int n) {
  checkedOnce<<<(n + 255) / 256, 256>>>(in, out, n);
  CHECK_OR_ABORT(n % 32 == 0);
  checkedOnce<<<(n + 255) / 256, 256>>>(in, out, n);
}

// A multiple of 16 only: half a warp may be left out.
__global__ void sixteens(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 16-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 16 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
  out[i] = v;
}
void launchSixteens(const float *in, float *out, int n) {
  assert(n % 16 == 0);
  sixteens<<<(n + 255) / 256, 256>>>(in, out, n);
}

// The variable is changed after the check: no fact.
__global__ void changedAfter(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
  out[i] = v;
}
void launchChangedAfter(const float *in, float *out, int n) {
  assert(n % 32 == 0);
  n -= 3;
  changedAfter<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Passed by non-const reference to a function whose body the unit does not
// hold: it may change the variable, so the check before says nothing
// (Clang's ExprMutationAnalyzer decides what may write it). By const
// reference, or by value, the fact holds.
__global__ void changedThroughReference(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
  out[i] = v;
}
void adjustLength(int &n);
void showLength(const int &n, int copy);
void launchChangedThroughReference(const float *in, float *out, int n) {
  CHECK_OR_ABORT(n % 32 == 0);
  adjustLength(n);
  changedThroughReference<<<(n + 255) / 256, 256>>>(in, out, n);
}
DEFINE_KERNEL(readThroughConstReference)
void launchReadThroughConstReference(const float *in, float *out, int n) {
  CHECK_OR_ABORT(n % 32 == 0);
  showLength(n, n);
  readThroughConstReference<<<(n + 255) / 256, 256>>>(in, out, n);
}

void launchUnchecked(const float *in, float *out, int n) {
  unchecked<<<(n + 255) / 256, 256>>>(in, out, n);
}

// Through a launch helper that forwards the arguments (ggml's
// ggml_cuda_kernel_launch): the check is made where the helper is called.
#include <utility>
template <typename Kernel, typename... Args>
static void launchThrough(Kernel kernel, dim3 grid, Args &&...args) {
  kernel<<<grid, 256>>>(std::forward<Args>(args)...);
}
DEFINE_KERNEL(throughHelper)
void launchThroughHelper(const float *in, float *out, int n) {
  CHECK_OR_ABORT(n % 32 == 0);
  launchThrough(throughHelper, dim3((n + 255) / 256), in, out, n);
}
