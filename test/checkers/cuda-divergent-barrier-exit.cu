// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Early exits decided on the control flow, not on the spelling: threads that
// skip a barrier and reach the end of the kernel without meeting a barrier
// or touching shared memory have left, and on sm_70 and later no longer
// take part in barriers. Each silent kernel has a reported twin below it.

#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// The guard wraps the rest of the kernel: the same program as
// `if (i >= n) return;`.
__global__ void wrappingGuard(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x ^ 1];
  }
}

// More code after the guard: the threads that skipped it run it while the
// others wait.
__global__ void wrappingGuardThenMore(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
    a[i] = s[threadIdx.x ^ 1];
  }
  a[blockIdx.x] = 0.0f;
}

// A barrier after the guard: the skipping threads wait at another barrier.
__global__ void wrappingGuardThenBarrier(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
  }
  __syncthreads();
}

// The other side does work of its own that no other thread sees, then ends.
__global__ void guardWithPrivateElse(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x ^ 1];
  } else {
    a[i] = 0.0f;
  }
}

// The other side touches shared memory: other threads can see it.
__global__ void guardWithSharedElse(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
    a[i] = s[threadIdx.x ^ 1];
  } else {
    s[threadIdx.x] = 0.0f;
  }
}

// The other side waits in a loop: it has not left.
__global__ void guardWithSpinningElse(float *a, volatile int *flag, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
    a[i] = s[threadIdx.x ^ 1];
  } else {
    while (*flag == 0) {
    }
  }
}

// A grid-stride loop at the kernel's tail: a thread whose next index is past
// the end goes straight to the end of the kernel.
__global__ void gridStrideTail(float *a, int n) {
  __shared__ float s[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x ^ 1];
    __syncthreads();
  }
}

// The same loop with a barrier after it.
__global__ void gridStrideThenBarrier(float *a, int n) {
  __shared__ float s[256];
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += blockDim.x * gridDim.x) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-5]]:55: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-6]]:55: note: for example, threads of one block disagree on it when {{.*}}
    a[i] = s[threadIdx.x ^ 1];
  }
  __syncthreads();
}

// A `break` to the end of the kernel.
__global__ void breakToTheEnd(const float *a, int n) {
  __shared__ float s[256];
  for (int k = 0; k < n; ++k) {
    if (a[k * blockDim.x + threadIdx.x] < 0.0f)
      break;
    s[threadIdx.x] = a[k];
    __syncthreads();
  }
}

// A guard in a __device__ helper: its threads return to the caller, which
// here has more to do.
__device__ void guardedStep(float *s, const float *a, int i, int n) {
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
  }
}

__global__ void helperThenMore(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  guardedStep(s, a, i, n);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'guardedStep' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-11]]:7: note: whether 'guardedStep' reaches the barrier depends on this condition, which depends on parameter 'i'
  // CHECK-NOTES: :[[@LINE-3]]:21: note: the argument for 'i' differs between threads: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES: :[[@LINE-11]]:5: note: barrier '__syncthreads' is reached here
  a[i] = s[threadIdx.x ^ 1];
}

// The leaving side calls a builtin on its way out: no other thread sees it.
__global__ void exitAfterBuiltin(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    a[i] = __builtin_inff();
    return;
  }
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[threadIdx.x ^ 1];
}

// It calls a function of the program: that may wait or touch shared memory.
__device__ void markUnused(float *a, int i);

__global__ void exitAfterUserCall(float *a, int n) {
  __shared__ float s[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) {
    markUnused(a, i);
    return;
  }
  s[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES: :[[@LINE-8]]:7: note: for example, threads of one block disagree on it when {{.*}}
  a[i] = s[threadIdx.x ^ 1];
}

// --- What the threads that stay read ---------------------------------------

// A block reduction under the guard: every thread sums all the slots, and in
// the last, partial block the threads that left never wrote theirs.
__global__ void sumUnderGuard(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    partial[threadIdx.x] = in[i];
    __syncthreads();
    float total = 0.0f;
    for (int k = 0; k < 256; ++k)
      total += partial[k];
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: after the barrier every thread reads elements of 'partial' that threads which left the kernel early may never have written [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-7]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-7]]:5: note: each thread that stays writes only its own element of 'partial' here
    out[i] = total;
  }
}

// The same with an early return.
__global__ void sumAfterReturn(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  partial[threadIdx.x] = in[i];
  __syncthreads();
  float total = 0.0f;
  for (int k = 0; k < 256; ++k)
    total += partial[k];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: after the barrier every thread reads elements of 'partial' that threads which left the kernel early may never have written [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-8]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'partial' here
  out[i] = total;
}

// Every slot written before the guard: nothing is missing.
__global__ void sumWrittenBeforeGuard(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0.0f;
  if (i < n) {
    __syncthreads();
    float total = 0.0f;
    for (int k = 0; k < 256; ++k)
      total += partial[k];
    out[i] = total;
  }
}

// --- A guard that is all a loop does -----------------------------------------

// Rows past the end skip every iteration of the batch loop (the guard reads
// nothing the loop changes), meet no barrier, touch no shared memory and
// leave when the loop ends: the same program as an early return.
__global__ void batchLoopGuard(const float *a, float *out, int m,
                               int batches) {
  __shared__ float s[256];
  for (int b = blockIdx.z; b < batches; b += gridDim.z) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < m) {
      s[threadIdx.x] = a[b * m + row];
      __syncthreads();
      out[b * m + row] = s[threadIdx.x ^ 1];
      __syncthreads();
    }
  }
}

// A barrier after the loop: the rows that skipped wait there instead.
__global__ void batchLoopGuardThenBarrier(const float *a, float *out, int m,
                                          int batches) {
  __shared__ float s[256];
  for (int b = blockIdx.z; b < batches; b += gridDim.z) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < m) {
      s[threadIdx.x] = a[b * m + row];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-4]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
      // CHECK-NOTES: :[[@LINE-5]]:9: note: for example, threads of one block disagree on it when {{.*}}
      out[b * m + row] = s[threadIdx.x ^ 1];
    }
  }
  __syncthreads();
}

// The guard changes with the iteration: a thread may skip one and stay for
// the next, and the others wait for it at the barrier meanwhile.
__global__ void batchLoopMovingGuard(const float *a, float *out, int m,
                                     int batches) {
  __shared__ float s[256];
  for (int b = 0; b < batches; ++b) {
    int row = b * blockDim.y + threadIdx.y;
    if (row < m) {
      s[threadIdx.x] = a[row];
      __syncthreads();
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-4]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
      // CHECK-NOTES: :[[@LINE-5]]:9: note: for example, threads of one block disagree on it when {{.*}}
      out[row] = s[threadIdx.x ^ 1];
    }
  }
}

// The batch loop in a helper the kernel calls last (CUTLASS's GEMV functor):
// a call to a function with an empty body after it (CUTLASS's
// `synclog_print()` without its debug macro) does nothing, so the helper's
// skipping rows still leave the kernel.
__device__ void batchRows(const float *a, float *out, int m, int batches) {
  __shared__ float s[256];
  for (int b = blockIdx.z; b < batches; b += gridDim.z) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row < m) {
      s[threadIdx.x] = a[b * m + row];
      __syncthreads();
      // Reported for batchHelperThenWork, silent for batchHelperThenEmptyCall:
      // CHECK-NOTES: :[[@LINE-2]]:7: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
      // CHECK-NOTES: :[[@LINE-5]]:9: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
      out[b * m + row] = s[threadIdx.x ^ 1];
    }
  }
}
__device__ void debugHook() {}
__device__ void countingHook(int *calls) { atomicAdd(calls, 1); }

__global__ void batchHelperThenEmptyCall(const float *a, float *out, int m,
                                         int batches) {
  batchRows(a, out, m, batches);
  debugHook();
}

// A call that does something follows: the helper's call is not the kernel's
// last action, and its skipping rows are not known to have left.
__global__ void batchHelperThenWork(const float *a, float *out, int m,
                                    int batches, int *calls) {
  batchRows(a, out, m, batches);
  countingHook(calls);
}

// An exit on `threadIdx.y >= k` where every launch makes the block exactly k
// threads high (ggml's solve_tri.cu): no thread leaves, every slot is
// written. The bound is a template argument fixed by the `case` the launch
// is under, or the parameter the launch passes the block's own height in.
template <int kTemplate>
__global__ void columnsOfLaunchHeight(const float *a, float *x, int kArg) {
  const int k = kTemplate == 0 ? kArg : kTemplate;
  const int column = threadIdx.y;
  if (column >= k)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  x[column * 32 + threadIdx.x] = sum;
}

void launchColumnsOfLaunchHeight(const float *a, float *x, int k) {
  dim3 threads(32, k);
  switch (k) {
  case 16:
    columnsOfLaunchHeight<16><<<1, threads>>>(a, x, 0);
    break;
  case 8:
    columnsOfLaunchHeight<8><<<1, threads>>>(a, x, 0);
    break;
  default:
    columnsOfLaunchHeight<0><<<1, threads>>>(a, x, k);
  }
}

// The same kernel body, but one launch's block is higher than the bound
// (32 rows for k = 4): the rows past k leave and their slots stay unwritten.
__global__ void columnsUnderFixedHeight(const float *a, float *x, int k) {
  const int column = threadIdx.y;
  if (column >= k)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.y' through 'column'
  // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'tile' here
  x[column * 32 + threadIdx.x] = sum;
}

// A template bound whose `case` falls through from another label: k may be 4
// there, so the launch's height is not known to be the bound.
template <int kTemplate>
__global__ void columnsUnderFallThrough(const float *a, float *x) {
  const int column = threadIdx.y;
  if (column >= kTemplate)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.y' through 'column'
  // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'tile' here
  x[column * 32 + threadIdx.x] = sum;
}

void launchFixedHeights(const float *a, float *x, int k) {
  columnsUnderFixedHeight<<<1, dim3(32, k)>>>(a, x, k);
  columnsUnderFixedHeight<<<1, dim3(32, 32)>>>(a, x, 4);
  dim3 threads(32, k);
  switch (k) {
  case 4:
    x[0] = 0.0f;
  case 8:
    columnsUnderFallThrough<8><<<1, threads>>>(a, x);
    break;
  }
}

// Destructors run on the way out. A local whose destructor writes shared
// memory when the kernel's scope ends: the threads that skip the guard run
// it while the others wait at the barrier.
struct SharedWriteOnExit {
  float *slot;
  __device__ ~SharedWriteOnExit() { *slot = 1.0f; }
};
__global__ void wrappingGuardBesideSharedDestructor(float *a, int n) {
  __shared__ float s[257];
  SharedWriteOnExit last{&s[256]};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    s[threadIdx.x] = a[i];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
    // CHECK-NOTES: :[[@LINE-5]]:7: note: for example, threads of one block disagree on it when {{.*}}
    a[i] = s[threadIdx.x ^ 1];
  }
}

// A destructor that waits at a barrier, run by the threads that return.
struct BarrierOnExit {
  __device__ ~BarrierOnExit() { __syncthreads(); }
};
__global__ void earlyReturnBesideSyncingDestructor(float *a, int n) {
  __shared__ float s[256];
  BarrierOnExit last;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES: :[[@LINE-6]]:7: note: for example, threads of one block disagree on it when {{.*}}
  a[i] = s[threadIdx.x ^ 1];
}

// Silent: an empty destructor does nothing on the way out, and one in the
// guard's own scope runs only in the threads that stayed.
struct NothingOnExit {
  int tag;
  __device__ ~NothingOnExit() {}
};
__global__ void earlyReturnBesideEmptyDestructor(float *a, int n) {
  __shared__ float s[256];
  NothingOnExit last{1};
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x] = a[i];
  __syncthreads();
  a[i] = s[threadIdx.x ^ 1];
}
__global__ void wrappingGuardWithInnerDestructor(float *a, int n) {
  __shared__ float s[257];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    SharedWriteOnExit last{&s[256]};
    s[threadIdx.x] = a[i];
    __syncthreads();
    a[i] = s[threadIdx.x ^ 1];
  }
}

// CUTLASS's generic kernel (device_kernel.h): a local functor, an operator
// call on it, then `synclog_print()`, empty without its debug macro. The
// functor's batch loop is guarded as in the GEMV (gemv_blockscaled.h): the
// rows past m skip every iteration and return. The operator call is the
// kernel's last action, so those rows then leave the kernel. Each functor
// has its own operator(), so that each kernel's verdict shows on its own.
struct GemvParams {
  const float *a;
  float *out;
  int m;
  int batches;
};
struct GemvShared {
  float s[256];
  float flag;
};
__device__ void synclogPrint() {}

template <typename Operator>
__global__ void cutlassKernel(GemvParams params) {
  extern __shared__ int storageBase[];
  GemvShared *storage = reinterpret_cast<GemvShared *>(storageBase);
  Operator op;
  op(params, *storage);
  synclogPrint();
}

struct GemvOp {
  __device__ void operator()(const GemvParams &p, GemvShared &storage) {
    const int m = p.m;
    const int batches = p.batches;
    for (int b = blockIdx.z; b < batches; b += gridDim.z) {
      int row = blockIdx.x * blockDim.y + threadIdx.y;
      if (row < m) {
        storage.s[threadIdx.x] = p.a[b * m + row];
        __syncthreads();
        p.out[b * m + row] = storage.s[threadIdx.x ^ 1];
      }
    }
  }
};

// A destructor with an empty body does nothing at the kernel's end.
struct GemvOpEmptyDestructor {
  __device__ ~GemvOpEmptyDestructor() {}
  __device__ void operator()(const GemvParams &p, GemvShared &storage) {
    const int m = p.m;
    const int batches = p.batches;
    for (int b = blockIdx.z; b < batches; b += gridDim.z) {
      int row = blockIdx.x * blockDim.y + threadIdx.y;
      if (row < m) {
        storage.s[threadIdx.x] = p.a[b * m + row];
        __syncthreads();
        p.out[b * m + row] = storage.s[threadIdx.x ^ 1];
      }
    }
  }
};

// The twins: the skipping rows do something after the operator call, so
// the stayers' barrier waits for threads that have not left.

// A barrier in the kernel after the call.
struct GemvOpThenBarrier {
  __device__ void operator()(const GemvParams &p, GemvShared &storage) {
    const int m = p.m;
    const int batches = p.batches;
    for (int b = blockIdx.z; b < batches; b += gridDim.z) {
      int row = blockIdx.x * blockDim.y + threadIdx.y;
      if (row < m) {
        storage.s[threadIdx.x] = p.a[b * m + row];
        __syncthreads();
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
        // CHECK-NOTES: :[[@LINE-4]]:11: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
        p.out[b * m + row] = storage.s[threadIdx.x ^ 1];
      }
    }
  }
};
__global__ void cutlassKernelThenBarrier(GemvParams params) {
  extern __shared__ int storageBase[];
  GemvShared *storage = reinterpret_cast<GemvShared *>(storageBase);
  GemvOpThenBarrier op;
  op(params, *storage);
  __syncthreads();
}

// Shared memory written in the kernel after the call.
struct GemvOpThenShared {
  __device__ void operator()(const GemvParams &p, GemvShared &storage) {
    const int m = p.m;
    const int batches = p.batches;
    for (int b = blockIdx.z; b < batches; b += gridDim.z) {
      int row = blockIdx.x * blockDim.y + threadIdx.y;
      if (row < m) {
        storage.s[threadIdx.x] = p.a[b * m + row];
        __syncthreads();
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
        // CHECK-NOTES: :[[@LINE-4]]:11: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
        p.out[b * m + row] = storage.s[threadIdx.x ^ 1];
      }
    }
  }
};
__global__ void cutlassKernelThenShared(GemvParams params) {
  extern __shared__ int storageBase[];
  GemvShared *storage = reinterpret_cast<GemvShared *>(storageBase);
  GemvOpThenShared op;
  op(params, *storage);
  storage->flag = 1.0f;
}

// The functor's destructor waits at a barrier when the kernel's scope ends,
// after the call: the call is not the kernel's last action.
struct GemvOpSyncingDestructor {
  __device__ ~GemvOpSyncingDestructor() { __syncthreads(); }
  __device__ void operator()(const GemvParams &p, GemvShared &storage) {
    const int m = p.m;
    const int batches = p.batches;
    for (int b = blockIdx.z; b < batches; b += gridDim.z) {
      int row = blockIdx.x * blockDim.y + threadIdx.y;
      if (row < m) {
        storage.s[threadIdx.x] = p.a[b * m + row];
        __syncthreads();
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
        // CHECK-NOTES: :[[@LINE-4]]:11: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
        p.out[b * m + row] = storage.s[threadIdx.x ^ 1];
      }
    }
  }
};

// Another local, declared before the functor, writes shared memory in its
// destructor at the kernel's end.
struct SharedFlagOnExit {
  GemvShared *storage;
  __device__ ~SharedFlagOnExit() { storage->flag = 1.0f; }
};
struct GemvOpBesideSharedDestructor {
  __device__ void operator()(const GemvParams &p, GemvShared &storage) {
    const int m = p.m;
    const int batches = p.batches;
    for (int b = blockIdx.z; b < batches; b += gridDim.z) {
      int row = blockIdx.x * blockDim.y + threadIdx.y;
      if (row < m) {
        storage.s[threadIdx.x] = p.a[b * m + row];
        __syncthreads();
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
        // CHECK-NOTES: :[[@LINE-4]]:11: note: threads of a block may disagree on this condition: it depends on 'threadIdx.y' through 'row'
        p.out[b * m + row] = storage.s[threadIdx.x ^ 1];
      }
    }
  }
};
__global__ void cutlassKernelBesideSharedDestructor(GemvParams params) {
  extern __shared__ int storageBase[];
  GemvShared *storage = reinterpret_cast<GemvShared *>(storageBase);
  SharedFlagOnExit flag{storage};
  GemvOpBesideSharedDestructor op;
  op(params, *storage);
  synclogPrint();
}

void launchCutlassKernels(GemvParams params) {
  cutlassKernel<GemvOp><<<1, dim3(32, 8), sizeof(GemvShared)>>>(params);
  cutlassKernel<GemvOpEmptyDestructor>
      <<<1, dim3(32, 8), sizeof(GemvShared)>>>(params);
  cutlassKernel<GemvOpSyncingDestructor>
      <<<1, dim3(32, 8), sizeof(GemvShared)>>>(params);
}
