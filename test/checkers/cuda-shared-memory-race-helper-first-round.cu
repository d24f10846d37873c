// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// A helper whose first statement is a loop that syncs every round (a block
// reduction's halving loop, the shape of cuda-samples' MonteCarlo
// sumReduce). Its accesses run before the call's first barrier only in the
// loop's first round, and after its last only in the last round: every
// other round follows a barrier of the helper. The read of `sum[t + i]` in
// one round and the write of `sum[t]` in the round before are ordered.

#include <cuda_runtime.h>

// --- Silent: the same fact written four ways --------------------------------

// A local thread index and a constant start.
__device__ void halveLocal(float *sum) {
  int tid = threadIdx.x;
  for (int i = 16; i > 0; i >>= 1) {
    if (tid < i)
      sum[tid] += sum[tid + i];
    __syncthreads();
  }
}

// The block's own size, and the sum kept in a register.
__device__ void halveRegister(float *sum) {
  const int tid = threadIdx.x;
  float beta = sum[tid];
  for (int i = blockDim.x / 2; i > 0; i /= 2) {
    if (tid < i) {
      beta += sum[tid + i];
      sum[tid] = beta;
    }
    __syncthreads();
  }
}

// A while loop.
__device__ void halveWhile(float *sum) {
  unsigned i = 128;
  while (i > 0) {
    if (threadIdx.x < i)
      sum[threadIdx.x] += sum[threadIdx.x + i];
    __syncthreads();
    i >>= 1;
  }
}

// A static member of a class template, the start a template argument.
template <int Threads> struct Halver {
  __device__ static void run(float *sum) {
    for (int i = Threads / 2; i > 0; i >>= 1) {
      if (threadIdx.x < i)
        sum[threadIdx.x] += sum[threadIdx.x + i];
      __syncthreads();
    }
  }
};

__global__ void reduceLocal(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  halveLocal(s);
  if (threadIdx.x == 0)
    out[0] = s[0];
}

__global__ void reduceRegister(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  halveRegister(s);
  if (threadIdx.x == 0)
    out[0] = s[0];
}

__global__ void reduceWhile(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  halveWhile(s);
  if (threadIdx.x == 0)
    out[0] = s[0];
}

__global__ void reduceMember(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  Halver<256>::run(s);
  if (threadIdx.x == 0)
    out[0] = s[0];
}

// --- Reported: the nearest true twin ----------------------------------------

// Nothing before the call orders the helper's first round after the
// kernel's stores into the buffer.
__global__ void reduceUnsynced(const float *in, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = in[threadIdx.x];
  halveLocal(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-85]]:19: note: the read is made here, inside 'halveLocal'
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-4]]:3: note: for example, thread (16,0,0) writes 's[16]' and thread (0,0,0) reads it (with 'i' = 16), with blockDim (256,1,1)
  if (threadIdx.x == 0)
    out[0] = s[0];
}

int main() {
  float *in = nullptr, *out = nullptr;
  reduceLocal<<<1, 256>>>(in, out);
  reduceRegister<<<1, 256>>>(in, out);
  reduceWhile<<<1, 256>>>(in, out);
  reduceMember<<<1, 256>>>(in, out);
  reduceUnsynced<<<1, 256>>>(in, out);
  return 0;
}
