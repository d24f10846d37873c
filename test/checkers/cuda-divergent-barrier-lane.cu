// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// Block-wide reductions through shared memory (ggml's
// flash_attn_mask_to_KV_max, fattn-common.cuh:699): each warp reduces its
// threads' values, lane 0 stores the result in buf[warp], and after a
// barrier every thread reads buf[tid % 32] and reduces again over the warp.
// Every warp then reduces the same 32 slots, so the result is the same in
// the whole block and the loop's exit is uniform: a value that depends on
// the thread only through its lane, reduced over a full warp. That needs
// the block's x extent to be a multiple of 32 (the launches below say so);
// each silent kernel is followed by its nearest true twins, still reported.

template <int width = 32> __device__ __forceinline__ int warpAll(int x) {
  if (width == 32) {
    return __all_sync(0xffffffff, x);
  } else {
    for (int offset = width / 2; offset > 0; offset >>= 1)
      x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
    return x;
  }
}

__device__ __forceinline__ int warpSum(int x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, 32);
  return x;
}

// Offsets 8..1: lanes 0-15 and 16-31 keep different sums.
__device__ __forceinline__ int halfWarpSum(int x) {
  for (int offset = 8; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, 32);
  return x;
}

// The reduced sketch of ggml's kernel: silent.
__global__ void maskToMax(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  if (tid < 32)
    buf[tid] = 1;
  __syncthreads();
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    all = buf[tid % 32];
    __syncthreads();
    all = warpAll(all);
    if (!all)
      break;
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = j;
}

// A sum through `tid & 31` and a butterfly over offsets 16..1: silent.
__global__ void sumThroughMask(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

// Twin: the buffer read at `tid`, not `tid % 32`: warps read different
// slots.
__global__ void readAtThread(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[128];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: a reduction over half warps.
__global__ void halfWarpReduction(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    v = halfWarpSum(part[threadIdx.x & 31]);
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-10]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

// Twin: a vote over the lower half of each warp only.
__global__ void partialMask(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 32];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = __all_sync(0x0000ffff, all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: a store to the buffer between the barriers around the read, so
// warps may see different contents.
__global__ void storeBeforeNextBarrier(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 32];
    if (tid == 0)
      buf[1] = 0;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-13]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: `tid % 64` is no lane: the two warps of each 64 read different
// halves.
__global__ void notALane(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[64];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 64];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: a lambda stores to the buffer between the barriers; it names the
// array without capturing it.
__global__ void storeInLambda(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  auto clear = [] { buf[1] = 0; };
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 32];
    if (tid == 0)
      clear();
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-13]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: the sketch launched 48 threads wide: the second warp holds x 32-47
// only, and `tid % 32` is not its lane in a wider block.
__global__ void maskToMax48(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  if (tid < 32)
    buf[tid] = 1;
  __syncthreads();
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 48 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 32];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: never launched here, so the block's shape is unknown.
__global__ void maskToMaxUnlaunched(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 32];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Launched through a helper that takes the kernel and an object holding the
// shape, as ggml's ggml_cuda_kernel_launch does.
struct LaunchParams {
  dim3 grid;
  dim3 block;
  LaunchParams(const dim3 &grid_, const dim3 &block_)
      : grid(grid_), block(block_) {}
};

template <typename Kernel, typename... Args>
void launchThrough(Kernel kernel, const LaunchParams &params, Args... args) {
  kernel<<<params.grid, params.block>>>(args...);
}

// Silent: launched 128 wide through the helper.
__global__ void maskToMaxWrapped(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 128 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    all = buf[tid % 32];
    __syncthreads();
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

// Twin: launched 48 wide through the helper.
__global__ void maskToMaxWrapped48(const float *mask, int *out, int n) {
  const int tid = threadIdx.x;
  __shared__ int buf[32];
  int j = n - 1;
  for (; j >= 0; --j) {
    int all = mask[j * 48 + tid] < 0.0f;
    all = warpAll(all);
    if (tid % 32 == 0)
      buf[tid / 32] = all;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = buf[tid % 32];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid', 'all' and 'j'
    all = warpAll(all);
    if (!all)
      break;
  }
  out[blockIdx.x] = j;
}

void launchAll(const float *mask, const int *in, int *out, int n) {
  maskToMax<<<16, 128>>>(mask, out, n);
  sumThroughMask<<<16, dim3(64, 2)>>>(in, out, n);
  readAtThread<<<16, 128>>>(mask, out, n);
  halfWarpReduction<<<16, 128>>>(in, out, n);
  partialMask<<<16, 128>>>(mask, out, n);
  storeBeforeNextBarrier<<<16, 128>>>(mask, out, n);
  notALane<<<16, 128>>>(mask, out, n);
  storeInLambda<<<16, 128>>>(mask, out, n);
  maskToMax48<<<16, 48>>>(mask, out, n);
  const dim3 block(128, 1, 1);
  LaunchParams params = LaunchParams(dim3(16), block);
  launchThrough(maskToMaxWrapped, params, mask, out, n);
  const dim3 block48(48, 1, 1);
  LaunchParams params48 = LaunchParams(dim3(16), block48);
  launchThrough(maskToMaxWrapped48, params48, mask, out, n);
}
