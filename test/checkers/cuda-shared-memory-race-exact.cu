// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Races that depend on unknown values (kernel parameters, the block index),
// decided by the solver-backed core: certain when they hold for generic
// values of the unknowns, with the values named in the witness.

#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// --- A guard on a kernel parameter -------------------------------------------

// Thread i + 1 writes what thread i reads, for every n >= 2.
__global__ void shiftUnderParameterGuard(int n, const float *x) {
  __shared__ float s[1024];
  int i = threadIdx.x;
  if (i < n)
    s[i] = x[i] + s[i + 1];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:19: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (48,0,0) reads 's[49]' and thread (49,0,0) writes it, when 'n' = 51, with blockDim (256,1,1)
}

__global__ void ownElementUnderParameterGuard(int n, const float *x) {
  __shared__ float s[1024];
  int i = threadIdx.x;
  if (i < n)
    s[i] = x[i] + s[i];
}

__global__ void shiftUnderParameterGuardWithBarrier(int n, const float *x,
                                                    float *y) {
  __shared__ float s[1025];
  int i = threadIdx.x;
  if (i < n)
    s[i] = x[i];
  __syncthreads();
  if (i < n)
    y[i] = s[i] + s[i + 1];
}

// --- File-scope shared variables ---------------------------------------------

__shared__ float tile[32][32];
__shared__ int fileCounter;

__global__ void fileScopeTileWithoutBarrier(float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[tx][ty] = out[ty * 32 + tx];
  out[ty * 32 + tx] = tile[ty][(tx + 1) % 32];
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:23: note: for example, thread (0,1,0) writes 'tile[0][1]' and thread (0,0,0) reads it, with blockDim (32,32,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void fileScopeTileWithBarrier(float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[tx][ty] = out[ty * 32 + tx];
  __syncthreads();
  out[ty * 32 + tx] = tile[ty][(tx + 1) % 32];
}

__global__ void fileScopeScalarEveryThread(int *out) {
  fileCounter = threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'fileCounter': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 'fileCounter' and thread (0,0,0) writes it, with blockDim (128,1,1)
  __syncthreads();
  out[threadIdx.x] = fileCounter;
}

__global__ void fileScopeScalarOneThread(int *out) {
  if (threadIdx.x == 0)
    fileCounter = 7;
  __syncthreads();
  out[threadIdx.x] = fileCounter;
}

// --- Every thread writing a different value to one scalar --------------------

__global__ void lastIndexUnderGuard(int n, unsigned *out) {
  __shared__ unsigned last;
  int i = threadIdx.x;
  if (i < n)
    last = i;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'last': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) writes 'last' and thread (0,0,0) writes it, when 'n' = 3, with blockDim (256,1,1)
  __syncthreads();
  *out = last;
}

// The same value from every thread: no defect.
__global__ void sameValueUnderGuard(int n, unsigned *out) {
  __shared__ unsigned last;
  int i = threadIdx.x;
  if (i < n)
    last = n;
  __syncthreads();
  *out = last;
}

// --- Pointers into shared memory and helpers with their own pool ------------

__global__ void pointerToOwnElementReadsNeighbour(float *out) {
  __shared__ float s[257];
  float *p = &s[threadIdx.x];
  s[threadIdx.x] = p[1];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:20: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (0,0,0) reads 's[1]' and thread (1,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

__global__ void pointerToOwnElementReadsItself(float *out) {
  __shared__ float s[257];
  float *p = &s[threadIdx.x];
  s[threadIdx.x] = p[0] * 2.0f;
}

__device__ void rotateThroughPool(float *out) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = pool[threadIdx.x + 1];
}

__global__ void callsHelperWithItsOwnPool(float *out) {
  rotateThroughPool(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: read after write race on shared 'pool': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-6]]:22: note: the read is made here, inside 'rotateThroughPool'
  // CHECK-NOTES: :[[@LINE-8]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) writes 'pool[1]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

__device__ void scaleThroughPool(float *out) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = pool[threadIdx.x] * 2.0f;
}

__global__ void callsHelperReadingOwnElement(float *out) {
  scaleThroughPool(out);
}

// --- Guards on the block index, min() bounds, group ranks --------------------

__global__ void earlyReturnOnGlobalIndex(int n, float *out) {
  __shared__ float s[257];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = out[i];
  out[i] = s[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (31,0,0) writes 's[31]' and thread (30,0,0) reads it, when 'n' = 62, with blockDim (256,1,1)
}

__global__ void earlyReturnOnGlobalIndexWithBarrier(int n, float *out) {
  __shared__ float s[257];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = out[i];
  __syncthreads();
  out[i] = s[threadIdx.x + 1];
}

__global__ void loopBoundedByMin(float *out, int cols) {
  __shared__ float s[1024];
  int base = blockIdx.x * 256;
  for (int j = threadIdx.x; j < min((int)blockDim.x, cols - base);
       j += blockDim.x)
    s[j] = out[j];
  out[threadIdx.x] = s[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (33,0,0) writes 's[33]' (in iteration 0 of the loop over 'j') and thread (32,0,0) reads it, when 'cols' = 34, with blockDim (256,1,1)
}

__global__ void loopBoundedByMinWithBarrier(float *out, int cols) {
  __shared__ float s[1024];
  int base = blockIdx.x * 256;
  for (int j = threadIdx.x; j < min((int)blockDim.x, cols - base);
       j += blockDim.x)
    s[j] = out[j];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

__global__ void tileRanksIndexNeighbour(float *out) {
  __shared__ float s[257];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  s[tile.thread_rank() + 32 * tile.meta_group_rank()] = out[0];
  out[block.thread_index().x] = s[block.thread_rank() + 1];
  // CHECK-NOTES: :[[@LINE-1]]:33: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:33: note: for example, thread (1,0,0) writes 's[1]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void tileRanksIndexOwnElement(float *out) {
  __shared__ float s[257];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  s[tile.thread_rank() + 32 * tile.meta_group_rank()] = out[0];
  out[block.thread_index().x] = s[block.thread_rank()];
}

// A helper holding a barrier: its read after the barrier races with the
// next call's write before it.
__device__ void stageWithBarrier(float *s, float *out, int k) {
  s[threadIdx.x] = out[k];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}

__global__ void twoCallsOfHelperWithBarrier(float *out) {
  __shared__ float s[257];
  stageWithBarrier(s, out, 0);
  stageWithBarrier(s, out, 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-10]]:3: note: the write is made here, inside 'stageWithBarrier'
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-10]]:22: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-5]]:3: note: for example, thread (0,0,0) reads 's[1]' and thread (1,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

__device__ void stageWithTwoBarriers(float *s, float *out, int k) {
  s[threadIdx.x] = out[k];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
  __syncthreads();
}

__global__ void twoCallsOfHelperWithTwoBarriers(float *out) {
  __shared__ float s[257];
  stageWithTwoBarriers(s, out, 0);
  stageWithTwoBarriers(s, out, 1);
}

// --- Writes of the same value (issue 10, class 6) ----------------------------

// The threads that write bias[c] all store bnBias[base + c]: one value.
__global__ void sameValueFromSameElement(const float *bnBias, int base,
                                         float *out) {
  __shared__ float bias[64];
  int c = threadIdx.x % 64;
  bias[c] = bnBias[base + c];
  __syncthreads();
  out[threadIdx.x] = bias[c];
}

__global__ void differentValuesFromDifferentElements(const float *bnBias,
                                                     int base, float *out) {
  __shared__ float bias[64];
  int c = threadIdx.x % 64;
  bias[c] = bnBias[base + threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'bias': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (128,0,0) writes 'bias[0]' and thread (0,0,0) writes it, when 'base' = 2, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  __syncthreads();
  out[threadIdx.x] = bias[c];
}

__global__ void sameValueComputedFromIndex(int *out) {
  __shared__ int s[32];
  s[threadIdx.x % 32] = threadIdx.x % 32;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 32];
}

__global__ void twoStatementsTwoValues(int n, int *out) {
  __shared__ int v;
  if (threadIdx.x < n)
    v = n;
  else
    v = n + 1;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'v': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (0,0,0) writes 'v' and thread (17,0,0) writes it, when 'n' = 3, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  __syncthreads();
  out[threadIdx.x] = v;
}

__global__ void twoStatementsOneValue(int n, int *out) {
  __shared__ int v;
  if (threadIdx.x < n)
    v = n + 1;
  else
    v = 1 + n;
  __syncthreads();
  out[threadIdx.x] = v;
}

// The same value through a warp reduction held in a local array (ggml's
// mmvf.cu): each lane stores acc[j] after a butterfly over the whole warp left
// it equal in every lane, so only lanes of different warps could race, and
// they write different elements.
template <int width = 32>
__device__ float warpReduceSum(float x) {
#pragma unroll
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, width);
  return x;
}

template <int width = 32> __device__ int warpReduceAll(int x) {
  if (width == 32)
    return __all_sync(0xffffffff, x);
  for (int offset = width / 2; offset > 0; offset >>= 1)
    x = __shfl_xor_sync(0xffffffff, x, offset, width) && x;
  return x;
}

__device__ void accumulate(float &acc, float v) { acc += v; }

__global__ void warpSumsThroughLocalArray(const float *in, float *out,
                                          bool twice) {
  __shared__ float sums[8];
  float acc[2] = {0.0f, 0.0f};
  for (int j = 0; j < 2; ++j)
    accumulate(acc[j], in[j * 256 + threadIdx.x]);
  for (int j = 0; j < 2; ++j) {
    acc[j] = warpReduceSum(acc[j]);
    if (twice)
      out[j] = 0.0f;
    sums[threadIdx.x / 32] = acc[j];
    __syncthreads();
    if (threadIdx.x < 8)
      out[threadIdx.x] = sums[threadIdx.x];
    __syncthreads();
  }
}

__global__ void warpVotesThroughLocalArray(const int *in, int *out) {
  __shared__ int votes[8];
  int v[1] = {in[threadIdx.x]};
  v[0] = warpReduceAll(v[0]);
  votes[threadIdx.x / 32] = v[0];
  __syncthreads();
  out[threadIdx.x] = votes[threadIdx.x % 8];
}

// The element changed after the reduction: lanes store different values.
__global__ void localArrayChangedAfterReduction(const float *in, float *out) {
  __shared__ float sums[8];
  float acc[2] = {in[threadIdx.x], in[256 + threadIdx.x]};
  acc[0] = warpReduceSum(acc[0]);
  accumulate(acc[0], in[threadIdx.x]);
  sums[threadIdx.x / 32] = acc[0];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'sums': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 'sums[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  __syncthreads();
  out[threadIdx.x] = sums[threadIdx.x % 8];
}

// The element's index differs between lanes.
__global__ void localArrayAtLaneIndex(const float *in, float *out) {
  __shared__ float sums[8];
  float acc[2] = {in[threadIdx.x], in[256 + threadIdx.x]};
  acc[0] = warpReduceSum(acc[0]);
  sums[threadIdx.x / 32] = acc[threadIdx.x % 2];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'sums': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 'sums[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  __syncthreads();
  out[threadIdx.x] = sums[threadIdx.x % 8];
}

// A butterfly over half the warp leaves each half with its own value.
__global__ void halfWarpReduction(const float *in, float *out) {
  __shared__ float sums[8];
  float acc[1] = {in[threadIdx.x]};
  acc[0] = warpReduceSum<16>(acc[0]);
  sums[threadIdx.x / 32] = acc[0];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'sums': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 'sums[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  __syncthreads();
  out[threadIdx.x] = sums[threadIdx.x % 8];
}

// A thread's own array is not shared between threads: v[0] holds each
// thread's own index, so the stores to s[0] differ.
__global__ void ownArrayElementIsNotOneValue(float *out) {
  __shared__ float s[8];
  float v[4];
  v[0] = threadIdx.x;
  s[0] = v[0];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 's[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  __syncthreads();
  out[threadIdx.x] = s[0];
}

// Every thread stores a member of a by-value parameter that the kernel
// never changes (GROMACS's nbfe_foreign kernel): one value.
struct LambdaParams {
  float lambdaCoul;
  float lambdaVdw;
};
__global__ void sameValueFromParameterMember(const LambdaParams params,
                                             float *out) {
  __shared__ float lambda;
  lambda = params.lambdaCoul;
  __syncthreads();
  out[threadIdx.x] = lambda;
}

// A parameter the kernel changes in each thread first holds many values.
__global__ void parameterMemberChanged(LambdaParams params, float *out) {
  __shared__ float lambda;
  params.lambdaCoul += out[threadIdx.x];
  lambda = params.lambdaCoul;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'lambda': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 'lambda' and thread (0,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  __syncthreads();
  out[threadIdx.x] = lambda;
}

// --- Rounds of an inner loop inside a loop with a barrier ---------------------

// Going round the inner loop is not going round the outer one: the barrier
// at the top of the outer loop separates its iterations (cuda-samples'
// scalarProd).
__global__ void treeReductionWithInnerLoop(float *out) {
  __shared__ float acc[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    acc[i] = out[i];
  for (int stride = 512; stride > 0; stride >>= 1) {
    __syncthreads();
    for (int i = threadIdx.x; i < stride; i += blockDim.x)
      acc[i] += acc[stride + i];
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = acc[0];
}

void launchAll(float *f, int *i, unsigned *u, int n) {
  warpSumsThroughLocalArray<<<1, 256>>>(f, f, n > 0);
  warpVotesThroughLocalArray<<<1, 256>>>(i, i);
  localArrayChangedAfterReduction<<<1, 256>>>(f, f);
  localArrayAtLaneIndex<<<1, 256>>>(f, f);
  halfWarpReduction<<<1, 256>>>(f, f);
  ownArrayElementIsNotOneValue<<<1, 256>>>(f);
  shiftUnderParameterGuard<<<1, 256>>>(n, f);
  ownElementUnderParameterGuard<<<1, 256>>>(n, f);
  shiftUnderParameterGuardWithBarrier<<<1, 256>>>(n, f, f);
  fileScopeTileWithoutBarrier<<<1, dim3(32, 32)>>>(f);
  fileScopeTileWithBarrier<<<1, dim3(32, 32)>>>(f);
  fileScopeScalarEveryThread<<<1, 128>>>(i);
  fileScopeScalarOneThread<<<1, 128>>>(i);
  lastIndexUnderGuard<<<1, 256>>>(n, u);
  sameValueUnderGuard<<<1, 256>>>(n, u);
  earlyReturnOnGlobalIndex<<<8, 256>>>(n, f);
  earlyReturnOnGlobalIndexWithBarrier<<<8, 256>>>(n, f);
  loopBoundedByMin<<<8, 256>>>(f, n);
  loopBoundedByMinWithBarrier<<<8, 256>>>(f, n);
  treeReductionWithInnerLoop<<<1, 256>>>(f);
}
