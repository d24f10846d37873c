// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17
// RUN: %check_clang_tidy -check-suffix=POSSIBLE %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only -std=c++17

// Loops whose counter halves or doubles (a bitonic sort's steps) have no
// iteration numbers in the exact core. Two accesses in the same iteration
// of such a loop once made the solver read an unset term and end the
// process (ggml-cuda's argsort.cu, Z3 "UNEXPECTED CODE WAS REACHED").

#include <cuda_runtime.h>

// One bitonic step: only the lower thread of each pair swaps, and a barrier
// ends every step. No race.
__global__ void bitonicSteps(int *out, int k) {
  extern __shared__ int s[];
  int col = threadIdx.x;
  s[col] = out[col];
  __syncthreads();
  for (int j = k / 2; j > 0; j /= 2) {
    int ixj = col ^ j;
    if (ixj > col) {
      int t = s[col];
      s[col] = s[ixj];
      s[ixj] = t;
    }
    __syncthreads();
  }
  out[col] = s[col];
}

// Without the guard both threads of a pair swap the same two elements: a
// race whenever some step has j >= 1, which depends on 'k' (possible).
__global__ void bitonicBothSwap(int *out, int k) {
  extern __shared__ int s[];
  int col = threadIdx.x;
  s[col] = out[col];
  __syncthreads();
  for (int j = k / 2; j > 0; j /= 2) {
    int ixj = col ^ j;
    int t = s[col];
    s[col] = s[ixj];
    // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:5: warning: possible write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES-POSSIBLE: :[[@LINE-2]]:14: note: the other thread's read is here
    // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:5: note: for example, thread (254,0,0) reads 's[255]' (with 'j' = 1) and thread (255,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
    s[ixj] = t;
    // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:5: warning: possible write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:13: note: the other thread's read is here
    // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:5: note: for example, thread (254,0,0) reads 's[254]' and thread (255,0,0) writes it (with 'j' = 1), with blockDim (256,1,1) (assumed: no launch of this kernel was found)
    // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:5: note: a barrier is missing before this statement
    __syncthreads();
  }
  out[col] = s[col];
}
