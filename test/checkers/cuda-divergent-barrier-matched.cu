// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Matched barriers on both arms of a thread-dependent branch. Every thread
// arrives at barrier 0 equally often, but at different __syncthreads()
// calls: a block barrier is PTX `bar.sync 0` (`.aligned`), which all threads
// of the block must execute at the same instruction. That holds even when
// the branch splits the block between whole warps: on an H200 synccheck
// reports "Divergent thread(s) in block" for a 32-wide block split on
// threadIdx.y (runtime-tests/cuda-divergent-barrier/matched-barriers-whole-
// warps). So these are reported, with a note that answers the objection.

#include <cuda_runtime.h>

// ggml's flash-attention combine step (fattn-mma-f16.cuh): the first warp of
// each group of np combines, the others only keep the barrier count aligned.
// Launched 32 wide, each warp is on one side.
template <int np>
__device__ void combineWarps(float *out, float v) {
  __shared__ float partial[32][32];
  partial[threadIdx.y][threadIdx.x] = v;
  if (np > 1 && threadIdx.y % np == 0) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
    // CHECK-NOTES: :[[@LINE-4]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
    float sum = 0.0f;
    for (int w = 0; w < np; ++w)
      sum += partial[threadIdx.y + w][threadIdx.x];
    out[threadIdx.y * 32 + threadIdx.x] = sum;
  } else if (np > 1) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-12]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
    // CHECK-NOTES: :[[@LINE-13]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
  }
}

__global__ void wholeWarps(float *out) { combineWarps<2>(out, 1.0f); }

void launchWholeWarps(float *out) { wholeWarps<<<1, dim3(32, 4)>>>(out); }

// The fix: one barrier before the branch, the same instruction for every
// thread.
template <int np>
__device__ void combineWarpsHoisted(float *out, float v) {
  __shared__ float partial[32][32];
  partial[threadIdx.y][threadIdx.x] = v;
  __syncthreads();
  if (np > 1 && threadIdx.y % np == 0) {
    float sum = 0.0f;
    for (int w = 0; w < np; ++w)
      sum += partial[threadIdx.y + w][threadIdx.x];
    out[threadIdx.y * 32 + threadIdx.x] = sum;
  }
}

__global__ void hoisted(float *out) { combineWarpsHoisted<2>(out, 1.0f); }

// A lane-dependent split with matched arms (runtime-tests
// barrier-on-both-branches): the same note.
__global__ void laneSplit(float *out) {
  __shared__ float partial[32][32];
  const int lane = threadIdx.x;
  partial[threadIdx.y][threadIdx.x] = 1.0f;
  if (lane == 0) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'lane'
    // CHECK-NOTES: :[[@LINE-4]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
    out[threadIdx.y] = partial[threadIdx.y][31];
  } else {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'lane'
    // CHECK-NOTES: :[[@LINE-10]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
  }
}

// Unmatched: one arm passes two barriers, the other one. No note: the
// counts differ, the warps on the first arm wait for warps that never come.
__global__ void unmatchedArms(float *out) {
  __shared__ float partial[32][32];
  partial[threadIdx.y][threadIdx.x] = 1.0f;
  if (threadIdx.y % 2 == 0) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
    out[threadIdx.y * 32 + threadIdx.x] = partial[threadIdx.y + 1][threadIdx.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
  } else {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-11]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
  }
}

// A barrier on one arm only, in a loop on the other: not matched either.
__global__ void loopOnOneArm(float *out, int n) {
  __shared__ float partial[32][32];
  partial[threadIdx.y][threadIdx.x] = 1.0f;
  if (threadIdx.y % 2 == 0) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
  } else {
    for (int i = 0; i < n; ++i)
      __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-8]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y'
  }
  out[threadIdx.y * 32 + threadIdx.x] = partial[threadIdx.y][threadIdx.x];
}
