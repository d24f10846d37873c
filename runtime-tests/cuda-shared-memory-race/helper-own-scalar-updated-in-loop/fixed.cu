// helper-own-scalar-updated-in-loop, fixed: a barrier between the reads of
// the total and the last thread's store of the new one.
//
// RUNTIME: tool=racecheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: CUDA error: %s returned %s\n", __FILE__,    \
                   __LINE__, #call, cudaGetErrorString(err_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;
constexpr int kRounds = 8;

// A running total over rounds, kept in the helper's own shared scalar.
template <int N> struct Prefix {
  __device__ static void rounds(int *d, int n) {
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

__global__ void prefixRounds(int *d, int n) { Prefix<kThreads>::rounds(d, n); }

int main() {
  static int host[kThreads], expected[kThreads];
  for (int i = 0; i < kThreads; ++i)
    host[i] = expected[i] = 1;
  // The reference: every round adds the last thread's value of the round
  // before to every thread.
  int total = 0;
  for (int r = 0; r < kRounds; ++r) {
    for (int i = 0; i < kThreads; ++i)
      expected[i] += total;
    total = expected[kThreads - 1];
  }
  int *d;
  CHECK(cudaMalloc(&d, sizeof host));
  CHECK(cudaMemcpy(d, host, sizeof host, cudaMemcpyHostToDevice));
  prefixRounds<<<1, kThreads>>>(d, kRounds);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(d));
  int wrong = 0;
  for (int i = 0; i < kThreads; ++i)
    wrong += host[i] != expected[i];
  std::printf("result check: %d of %d values differ from the CPU reference\n",
              wrong, kThreads);
  return wrong ? 1 : 0;
}
