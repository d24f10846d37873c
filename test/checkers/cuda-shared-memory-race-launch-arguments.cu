// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// The values a launch passes for a kernel's integer parameters: when every
// launch of a shape passes a constant (or a host value that reaches the
// launch), the parameter is that constant in the question, and the note
// names the launch (llm.c's attention_forward_kernel2, whose tile width
// 'Bc' the launch fixes at 32, was reported for 'Bc' = 2).

#include <cuda_runtime.h>

// Threads read the element 'n' below their own. Launched with 'n' = 32 and
// 32 threads, no thread reads: no race.
__global__ void shiftByWholeBlock(float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  if (t >= n)
    out[t] = s[t - n];
}

// Launched with 'n' = 4: thread 4 reads what thread 0 writes.
__global__ void shiftByFour(float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  if (t >= n)
    out[t] = s[t - n];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, thread (0,0,0) writes 's[0]' and thread (4,0,0) reads it, with 'n' = 4 as the launch at cuda-shared-memory-race-launch-arguments.cu{{.*}}:[[@LINE+18]] passes, with blockDim (32,1,1)
}

// Two launches of one shape with different values: neither binds 'n'.
__global__ void shiftByEither(float *out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  if (t >= n)
    out[t] = s[t - n];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, {{.*}}, when 'n' = {{[0-9]+}}, with blockDim (32,1,1)
}

void launchAll(float *out, int runtimeWidth) {
  const int whole = 32;
  shiftByWholeBlock<<<1, 32>>>(out, whole);
  shiftByFour<<<1, 32>>>(out, 4);
  shiftByEither<<<1, 32>>>(out, 32);
  shiftByEither<<<1, 32>>>(out, runtimeWidth);
}
