// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// A barrier the dependence analysis finds under thread-dependent control
// flow is reported only if the solver finds two threads of one block that
// disagree on a guard leading to it, under the preconditions the kernel
// states before its first synchronisation (issue 22: divergence decided
// exactly; WarpMaskAnalysis::decideBarrier).

#include <cassert>
#include <cuda_runtime.h>

// llm.c's layernorm_backward_kernel9: the lanes of a warp take 4 columns
// each, 128 a pass, and leave the loop when past C. The kernel traps unless
// C is a multiple of 128, so in each pass every thread of the block is on
// the same side of the break.
__global__ void trapGuard(float *out, int C, int passes) {
  if (C % (32 * 4) != 0) {
    __trap();
  }
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    s[threadIdx.x] = out[column];
    __syncthreads();
    out[column] = s[(threadIdx.x + 32) % blockDim.x];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// The same precondition as an assert, through a macro, and in a template.
#define REQUIRE(c) assert(c)
__global__ void asserted(float *out, int C, int passes) {
  REQUIRE(C % 128 == 0);
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    s[threadIdx.x] = out[column];
    __syncthreads();
    out[column] = s[(threadIdx.x + 32) % blockDim.x];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

template <int Width>
__global__ void assertedTemplate(float *out, int C, int passes) {
  assert(C % (32 * Width) == 0);
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  for (int i = 0; i < passes; ++i) {
    int column = lane * Width + i * 32 * Width;
    if (column >= C)
      break;
    s[threadIdx.x] = out[column];
    __syncthreads();
    out[column] = s[(threadIdx.x + 32) % blockDim.x];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}
template __global__ void assertedTemplate<4>(float *, int, int);

// Twins: without the precondition, or with one too weak, a warp splits.
__global__ void noGuard(float *out, int C, int passes) {
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    s[threadIdx.x] = out[column];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'lane' and 'column'
    // CHECK-NOTES: :[[@LINE-6]]:9: note: for example, threads of one block disagree on it when {{.*}}
    out[column] = s[(threadIdx.x + 32) % blockDim.x];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

__global__ void weakGuard(float *out, int C, int passes) {
  assert(C % 64 == 0);
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    s[threadIdx.x] = out[column];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'lane' and 'column'
    // CHECK-NOTES: :[[@LINE-6]]:9: note: for example, threads of one block disagree on it when {{.*}}
    out[column] = s[(threadIdx.x + 32) % blockDim.x];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// A precondition after the first barrier is no fact for what comes before.
__global__ void assertedLate(float *out, int C, int passes) {
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  __syncthreads();
  assert(C % 128 == 0);
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    s[threadIdx.x] = out[column];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'lane' and 'column'
    // CHECK-NOTES: :[[@LINE-6]]:9: note: for example, threads of one block disagree on it when {{.*}}
    out[column] = s[(threadIdx.x + 32) % blockDim.x];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// llm.c's layernorm_backward_kernel10: warps take rows bt, the grid's warps
// apart; when B * T is not a multiple of them, some warps of a block run a
// pass more (the solver finds B * T = 1).
__global__ void rowsPerWarp(float *out, int B, int T) {
  __shared__ float s[512];
  int warp = threadIdx.x / 32;
  for (int bt = blockIdx.x * 16 + warp; bt < B * T; bt += gridDim.x * 16) {
    s[threadIdx.x] = out[bt];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:41: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'warp' and 'bt'
    // CHECK-NOTES: :[[@LINE-5]]:41: note: for example, threads of one block disagree on it when {{.*}}
    out[bt] = s[(threadIdx.x + 32) % 512];
  }
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// A loop whose threads agree on its condition in every pass, but may leave
// it through a break after the barrier: kept (the break's condition is no
// guard of the barrier, so the solver is not asked).
__device__ int reduceSomehow(int v);
__global__ void breakAfterBarrier(const int *in, int *out, int n) {
  __shared__ int part[256];
  int j = 0;
  while (j < n) {
    part[threadIdx.x] = in[j * 256 + threadIdx.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    int v = reduceSomehow(part[(threadIdx.x + 1) % 256]);
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

// The same kernel with a packed vector of 4 that each pass reads element by
// element through its operator[] (llm.c's `x128`, `dout128[x]`), or through
// operator(): the element's index, a counter passed by value, is still the
// loop's counter, and the guards are decided as above.
struct Vec4 {
  float v[4];
  __device__ float &operator[](int i) { return v[i]; }
  __device__ float operator()(int i) const { return v[i]; }
};

__global__ void trapGuardPacked(float *out, int C, int passes) {
  if (C % 128 != 0)
    __trap();
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  Vec4 acc = {};
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    for (int x = 0; x < 4; x++) {
      s[threadIdx.x] = acc[x] + out[column + x];
      __syncthreads();
      acc[x] = s[(threadIdx.x + 32) % blockDim.x];
    }
  }
  __syncthreads();
  out[threadIdx.x] = acc(0);
}

__global__ void trapGuardCalled(float *out, int C, int passes) {
  if (C % 128 != 0)
    __trap();
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  Vec4 acc = {};
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    for (int x = 0; x < 4; x++) {
      s[threadIdx.x] = acc(x) + out[column + x];
      __syncthreads();
      acc.v[x] = s[(threadIdx.x + 32) % blockDim.x];
    }
  }
  __syncthreads();
  out[threadIdx.x] = acc(0);
}

// Its twin without the precondition: lanes past C leave while the others
// meet the barrier.
__global__ void packedNoPrecondition(float *out, int C, int passes) {
  extern __shared__ float s[];
  int lane = threadIdx.x % 32;
  Vec4 acc = {};
  for (int i = 0; i < passes; i++) {
    int column = lane * 4 + i * 128;
    if (column >= C)
      break;
    for (int x = 0; x < 4; x++) {
      s[threadIdx.x] = acc[x] + out[column + x];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-6]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'lane' and 'column'
      // CHECK-NOTES: :[[@LINE-7]]:9: note: for example, threads of one block disagree on it when 'C' is {{[0-9]+}}
      acc[x] = s[(threadIdx.x + 32) % blockDim.x];
    }
  }
  __syncthreads();
  out[threadIdx.x] = acc(0);
}
