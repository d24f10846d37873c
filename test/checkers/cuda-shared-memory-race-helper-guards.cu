// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Conditions inside a __device__ helper that receives a shared pointer,
// stated in the caller's terms (the call's arguments for the parameters) and
// judged like the kernel's own guards (fuzz finding 1).

#include <cuda_runtime.h>

// --- The carry of a scan step, read under a guard in the helper -------------

__device__ int carryCond(const int *p, int t, int offset) {
  return t >= offset ? p[t - offset] : 0;
}

__device__ int carryIf(const int *p, int t, int offset) {
  if (t >= offset)
    return p[t - offset];
  return 0;
}

__device__ int carryAfterEarlyReturn(const int *p, int t, int offset) {
  if (t < offset)
    return 0;
  return p[t - offset];
}

__device__ bool hasCarry(const int *p, int t, int offset) {
  return t >= offset && p[t - offset] != 0;
}

__global__ void carryInConditional(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = carryCond(s, t, 1);
  s[t] += carry;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-28]]:24: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 's[0]' and thread (0,0,0) updates it, with blockDim (128,1,1)
  out[t] = s[t];
}

__global__ void carryInIf(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = carryIf(s, t, 1);
  s[t] += carry;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-37]]:12: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 's[0]' and thread (0,0,0) updates it, with blockDim (128,1,1)
  out[t] = s[t];
}

__global__ void carryAfterEarlyExit(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = carryAfterEarlyReturn(s, t, 1);
  s[t] += carry;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-44]]:10: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 's[0]' and thread (0,0,0) updates it, with blockDim (128,1,1)
  out[t] = s[t];
}

__global__ void carryInLogicalAnd(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  bool carry = hasCarry(s, t, 1);
  s[t] += carry;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-54]]:25: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 's[0]' and thread (0,0,0) updates it, with blockDim (128,1,1)
  out[t] = s[t];
}

// The offset is a kernel parameter (the launch passes 1): a race.
__global__ void carryByParameter(int *out, int offset) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = carryCond(s, t, offset);
  s[t] += carry;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this update after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:15: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-85]]:24: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 's[0]' and thread (0,0,0) updates it, with 'offset' = 1 as the launch at cuda-shared-memory-race-helper-guards.cu{{.*}}:[[@LINE+120]] passes, with blockDim (128,1,1)
  out[t] = s[t];
}

// The same scan step with its barrier: silent.
__global__ void carryWithBarrier(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = carryCond(s, t, 1);
  __syncthreads();
  s[t] += carry;
  out[t] = s[t];
}

// --- Guards that keep the racing threads apart --------------------------------

// Odd threads take their even neighbour's value and only odd threads write.
__device__ int evenNeighbour(const int *p, int t) {
  return (t & 1) ? p[t - 1] : 0;
}

__global__ void oddThreadsTakeEvenNeighbour(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = evenNeighbour(s, t);
  if (t & 1)
    s[t] += carry;
  out[t] = carry;
}

// One step of a tree reduction: the threads below the stride read the upper
// half, which no thread writes in this step.
__device__ void addPartner(int *p, int t, int stride) {
  if (t < stride)
    p[t] += p[t + stride];
}

__global__ void oneReductionStep(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  addPartner(s, t, 64);
  __syncthreads();
  out[t] = s[0];
}

// A guard false at this call: the read never runs.
__device__ int rightNeighbourIf(const int *p, int t, bool enabled) {
  if (!enabled)
    return 0;
  return p[t + 1];
}

__global__ void neighbourDisabled(int *out) {
  __shared__ int s[129];
  int t = threadIdx.x;
  s[t] = out[t];
  out[t] = rightNeighbourIf(s, t, false);
}

__global__ void neighbourEnabled(int *out) {
  __shared__ int s[129];
  int t = threadIdx.x;
  s[t] = out[t];
  out[t] = rightNeighbourIf(s, t, true);
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-16]]:10: note: the read is made here, inside 'rightNeighbourIf'
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-4]]:12: note: for example, thread (1,0,0) writes 's[1]' and thread (0,0,0) reads it, with blockDim (128,1,1)
}

// --- Two calls of one helper with different arguments -------------------------

__device__ int carryThroughLocal(const int *p, int t, int offset) {
  int from = t - offset;
  return t >= offset ? p[from] : 0;
}

__global__ void ownThenLeft(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int own = carryThroughLocal(s, t, 0);
  int left = carryThroughLocal(s, t, 1);
  s[t] = own + left;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:14: note: the other thread's read is made by this call
  // CHECK-NOTES: :[[@LINE-13]]:24: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (1,0,0) reads 's[0]' and thread (0,0,0) writes it, with blockDim (128,1,1)
  out[t] = s[t];
}

// --- Guards the caller cannot state stay undecided ---------------------------

// The guard reads global memory the analysis does not see.
__device__ int carryIfFlagged(const int *p, const int *flags, int t) {
  return flags[t] ? p[t - 1] : 0;
}

__global__ void carryUnderFlag(int *out, const int *flags) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = out[t];
  __syncthreads();
  int carry = carryIfFlagged(s, flags, t);
  s[t] += carry;
  out[t] = s[t];
}

void launch(int *out, const int *flags) {
  carryInConditional<<<1, 128>>>(out);
  carryInIf<<<1, 128>>>(out);
  carryAfterEarlyExit<<<1, 128>>>(out);
  carryInLogicalAnd<<<1, 128>>>(out);
  carryByParameter<<<1, 128>>>(out, 1);
  carryWithBarrier<<<1, 128>>>(out);
  oddThreadsTakeEvenNeighbour<<<1, 128>>>(out);
  oneReductionStep<<<1, 128>>>(out);
  neighbourDisabled<<<1, 128>>>(out);
  neighbourEnabled<<<1, 128>>>(out);
  ownThenLeft<<<1, 128>>>(out);
  carryUnderFlag<<<1, 128>>>(out, flags);
}
