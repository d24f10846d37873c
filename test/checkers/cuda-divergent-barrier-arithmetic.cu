// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// Loops whose counter differs between threads but whose trip count does
// not: the counter starts and ends with the same thread-dependent term, so
// `t < end + tid` is `base + k * C < end` in iteration k in every thread
// (issue 10, class 2; ggml's gla.cu and wkv.cu). Each silent loop is
// followed by its nearest twin, which is reported.

__global__ void startAndBoundShareThread(const float *k, float *out, int T,
                                         int C) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * 64;
  for (int t = base + tid; t < base + T * C + tid; t += C) {
    __syncthreads();
    s[tid] = k[t];
    __syncthreads();
    out[t] = s[63 - tid];
  }
}

// The bound lacks the thread's term: threads near the end run one
// iteration fewer.
__global__ void boundWithoutThread(const float *k, float *out, int T, int C) {
  __shared__ float s[64];
  const int tid = threadIdx.x;
  const int base = blockIdx.x * 64;
  for (int t = base + tid; t < base + T * C; t += C) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:28: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid' and 't'
    // CHECK-NOTES: :[[@LINE-4]]:28: note: for example, threads of one block disagree on it when {{.*}}
    s[tid] = k[t];
  }
  __syncthreads();
}

// The same term on both sides, a unit step, and the sums in another order.
__global__ void unitStep(float *out) {
  __shared__ float s[256];
  const int tid = threadIdx.x;
  for (int i = 2 * blockIdx.x + tid; i < tid + 8; ++i) {
    s[threadIdx.x] = i;
    __syncthreads();
  }
  out[threadIdx.x] = s[0];
}

// A step that differs between threads: trip counts differ.
__global__ void threadDependentStep(float *out, int n) {
  __shared__ float s[256];
  for (int i = threadIdx.x; i < n + threadIdx.x; i += threadIdx.x + 1) {
    s[threadIdx.x] = i;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:29: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'i'
  }
  out[threadIdx.x] = s[0];
}

// The shared term changes inside the loop: the bound is no longer the start
// plus a uniform amount.
__global__ void sharedTermWritten(float *out, int n) {
  __shared__ float s[256];
  int tid = threadIdx.x;
  for (int i = tid; i < n + tid; ++i) {
    s[threadIdx.x] = i;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:21: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'tid' and 'i'
    tid = tid / 2;
  }
  out[threadIdx.x] = s[0];
}

// Unsigned counters wrap: `i < n + tid` may wrap for some threads and not
// others, so no claim is made.
__global__ void unsignedCounter(float *out, unsigned n) {
  __shared__ float s[256];
  for (unsigned i = threadIdx.x; i < n + threadIdx.x; ++i) {
    s[threadIdx.x] = i;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:34: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'i'
  }
  out[threadIdx.x] = s[0];
}
