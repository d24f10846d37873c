// Vector accesses (issue 10, class 9): nvcc issues member-wise stores to a
// float4 element, written-out runs of consecutive floats and small unrolled
// loops over them as one 8- or 16-byte access when the start is provably
// aligned. Each silent kernel's SASS (nvcc 13.0, -arch=sm_90) has one
// STS.128/LDS.128 (STS.64 for float2) where the source has four (two)
// accesses; rules/cuda-bank-conflict.md lists what was seen.
// Every degree from 2 up, so that no leftover 2-way conflict hides.
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -config="{CheckOptions: {cuda-bank-conflict.MinimumDegree: 2}}" -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -config="{CheckOptions: {cuda-bank-conflict.MinimumDegree: 2}}" -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

#define __align__(n) __attribute__((aligned(n)))

// --- Members of a float4 element (SASS: STS.128, LDS.128) ---------------------

// Four 4-byte stores 16 bytes apart would be 4-way; one 16-byte store per
// lane, served a quarter-warp at a time, is conflict-free.
__global__ void membersInOrder(float *out, const float *in) {
  __shared__ float4 t[256];
  int i = threadIdx.x;
  t[i].x = in[i];
  t[i].y = in[i] * 2;
  t[i].z = in[i] + 1;
  t[i].w = in[i] - 1;
  __syncthreads();
  out[i] = t[255 - i].x + t[255 - i].y + t[255 - i].z + t[255 - i].w;
}

// Any order (SASS: one STS.128 all the same).
__global__ void membersReversed(float *out, const float *in) {
  __shared__ float4 t[256];
  int i = threadIdx.x;
  t[i].w = in[i];
  t[i].z = in[i] * 2;
  t[i].y = in[i] + 1;
  t[i].x = in[i] - 1;
  __syncthreads();
  out[i] = t[i].x;
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: 4-way bank conflict reading 't': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:12: note: predicted 4.0 wavefronts per request where 1 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-10]]:21: note: 't' is declared here
}

// The twin: 64 bytes between lanes. Even as 16-byte stores (SASS: STS.128),
// lanes 0, 2, 4 and 6 of each quarter-warp share four banks.
__global__ void membersStrided(float *out, const float *in) {
  __shared__ float4 t[1024];
  int i = threadIdx.x;
  t[4 * i].x = in[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 4-way bank conflict writing 't': consecutive lanes are 16 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 16.0 wavefronts per request where 4 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the compiler issues 4 neighbouring accesses as one 16-byte access per lane
  // CHECK-NOTES: :[[@LINE-6]]:21: note: 't' is declared here
  t[4 * i].y = in[i] * 2;
  t[4 * i].z = in[i] + 1;
  t[4 * i].w = in[i] - 1;
  __syncthreads();
  out[i] = t[i].x + t[i].y + t[i].z + t[i].w;
}

// Two members of a float2 (SASS: STS.64): 8-byte accesses by half-warps.
__global__ void float2Members(float *out, const float *in) {
  __shared__ float2 t[256];
  int i = threadIdx.x;
  t[i].x = in[i];
  t[i].y = in[i] * 2;
  __syncthreads();
  out[i] = t[255 - i].x + t[255 - i].y;
}

// --- Runs of consecutive floats ----------------------------------------------

// The dynamic pool is `.extern .shared .align 16` in nvcc's PTX, and 4 * t is
// a multiple of 4: one STS.128 for the loop (SASS), one LDS.128 for the four
// neighbouring reads.
__global__ void unrolledPool(float *out, const float *in) {
  extern __shared__ float pool[];
  int t = threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    pool[4 * t + k] = in[t] * k;
  __syncthreads();
  int r = 4 * (255 - t);
  out[t] = pool[r] + pool[r + 1] + pool[r + 2] + pool[r + 3];
}

// Without the pragma nvcc unrolls a loop of four constant iterations too
// (SASS: STS.128); and written out.
__global__ void runsWithoutPragma(float *out, const float *in) {
  extern __shared__ float pool[];
  int t = threadIdx.x;
  for (int k = 0; k < 4; ++k)
    pool[4 * t + k] = in[t] * k;
  __syncthreads();
  pool[1024 + 4 * t] = in[t];
  pool[1024 + 4 * t + 1] = in[t] * 2;
  pool[1024 + 4 * t + 2] = in[t] * 3;
  pool[1024 + 4 * t + 3] = in[t] * 4;
}

// A static float array asking for 16-byte alignment.
__global__ void unrolledAligned(float *out, const float *in) {
  __shared__ __align__(16) float s[1024];
  int t = threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    s[4 * t + k] = in[t] * k;
  __syncthreads();
  out[t] = s[t];
}

// The twin: the run starts one float past a 16-byte boundary. SASS: STS,
// STS.64, STS, which the model reproduces (4, 8 and 4 bytes); the first and
// the last are 4-byte stores 16 bytes apart.
__global__ void runUnaligned(float *out, const float *in) {
  extern __shared__ float pool[];
  int t = threadIdx.x;
  pool[4 * t + 1] = in[t];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 4-way bank conflict writing 'pool': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 4.0 wavefronts per request where 1 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-5]]:27: note: 'pool' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
  pool[4 * t + 2] = in[t] * 2;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 2-way bank conflict writing 'pool': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 4.0 wavefronts per request where 2 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the compiler issues 2 neighbouring accesses as one 8-byte access per lane
  // CHECK-NOTES: :[[@LINE-10]]:27: note: 'pool' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
  pool[4 * t + 3] = in[t] * 3;
  pool[4 * t + 4] = in[t] * 4;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 4-way bank conflict writing 'pool': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 4.0 wavefronts per request where 1 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-15]]:27: note: 'pool' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
}

// The twin: `#pragma unroll 1` keeps the loop (SASS: one STS in a loop).
__global__ void notUnrolled(float *out, const float *in) {
  extern __shared__ float pool[];
  int t = threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < 4; ++k)
    pool[4 * t + k] = in[t] * k;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 4-way bank conflict writing 'pool': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: predicted 4.0 wavefronts per request where 1 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-7]]:27: note: 'pool' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
}

// The twin: sixteen floats a thread, four STS.128 64 bytes apart a lane
// (SASS): 4-way even at 16 bytes.
__global__ void runOfSixteen(float *out, const float *in) {
  extern __shared__ float pool[];
  int t = threadIdx.x;
  for (int k = 0; k < 16; ++k)
    pool[16 * t + k] = in[t] * k;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 4-way bank conflict writing 'pool': consecutive lanes are 16 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: predicted 16.0 wavefronts per request where 4 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the compiler unrolls the loop and issues 4 iterations as one 16-byte access per lane
  // CHECK-NOTES: :[[@LINE-7]]:27: note: 'pool' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
}

// A limit, on purpose: a plain `float s[1024]` is 4-byte aligned in the
// source. nvcc merged this loop into STS.128 where `s` was the kernel's only
// shared variable, but not once a `float a[3]` came first (four STS): where
// the assembler puts the array is not in the source, so the 4-way conflict
// of four separate stores stays reported. `__align__(16)` says it.
__global__ void unrolledPlainFloat(float *out, const float *in) {
  __shared__ float s[1024];
  int t = threadIdx.x;
#pragma unroll
  for (int k = 0; k < 4; ++k)
    s[4 * t + k] = in[t] * k;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: 4-way bank conflict writing 's': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: predicted 4.0 wavefronts per request where 1 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 's' is declared here
  __syncthreads();
  out[t] = s[t];
}

// No merge across a barrier: two pairs (SASS: STS.64, BAR.SYNC, STS.64),
// each 8 bytes a lane 16 bytes apart, 2-way by half-warps.
__global__ void membersAcrossBarrier(float *out, const float *in) {
  __shared__ float4 t[256];
  int i = threadIdx.x;
  t[i].x = in[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 2-way bank conflict writing 't': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 4.0 wavefronts per request where 2 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the compiler issues 2 neighbouring accesses as one 8-byte access per lane
  // CHECK-NOTES: :[[@LINE-6]]:21: note: 't' is declared here
  t[i].y = in[i] * 2;
  __syncthreads();
  t[i].z = in[i] + 1;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 2-way bank conflict writing 't': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 4.0 wavefronts per request where 2 would do, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the compiler issues 2 neighbouring accesses as one 8-byte access per lane
  // CHECK-NOTES: :[[@LINE-13]]:21: note: 't' is declared here
  t[i].w = in[i] - 1;
}
