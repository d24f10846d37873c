// The race check's per-kernel budget counts work (solver resource units,
// enumerated threads), not time: a kernel past 'WorkBudget' gets the same
// one notice, naming the option, on any machine and under any load, so a
// test can pin it. Under the default budget the same kernel is decided.
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -config="{CheckOptions: {cuda-shared-memory-race.WorkBudget: 1}}" -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -config="{CheckOptions: {cuda-shared-memory-race.WorkBudget: 1}}" -- %cuda_stub --cuda-host-only -std=c++17
// RUN: %check_clang_tidy -check-suffix=DEFAULT %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy -check-suffix=DEFAULT %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// Thread i + 1 writes what thread i reads, for every n >= 2.
__global__ void shift(int n, const float *x, float *y) {
  // CHECK-NOTES: :[[@LINE-1]]:17: warning: kernel 'shift' was not fully analysed for shared-memory races: its analysis passed the budget of 1 work units; raise the check's 'WorkBudget' option to analyse it fully [cuda-shared-memory-race]
  __shared__ float s[1024];
  int i = threadIdx.x;
  if (i < n)
    s[i] = x[i] + s[i + 1];
  // CHECK-NOTES-DEFAULT: :[[@LINE-1]]:5: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES-DEFAULT: :[[@LINE-2]]:19: note: the other thread's read is here
  // CHECK-NOTES-DEFAULT: :[[@LINE-3]]:5: note: for example, thread (48,0,0) reads 's[49]' and thread (49,0,0) writes it, when 'n' = 51, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  y[i] = s[i];
}
