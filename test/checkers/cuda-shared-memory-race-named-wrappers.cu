// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Named barriers in warp-specialised kernels, and synchronisation written
// through wrappers (issue 23, sketch 8).
//
// A named barrier with a thread count is met by different roles through
// different instructions: producers that only arrive (`bar.arrive 1, 128`)
// and consumers that wait (`bar.sync 1, 128`). What a producer wrote before
// arriving is ordered before what a consumer does after waiting; what it
// writes after arriving, and what the two roles do after both passed the
// barrier, is ordered against nothing.
//
// A helper whose body is one such instruction (or one asynchronous copy,
// commit or wait; ggml's `cp_async_cg_16<preload>`, flashinfer's
// `cp_async::load_128b`, CUTLASS's `NamedBarrier::arrive`) is read as that
// instruction at each call, with its parameters standing for the call's
// arguments.

#include <cuda_runtime.h>

// --- Named barriers, inline PTX ----------------------------------------------

// The producers arrive before they store: a consumer's bar.sync can return
// before the stores.
__global__ void arriveBeforeStore(const int *in, int *out) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  if (t < 64) {
    asm volatile("bar.arrive 1, 128;" ::: "memory");
    buf[t] = 2 * in[t];
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[t - 64] = buf[127 - t];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: read after write race on shared 'buf': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:19: note: for example, thread (0,0,0) writes 'buf[0]' and thread (127,0,0) reads it, with blockDim (128,1,1)
  }
}

// Fixed: store, then arrive.
__global__ void storeThenArrive(const int *in, int *out) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  if (t < 64) {
    buf[t] = 2 * in[t];
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[t - 64] = buf[127 - t];
  }
}

// Both roles pass the named barrier, then the producers overwrite what the
// consumers read after it: nothing orders the two.
__global__ void bothPassThenOverwrite(const int *in, int *out) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  if (t < 64) {
    buf[t] = in[t];
    asm volatile("bar.sync 1, 128;" ::: "memory");
    buf[t] = 0;
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[t - 64] = buf[127 - t];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: read after write race on shared 'buf': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:19: note: for example, thread (0,0,0) writes 'buf[0]' and thread (127,0,0) reads it, with blockDim (128,1,1)
  }
}

// --- Named barriers through wrappers (CUTLASS's NamedBarrier) ----------------

struct NamedBarrier {
  static __device__ void sync(unsigned threads, unsigned id) {
    asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
  }
  static __device__ void arrive(unsigned threads, unsigned id) {
    asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
  }
};

__global__ void wrappedArriveBeforeStore(const int *in, int *out) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  if (t < 64) {
    NamedBarrier::arrive(128, 1);
    buf[t] = 2 * in[t];
  } else {
    NamedBarrier::sync(128, 1);
    out[t - 64] = buf[127 - t];
    // CHECK-NOTES: :[[@LINE-1]]:19: warning: read after write race on shared 'buf': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-5]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:19: note: for example, thread (0,0,0) writes 'buf[0]' and thread (127,0,0) reads it, with blockDim (128,1,1)
  }
}

__global__ void wrappedStoreThenArrive(const int *in, int *out) {
  __shared__ int buf[64];
  int t = threadIdx.x;
  if (t < 64) {
    buf[t] = 2 * in[t];
    NamedBarrier::arrive(128, 1);
  } else {
    NamedBarrier::sync(128, 1);
    out[t - 64] = buf[127 - t];
  }
}

// --- Asynchronous copies through wrappers ------------------------------------

// ggml's spelling: the destination is a 32-bit shared address the caller
// made (through a helper of its own) and offset.
static __device__ __forceinline__ unsigned toShared(void *p) {
  return __cvta_generic_to_shared(p);
}
template <int preload>
static __device__ __forceinline__ void cp_async_cg_16(unsigned dst,
                                                      const void *src) {
  if (preload == 64) {
    asm volatile("cp.async.cg.shared.global.L2::64B [%0], [%1], 16;"
                 :
                 : "r"(dst), "l"(src));
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                 :
                 : "r"(dst), "l"(src));
  }
}
static __device__ __forceinline__ void cp_async_commit_group() {
  asm volatile("cp.async.commit_group;");
}
template <int N>
static __device__ __forceinline__ void cp_async_wait_group() {
  asm volatile("cp.async.wait_group %0;" : : "n"(N));
}

// The wait completes this thread's own copy only.
__global__ void wrappedCopyNoBarrier(const int4 *in, int4 *out) {
  __shared__ int4 tile[128];
  int t = threadIdx.x;
  unsigned base = toShared(tile);
  cp_async_cg_16<64>(base + t * sizeof(int4), in + t);
  cp_async_commit_group();
  cp_async_wait_group<0>();
  out[t] = tile[127 - t];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-6]]:28: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (127,0,0) copies asynchronously (cp.async.cg.shared.global.L2::64B) into 'tile[127].x' and thread (0,0,0) reads it, with blockDim (128,1,1)
  // CHECK-NOTES: :[[@LINE-8]]:28: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// Fixed: wait, then barrier.
__global__ void wrappedCopyWaitBarrier(const int4 *in, int4 *out) {
  __shared__ int4 tile[128];
  int t = threadIdx.x;
  unsigned base = toShared(tile);
  cp_async_cg_16<0>(base + t * sizeof(int4), in + t);
  cp_async_commit_group();
  cp_async_wait_group<0>();
  __syncthreads();
  out[t] = tile[127 - t];
}

// flashinfer's spelling: a pointer parameter, converted inside.
__device__ __forceinline__ void load_128b(void *smem, const void *gmem) {
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr),
               "l"(gmem));
}

// Fixed: each thread reads only its own copy, after its wait.
__global__ void wrappedOwnCopy(const int4 *in, int4 *out) {
  __shared__ int4 tile[128];
  int t = threadIdx.x;
  load_128b(&tile[t], in + t);
  cp_async_commit_group();
  cp_async_wait_group<0>();
  out[t] = tile[t];
}

// The second batch is still in flight after wait_group<1>.
__global__ void wrappedSecondBatchInFlight(const int4 *in, int4 *out) {
  __shared__ int4 tile[2][128];
  int t = threadIdx.x;
  load_128b(&tile[0][t], in + t);
  cp_async_commit_group();
  load_128b(&tile[1][t], in + 128 + t);
  cp_async_commit_group();
  cp_async_wait_group<1>();
  __syncthreads();
  out[t] = tile[1][127 - t];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-6]]:13: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (127,0,0) copies asynchronously (cp.async.cg.shared.global) into 'tile[1][127].x' and thread (0,0,0) reads it, with blockDim (128,1,1)
  // CHECK-NOTES: :[[@LINE-8]]:13: note: the asynchronous copy is in flight until '__pipeline_wait_prior', 'cooperative_groups::wait' or 'cp.async.wait_group' completes it; only a barrier after that orders it for the other threads
}

// A copy under a condition of the helper is not a wrapper's: the helper is
// not read as a copy (silent, a known limit).
__device__ __forceinline__ void pred_load_128b(void *smem, const void *gmem,
                                               bool pred) {
  unsigned addr = static_cast<unsigned>(__cvta_generic_to_shared(smem));
  if (pred)
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(addr),
                 "l"(gmem));
}

__global__ void predicatedCopyNotRead(const int4 *in, int4 *out) {
  __shared__ int4 tile[128];
  int t = threadIdx.x;
  pred_load_128b(&tile[t], in + t, true);
  cp_async_commit_group();
  __syncthreads();
  out[t] = tile[127 - t];
}

void launchAll(const int *in, int *out, const int4 *in4, int4 *out4) {
  arriveBeforeStore<<<1, 128>>>(in, out);
  storeThenArrive<<<1, 128>>>(in, out);
  bothPassThenOverwrite<<<1, 128>>>(in, out);
  wrappedArriveBeforeStore<<<1, 128>>>(in, out);
  wrappedStoreThenArrive<<<1, 128>>>(in, out);
  wrappedCopyNoBarrier<<<1, 128>>>(in4, out4);
  wrappedCopyWaitBarrier<<<1, 128>>>(in4, out4);
  wrappedOwnCopy<<<1, 128>>>(in4, out4);
  wrappedSecondBatchInFlight<<<1, 128>>>(in4, out4);
  predicatedCopyNotRead<<<1, 128>>>(in4, out4);
}
