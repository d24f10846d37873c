// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Asynchronous copies, split barriers, named barriers and CUB's temporary
// storage (issue 23). An asynchronous copy is a write by the issuing thread
// (or, for a group's copy, by some thread of the group) that is in flight
// until the wait that completes it: a thread that reads what another thread
// copied needs that wait and then a barrier. The stub headers declare the
// toolkit's names (test/Inputs/include); toolkit-async.test runs the same
// kernels on the real headers.

#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cub/cub.cuh>
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <utility>
namespace cg = cooperative_groups;

// --- Per-thread copies: __pipeline_memcpy_async ------------------------------

// No wait and no barrier: thread 0 reads tile[255] while thread 255's copy
// may still be in flight.
__global__ void copyNoWait(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:27: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (255,0,0) copies asynchronously (__pipeline_memcpy_async) into 'tile[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-6]]:27: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// The wait completes only this thread's own copies.
__global__ void copyWaitNoBarrier(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:27: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (255,0,0) copies asynchronously (__pipeline_memcpy_async) into 'tile[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-7]]:27: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// A barrier before the wait orders nothing: the copies are still in flight.
__global__ void copyBarrierNoWait(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:27: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (255,0,0) copies asynchronously (__pipeline_memcpy_async) into 'tile[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-7]]:27: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// The idiom: wait, then a barrier. No warning.
__global__ void copyWaitBarrier(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// The same through a macro for the wait and a helper for the read. No
// warning.
#define WAIT_ALL() __pipeline_wait_prior(0)
__device__ float at(const float *t, int i) { return t[i]; }
__global__ void copyWaitBarrierSpelledOtherwise(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(tile + threadIdx.x, in + threadIdx.x, 4);
  __pipeline_commit();
  WAIT_ALL();
  __syncthreads();
  out[threadIdx.x] = at(tile, 255 - threadIdx.x);
}

// Reading only its own copy, a thread needs the wait alone. No warning.
__global__ void copyOwnElement(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  out[threadIdx.x] = tile[threadIdx.x];
}

// `__pipeline_wait_prior(1)` leaves the most recent batch in flight, and
// here that is the only one.
__global__ void waitPriorOneLeavesItInFlight(const float *in, float *out) {
  __shared__ float tile[256];
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  __pipeline_wait_prior(1);
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-6]]:27: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (255,0,0) copies asynchronously (__pipeline_memcpy_async) into 'tile[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-8]]:27: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// Double buffering: the copy for the next stage goes into the other buffer,
// and `__pipeline_wait_prior(1)` completes the current one. No warning.
__global__ void doubleBuffered(const float *in, float *out, int n) {
  __shared__ float tile[2][256];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[0][t], &in[t], sizeof(float));
  __pipeline_commit();
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    if (i + 1 < n)
      __pipeline_memcpy_async(&tile[(i + 1) % 2][t], &in[(i + 1) * 256 + t],
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += tile[i % 2][255 - t];
    __syncthreads();
  }
  out[t] = acc;
}

// Without the barrier after the compute step, the copy issued in the next
// iteration overwrites the buffer other threads may still be reading.
__global__ void doubleBufferedNoSecondBarrier(const float *in, float *out,
                                              int n) {
  __shared__ float tile[2][256];
  int t = threadIdx.x;
  __pipeline_memcpy_async(&tile[0][t], &in[t], sizeof(float));
  __pipeline_commit();
  float acc = 0;
  for (int i = 0; i < n; ++i) {
    if (i + 1 < n)
      __pipeline_memcpy_async(&tile[(i + 1) % 2][t], &in[(i + 1) * 256 + t],
      // CHECK-NOTES: :[[@LINE-1]]:31: warning: write after read race on shared 'tile': no barrier orders this write after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE+6]]:12: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:31: note: for example, thread (234,0,0) reads 'tile[1][21]' (with 'i' = 1) and thread (21,0,0) copies asynchronously (__pipeline_memcpy_async) into it (with 'i' = 2) one iteration of the enclosing loop later, when 'n' = 3, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
                              sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += tile[i % 2][255 - t];
  }
  out[t] = acc;
}

// --- Group copies: cooperative groups and libcu++ -----------------------------

// Which thread of the block copies which byte is the library's business:
// any other thread's read of the tile meets the copy.
__global__ void groupCopyNoWait(const float *in, float *out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(tile));
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:27: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (0,0,0) copies, for its group (cooperative_groups::memcpy_async), into 'tile[254]' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-5]]:27: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// `cg::wait(block)` waits for the copies and then syncs the block. No
// warning.
__global__ void groupCopyWait(const float *in, float *out) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(tile));
  cg::wait(block);
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// A copy tracked by a cuda::barrier completes at the barrier's wait.
__global__ void barrierCopyEarlyRead(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(block, tile, in, sizeof(tile), bar);
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:29: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (0,0,0) copies, for its group (cuda::memcpy_async), into 'tile[254]' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-5]]:29: note: the asynchronous copy is in flight until the phase of its barrier completes; a thread sees it once its own wait on that phase returns
  bar.arrive_and_wait();
}

__global__ void barrierCopyAfterWait(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(block, tile, in, sizeof(tile), bar);
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// A copy through a cuda::pipeline completes at the consumer's wait, once its
// stage is committed: the sample's single-stage pipeline. No warning.
__global__ void pipelineCopy(const float *in, float *out, int n) {
  __shared__ float tile[16][16];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  float acc = 0;
  for (int a = 0; a < n; ++a) {
    pipe.producer_acquire();
    cuda::memcpy_async(&tile[threadIdx.y][threadIdx.x],
                       &in[a * 256 + threadIdx.y * 16 + threadIdx.x],
                       sizeof(float), pipe);
    pipe.producer_commit();
    pipe.consumer_wait();
    __syncthreads();
    for (int k = 0; k < 16; ++k)
      acc += tile[threadIdx.y][k];
    __syncthreads();
  }
  out[threadIdx.y * 16 + threadIdx.x] = acc;
}

// The same with the barrier before the consumer's wait.
__global__ void pipelineCopyBarrierFirst(const float *in, float *out) {
  __shared__ float tile[16][16];
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  pipe.producer_acquire();
  cuda::memcpy_async(&tile[threadIdx.y][threadIdx.x],
                     &in[threadIdx.y * 16 + threadIdx.x], sizeof(float), pipe);
  pipe.producer_commit();
  __syncthreads();
  pipe.consumer_wait();
  out[threadIdx.y * 16 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-7]]:22: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:41: note: for example, thread (0,1,0) copies asynchronously (cuda::memcpy_async) into 'tile[1][0]' and thread (1,0,0) reads it, with blockDim (16,16,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-9]]:22: note: the asynchronous copy is in flight until its pipeline's 'consumer_wait' completes it; only a barrier after that orders it for the other threads
}

// --- Split barriers: cuda::barrier's arrive and wait --------------------------

// Between its arrive and its wait a thread is not ordered against anyone:
// thread 0 may read tile[255] before thread 255 has written it.
__global__ void splitBarrierReadBetween(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = in[threadIdx.x];
  auto token = bar.arrive();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (255,0,0) writes 'tile[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  bar.wait(std::move(token));
}

// What a thread wrote before arriving is ordered before what the others
// read after waiting; independent work in between. No warning.
__global__ void splitBarrierReadAfter(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = in[threadIdx.x];
  auto token = bar.arrive();
  out[threadIdx.x + 256] = in[threadIdx.x] * 2;
  bar.wait(std::move(token));
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// arrive_and_wait is both halves. No warning.
__global__ void arriveAndWait(const float *in, float *out) {
  __shared__ float tile[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = in[threadIdx.x];
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// --- Named barriers -----------------------------------------------------------

// `bar.sync 1, 256` orders the threads it counts. No warning.
__global__ void namedBarrier(const float *in, float *out) {
  __shared__ float tile[256];
  tile[threadIdx.x] = in[threadIdx.x];
  asm volatile("bar.sync 1, 256;");
  out[threadIdx.x] = tile[255 - threadIdx.x];
}

// --- CUB's temporary storage --------------------------------------------------

// CUB documents that a TempStorage needs a barrier before it is used again:
// the second reduction's first stores race with the first's last reads.
using Reduce = cub::BlockReduce<float, 256>;
__global__ void twoReductionsOneStorage(const float *in, float *out) {
  __shared__ Reduce::TempStorage temp;
  float x = in[threadIdx.x];
  float sum = Reduce(temp).Sum(x);
  float squares = Reduce(temp).Sum(x * x);
  // CHECK-NOTES: :[[@LINE-1]]:26: warning: write after write race on shared 'temp': no barrier orders this update after another thread's update [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:22: note: the other thread's update is here
  // CHECK-NOTES: :[[@LINE-3]]:26: note: for example, thread (1,0,0) runs BlockReduce::Sum on 'temp{{[^']*}}' and thread (0,0,0) runs BlockReduce::Sum on it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:26: note: a CUB block primitive's TempStorage needs a barrier before it is used again
  // CHECK-NOTES: :[[@LINE-5]]:3: note: a barrier is missing before this statement
  if (threadIdx.x == 0)
    out[0] = squares - sum * sum;
}

// With the barrier between. No warning.
__global__ void twoReductionsBarrier(const float *in, float *out) {
  __shared__ Reduce::TempStorage temp;
  float x = in[threadIdx.x];
  float sum = Reduce(temp).Sum(x);
  __syncthreads();
  float squares = Reduce(temp).Sum(x * x);
  if (threadIdx.x == 0)
    out[0] = squares - sum * sum;
}

// One call in a loop is two uses of the storage in two iterations.
__global__ void reductionInLoop(const float *in, float *out, int n) {
  __shared__ Reduce::TempStorage temp;
  float total = 0;
  for (int i = 0; i < n; ++i)
    total += Reduce(temp).Sum(in[i * 256 + threadIdx.x]);
    // CHECK-NOTES: :[[@LINE-1]]:21: warning: write after write race on shared 'temp': no barrier orders this update after another thread's update [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:21: note: the other thread's update is here
    // CHECK-NOTES: :[[@LINE-3]]:21: note: for example, thread (1,0,0) runs BlockReduce::Sum on 'temp{{[^']*}}' and thread (0,0,0) runs BlockReduce::Sum on it one iteration of the enclosing loop later, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
    // CHECK-NOTES: :[[@LINE-4]]:21: note: a CUB block primitive's TempStorage needs a barrier before it is used again
  if (threadIdx.x == 0)
    out[0] = total;
}

__global__ void reductionInLoopBarrier(const float *in, float *out, int n) {
  __shared__ Reduce::TempStorage temp;
  float total = 0;
  for (int i = 0; i < n; ++i) {
    total += Reduce(temp).Sum(in[i * 256 + threadIdx.x]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[0] = total;
}

// The threads come to the primitive from both sides of a thread-dependent
// choice (`idx < n ? ... : 0`), and meet in it. No warning.
using ScanF = cub::BlockScan<float, 256>;
__global__ void scanAfterAChoice(const float *in, float *out, int n) {
  __shared__ ScanF::TempStorage temp;
  for (int start = 0; start < n; start += 256) {
    int idx = start + threadIdx.x;
    float v = idx < n ? in[idx] : 0.0f;
    float prefix;
    ScanF(temp).InclusiveSum(v, prefix);
    __syncthreads();
    if (idx < n)
      out[idx] = prefix;
  }
}

// A load and a scan in one storage union, the CUB idiom, with the barrier
// its documentation asks for between them. No warning.
using Load = cub::BlockLoad<int, 128, 4>;
using Scan = cub::BlockScan<int, 128>;
__global__ void loadThenScan(const int *in, int *out) {
  __shared__ union {
    Load::TempStorage load;
    Scan::TempStorage scan;
  } temp;
  int items[4];
  Load(temp.load).Load(in, items);
  __syncthreads();
  int prefix;
  Scan(temp.scan).ExclusiveSum(items[0], prefix);
  out[threadIdx.x] = prefix;
}

// Without it, the scan's stores race with the load's reads.
__global__ void loadThenScanNoBarrier(const int *in, int *out) {
  __shared__ union {
    Load::TempStorage load;
    Scan::TempStorage scan;
  } temp;
  int items[4];
  Load(temp.load).Load(in, items);
  int prefix;
  Scan(temp.scan).ExclusiveSum(items[0], prefix);
  // CHECK-NOTES: :[[@LINE-1]]:8: warning: write after write race on shared 'temp': no barrier orders this update after another thread's update [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:8: note: the other thread's update is here
  // CHECK-NOTES: :[[@LINE-3]]:8: note: for example, thread (1,0,0) runs BlockLoad::Load on 'temp{{[^']*}}' and thread (0,0,0) runs BlockScan::ExclusiveSum on it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:8: note: a CUB block primitive's TempStorage needs a barrier before it is used again
  // CHECK-NOTES: :[[@LINE-5]]:3: note: a barrier is missing before this statement
  out[threadIdx.x] = prefix;
}

// --- Inline PTX: cp.async, commit_group, wait_group ---------------------------

// The instructions the pipeline primitives compile to, as CUTLASS and
// flash-attention write them, with the destination's shared address made
// by __cvta_generic_to_shared.
__global__ void ptxCopyNoWait(const int *in, int *out) {
  __shared__ int tile[256];
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[threadIdx.x]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst),
               "l"(&in[threadIdx.x])
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-8]]:65: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (255,0,0) copies asynchronously (cp.async.ca.shared.global) into 'tile[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-10]]:65: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// With the wait and then the barrier. No warning.
__global__ void ptxCopyWaitBarrier(const int *in, int *out) {
  __shared__ int tile[256];
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(
                   static_cast<unsigned>(
                       __cvta_generic_to_shared(&tile[threadIdx.x]))),
               "l"(&in[threadIdx.x])
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
}
