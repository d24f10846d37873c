// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17
// RUN: %check_clang_tidy -check-suffix=POSSIBLE %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only -std=c++17

// Accesses guarded by a test of input data (issue 22, shape d): a load of
// memory the kernel only reads, at a thread-dependent index, compared with
// a uniform value. The translator cannot follow the load, but data that
// fills that memory with one value makes the test hold (or fail) in every
// thread at once, so the pair is judged as if the guard held, and the
// witness says which data it needs. Two different tests, or one test needed
// both ways, may need values no data gives together: only possible
// (reported with ReportPossibleRaces). A test of memory the kernel writes
// is not of input data, and is not judged.

#include <cuda_runtime.h>

// A loop on a shared flag that thread 0 resets and threads with work set:
// a thread reads the flag for the next pass before the others set it, may
// leave the loop, and leaves the rest at the barrier.
__global__ void flagLoop(const int *work, int *out, int n) {
  __shared__ bool any;
  int t = threadIdx.x;
  if (t == 0)
    any = true;
  __syncthreads();
  int steps = 0;
  while (any) {
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read after write race on shared 'any': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE+10]]:7: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: for example, thread (1,0,0) writes 'any' and thread (0,0,0) reads it one iteration of the enclosing loop later, for input data where 'work[t * n + steps] > 0' holds in every thread, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:10: warning: read after write race on shared 'any': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE+7]]:7: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-6]]:10: note: for example, thread (1,0,0) writes 'any' and thread (0,0,0) reads it one iteration of the enclosing loop later, for input data where 'work[t * n + steps] > 0' holds in every thread, with blockDim (256,1,1)
    __syncthreads();
    if (t == 0)
      any = false;
    __syncthreads();
    if (work[t * n + steps] > 0)
      any = true;
    ++steps;
  }
  out[t] = steps;
}

// The same, written as a do loop with a negated test of a non-const
// pointer the kernel only reads, through a macro.
#define DONE(i) (!pending[i])
__global__ void flagLoopDo(int *pending, int *out, int n) {
  __shared__ int again;
  int t = threadIdx.x;
  int steps = 0;
  do {
    __syncthreads();
    if (t == 0)
      again = 0;
    __syncthreads();
    if (!DONE(t * n + steps))
      again = 1;
    ++steps;
  } while (again != 0);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'again': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:7: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) writes 'again' and thread (1,0,0) reads it, for input data where '!DONE(t * n + steps)' holds in every thread, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:12: warning: read after write race on shared 'again': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:7: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-6]]:12: note: for example, thread (0,0,0) writes 'again' and thread (1,0,0) reads it, for input data where '!DONE(t * n + steps)' holds in every thread, with blockDim (256,1,1)
  out[t] = steps;
}

// The same, with the test behind a uniform bound on the step (`&&`) and
// the loop as a for loop.
__global__ void flagLoopBounded(const int *work, int *out, int n) {
  __shared__ bool any;
  int t = threadIdx.x;
  if (t == 0)
    any = true;
  __syncthreads();
  int steps = 0;
  for (; any; ++steps) {
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read after write race on shared 'any': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE+10]]:7: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: for example, thread (1,0,0) writes 'any' and thread (0,0,0) reads it one iteration of the enclosing loop later, for input data where 'steps < n && work[t * n + steps] > 0' holds in every thread, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:10: warning: read after write race on shared 'any': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE+7]]:7: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-6]]:10: note: for example, thread (1,0,0) writes 'any' and thread (0,0,0) reads it one iteration of the enclosing loop later, for input data where 'steps < n && work[t * n + steps] > 0' holds in every thread, with blockDim (256,1,1)
    __syncthreads();
    if (t == 0)
      any = false;
    __syncthreads();
    if (steps < n && work[t * n + steps] > 0)
      any = true;
  }
  out[t] = steps;
}

// The fix: a barrier between the last write of the flag and its read.
__global__ void flagLoopFixed(const int *work, int *out, int n) {
  __shared__ bool any;
  int t = threadIdx.x;
  int steps = 0;
  while (true) {
    __syncthreads();
    if (t == 0)
      any = false;
    __syncthreads();
    if (work[t * n + steps] > 0)
      any = true;
    __syncthreads();
    if (!any)
      break;
    ++steps;
  }
  out[t] = steps;
}

// A neighbour's slot read with no barrier after the guarded write: the
// test compares with a uniform parameter.
__global__ void guardedNeighbour(const float *x, float *out, float cut) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = 0.0f;
  __syncthreads();
  if (x[blockIdx.x * 256 + t] >= cut)
    s[t] = x[t];
  out[t] = s[(t + 1) % 256];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) writes 's[0]' and thread (255,0,0) reads it, for input data where 'x[blockIdx.x * 256 + t] >= cut' holds in every thread, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:12: note: for example, thread (0,0,0) writes 's[0]' and thread (255,0,0) reads it, for input data where 'x[blockIdx.x * 256 + t] >= cut' holds in every thread, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:3: note: a barrier is missing before this statement
}

// Two different tests: a thread that writes needs one, the reader the
// other; whether data can give both is not decided. Possible only.
__global__ void twoTests(const int *a, const int *b, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (a[t] > 0)
    s[t] = 1;
  if (b[t] > 0)
    out[t] = s[255 - t];
    // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:14: warning: possible read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:5: note: the other thread's write is here
    // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:14: note: for example, thread (0,0,0) writes 's[0]' and thread (255,0,0) reads it, with blockDim (256,1,1)
}

// One test needed both ways (the write where it holds, the read where it
// fails): possible only.
__global__ void bothWays(const int *a, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (a[t] > 0)
    s[t] = 1;
  else
    out[t] = s[255 - t];
    // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:14: warning: possible read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:5: note: the other thread's write is here
    // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:14: note: for example, thread (0,0,0) writes 's[0]' and thread (255,0,0) reads it, with blockDim (256,1,1)
}

// The tested memory is written by the kernel: not input data, not judged.
__global__ void writtenFlags(int *flags, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  flags[t] = t & 1;
  if (flags[t] > 0)
    s[t] = 1;
  out[t] = s[255 - t];
}

// A test no element can pass: no data makes the write run.
__global__ void impossibleTest(const int *a, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  s[t] = 0;
  __syncthreads();
  if (a[t] > 2147483647)
    s[t] = 1;
  out[t] = s[255 - t];
}

// Each thread its own slot: silent whatever the data.
__global__ void ownSlot(const int *a, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (a[t] > 0)
    s[t] = a[t];
  out[t] = s[t];
}

void launchAll(const int *w, int *p, int *o, const float *x, float *f,
               float cut, int n) {
  flagLoop<<<1, 256>>>(w, o, n);
  flagLoopDo<<<1, 256>>>(p, o, n);
  flagLoopBounded<<<1, 256>>>(w, o, n);
  flagLoopFixed<<<1, 256>>>(w, o, n);
  guardedNeighbour<<<4, 256>>>(x, f, cut);
  twoTests<<<1, 256>>>(w, w, o);
  bothWays<<<1, 256>>>(w, o);
  writtenFlags<<<1, 256>>>(p, o);
  impossibleTest<<<1, 256>>>(w, o);
  ownSlot<<<1, 256>>>(w, o);
}
