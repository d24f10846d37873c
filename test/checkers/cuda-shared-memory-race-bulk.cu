// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Bulk (TMA) copies into shared memory and the barriers they complete on
// (issue 23, sketch 8). One thread issues the copy; the copy is a write of
// its destination in flight until the phase of its barrier (a
// `cuda::barrier` or an mbarrier word) completes, and the phase completes
// only once the bytes have landed, so a thread that waits on the phase
// sees them: no `__syncthreads()` is needed after the wait, unlike the
// per-thread `cp.async`. A read before the wait, or with no wait at all,
// races with the copy. The stub headers declare the toolkit's names
// (test/Inputs/include); plugin/bulk-toolkit.test runs the same kernels on
// the real headers.

#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <stdint.h>
#include <utility>
using block_barrier = cuda::barrier<cuda::thread_scope_block>;
namespace ptx = cuda::ptx;

// --- libcu++: cuda::device::memcpy_async_tx on a cuda::barrier ---------------

// The read comes before the wait: thread 255 reads tile[0] while thread 0's
// copy may still be in flight.
__global__ void txReadBeforeWait(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ block_barrier bar;
  int t = threadIdx.x;
  if (t == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (t == 0) {
    cuda::device::memcpy_async_tx(tile, in, cuda::aligned_size_t<16>(sizeof(tile)),
                                  bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  out[t] = tile[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-8]]:35: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) copies asynchronously (cuda::device::memcpy_async_tx) into 'tile[0]' and thread (255,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-10]]:35: note: the asynchronous copy is in flight until the phase of its barrier completes; a thread sees it once its own wait on that phase returns
  bar.wait(std::move(token));
}

// Fixed: every thread waits on the phase before it reads.
__global__ void txReadAfterWait(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ block_barrier bar;
  int t = threadIdx.x;
  if (t == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  block_barrier::arrival_token token;
  if (t == 0) {
    cuda::device::memcpy_async_tx(tile, in, cuda::aligned_size_t<16>(sizeof(tile)),
                                  bar);
    token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
  } else {
    token = bar.arrive();
  }
  bar.wait(std::move(token));
  out[t] = tile[255 - t];
}

// The programming guide's one-dimensional form: cuda::memcpy_async from one
// thread on the barrier, split arrive and wait. The wait completes the copy
// for every waiter; correct.
__global__ void guideCopyThenWait(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ block_barrier bar;
  int t = threadIdx.x;
  if (t == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  if (t == 0)
    cuda::memcpy_async(tile, in, sizeof(tile), bar);
  block_barrier::arrival_token token = bar.arrive();
  bar.wait(std::move(token));
  out[t] = tile[255 - t];
}

// --- cuda::ptx: cp_async_bulk with an mbarrier -------------------------------

// Fixed: thread 0 arms the mbarrier with the bytes and issues the copy;
// everybody spins on the phase, then reads.
__global__ void ptxBulkWait(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ uint64_t mbar;
  int t = threadIdx.x;
  __syncthreads();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &mbar, sizeof(tile));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in,
                       sizeof(tile), &mbar);
  }
  while (!ptx::mbarrier_try_wait_parity(&mbar, 0))
    ;
  out[t] = tile[255 - t];
}

// The threads read before they wait.
__global__ void ptxBulkReadFirst(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ uint64_t mbar;
  int t = threadIdx.x;
  __syncthreads();
  if (t == 0) {
    ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta,
                                   ptx::space_shared, &mbar, sizeof(tile));
    ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, tile, in,
                       sizeof(tile), &mbar);
  }
  int v = tile[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:11: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:63: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:11: note: for example, thread (0,0,0) copies asynchronously (cuda::ptx::cp_async_bulk) into 'tile[0]' and thread (255,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-7]]:63: note: the asynchronous copy is in flight until the phase of its barrier completes; a thread sees it once its own wait on that phase returns
  while (!ptx::mbarrier_try_wait_parity(&mbar, 0))
    ;
  out[t] = v;
}

// --- Inline PTX: cp.async.bulk and mbarrier.try_wait -------------------------

// The wait, written as the usual loop around try_wait, in a helper.
__device__ __forceinline__ void waitPhase(unsigned bar, unsigned phase) {
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
               "@P1 bra DONE;\n"
               "bra LAB_WAIT;\n"
               "DONE:\n"
               "}" ::"r"(bar),
               "r"(phase)
               : "memory");
}

// Thread 0's arrival, which also tells the phase how many bytes to expect.
__device__ __forceinline__ void armPhase(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   bar),
               "r"(bytes)
               : "memory");
}

// Fixed: every thread waits for the phase, through the helper.
__global__ void asmBulkWait(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ alignas(8) unsigned long long mbar;
  int t = threadIdx.x;
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  __syncthreads();
  if (t == 0) {
    armPhase(bar, sizeof(tile));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(in), "r"(1024), "r"(bar)
                 : "memory");
  }
  waitPhase(bar, 0);
  out[t] = tile[255 - t];
}

// A block barrier is no wait: the copy crosses it in flight.
__global__ void asmBulkBarrierOnly(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ alignas(8) unsigned long long mbar;
  int t = threadIdx.x;
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  __syncthreads();
  if (t == 0) {
    armPhase(bar, sizeof(tile));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(in), "r"(1024), "r"(bar)
                 : "memory");
  }
  __syncthreads();
  out[t] = tile[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-12]]:65: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) copies asynchronously (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes) into 'tile[0]' and thread (255,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-14]]:65: note: the asynchronous copy is in flight until the phase of its barrier completes; a thread sees it once its own wait on that phase returns
}

// Only thread 0 waits; the others read what may still be in flight.
__global__ void asmBulkOneWaiter(const int *in, int *out) {
  __shared__ alignas(16) int tile[256];
  __shared__ alignas(8) unsigned long long mbar;
  int t = threadIdx.x;
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  __syncthreads();
  if (t == 0) {
    armPhase(bar, sizeof(tile));
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(in), "r"(1024), "r"(bar)
                 : "memory");
    waitPhase(bar, 0);
  }
  out[t] = tile[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-12]]:65: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) copies asynchronously (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes) into 'tile[0]' and thread (255,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-14]]:65: note: the asynchronous copy is in flight until the phase of its barrier completes; a thread sees it once its own wait on that phase returns
}

void launchAll(const int *in, int *out) {
  txReadBeforeWait<<<1, 256>>>(in, out);
  txReadAfterWait<<<1, 256>>>(in, out);
  guideCopyThenWait<<<1, 256>>>(in, out);
  ptxBulkWait<<<1, 256>>>(in, out);
  ptxBulkReadFirst<<<1, 256>>>(in, out);
  asmBulkWait<<<1, 256>>>(in, out);
  asmBulkBarrierOnly<<<1, 256>>>(in, out);
  asmBulkOneWaiter<<<1, 256>>>(in, out);
}
