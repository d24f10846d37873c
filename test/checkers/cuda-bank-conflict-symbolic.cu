// Unknown values in the offset (issue 9): `s[threadIdx.x * W + c]` with W
// from a kernel parameter. Sampling W at 0 makes a broadcast of any stride;
// the generic question goes to the solver (ExactQuery.h), which certifies
// the lanes of the worst bank for every W from 2 on.
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// A row length forced to a multiple of 32 words: every lane of a warp in
// one bank, whatever k is (2 or more).
__global__ void forcedStride(float *out, int k) {
  extern __shared__ float s[];
  int W = 32 * k;
  s[threadIdx.x * W + 3] = out[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 32-way bank conflict writing 's': consecutive lanes are 224 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (128,1,1)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the degree holds for every value of 'k' from 2 to 32768 that keeps the access in shared memory (the solver's answer); the numbers are where 'k' is 7
  // CHECK-NOTES: :[[@LINE-6]]:27: note: 's' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
}

// A multiple of 8 words: at least 8-way for every k (odd k: 8, even: more).
__global__ void multipleOfEight(float *out, int k) {
  extern __shared__ float s[];
  s[threadIdx.x * (8 * k) + 1] = out[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 8-way bank conflict writing 's': consecutive lanes are 56 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (128,1,1)
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the degree holds for every value of 'k' from 2 to 32768 that keeps the access in shared memory (the solver's answer); the numbers are where 'k' is 7
  // CHECK-NOTES: :[[@LINE-5]]:27: note: 's' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
}

// Fully unknown: W = 7 is conflict-free. Silent by default.
__global__ void unknownStride(float *out, int W) {
  extern __shared__ float s[];
  s[threadIdx.x * W + 3] = out[threadIdx.x];
}

// The twin of forcedStride padded by one: 32k + 1 words, conflict-free for
// every k. Silent.
__global__ void paddedStride(float *out, int k) {
  extern __shared__ float s[];
  s[threadIdx.x * (32 * k + 1) + 3] = out[threadIdx.x];
}

// A guard on the unknown: for k = 1 the lanes fit, and for any k only lanes
// below n run; the solver finds a value where a lane of the bank does not
// run (n = 2), so the conflict is not certain. Silent.
__global__ void guardedStride(float *out, int k, int n) {
  extern __shared__ float s[];
  if (threadIdx.x < n)
    s[threadIdx.x * (32 * k)] = out[threadIdx.x];
}

void launch(float *out, int k, int n) {
  forcedStride<<<1, 128, 1 << 16>>>(out, k);
  multipleOfEight<<<1, 128, 1 << 16>>>(out, k);
  unknownStride<<<1, 128, 1 << 16>>>(out, k);
  paddedStride<<<1, 128, 1 << 16>>>(out, k);
  guardedStride<<<1, 128, 1 << 16>>>(out, k, n);
}
