// RUN: %check_clang_tidy -check-suffixes=,DEVICE %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// Most kernels below end with a barrier that every thread reaches: without
// it, threads that skip the barrier under test would go straight to the end
// of the kernel, which on sm_70 and later is an early exit (see
// cuda-divergent-barrier-exit.cu).

// --- Thread-dependent branches ------------------------------------------

__global__ void branchOnThreadIdx(float *a) {
  if (threadIdx.x < 128)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}

__global__ void branchThroughVariable(float *a) {
  int tid = threadIdx.x;
  int row = tid / 32;
  if (row == 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'tid' and 'row'
  __syncthreads();
}

__global__ void twoBarriersOnTwoSides(float *a) {
  int tid = threadIdx.x;
  if (tid == 0)
    __syncthreads();
  else
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-3]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'tid'
  // CHECK-NOTES: :[[@LINE-6]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
  // CHECK-NOTES: :[[@LINE-4]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'tid'
  // CHECK-NOTES: :[[@LINE-9]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
}

__global__ void splitInsideWarp(float *a) {
  if (threadIdx.x % 2 == 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  a[threadIdx.x] = 1.0f;
}

__global__ void switchOnThread(float *a) {
  switch (threadIdx.y % 4) {
  case 0:
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:11: note: threads of a block may disagree on this switch condition: it depends on 'threadIdx.y'
    break;
  default:
    break;
  }
  __syncthreads();
}

__global__ void conditionalOperator(float *a) {
  int any = threadIdx.x ? __syncthreads_or(1) : 0;
  // CHECK-NOTES: :[[@LINE-1]]:27: warning: barrier '__syncthreads_or' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-2]]:13: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  a[0] = any;
}

__global__ void shortCircuit(float *a) {
  if (threadIdx.z < 5 && __syncthreads_and(1))
    a[0] = 1.0f;
  // CHECK-NOTES: :[[@LINE-2]]:26: warning: barrier '__syncthreads_and' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.z'
  __syncthreads();
}

__global__ void countUnderThread(float *a) {
  if (threadIdx.x > 3)
    a[0] = __syncthreads_count(1);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: barrier '__syncthreads_count' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}

__global__ void namedBarrier(float *a) {
  if (threadIdx.x < 64)
    __barrier_sync(0);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__barrier_sync' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}

// --- Loops, and jumps that skip a barrier ----------------------------------

__global__ void tripCountDependsOnThread(float *a) {
  for (int i = 0; i < threadIdx.x; ++i)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:19: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x'
  __syncthreads();
}

__global__ void whileFromThread(float *a) {
  int i = threadIdx.x;
  while (i < 100) {
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-3]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'i'
    i += 32;
  }
  __syncthreads();
}

__global__ void breakSkipsBarrier(const float *a, int n) {
  for (int i = 0; i < n; ++i) {
    if (a[threadIdx.x] > 0)
      break;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  }
  __syncthreads();
}

__global__ void continueSkipsBarrier(const float *a, int n) {
  for (int i = 0; i < n; ++i) {
    if (a[threadIdx.x] > 0)
      continue;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  }
}

__global__ void gotoSkipsBarrier(float *a) {
  if (threadIdx.x == 3)
    goto out;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
out:
  a[0] = 1.0f;
}

// --- Early exits --------------------------------------------------------

// Threads that leave the kernel no longer take part in barriers (sm_70+).
__global__ void earlyReturnFromKernel(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  __syncthreads();
  a[i] = 1.0f;
}

__global__ void earlyReturnInLoop(float *a, int n) {
  for (int k = 0; k < n; ++k) {
    if (threadIdx.x + k >= n)
      return;
    __syncthreads();
  }
}

__global__ void returnAfterBarrierOnOneSide(float *a) {
  if (threadIdx.x == 0) {
    __syncthreads();
    return;
  }
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-4]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-6]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-7]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
  // CHECK-NOTES: :[[@LINE-4]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-10]]:7: note: each side of this condition reaches '__syncthreads' as often as the other, but at a different call: a block barrier must be executed by all threads of the block at the same instruction, even when the sides split the block between whole warps
}

// A return from a __device__ function goes back to the caller.
__device__ void helperWithEarlyReturn(float *a) {
  if (threadIdx.x > 3)
    return;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
}

__device__ void helperReturnsBeforeNothing(float *a) {
  if (threadIdx.x > 3)
    return;
  a[threadIdx.x] = 0.0f;
}

__global__ void barrierAfterHelperReturn(float *a) {
  helperReturnsBeforeNothing(a);
  __syncthreads();
}

// --- Calls into __device__ functions --------------------------------------

__device__ void syncHelper() { __syncthreads(); }
__device__ void syncHelperTwice() { syncHelper(); }

__global__ void callUnderThread(float *a) {
  if (threadIdx.x < 7)
    syncHelperTwice();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call to 'syncHelperTwice' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-8]]:32: note: barrier '__syncthreads' is reached here
  __syncthreads();
}

__device__ void syncIfSmall(int x) {
  if (x < 5)
    __syncthreads();
}

__global__ void threadDependentArgument(float *a) {
  int lane = threadIdx.x % 32;
  syncIfSmall(lane);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'syncIfSmall' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: whether 'syncIfSmall' reaches the barrier depends on this condition, which depends on parameter 'x'
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the argument for 'x' differs between threads: it depends on 'threadIdx.x' through 'lane'
  // CHECK-NOTES: :[[@LINE-9]]:5: note: barrier '__syncthreads' is reached here
}

__global__ void uniformArguments(float *a, int n) {
  syncIfSmall(n);
  syncIfSmall(blockIdx.x);
  syncIfSmall(gridDim.y * 2);
}

__device__ int myThread() { return threadIdx.x; }

__global__ void resultOfHelper(float *a) {
  if (myThread() < 4)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of 'myThread'
  __syncthreads();
}

__device__ void storeThread(int *out) { *out = threadIdx.x; }

__global__ void outParameter(float *a) {
  int t;
  storeThread(&t);
  if (t < 4)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the value that 'storeThread' stores through 't'
  __syncthreads();
}

__device__ void storeBlock(int *out) { *out = blockIdx.x; }

__global__ void uniformOutParameter(float *a) {
  int b;
  storeBlock(&b);
  if (b < 4)
    __syncthreads();
}

// --- Values ------------------------------------------------------------------

__global__ void assignedUnderDivergentBranch(float *a) {
  int flag = 0;
  if (threadIdx.x == 0)
    flag = 1;
  if (flag)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'flag'
  __syncthreads();
}

// A __shared__ flag written by one thread and read after a barrier is the
// same in every thread.
__global__ void sharedFlagAfterBarrier(const float *a) {
  __shared__ bool amLast;
  if (threadIdx.x == 0)
    amLast = a[0] > 0;
  __syncthreads();
  if (amLast)
    __syncthreads();
}

__global__ void shuffleResult(const float *a) {
  float v = __shfl_down_sync(0xffffffff, a[threadIdx.x], 1);
  if (v > 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of '__shfl_down_sync' through 'v'
  __syncthreads();
}

// A shuffle of a value that is the same in every lane returns that value:
// the broadcast helpers of real code (`warp_uniform(x)`) keep it uniform.
__device__ int warpUniform(int x) { return __shfl_sync(0xffffffff, x, 0); }

__global__ void shuffleOfUniformValue(const float *a, int n) {
  int count = warpUniform(n);
  if (count > 0)
    __syncthreads();
  if (__shfl_down_sync(0xffffffff, a[0], 1) > 0)
    __syncthreads();
  __syncthreads();
}

__global__ void atomicResult(int *counter) {
  int ticket = atomicAdd(counter, 1);
  if (ticket == 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of 'atomicAdd' through 'ticket'
  __syncthreads();
}

__global__ void clockResult(float *a) {
  if (clock64() % 2)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of 'clock64'
  __syncthreads();
}

__global__ void loadThroughThreadAddress(const float *a) {
  if (a[threadIdx.x] > 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}

__global__ void loadThroughUniformAddress(const float *a) {
  if (a[blockIdx.x] > 0)
    __syncthreads();
}

__global__ void referenceToLocal(float *a) {
  int x = 0;
  int &r = x;
  r = threadIdx.x;
  if (x)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'x'
  __syncthreads();
}

struct Coord {
  int x, y;
};

__global__ void structMember(float *a) {
  Coord c;
  c.x = threadIdx.x;
  if (c.x > 2)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'c'
  __syncthreads();
}

__global__ void pointerArithmetic(const float *a) {
  const float *p = a + threadIdx.x;
  if (*p > 0)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'p'
  __syncthreads();
}

__global__ void compoundAssignment(float *a, int n) {
  int k = n;
  k += threadIdx.x;
  if (k > n)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'k'
  __syncthreads();
}

__global__ void reassignedUniform(float *a, int n) {
  int k = threadIdx.x;
  a[k] = 0.0f;
  k = n;
  if (k > 4)
    __syncthreads();
}

// --- Uniform control ----------------------------------------------------------

__global__ void uniformConditions(float *a, int n) {
  if (n > 64)
    __syncthreads();
  if (blockIdx.x == 0)
    __syncthreads();
  if (blockDim.x > 32 && gridDim.x > 1)
    __syncthreads();
  if (warpSize == 32)
    __syncthreads();
  for (int i = 0; i < n; ++i)
    __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      a[threadIdx.x] += a[threadIdx.x + s];
    __syncthreads();
  }
}

__global__ void gridStrideLoopThenBarrier(float *a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    a[i] = 0.0f;
  __syncthreads();
}

template <int BlockSize> __global__ void templatedOnBlockSize(float *a) {
  if (BlockSize > 64)
    __syncthreads();
  if (threadIdx.x < BlockSize / 2)
    __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}
template __global__ void templatedOnBlockSize<128>(float *);
template __global__ void templatedOnBlockSize<256>(float *);

__host__ __device__ void hostDevice(float *a) {
#ifdef __CUDA_ARCH__
  if (threadIdx.x == 1)
    __syncthreads();
  // CHECK-NOTES-DEVICE: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES-DEVICE: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
#endif
}

// --- Cooperative groups ----------------------------------------------------------

__global__ void blockGroupSync(float *a) {
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() < 32)
    block.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'thread_block::sync' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of 'thread_block::thread_rank'
  // CHECK-NOTES: :[[@LINE-4]]:7: note: for example, threads of one block disagree on it when {{.*}}
  if (threadIdx.x & 1)
    cg::sync(block);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'cooperative_groups::sync' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  if (block.thread_rank() == 0)
    cg::this_thread_block().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'thread_block::sync' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on the result of 'thread_block::thread_rank'
  // CHECK-NOTES: :[[@LINE-4]]:7: note: for example, threads of one block disagree on it when {{.*}}
  __syncthreads();
}

// A tile's sync() orders the tile only; calling it under a condition that
// is uniform across the tile is correct (cuda-samples' dxtc does this).
__global__ void tileSyncIsNotABlockBarrier(float *a) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  if (threadIdx.x < 16)
    tile.sync();
  if (threadIdx.x < 16)
    cg::sync(tile);
  if (block.size() > 64)
    block.sync();
}

// --- Early returns from helpers, and the values after them ------------------------

// Threads that return early from the helper leave the kernel right after:
// every call is a kernel's last action, so the barrier holds nobody up.
__device__ void tailHelper(int *a, int n) {
  if (threadIdx.x >= n)
    return;
  a[threadIdx.x] = 1;
  __syncthreads();
  a[threadIdx.x] += 1;
}
__global__ void callsTailHelperLast(int *a, int n) { tailHelper(a, n); }
__global__ void callsTailHelperThenReturns(int *a, int n) {
  if (n > 3) {
    tailHelper(a, n);
    return;
  }
  a[0] = 1;
}

// Here the kernel waits at its own barrier after the call.
__device__ void helperBeforeMore(int *a, int n) {
  if (threadIdx.x >= n)
    return;
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
}
__global__ void callsHelperThenSyncs(int *a, int n) {
  helperBeforeMore(a, n);
  __syncthreads();
}

// Loop counters after an early return are the same in every thread that is
// still there: the barrier in the loop is reported for the return, not for
// the loop.
__device__ void loopAfterReturn(int *a, unsigned n) {
  __shared__ int s[256];
  if (threadIdx.x >= n)
    return;
  for (unsigned k = 2; k <= n; k *= 2) {
    s[threadIdx.x] = k;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  }
  a[threadIdx.x] = s[0];
}
__global__ void callsLoopAfterReturn(int *a, unsigned n) {
  loopAfterReturn(a, n);
  a[0] = 0;
}

__global__ void uniformLoopAfterEarlyExitInKernel(int *a, unsigned n) {
  __shared__ int s[256];
  if (threadIdx.x >= n)
    return;
  for (unsigned k = 2; k <= n; k *= 2) {
    s[threadIdx.x] = k;
    __syncthreads();
  }
}

// A thread-dependent break out of a loop: the barrier in the inner loop is
// blamed on the break's condition, not on the inner loop's counter, which
// is thread-dependent only because it is computed after that break.
__global__ void breakThenInnerLoop(float *a, int n, int c) {
  __shared__ float s[256];
  for (int i = 0; i < n; ++i) {
    int index = threadIdx.x * 4 + i * 128;
    if (index >= c)
      break;
    for (int x = 0; x < 4; ++x) {
      s[threadIdx.x] = a[index + x];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-6]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'index'
      // CHECK-NOTES: :[[@LINE-7]]:9: note: for example, threads of one block disagree on it when {{.*}}
    }
  }
  __syncthreads();
}
