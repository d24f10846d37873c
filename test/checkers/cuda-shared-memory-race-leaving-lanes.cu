// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Lanes that store a constant and leave (llm.c's softmax_forward_kernel7):
// the constant is one value however it is spelled (`-INFINITY` is
// `-__builtin_inff()`), so the leaving lanes do not race with each other;
// the warp sync that lane 0 passes before its own store does not order the
// lanes that left, so that pair races.

#include <cuda_runtime.h>

#define INFINITY (__builtin_inff())

__device__ float warpReduceMax(float val) {
  for (int offset = 16; offset > 0; offset /= 2)
    val = __builtin_fmaxf(val, __shfl_xor_sync(0xFFFFFFFF, val, offset));
  return val;
}

// softmax_forward_kernel7, reduced: with C not a multiple of 32, lanes of the
// warp holding thread C store -INFINITY and return while its lane 0 stores
// the warp's maximum to the same slot.
__global__ void leavingLanesAgainstLaneZero(const float *x, float *out,
                                            int C) {
  extern __shared__ float maxvals[];
  int tid = threadIdx.x;
  int warpId = threadIdx.x / 32;
  if (tid >= C) {
    maxvals[warpId] = -INFINITY;
    return;
  }
  float maxval = warpReduceMax(x[tid]);
  if (threadIdx.x % 32 == 0)
    maxvals[warpId] = maxval;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'maxvals': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-7]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (17,0,0) writes 'maxvals[0]' and thread (0,0,0) writes it, when 'C' = 3, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  __syncthreads();
  if (tid == 0)
    out[0] = maxvals[0];
}

// Only the leaving lanes store the slot, all the same constant: no defect.
__global__ void leavingLanesStoreOneConstant(const float *x, float *out,
                                             int C) {
  extern __shared__ float maxvals[];
  int tid = threadIdx.x;
  int warpId = threadIdx.x / 32;
  if (tid >= C) {
    maxvals[warpId] = -INFINITY;
    return;
  }
  out[tid] = x[tid];
}

// The leaving lanes store their own index: different values.
__global__ void leavingLanesStoreTheirIndex(const float *x, float *out,
                                            int C) {
  extern __shared__ float maxvals[];
  int tid = threadIdx.x;
  int warpId = threadIdx.x / 32;
  if (tid >= C) {
    maxvals[warpId] = -1.0f * tid;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'maxvals': no barrier orders this write after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (193,0,0) writes 'maxvals[6]' and thread (192,0,0) writes it, when 'C' = 3, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
    return;
  }
  out[tid] = x[tid];
}
