// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Helpers that reach a barrier inside a loop or a branch (issue 22, shapes a
// and c). A helper's accesses that may run before its first barrier run
// before the call's barrier, those that may run after its last run after
// it, wherever in the helper's CFG those barriers are; the rest are ordered
// by the helper's own barriers. Two calls with nothing between therefore
// race on what the first call reads last and the second writes first.

#include <cuda_runtime.h>

// --- Shape c: two block reductions on one buffer ---------------------------

__device__ float blockReduce(float *buf, float x) {
  buf[threadIdx.x] = x;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  return buf[0];
}

// The same helper, with a barrier at its entry: consecutive calls are safe.
__device__ float blockReduceEntrySync(float *buf, float x) {
  __syncthreads();
  buf[threadIdx.x] = x;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  return buf[0];
}

__global__ void meanAndSquares(const float *in, float *out) {
  __shared__ float buf[256];
  float x = in[threadIdx.x];
  float sum = blockReduce(buf, x);
  float squares = blockReduce(buf, x * x);
  // CHECK-NOTES: :[[@LINE-1]]:19: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-29]]:3: note: the write is made here, inside 'blockReduce'
  // CHECK-NOTES: :[[@LINE-4]]:15: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-24]]:10: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-5]]:19: note: for example, thread (1,0,0) reads 'buf[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  if (threadIdx.x == 0) {
    out[0] = sum;
    out[1] = squares;
  }
}

__global__ void meanAndSquaresSynced(const float *in, float *out) {
  __shared__ float buf[256];
  float x = in[threadIdx.x];
  float sum = blockReduce(buf, x);
  __syncthreads();
  float squares = blockReduce(buf, x * x);
  if (threadIdx.x == 0) {
    out[0] = sum;
    out[1] = squares;
  }
}

__global__ void meanAndSquaresEntrySync(const float *in, float *out) {
  __shared__ float buf[256];
  float x = in[threadIdx.x];
  float sum = blockReduceEntrySync(buf, x);
  float squares = blockReduceEntrySync(buf, x * x);
  if (threadIdx.x == 0) {
    out[0] = sum;
    out[1] = squares;
  }
}

__global__ void meanAndSquaresTwoBuffers(const float *in, float *out) {
  __shared__ float a[256], b[256];
  float x = in[threadIdx.x];
  float sum = blockReduce(a, x);
  float squares = blockReduce(b, x * x);
  if (threadIdx.x == 0) {
    out[0] = sum;
    out[1] = squares;
  }
}

// The same fact written as a loop of calls: the next iteration's first store
// against this iteration's read of buf[0].
__global__ void sumOfRows(const float *in, float *out, int rows) {
  __shared__ float buf[256];
  float total = 0;
  for (int r = 0; r < rows; ++r)
    total += blockReduce(buf, in[r * 256 + threadIdx.x]);
    // CHECK-NOTES: :[[@LINE-1]]:14: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-81]]:3: note: the write is made here, inside 'blockReduce'
    // CHECK-NOTES: :[[@LINE-75]]:10: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-4]]:14: note: for example, thread (1,0,0) reads 'buf[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  if (threadIdx.x == 0)
    out[0] = total;
}

__global__ void sumOfRowsSynced(const float *in, float *out, int rows) {
  __shared__ float buf[256];
  float total = 0;
  for (int r = 0; r < rows; ++r) {
    total += blockReduce(buf, in[r * 256 + threadIdx.x]);
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[0] = total;
}

// ... as a static member of a class template, with the block size a template
// argument ...
template <int Threads> struct Reducer {
  __device__ static float run(float *buf, float x) {
    buf[threadIdx.x] = x;
    __syncthreads();
#pragma unroll
    for (int s = Threads / 2; s > 0; s >>= 1) {
      if (threadIdx.x < s)
        buf[threadIdx.x] += buf[threadIdx.x + s];
      __syncthreads();
    }
    return buf[0];
  }
};

__global__ void twoTemplateReductions(const float *in, float *out) {
  __shared__ float buf[256];
  float x = in[threadIdx.x];
  float first = Reducer<256>::run(buf, x);
  float second = Reducer<256>::run(buf, x + 1.0f);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-18]]:5: note: the write is made here, inside 'run'
  // CHECK-NOTES: :[[@LINE-4]]:17: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-12]]:12: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-5]]:18: note: for example, thread (1,0,0) reads 'buf[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  if (threadIdx.x == 0)
    out[0] = first + second;
}

// ... and through a macro.
#define BLOCK_SUM(b, v) blockReduce(b, v)

__global__ void twoMacroReductions(const float *in, float *out) {
  __shared__ float buf[256];
  float x = in[threadIdx.x];
  float first = BLOCK_SUM(buf, x);
  float second = BLOCK_SUM(buf, x + 1.0f);
  // CHECK-NOTES: :[[@LINE-1]]:18: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-8]]:25: note: expanded from macro 'BLOCK_SUM'
  // CHECK-NOTES: :[[@LINE-139]]:3: note: the write is made here, inside 'blockReduce'
  // CHECK-NOTES: :[[@LINE-5]]:17: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-11]]:25: note: expanded from macro 'BLOCK_SUM'
  // CHECK-NOTES: :[[@LINE-135]]:10: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-7]]:18: note: for example, thread (1,0,0) reads 'buf[0]' and thread (0,0,0) writes it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-14]]:25: note: expanded from macro 'BLOCK_SUM'
  if (threadIdx.x == 0)
    out[0] = first + second;
}

// --- Shape a: a helper's own shared scalar, updated in a loop ---------------

// Thread N - 1 stores the running total while the others still read it in
// the same iteration: the barrier is after the store, not between.
template <int N> struct Prefix {
  __device__ static void sum(int *d, int n) {
    __shared__ int total;
    if (threadIdx.x == 0)
      total = 0;
    __syncthreads();
    int v = d[threadIdx.x];
    for (int i = 0; i < n; ++i) {
      v += total;
      if (threadIdx.x == N - 1)
        total = v;
        // CHECK-NOTES: :[[@LINE-1]]:9: warning: write after read race on shared 'total': no barrier orders this write after another thread's read [cuda-shared-memory-race]
        // CHECK-NOTES: :[[@LINE-4]]:12: note: the other thread's read is here
        // CHECK-NOTES: :[[@LINE-3]]:9: note: for example, thread (0,0,0) reads 'total' and thread (255,0,0) writes it, with blockDim (256,1,1)
        // CHECK-NOTES: :[[@LINE+26]]:47: note: 'sum' is analysed as this call runs it, with its arguments and by every thread of the block
      __syncthreads();
    }
    d[threadIdx.x] = v;
  }
};

// Fixed: a barrier between the reads and the store.
template <int N> struct PrefixFixed {
  __device__ static void sum(int *d, int n) {
    __shared__ int total;
    if (threadIdx.x == 0)
      total = 0;
    __syncthreads();
    int v = d[threadIdx.x];
    for (int i = 0; i < n; ++i) {
      v += total;
      __syncthreads();
      if (threadIdx.x == N - 1)
        total = v;
      __syncthreads();
    }
    d[threadIdx.x] = v;
  }
};

__global__ void prefixRounds(int *d, int n) { Prefix<256>::sum(d, n); }
__global__ void prefixRoundsFixed(int *d, int n) { PrefixFixed<256>::sum(d, n); }

// The same as a free function, with the loop's bound from the caller.
__device__ void prefixFree(int *d, int n) {
  __shared__ int total;
  if (threadIdx.x == 0)
    total = 0;
  __syncthreads();
  int v = d[threadIdx.x];
  for (int i = 0; i < n; ++i) {
    v += total;
    if (threadIdx.x == 255)
      total = v;
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'total': no barrier orders this write after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-4]]:10: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,0,0) reads 'total' and thread (255,0,0) writes it, with blockDim (256,1,1)
      // CHECK-NOTES: :[[@LINE+5]]:51: note: 'prefixFree' is analysed as this call runs it, with its arguments and by every thread of the block
    __syncthreads();
  }
  d[threadIdx.x] = v;
}
__global__ void prefixRoundsFree(int *d, int n) { prefixFree(d, n); }

// A loop whose trip count differs between threads is no uniform loop: who
// runs the read is not known, and nothing is claimed.
__device__ void prefixPerThread(int *d) {
  __shared__ int total;
  int v = d[threadIdx.x];
  for (int i = 0; i < (int)threadIdx.x % 3; ++i) {
    v += total;
    if (threadIdx.x == 255)
      total = v;
    __syncthreads();
  }
  d[threadIdx.x] = v;
}
__global__ void prefixRoundsPerThread(int *d) { prefixPerThread(d); }

// --- Between a helper's barriers: its loop is the kernel's -----------------

// The halving loop has no barrier of its own: a step reads what the step
// before wrote, in other threads. The helper is analysed as the call runs
// it, its `t` being the caller's threadIdx.x.
__device__ float reduceNoStepBarrier(float *buf, float x, int t) {
  buf[t] = x;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'buf': no barrier orders this update after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:17: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,0,0) reads 'buf[64]' (with 's' = 64) and thread (64,0,0) updates it, with blockDim (256,1,1)
      // CHECK-NOTES: :[[@LINE+20]]:13: note: 'reduceNoStepBarrier' is analysed as this call runs it, with its arguments and by every thread of the block
  }
  __syncthreads();
  return buf[0];
}

__device__ float reduceStepBarrier(float *buf, float x, int t) {
  buf[t] = x;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
    __syncthreads();
  }
  return buf[0];
}

__global__ void reduceMissingStepBarrier(const float *in, float *out) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  float r = reduceNoStepBarrier(buf, in[t], t);
  if (t == 0)
    out[0] = r;
}

__global__ void reduceWithStepBarrier(const float *in, float *out) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  float r = reduceStepBarrier(buf, in[t], t);
  if (t == 0)
    out[0] = r;
}

// A thread's index the helper cannot state (read from memory): its accesses
// are at unknown places, and nothing is claimed.
__device__ float reduceNoStepBarrierAt(float *buf, float x, int t) {
  buf[t] = x;
  __syncthreads();
  for (int s = 128; s > 0; s >>= 1) {
    if (t < s)
      buf[t] += buf[t + s];
  }
  __syncthreads();
  return buf[0];
}

__global__ void reduceAtPermutedIndex(const float *in, const int *perm,
                                      float *out) {
  __shared__ float buf[256];
  int t = perm[threadIdx.x];
  float r = reduceNoStepBarrierAt(buf, in[t], t);
  if (threadIdx.x == 0)
    out[0] = r;
}

// A state struct passed through a local pointer to it, and the thread's
// index as `t` (the shape of cudf's ORC encoder): the last thread advances
// a count every thread has just read, with no barrier between; the helper
// syncs at its entry, so only its analysis as a piece of the kernel sees it.
struct EncodeState {
  unsigned count;
  unsigned rows;
  unsigned char buf[512];
};

__device__ void encodeRows(EncodeState *s, int t) {
  __syncthreads();
  while (s->rows > 0) {
    unsigned at = s->count + t;
    s->buf[at % 512] = 1;
    if (t == 255)
      s->count += 256;
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'state': no barrier orders this update after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-5]]:19: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,0,0) reads 'state.count' and thread (255,0,0) updates it, with blockDim (256,1,1)
      // CHECK-NOTES: :[[@LINE+31]]:3: note: 'encodeRows' is analysed as this call runs it, with its arguments and by every thread of the block
    __syncthreads();
    if (t == 0)
      s->rows -= 1;
    __syncthreads();
  }
}

__device__ void encodeRowsFixed(EncodeState *s, int t) {
  __syncthreads();
  while (s->rows > 0) {
    unsigned at = s->count + t;
    s->buf[at % 512] = 1;
    __syncthreads();
    if (t == 255)
      s->count += 256;
    if (t == 0)
      s->rows -= 1;
    __syncthreads();
  }
}

__global__ void encode(const unsigned *rows) {
  __shared__ EncodeState state;
  EncodeState *const s = &state;
  int t = threadIdx.x;
  if (t == 0) {
    s->count = 0;
    s->rows = rows[blockIdx.x];
  }
  __syncthreads();
  encodeRows(s, t);
}

__global__ void encodeFixed(const unsigned *rows) {
  __shared__ EncodeState state;
  EncodeState *const s = &state;
  int t = threadIdx.x;
  if (t == 0) {
    s->count = 0;
    s->rows = rows[blockIdx.x];
  }
  __syncthreads();
  encodeRowsFixed(s, t);
}

// A helper whose barriers are all in a loop that may run zero times: on that
// way through it nothing orders thread 0's reset of the count against the
// caller's read after the call. Whether the loop can run zero times is a
// question of the data (cudf's ORC dictionary with no rows), so the race is
// only possible: reported with ReportPossibleRaces, silent by default. The
// fixed form syncs when the loop will not run; the checker cannot tell the
// two apart on the way that skips both, and stays silent on both.
struct CountState {
  unsigned count;
  unsigned rows;
};

__device__ void countRows(CountState *s, int t) {
  if (t == 0)
    s->count = 0;
  for (unsigned i = 0; i < s->rows; i += 256) {
    __syncthreads();
    if (t == 0)
      s->count += 1;
    __syncthreads();
  }
}

__device__ void countRowsZeroSafe(CountState *s, int t) {
  if (t == 0)
    s->count = 0;
  if (s->rows == 0)
    __syncthreads();
  for (unsigned i = 0; i < s->rows; i += 256) {
    __syncthreads();
    if (t == 0)
      s->count += 1;
    __syncthreads();
  }
}

__global__ void countAll(const unsigned *rows, unsigned *out) {
  __shared__ CountState state;
  int t = threadIdx.x;
  if (t == 0)
    state.rows = rows[blockIdx.x];
  __syncthreads();
  countRows(&state, t);
  out[blockIdx.x * 256 + t] = state.count;
}

__global__ void countAllZeroSafe(const unsigned *rows, unsigned *out) {
  __shared__ CountState state;
  int t = threadIdx.x;
  if (t == 0)
    state.rows = rows[blockIdx.x];
  __syncthreads();
  countRowsZeroSafe(&state, t);
  out[blockIdx.x * 256 + t] = state.count;
}

int main() {
  float *f = nullptr;
  int *d = nullptr;
  meanAndSquares<<<1, 256>>>(f, f);
  meanAndSquaresSynced<<<1, 256>>>(f, f);
  meanAndSquaresEntrySync<<<1, 256>>>(f, f);
  meanAndSquaresTwoBuffers<<<1, 256>>>(f, f);
  sumOfRows<<<1, 256>>>(f, f, 4);
  sumOfRowsSynced<<<1, 256>>>(f, f, 4);
  twoTemplateReductions<<<1, 256>>>(f, f);
  twoMacroReductions<<<1, 256>>>(f, f);
  prefixRounds<<<1, 256>>>(d, 4);
  prefixRoundsFixed<<<1, 256>>>(d, 4);
  prefixRoundsFree<<<1, 256>>>(d, 4);
  prefixRoundsPerThread<<<1, 256>>>(d);
  reduceMissingStepBarrier<<<1, 256>>>(f, f);
  reduceWithStepBarrier<<<1, 256>>>(f, f);
  reduceAtPermutedIndex<<<1, 256>>>(f, d, f);
  encode<<<4, 256>>>(nullptr);
  encodeFixed<<<4, 256>>>(nullptr);
  countAll<<<4, 256>>>(nullptr, nullptr);
  countAllZeroSafe<<<4, 256>>>(nullptr, nullptr);
}
