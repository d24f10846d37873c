// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17
// Guards the check cannot decide, reported too:
// RUN: %check_clang_tidy -check-suffixes=,UNDECIDED %s cuda-divergent-barrier %t -- \
// RUN:   -config="{CheckOptions: {cuda-divergent-barrier.ReportUndecidedWarpMasks: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy -check-suffixes=,UNDECIDED %s cuda-divergent-barrier %t -- \
// RUN:   -config="{CheckOptions: {cuda-divergent-barrier.ReportUndecidedWarpMasks: true}}" \
// RUN:   -- %cuda_stub --cuda-host-only -std=c++17

#include <cassert>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

// A warp collective (`__shfl*_sync`, the votes, `__match_*_sync`,
// `__reduce_*_sync`, `__syncwarp(mask)`) whose mask names lanes that do not
// reach it is undefined on sm_70 and later: it hangs or reads undefined
// values from the lanes that are not there. Each bad kernel is followed by
// its fixed twins, silent.

// --- A branch on the lane --------------------------------------------------

__global__ void halfWarpShuffle(float *a) {
  float v = a[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 16-31 may not reach it [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition: it depends on 'threadIdx.x'
  a[threadIdx.x] = v;
}

// The mask names exactly the lanes that take the branch.
__global__ void halfWarpShuffleHalfMask(float *a) {
  float v = a[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_xor_sync(0x0000ffff, v, 1);
  a[threadIdx.x] = v;
}

// A mask of lanes all of which take the branch.
__global__ void halfWarpShuffleQuarterMask(float *a) {
  float v = a[threadIdx.x];
  if ((threadIdx.x & 31) < 16)
    v += __shfl_xor_sync(0x000000ff, v, 1);
  a[threadIdx.x] = v;
}

// Half the mask's lanes are sent away.
__global__ void halfWarpShuffleWiderMask(float *a) {
  const int lane = threadIdx.x % 32;
  float v = a[threadIdx.x];
  if (lane < 8)
    v += __shfl_xor_sync(0xffff, v, 1);
    // CHECK-NOTES: :[[@LINE-1]]:10: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffff: lanes 8-15 may not reach it [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition: it depends on 'threadIdx.x' through 'lane'
  a[threadIdx.x] = v;
}

// A mask computed from the lanes that take the branch.
__global__ void computedMask(float *a) {
  const int lane = threadIdx.x % 32;
  float v = a[threadIdx.x];
  if (lane < 16)
    v += __shfl_xor_sync((1u << 16) - 1, v, 1);
  a[threadIdx.x] = v;
}

__global__ void halfWarpSyncwarp(float *out) {
  __shared__ float s[64];
  const int lane = threadIdx.x % 32;
  s[threadIdx.x] = out[threadIdx.x];
  if (lane < 16) {
    __syncwarp();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: warp collective '__syncwarp' may be reached by only some lanes of its mask 0xffffffff: lanes 16-31 may not reach it [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition: it depends on 'threadIdx.x' through 'lane'
    out[threadIdx.x] = s[lane + 16];
  }
}

__global__ void syncwarpBeforeTheBranch(float *out) {
  __shared__ float s[64];
  const int lane = threadIdx.x % 32;
  s[threadIdx.x] = out[threadIdx.x];
  __syncwarp();
  if (lane < 16)
    out[threadIdx.x] = s[lane + 16];
}

// On sm_70 and later the lanes of a mask may meet at different calls (PTX
// requires the same instruction only up to sm_6x).
__global__ void syncwarpOnBothArms(float *out) {
  __shared__ float s[64];
  const int lane = threadIdx.x % 32;
  s[threadIdx.x] = out[threadIdx.x];
  if (lane < 16) {
    __syncwarp();
    out[threadIdx.x] = s[lane + 16];
  } else {
    __syncwarp();
  }
}

// The lanes that leave through a return are away too: they do not take
// part in the vote.
__global__ void voteAfterLaneExit(unsigned *out) {
  const int lane = threadIdx.x & 31;
  if (lane == 0)
    return;
  out[threadIdx.x] = __ballot_sync(0xffffffff, out[threadIdx.x] > 0);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: warp collective '__ballot_sync' may be reached by only some lanes of its mask 0xffffffff: lane 0 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes of a warp may disagree on this condition: it depends on 'threadIdx.x' through 'lane'
}

__global__ void voteOfTheLanesThatStay(unsigned *out) {
  const int lane = threadIdx.x & 31;
  if (lane == 0)
    return;
  out[threadIdx.x] = __ballot_sync(0xfffffffe, out[threadIdx.x] > 0);
}

// The mask is the ballot of the guard, taken before the branch.
__global__ void ballotOfTheGuard(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] : 0.0f;
  unsigned mask = __ballot_sync(0xffffffff, i < n);
  if (i < n) {
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(mask, v, o);
    a[i] = v;
  }
}

__global__ void ballotOfALaneGuard(float *a) {
  const int lane = threadIdx.x % 32;
  float v = a[threadIdx.x];
  unsigned low = __ballot_sync(0xffffffff, lane < 8);
  if (lane < 8)
    v += __shfl_xor_sync(low, v, 1);
  a[threadIdx.x] = v;
}

__global__ void activeMask(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = a[i];
    v += __shfl_down_sync(__activemask(), v, 1);
    a[i] = v;
  }
}

// --- The partial last warp -------------------------------------------------

__global__ void partialLastWarp(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = in[i];
    for (int o = 16; o > 0; o /= 2)
      v += __shfl_down_sync(0xffffffff, v, o);
      // CHECK-NOTES: :[[@LINE-1]]:12: warning: warp collective '__shfl_down_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
    if ((threadIdx.x & 31) == 0)
      atomicAdd(out, v);
  }
}

// The same, written with an early return: the lanes that left do not
// take part either.
__global__ void partialLastWarpEarlyReturn(const float *in, float *out,
                                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float v = in[i];
  v += __shfl_xor_sync(0xffffffff, v, 1);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
  out[i] = v;
}

// A grid-stride loop: in its last round, the lanes past n have left.
__global__ void gridStrideShuffle(float *a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x)
    a[i] = __any_sync(0xffffffff, a[i] > 0);
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: warp collective '__any_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:55: note: lanes of a warp may disagree on this loop condition when 'blockIdx.x' is 0, 'gridDim.x' is 2, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
}

// Every lane takes part; the lanes past n contribute nothing.
__global__ void wholeWarpsReduce(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? in[i] : 0.0f;
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_down_sync(0xffffffff, v, o);
  if ((threadIdx.x & 31) == 0)
    atomicAdd(out, v);
}

// n is a multiple of 32: every warp is whole or away.
__global__ void multipleOf32Guard(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (n % 32 == 0 && i < n)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
}

__global__ void multipleOf32Assumed(const float *in, float *out, int n) {
  __builtin_assume(n % 32 == 0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
}

// The same precondition stated with assert, through a macro, and as
// [[assume]]: facts, as __builtin_assume is.
#define REQUIRE(c) assert(c)
__global__ void multipleOf32Asserted(const float *in, float *out, int n) {
  assert(n % 32 == 0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
}

__global__ void multipleOf32Required(const float *in, float *out, int n) {
  REQUIRE(n % 32 == 0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
}

__global__ void multipleOf32AssumeAttribute(const float *in, float *out,
                                            int n) {
  [[assume(n % 32 == 0)]];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
}

// A weaker precondition leaves a warp split: still reported.
__global__ void multipleOf16Asserted(const float *in, float *out, int n) {
  assert(n % 16 == 0);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 16-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 16 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
}

// llm.c's matmul_backward_bias_kernel8 asserts its block's x and y: the
// witness is found in a block of that shape (threads with threadIdx.x 0
// enter the loop, lanes 0, 4, 8, ... of each warp).
__global__ void assertedBlockShape(float *out) {
  assert(blockDim.x == 4);
  assert(blockDim.y == 8);
  float v = out[threadIdx.y];
  for (int r = threadIdx.x; r < blockDim.z; r += 4)
    v += __shfl_down_sync(0xffffffff, v, 1, 4);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: warp collective '__shfl_down_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 1-3, 5-7, 9-11, 13-15, 17-19, 21-23, 25-27, 29-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: lanes of a warp may disagree on this loop condition when 'blockDim.z' is {{[0-9]+}}: it depends on 'threadIdx.x' through 'r'
  out[threadIdx.x] = v;
}

// Only the instantiation whose bound is not a multiple of 32 is reported.
template <int N> __global__ void constantBound(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N)
    out[i] = __shfl_xor_sync(0xffffffff, in[i], 1);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff: lanes 8-31 may not reach it [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is {{[0-9]+}} and 'blockDim.x' is {{[0-9]+}}: it depends on 'threadIdx.x' through 'i'
}
template __global__ void constantBound<1000>(const float *, float *);
template __global__ void constantBound<1024>(const float *, float *);

// --- Guards every lane of a warp agrees on ---------------------------------

__global__ void warpIdGuard(float *a, int k) {
  const int warp = threadIdx.x / 32;
  float v = a[threadIdx.x];
  if (warp < k)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  a[threadIdx.x] = v;
}

__global__ void rowGuard(float *a, int rows) {
  int row = blockIdx.x * blockDim.y + threadIdx.y;
  if (row >= rows)
    return;
  float v = a[row * 32 + threadIdx.x];
  v += __shfl_xor_sync(0xffffffff, v, 16);
  a[row * 32 + threadIdx.x] = v;
}

__global__ void blockGuard(float *a, int n) {
  float v = a[threadIdx.x];
  if (blockIdx.x * 32 < n)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  a[threadIdx.x] = v;
}

__global__ void firstWarpOnly(float *a) {
  float v = a[threadIdx.x];
  if (threadIdx.x < 32)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  a[threadIdx.x] = v;
}

__global__ void warpReducedGuard(float *a) {
  float v = a[threadIdx.x];
  if (__all_sync(0xffffffff, v > 0))
    v += __shfl_xor_sync(0xffffffff, v, 1);
  a[threadIdx.x] = v;
}

// --- Cooperative-groups tiles: the group is the mask -----------------------

__global__ void tileMembers(float *a, int n) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  float v = a[threadIdx.x];
  if (threadIdx.x < n)
    v += tile.shfl_down(v, 1);
  a[threadIdx.x] = v;
}

// --- Helpers that reach a collective ---------------------------------------

// The butterfly of real code's warp_reduce_sum: every call reaches the
// full-mask shuffle.
__device__ __forceinline__ float warpSum(float x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, 32);
  return x;
}

template <int width = 32> __device__ __forceinline__ int warpAll(int x) {
  if (width == 32) {
    return __all_sync(0xffffffff, x);
  } else {
    for (int offset = width / 2; offset > 0; offset >>= 1)
      x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
    return x;
  }
}

__global__ void helperUnderLaneBranch(float *a) {
  float v = a[threadIdx.x];
  if (threadIdx.x % 32 < 16)
    v = warpSum(v);
    // CHECK-NOTES: :[[@LINE-1]]:9: warning: call to 'warpSum' reaches warp collective '__shfl_xor_sync', which may be reached by only some lanes of its mask 0xffffffff: lanes 16-31 may not reach it [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition: it depends on 'threadIdx.x'
    // CHECK-NOTES: :[[@LINE-20]]:10: note: warp collective '__shfl_xor_sync' is reached here
  a[threadIdx.x] = v;
}

__global__ void helperUnderPartialWarp(int *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a[i] = warpAll(a[i]);
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: call to 'warpAll' reaches warp collective '__all_sync', which may be reached by only some lanes of its mask 0xffffffff: lanes 2-31 may not reach it [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: lanes of a warp may disagree on this condition when 'blockIdx.x' is 0, 'n' is 2 and 'blockDim.x' is 32: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES: :[[@LINE-25]]:12: note: warp collective '__all_sync' is reached here
}

__global__ void helperInWholeWarps(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = i < n ? a[i] : 0.0f;
  v = warpSum(v);
  if (threadIdx.x < 32)
    v = warpSum(v);
  if (i < n)
    a[i] = v;
}

// Both arms reach the helper's shuffle: the lanes meet there.
__global__ void helperOnBothArms(float *a, const float *b) {
  float v;
  if (threadIdx.x % 32 < 16)
    v = warpSum(a[threadIdx.x]);
  else
    v = warpSum(b[threadIdx.x]);
  a[threadIdx.x] = v;
}

// A helper whose mask is the active lanes' names only those.
__device__ float activeSum(float x) {
  return x + __shfl_xor_sync(__activemask(), x, 1);
}

__global__ void helperWithActiveMask(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    a[i] = activeSum(a[i]);
}

// --- Guards the check cannot decide ----------------------------------------

// Silent by default; ReportUndecidedWarpMasks reports it without lanes.
__global__ void loadedGuard(float *a, const int *lanes) {
  float v = a[threadIdx.x];
  if (lanes[threadIdx.x] > 0)
    v += __shfl_xor_sync(0xffffffff, v, 1);
    // CHECK-NOTES-UNDECIDED: :[[@LINE-1]]:10: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff [cuda-divergent-barrier]
    // CHECK-NOTES-UNDECIDED: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition, which the check cannot decide: it depends on 'threadIdx.x'
  a[threadIdx.x] = v;
}

// A helper's branch on its parameter: the caller may pass each lane its
// own value, so neither a branch on the parameter alone nor one that mixes
// it with the thread's index is decided.
__device__ float shuffleIf(float v, int lane, int limit) {
  if (lane < 16)
    v += __shfl_xor_sync(0xffffffff, v, 1);
  if (threadIdx.x % 32 < limit)
    v += __shfl_xor_sync(0xffffffff, v, 2);
    // CHECK-NOTES-UNDECIDED: :[[@LINE-1]]:10: warning: warp collective '__shfl_xor_sync' may be reached by only some lanes of its mask 0xffffffff [cuda-divergent-barrier]
    // CHECK-NOTES-UNDECIDED: :[[@LINE-3]]:7: note: lanes of a warp may disagree on this condition, which the check cannot decide: it depends on 'threadIdx.x'
  return v;
}
