// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// A warp reduction's halving loop whose every round ends in a warp-level
// sync (cuda-samples' threadFenceReduction reduceBlock and MonteCarlo
// sumReduce): lane t reads s[t + i] in one round, lane t + i wrote it in
// an earlier round only, and the sync between the rounds orders the two
// lanes of one warp. Threads of two warps never meet: t + i stays in t's
// warp. A warp sync orders lanes as a block barrier orders threads, in a
// helper (whose accesses are placed at its call) and written in the kernel.

#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// --- Silent: the same fact written five ways --------------------------------

// A helper, a tile sync, the value stored first (reduceBlock).
template <unsigned BlockSize>
__device__ void reduceBlock(volatile float *sdata, float mySum, unsigned tid,
                            cg::thread_block cta) {
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  sdata[tid] = mySum;
  cg::sync(tile32);
  const int vid = tid & 31;
  float beta = mySum;
  for (int i = 16; i > 0; i >>= 1) {
    if (vid < i) {
      float temp = sdata[tid + i];
      beta += temp;
      sdata[tid] = beta;
    }
    cg::sync(tile32);
  }
  cg::sync(cta);
}

// A helper taking the tile by reference, its rank, two arrays (sumReduce).
__device__ void sumReduce(float *sum, float *sum2, cg::thread_block &cta,
                          cg::thread_block_tile<32> &tile32) {
  const int tid = cta.thread_rank();
  float beta = sum[tid], beta2 = sum2[tid];
  for (int i = 16; i > 0; i >>= 1) {
    if (tile32.thread_rank() < i) {
      float temp = sum[tid + i], temp2 = sum2[tid + i];
      beta += temp;
      beta2 += temp2;
      sum[tid] = beta;
      sum2[tid] = beta2;
    }
    tile32.sync();
  }
  cg::sync(cta);
}

// A helper with __syncwarp() and a while loop.
__device__ void halveWarpWhile(float *s) {
  unsigned lane = threadIdx.x % 32, i = 16;
  while (i > 0) {
    if (lane < i)
      s[threadIdx.x] += s[threadIdx.x + i];
    __syncwarp();
    i >>= 1;
  }
  __syncthreads();
}

__global__ void viaReduceBlock(const float *in, float *out) {
  __shared__ float s[256];
  cg::thread_block cta = cg::this_thread_block();
  reduceBlock<256>(s, in[threadIdx.x], threadIdx.x, cta);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// After a grid-strided loop with a thread-dependent branch (the threads
// reach the call from its two sides), from a helper that declares the pool
// (reduceBlocks).
template <bool Pow2>
__device__ void reduceBlocks(const float *in, float *out, unsigned n,
                             cg::thread_block cta) {
  extern __shared__ float pool[];
  unsigned tid = threadIdx.x, i = blockIdx.x * 512 + threadIdx.x;
  float mySum = 0;
  while (i < n) {
    mySum += in[i];
    if (Pow2 || i + 256 < n)
      mySum += in[i + 256];
    i += 512 * gridDim.x;
  }
  reduceBlock<256>(pool, mySum, tid, cta);
  if (tid == 0)
    out[blockIdx.x] = pool[0];
}

template <bool Pow2>
__global__ void viaReduceBlocks(const float *in, float *out, unsigned n) {
  cg::thread_block cta = cg::this_thread_block();
  reduceBlocks<Pow2>(in, out, n, cta);
}

__global__ void viaSumReduce(const float *in, float *out) {
  __shared__ float s[256], s2[256];
  cg::thread_block cta = cg::this_thread_block();
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  s[threadIdx.x] = in[threadIdx.x];
  s2[threadIdx.x] = in[threadIdx.x] * in[threadIdx.x];
  cg::sync(cta);
  sumReduce(s, s2, cta, tile32);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0] + s2[0];
}

__global__ void viaHalveWarpWhile(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  halveWarpWhile(s);
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// Written in the kernel, with __syncwarp().
__global__ void inlineSyncwarp(const float *in, float *out) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  s[tid] = in[tid];
  __syncwarp();
  const int vid = tid & 31;
  float beta = s[tid];
  for (int i = 16; i > 0; i >>= 1) {
    if (vid < i) {
      beta += s[tid + i];
      s[tid] = beta;
    }
    __syncwarp();
  }
  __syncthreads();
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

// Written in the kernel, with a tile's sync() and the lane from the tile.
__global__ void inlineTileSync(const float *in, float *out) {
  __shared__ float s[256];
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  s[threadIdx.x] = in[threadIdx.x];
  tile.sync();
  for (unsigned i = 16; i > 0; i /= 2) {
    if (tile.thread_rank() < i)
      s[threadIdx.x] += s[threadIdx.x + i];
    tile.sync();
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// --- Reported: the same loops with a round left unordered -------------------

// No sync in the rounds: lanes rely on lockstep.
__device__ void halveLockstep(volatile float *s) {
  unsigned lane = threadIdx.x % 32;
  for (int i = 16; i > 0; i >>= 1)
    if (lane < i)
      s[threadIdx.x] += s[threadIdx.x + i];
  __syncthreads();
}

__global__ void viaHalveLockstep(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  halveLockstep(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: warp-synchronous read after write on shared 's' relies on the lanes of a warp running in lockstep, which sm_70 and later do not guarantee [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-10]]:25: note: the read is made here, inside 'halveLockstep'
  // CHECK-NOTES: :[[@LINE-11]]:7: note: the other thread's update is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (8,0,0) updates 's[8]' and thread (0,0,0) reads it (with 'i' = 8), with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-5]]:3: note: order the lanes with '__syncwarp()' between the accesses
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// The same lockstep loop after a thread-dependent branch: the two sides
// reach one call, and nothing in it orders the lanes.
__global__ void viaHalveLockstepAfterBranch(const float *in, float *out,
                                            unsigned n) {
  __shared__ float s[256];
  float v = 0;
  for (unsigned i = threadIdx.x; i < n; i += 256)
    if (i % 2)
      v += in[i];
  s[threadIdx.x] = v;
  __syncthreads();
  halveLockstep(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: warp-synchronous read after write on shared 's' relies on the lanes of a warp running in lockstep, which sm_70 and later do not guarantee [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-31]]:25: note: the read is made here, inside 'halveLockstep'
  // CHECK-NOTES: :[[@LINE-32]]:7: note: the other thread's update is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (8,0,0) updates 's[8]' and thread (0,0,0) reads it (with 'i' = 8), with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-5]]:3: note: order the lanes with '__syncwarp()' between the accesses
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// One sync per round, between the read and the write: a lane's write in
// one round and another lane's read in the next meet.
__device__ void halveOneSync(float *s) {
  unsigned lane = threadIdx.x % 32;
  for (int i = 16; i > 0; i >>= 1) {
    float v = lane < i ? s[threadIdx.x + i] : 0.0f;
    __syncwarp();
    if (lane < i)
      s[threadIdx.x] += v;
  }
  __syncthreads();
}

__global__ void viaHalveOneSync(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  halveOneSync(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-11]]:7: note: the update is made here, inside 'halveOneSync'
  // CHECK-NOTES: :[[@LINE-15]]:26: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (0,0,0) reads 's[8]' (with 'i' = 8) and thread (8,0,0) updates it, with blockDim (256,1,1)
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// The sync skipped in some rounds. The race is in the rounds i = 4, 2, 1;
// the witness's rounds (16 then 8) are not: a warp sync under a condition
// on the counter is not yet read per iteration as a block barrier's is
// (rules/cuda-shared-memory-race.md, known limits).
__global__ void inlineSometimesSynced(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  unsigned lane = threadIdx.x % 32;
  for (int i = 16; i > 0; i >>= 1) {
    if (lane < i)
      s[threadIdx.x] += s[threadIdx.x + i];
      // CHECK-NOTES: :[[@LINE-1]]:25: warning: read after write race on shared 's': no barrier orders this read after another thread's update [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: the other thread's update is here
      // CHECK-NOTES: :[[@LINE-3]]:25: note: for example, thread (8,0,0) updates 's[8]' and thread (0,0,0) reads it (with 'i' = 8) one iteration of the enclosing loop later, with blockDim (256,1,1)
    if (i > 4)
      __syncwarp();
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

// Lanes of two warps: the halving crosses the warp at i = 32, which a warp
// sync does not order.
__global__ void inlineAcrossWarps(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (int i = 128; i > 0; i >>= 1) {
    if (threadIdx.x < i)
      s[threadIdx.x] += s[threadIdx.x + i];
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:25: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,0,0) reads 's[64]' (with 'i' = 64) and thread (64,0,0) updates it, with blockDim (256,1,1)
    __syncwarp();
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = s[0];
}

void host(const float *in, float *out) {
  viaReduceBlock<<<4, 256>>>(in, out);
  viaSumReduce<<<4, 256>>>(in, out);
  viaReduceBlocks<false><<<4, 256, 1024>>>(in, out, 4096);
  viaHalveWarpWhile<<<4, 256>>>(in, out);
  inlineSyncwarp<<<4, 256>>>(in, out);
  inlineTileSync<<<4, 256>>>(in, out);
  viaHalveLockstep<<<4, 256>>>(in, out);
  viaHalveLockstepAfterBranch<<<4, 256>>>(in, out, 4096);
  viaHalveOneSync<<<4, 256>>>(in, out);
  inlineSometimesSynced<<<4, 256>>>(in, out);
  inlineAcrossWarps<<<4, 256>>>(in, out);
}
