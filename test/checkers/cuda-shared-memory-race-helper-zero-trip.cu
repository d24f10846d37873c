// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17
// RUN: %check_clang_tidy -check-suffix=POSSIBLE %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only -std=c++17

// A helper whose barriers are all inside a loop that syncs in every
// iteration. Left at its first test, the loop runs zero times, and then
// nothing orders what comes before it against what comes after. Whether
// that way runs is a question of the values: cudf's ORC encoder loops
// `while (numvals > 0)` in IntegerRLE and calls it only under
// `numvals > 0`. So a race that only the zero-trip way makes is possible:
// silent by default, reported with ReportPossibleRaces; a race on a way
// that runs the loop is reported as before.

#include <cuda_runtime.h>

struct EncState {
  unsigned pos[4];
  unsigned numvals;
  unsigned char out[1024];
};

// cudf's shape: the read of s->pos at the entry, thread 0's store of it
// after the loop, a barrier at the end. With a trip, the loop's barrier
// orders the two; without one, nothing does.
__device__ unsigned encodeRuns(EncState *s, unsigned numvals, int t) {
  unsigned dst = s->pos[1];
  unsigned count = 0;
  while (numvals > 0) {
    unsigned run = numvals < 256 ? numvals : 256;
    if (t < run)
      s->out[(dst + t) & 1023] = 1;
    __syncthreads();
    dst += run;
    numvals -= run;
    count += run;
  }
  if (t == 0)
    s->pos[1] = dst;
  __syncthreads();
  return count;
}

__global__ void encodeColumn(unsigned *out) {
  __shared__ EncState state;
  int t = threadIdx.x;
  if (t == 0) {
    state.pos[1] = 0;
    state.numvals = out[blockIdx.x];
  }
  __syncthreads();
  if (state.numvals > 0)
    out[t] = encodeRuns(&state, state.numvals, t);
    // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:14: warning: possible write after read race on shared 'state': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES-POSSIBLE: :[[@LINE-16]]:5: note: the write is made here, inside 'encodeRuns'
    // CHECK-NOTES-POSSIBLE: :[[@LINE-29]]:18: note: the other thread's read is here
    // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:14: note: for example, thread (1,0,0) reads 'state.pos' and thread (0,0,0) writes it, with blockDim (256,1,1)
}

// The same fact in a for loop of a template helper, the loop's barrier
// reached through a macro.
#define STEP_BARRIER() __syncthreads()

template <int Block> struct Runs {
  __device__ static unsigned encode(EncState *s, unsigned numvals, int t) {
    unsigned dst = s->pos[2];
    for (unsigned done = 0; done < numvals; done += Block) {
      if (t < Block)
        s->out[(dst + done + t) & 1023] = 2;
      STEP_BARRIER();
    }
    if (t == 0)
      s->pos[2] = dst + numvals;
    __syncthreads();
    return numvals;
  }
};

__global__ void encodeColumnTemplate(unsigned *out) {
  __shared__ EncState state;
  int t = threadIdx.x;
  if (t == 0)
    state.pos[2] = 0;
  __syncthreads();
  out[t] = Runs<128>::encode(&state, out[blockIdx.x] + 1, t);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:12: warning: possible write after read race on shared 'state': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-14]]:7: note: the write is made here, inside 'encode'
  // CHECK-NOTES-POSSIBLE: :[[@LINE-22]]:20: note: the other thread's read is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:12: note: for example, thread (1,0,0) reads 'state.pos' and thread (0,0,0) writes it, with blockDim (128,1,1)
}

// The nearest true twin: no barrier at the helper's end. After a trip, the
// store is after the loop's last barrier, and the caller's read of the
// position after the call races with it whatever the trip count.
__device__ unsigned encodeRunsOpenEnd(EncState *s, unsigned numvals, int t) {
  unsigned dst = s->pos[3];
  while (numvals > 0) {
    unsigned run = numvals < 256 ? numvals : 256;
    if (t < run)
      s->out[(dst + t) & 1023] = 3;
    __syncthreads();
    dst += run;
    numvals -= run;
  }
  if (t == 0)
    s->pos[3] = dst;
  return dst;
}

__global__ void encodeColumnOpenEnd(unsigned *out) {
  __shared__ EncState state;
  int t = threadIdx.x;
  if (t == 0)
    state.pos[3] = 0;
  __syncthreads();
  encodeRunsOpenEnd(&state, out[blockIdx.x] + 1, t);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:3: warning: possible write after read race on shared 'state': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-12]]:5: note: the write is made here, inside 'encodeRunsOpenEnd'
  // CHECK-NOTES-POSSIBLE: :[[@LINE-23]]:18: note: the other thread's read is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 'state.pos' and thread (0,0,0) writes it, with blockDim (256,1,1)
  out[t] = state.pos[3];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'state': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the other thread's write is made by this call
  // CHECK-NOTES: :[[@LINE-18]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: for example, thread (0,0,0) writes 'state.pos' and thread (1,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:12: warning: read after write race on shared 'state': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-11]]:3: note: the other thread's write is made by this call
  // CHECK-NOTES-POSSIBLE: :[[@LINE-22]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:12: note: for example, thread (0,0,0) writes 'state.pos' and thread (1,0,0) reads it, with blockDim (256,1,1)
}

// A break before the loop's barrier is a way out after a first iteration
// began, not a zero-trip way: the store after the loop races with the read
// at the entry as soon as one thread leaves by it.
__device__ void drainUntilEmpty(EncState *s, const unsigned *in, int t) {
  unsigned dst = s->pos[0];
  for (unsigned i = 0; i < 16; ++i) {
    if (in[i] == 0)
      break;
    s->out[(dst + t + i) & 1023] = 4;
    __syncthreads();
  }
  if (t == 0)
    s->pos[0] = dst + 16;
  __syncthreads();
}

__global__ void drain(const unsigned *in) {
  __shared__ EncState state;
  if (threadIdx.x == 0)
    state.pos[0] = 0;
  __syncthreads();
  drainUntilEmpty(&state, in, threadIdx.x);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 'state': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-11]]:5: note: the write is made here, inside 'drainUntilEmpty'
  // CHECK-NOTES: :[[@LINE-20]]:18: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 'state.pos' and thread (0,0,0) writes it, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:3: warning: write after read race on shared 'state': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-15]]:5: note: the write is made here, inside 'drainUntilEmpty'
  // CHECK-NOTES-POSSIBLE: :[[@LINE-24]]:18: note: the other thread's read is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:3: note: for example, thread (1,0,0) reads 'state.pos' and thread (0,0,0) writes it, with blockDim (256,1,1)
}

// The same fact written in the kernel itself: the read before a loop
// whose every iteration syncs, thread 0's store after it. Only `n` = 0
// leaves the two unordered.
__global__ void encodeInKernel(unsigned *out, unsigned n) {
  __shared__ unsigned pos;
  __shared__ unsigned buf[256];
  if (threadIdx.x == 0)
    pos = 0;
  __syncthreads();
  unsigned dst = pos;
  for (unsigned done = 0; done < n; done += 256) {
    buf[threadIdx.x] = dst + done;
    __syncthreads();
    out[done + threadIdx.x] = buf[255 - threadIdx.x];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    pos = dst + n;
    // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:5: warning: possible write after read race on shared 'pos': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES-POSSIBLE: :[[@LINE-10]]:18: note: the other thread's read is here
    // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:5: note: for example, thread (1,0,0) reads 'pos' and thread (0,0,0) writes it, with blockDim (256,1,1)
}

int main(int argc, char **) {
  unsigned *u = nullptr;
  encodeColumn<<<4, 256>>>(u);
  encodeColumnTemplate<<<4, 128>>>(u);
  encodeColumnOpenEnd<<<4, 256>>>(u);
  drain<<<4, 256>>>(u);
  encodeInKernel<<<4, 256>>>(u, argc * 100);
}
