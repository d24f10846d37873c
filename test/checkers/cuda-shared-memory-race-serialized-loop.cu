// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17
//
// A loop that lets one thread per iteration write a shared scalar, with a
// barrier ending every iteration, is race-free (CUTLASS examples/
// 88_hopper_fmha's reference_abs_error.hpp folds per-thread sums this way;
// docs/corpus-sanitized.md, session 5). It was reported once thread-
// dependent control flow came before the loop: the sides of that branch
// were taken to reach the loop's accesses in any iteration, although each
// side's walk stops at the loop's barrier, so it reaches them only in the
// loop's first iteration (and a grid-strided loop gone round on the way
// says nothing about this one).

#include "cuda_runtime.h"

__global__ void serializedAlone(const float *a, double *out) {
  double mine = a[threadIdx.x];
  __shared__ double total;
  for (int i = 0; i < blockDim.x; i++) {
    if (i == threadIdx.x)
      total = mine;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = total;
}

__global__ void serializedAfterBranch(const float *a, unsigned n,
                                      double *out) {
  double mine = 0;
  __shared__ double total;
  if (threadIdx.x < n)
    mine = a[0];
  for (int i = 0; i < blockDim.x; i++) {
    if (i == threadIdx.x)
      total = mine;
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = total;
}

__global__ void serializedAfterStridedLoop(const float *a, unsigned long n,
                                           double *out) {
  double mine = 0;
  __shared__ double total;
  for (unsigned long j = threadIdx.x + blockIdx.x * blockDim.x; j < n;
       j += blockDim.x * gridDim.x)
    mine += a[j];
  for (int i = 0; i < blockDim.x; i++) {
    if (i == threadIdx.x) {
      if (i == 0)
        total = mine;
      else
        total += mine;
    }
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = total;
}

// True twins: without the barrier the iterations are not ordered; without
// the `i == threadIdx.x` guard every thread writes in the first iteration.
__global__ void stridedLoopNoBarrier(const float *a, unsigned long n,
                                     double *out) {
  double mine = 0;
  __shared__ double total;
  for (unsigned long j = threadIdx.x + blockIdx.x * blockDim.x; j < n;
       j += blockDim.x * gridDim.x)
    mine += a[j];
  for (int i = 0; i < blockDim.x; i++)
    if (i == threadIdx.x)
      total = mine;
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after write race on shared 'total': no barrier orders this write after another thread's write [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: the other thread's write is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,0,0) writes 'total' and thread (1,0,0) writes it, with blockDim (1024,1,1)
  __syncthreads();
  if (threadIdx.x == 0)
    *out = total;
}

__global__ void branchThenEveryThreadWrites(const float *a, unsigned n,
                                            double *out) {
  double mine = 0;
  __shared__ double total;
  if (threadIdx.x < n)
    mine = a[threadIdx.x];
  for (int i = 0; i < blockDim.x; i++) {
    total = mine;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'total': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) writes 'total' and thread (0,0,0) writes it, with blockDim (1024,1,1)
    __syncthreads();
  }
  if (threadIdx.x == 0)
    *out = total;
}

void launch(const float *a, double *o) {
  serializedAlone<<<1, 1024>>>(a, o);
  serializedAfterBranch<<<1, 1024>>>(a, 10, o);
  serializedAfterStridedLoop<<<1, 1024>>>(a, 10, o);
  stridedLoopNoBarrier<<<1, 1024>>>(a, 10, o);
  branchThenEveryThreadWrites<<<1, 1024>>>(a, 10, o);
}
