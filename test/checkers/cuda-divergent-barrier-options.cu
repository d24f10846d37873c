// Default options: early kernel exits and calls without a body stay silent.
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only
// Pre-Volta rule: a thread that returned from the kernel still holds barriers up.
// RUN: %check_clang_tidy -check-suffix=PREVOLTA %s cuda-divergent-barrier %t -- \
// RUN:   -config="{CheckOptions: {cuda-divergent-barrier.ExitedThreadsHoldBarriers: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy -check-suffix=PREVOLTA %s cuda-divergent-barrier %t -- \
// RUN:   -config="{CheckOptions: {cuda-divergent-barrier.ExitedThreadsHoldBarriers: true}}" \
// RUN:   -- %cuda_stub --cuda-host-only
// Strict: results of calls with no visible body may differ between threads.
// RUN: %check_clang_tidy -check-suffix=STRICT %s cuda-divergent-barrier %t -- \
// RUN:   -config="{CheckOptions: {cuda-divergent-barrier.UnknownCallsAreThreadDependent: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy -check-suffix=STRICT %s cuda-divergent-barrier %t -- \
// RUN:   -config="{CheckOptions: {cuda-divergent-barrier.UnknownCallsAreThreadDependent: true}}" \
// RUN:   -- %cuda_stub --cuda-host-only

#include <cuda_runtime.h>

__global__ void earlyReturn(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __syncthreads();
  // CHECK-NOTES-PREVOLTA: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES-PREVOLTA: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES-PREVOLTA: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
  a[i] = 0.0f;
}

// Uniform early exits are fine under either rule.
__global__ void uniformEarlyReturn(float *a, int n) {
  if (n == 0)
    return;
  __syncthreads();
}

__device__ int opaque(int x); // No body in this translation unit.

__global__ void callWithoutBody(float *a, int n) {
  if (opaque(n) > 0)
    __syncthreads();
  // CHECK-NOTES-STRICT: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES-STRICT: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of 'opaque'
  __syncthreads();
}

// With a thread-dependent argument the result is thread-dependent anyway.
__global__ void callWithoutBodyOnThread(float *a) {
  if (opaque(threadIdx.x) > 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  // CHECK-NOTES-PREVOLTA: :[[@LINE-3]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES-PREVOLTA: :[[@LINE-5]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  // CHECK-NOTES-STRICT: :[[@LINE-5]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES-STRICT: :[[@LINE-7]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}

// A guard that wraps the rest of the kernel is an early exit: silent by
// default, reported under the pre-Volta rule.
__global__ void wrappingGuard(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES-PREVOLTA: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES-PREVOLTA: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES-PREVOLTA: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
    a[i] = s[threadIdx.x ^ 1];
  }
}

// An early return from a helper the kernel calls last: the returning
// threads leave the kernel, silent by default; under the pre-Volta rule they
// still hold the barrier up, as in the kernel itself.
__device__ void rowsHelper(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK-NOTES-PREVOLTA: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES-PREVOLTA: :[[@LINE-5]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
  a[i] = s[threadIdx.x ^ 1];
}
__global__ void helperLast(float *a, int n) { rowsHelper(a, n); }
