// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>
// --- __builtin_assume on the thread index bounds the shape ------------------
//
// ggml's flash_attn_ext_vec, launched from host code with a run-time warp
// size: `tid = WARP_SIZE * threadIdx.y + threadIdx.x` and
// `__builtin_assume(tid < nthreads)` say x is a warp and there are
// nthreads / 32 rows. Each warp (one row y) writes its own 32 slots of each
// of two rows of KQ and reads them back, with warp syncs between. With no
// launch the shape was assumed (16,16) cut to (8,16) by
// __launch_bounds__(128): row y = 4 then reads KQ[128], the next row's slot
// that thread (0,0,0) of another warp writes.

__launch_bounds__(128) __global__ void assumedRows(float *out, int n) {
  __shared__ float KQ[512];
  const int tid = 32 * threadIdx.y + threadIdx.x;
  __builtin_assume(tid < 128);
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    for (int j = 0; j < 2; ++j)
      KQ[j * 128 + tid] = out[it * 128 + tid];
    __syncwarp();
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 32; ++k)
        acc += KQ[j * 128 + threadIdx.y * 32 + k];
    __syncwarp();
  }
  out[tid] = acc;
}

// The same under a uniform condition that is a constant of the kernel (an
// instantiation's `if (use_logit_softcap && D == 64) return;`): every thread
// or none leaves, so the assumption still holds for every thread.
template <bool Skip>
__launch_bounds__(128) __global__ void assumedAfterConstantExit(float *out,
                                                                int n) {
  __shared__ float KQ[512];
  if (Skip)
    return;
  const int tid = 32 * threadIdx.y + threadIdx.x;
  __builtin_assume(tid < 128);
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    for (int j = 0; j < 2; ++j)
      KQ[j * 128 + tid] = out[it * 128 + tid];
    __syncwarp();
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 32; ++k)
        acc += KQ[j * 128 + threadIdx.y * 32 + k];
    __syncwarp();
  }
  out[tid] = acc;
}
template __global__ void assumedAfterConstantExit<false>(float *, int);

// Without the assumption the shape is the assumed one cut by KQ's extent,
// (16,8): a true race between warps there.
__launch_bounds__(128) __global__ void noAssumption(float *out, int n) {
  __shared__ float KQ[512];
  const int tid = 32 * threadIdx.y + threadIdx.x;
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    for (int j = 0; j < 2; ++j)
      KQ[j * 128 + tid] = out[it * 128 + tid];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'KQ': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+5]]:16: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (9,7,0) reads 'KQ[235]' (with 'j' = 0, with 'k' = 11) and thread (11,3,0) writes it (with 'j' = 1) one iteration of the enclosing loop later, with blockDim (16,8,1) (assumed from the extents of 'KQ': no launch of this kernel was found)
    __syncwarp();
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 32; ++k)
        acc += KQ[j * 128 + threadIdx.y * 32 + k];
    __syncwarp();
  }
  out[tid] = acc;
}

// A weaker assumption allows eight rows: (16,8) keeps it, and row 7 reads
// what row 3, another warp, writes next.
__launch_bounds__(128) __global__ void weakerAssumption(float *out, int n) {
  __shared__ float KQ[512];
  const int tid = 32 * threadIdx.y + threadIdx.x;
  __builtin_assume(tid < 256);
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    for (int j = 0; j < 2; ++j)
      KQ[j * 128 + tid] = out[it * 128 + tid];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'KQ': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+5]]:16: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (9,7,0) reads 'KQ[235]' (with 'j' = 0, with 'k' = 11) and thread (11,3,0) writes it (with 'j' = 1) one iteration of the enclosing loop later, with blockDim (16,8,1) (assumed from '__builtin_assume(tid < 256)' and the extents of 'KQ': no launch of this kernel was found)
    __syncwarp();
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 32; ++k)
        acc += KQ[j * 128 + threadIdx.y * 32 + k];
    __syncwarp();
  }
  out[tid] = acc;
}

// An assumption on a value the block does not know (`m`) says nothing of the
// shape.
__launch_bounds__(128) __global__ void assumptionOfAUniform(float *out, int n,
                                                            int m) {
  __shared__ float KQ[512];
  const int tid = 32 * threadIdx.y + threadIdx.x;
  __builtin_assume(tid < m);
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    for (int j = 0; j < 2; ++j)
      KQ[j * 128 + tid] = out[it * 128 + tid];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'KQ': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+5]]:16: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (9,7,0) reads 'KQ[235]' (with 'j' = 0, with 'k' = 11) and thread (11,3,0) writes it (with 'j' = 1) one iteration of the enclosing loop later, with blockDim (16,8,1) (assumed from the extents of 'KQ': no launch of this kernel was found)
    __syncwarp();
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 32; ++k)
        acc += KQ[j * 128 + threadIdx.y * 32 + k];
    __syncwarp();
  }
  out[tid] = acc;
}

// After some threads may have left, the assumption binds only those that
// stay: it is not taken (the limit: rows 4 to 7 that stay would break it,
// but the check does not follow which threads stay), and the shape is the
// assumed one.
__launch_bounds__(128) __global__ void assumptionAfterLeaving(float *out,
                                                              int n) {
  __shared__ float KQ[512];
  const int tid = 32 * threadIdx.y + threadIdx.x;
  if (threadIdx.y >= 8)
    return;
  __builtin_assume(tid < 128);
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    for (int j = 0; j < 2; ++j)
      KQ[j * 128 + tid] = out[it * 128 + tid];
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'KQ': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+5]]:16: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,1,0) reads 'KQ[160]' (with 'j' = 1, with 'k' = 0) and thread (0,5,0) writes it (with 'j' = 0) one iteration of the enclosing loop later, with blockDim (8,16,1) (assumed from '__launch_bounds__(128)': no launch of this kernel was found)
    __syncwarp();
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 32; ++k)
        acc += KQ[j * 128 + threadIdx.y * 32 + k];
    __syncwarp();
  }
  out[tid] = acc;
}
