// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// A barrier under a branch that repeats its loop's condition always runs
// inside the loop: `if (j < n) __syncthreads();` in `for (j = 0; j < n;
// ++j)` (ggml's mmvf.cu). The path that skips it does not exist, so the
// next iteration's write is ordered after this iteration's read.

__global__ void barrierUnderLoopCondition(const float *in, float *out, int n) {
  __shared__ float partial[8];
  const int tid = threadIdx.x;
  for (int j = 0; j < n; ++j) {
    if (tid % 32 == 0)
      partial[tid / 32] = in[j * 256 + tid];
    __syncthreads();
    if (tid < 8)
      out[j * 8 + tid] = partial[tid];
    if (j < n)
      __syncthreads();
  }
}

// Another bound: when m < n the later iterations skip the barrier, and
// warp 1 overwrites 'partial[1]' while thread 1 may still read it.
__global__ void barrierUnderOtherBound(const float *in, float *out, int n,
                                       int m) {
  __shared__ float partial[8];
  const int tid = threadIdx.x;
  for (int j = 0; j < n; ++j) {
    if (tid % 32 == 0)
      partial[tid / 32] = in[j * 256 + tid];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'partial': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+4]]:26: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (1,0,0) reads 'partial[1]' and thread (32,0,0) writes it one iteration of the enclosing loop later, when 'n' = 35, 'm' = 3, with blockDim (256,1,1)
    __syncthreads();
    if (tid < 8)
      out[j * 8 + tid] = partial[tid];
    if (j < m)
      __syncthreads();
  }
}

void launch(const float *in, float *out, int n, int m) {
  barrierUnderLoopCondition<<<1, 256>>>(in, out, n);
  barrierUnderOtherBound<<<1, 256>>>(in, out, n, m);
}
