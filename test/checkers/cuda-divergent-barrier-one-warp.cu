// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// Blocks of one warp (issue 22, shape g): every thread of the block is a
// lane of a full-warp vote or reduction (`__any_sync`, `__ballot_sync`,
// `__reduce_*_sync` with mask 0xffffffff, a helper that returns one, a xor
// butterfly over offsets 16..1), so its result is the same in the whole
// block and a barrier under it is reached by all threads or none. Known
// only when every block is one warp: `__launch_bounds__` of at most 32
// threads, or every launch of the kernel with a constant block of at most
// 32 threads. Each silent kernel is followed by its nearest true twins.

__device__ __forceinline__ int warpSum(int x) {
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, 32);
  return x;
}

// --- Silent: the same fact written four ways --------------------------------

// A vote that ends the loop, launched <<<g, 32>>>.
__global__ void voteEndsLoop(const int *in, int *out, int n) {
  __shared__ int buf[32];
  int v = in[threadIdx.x];
  for (int it = 0; it < n; ++it) {
    bool more = __any_sync(0xffffffff, v > it);
    if (!more)
      break;
    buf[threadIdx.x] = v;
    __syncthreads();
    v += buf[(threadIdx.x + 1) % 32];
    __syncthreads();
  }
  out[threadIdx.x] = v;
}

// A ballot, launched with a dim3 of 32.
__global__ void ballotGuard(const int *in, int *out) {
  __shared__ int buf[32];
  int v = in[threadIdx.x];
  unsigned b = __ballot_sync(0xffffffff, v > 0);
  if (b != 0) {
    buf[threadIdx.x] = v;
    __syncthreads();
    v = buf[31 - threadIdx.x];
  }
  out[threadIdx.x] = v;
}

// A shuffle butterfly in a helper, under __launch_bounds__(32) with no
// launch in this file.
__global__ void __launch_bounds__(32) butterflyBounds(const int *in, int *out) {
  __shared__ int buf[32];
  int v = in[threadIdx.x];
  if (warpSum(v) > 0) {
    buf[threadIdx.x] = v;
    __syncthreads();
    v = buf[31 - threadIdx.x];
  }
  out[threadIdx.x] = v;
}

// A block of 16 x 2 threads, one warp, a template.
template <typename T> __global__ void reduceTwoRows(const T *in, T *out) {
  __shared__ T buf[32];
  unsigned t = threadIdx.y * 16 + threadIdx.x;
  T v = in[t];
  while (__any_sync(0xffffffff, v > 0)) {
    buf[t] = v;
    __syncthreads();
    v = buf[31 - t] - 1;
    __syncthreads();
  }
  out[t] = v;
}

// --- Reported ----------------------------------------------------------------

// Two warps: each votes on its own lanes.
__global__ void voteTwoWarps(const int *in, int *out) {
  __shared__ int buf[64];
  int v = in[threadIdx.x];
  if (__any_sync(0xffffffff, v > 0)) {
    buf[threadIdx.x] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on the result of '__any_sync', which the lanes of its mask share but other warps need not
    v = buf[63 - threadIdx.x];
  }
  out[threadIdx.x] = v;
}

// One warp at one launch, two at another.
__global__ void ballotSometimesTwoWarps(const int *in, int *out) {
  __shared__ int buf[64];
  int v = in[threadIdx.x];
  if (__ballot_sync(0xffffffff, v > 0) != 0) {
    buf[threadIdx.x] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on the result of '__ballot_sync', which the lanes of its mask share but other warps need not
    v = buf[blockDim.x - 1 - threadIdx.x];
  }
  out[threadIdx.x] = v;
}

// No launch and no bounds: the block is not known to be one warp.
__global__ void voteUnlaunched(const int *in, int *out) {
  __shared__ int buf[32];
  int v = in[threadIdx.x];
  if (__all_sync(0xffffffff, v > 0)) {
    buf[threadIdx.x] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on the result of '__all_sync', which the lanes of its mask share but other warps need not
    v = buf[31 - threadIdx.x];
  }
  out[threadIdx.x] = v;
}

// A vote over half the warp: lanes 16-31 keep their own values.
__global__ void voteHalfWarp(const int *in, int *out) {
  __shared__ int buf[32];
  int v = in[threadIdx.x];
  int any = threadIdx.x < 16 ? __any_sync(0x0000ffff, v > 0) : v;
  if (any) {
    buf[threadIdx.x] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'any'
    v = buf[31 - threadIdx.x];
  }
  out[threadIdx.x] = v;
}

void host(const int *in, int *out, int n) {
  voteEndsLoop<<<8, 32>>>(in, out, n);
  dim3 warp(32);
  ballotGuard<<<8, warp>>>(in, out);
  reduceTwoRows<int><<<8, dim3(16, 2)>>>(in, out);
  voteTwoWarps<<<8, 64>>>(in, out);
  ballotSometimesTwoWarps<<<8, 32>>>(in, out);
  ballotSometimesTwoWarps<<<8, 64>>>(in, out);
  voteHalfWarp<<<8, 32>>>(in, out);
}
