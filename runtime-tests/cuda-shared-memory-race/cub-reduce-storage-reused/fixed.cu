// cub-reduce-storage-reused, fixed: __syncthreads() between the two reductions,
// as CUB's documentation asks before a TempStorage is reused.
//
// RUNTIME: tool=racecheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cstdio>
#include <cstdlib>
#include <cub/block/block_reduce.cuh>
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

constexpr int kThreads = 128;
constexpr int kBlocks = 2;
constexpr int kIn = kThreads * kBlocks;
constexpr int kOut = 2 * kBlocks;

// out[2b] = the sum of block b's elements, out[2b + 1] the sum of their
// squares: two reductions through one TempStorage.
__global__ void sumAndSquares(const int *in, int *out) {
  using BlockReduce = cub::BlockReduce<int, kThreads>;
  __shared__ typename BlockReduce::TempStorage temp;
  int v = in[blockIdx.x * kThreads + threadIdx.x];
  int sum = BlockReduce(temp).Sum(v);
  __syncthreads();
  int squares = BlockReduce(temp).Sum(v * v);
  if (threadIdx.x == 0) {
    out[2 * blockIdx.x] = sum;
    out[2 * blockIdx.x + 1] = squares;
  }
}

void reference(const int *in, int *expected) {
  for (int b = 0; b < kBlocks; ++b) {
    expected[2 * b] = expected[2 * b + 1] = 0;
    for (int i = b * kThreads; i < (b + 1) * kThreads; ++i) {
      expected[2 * b] += in[i];
      expected[2 * b + 1] += in[i] * in[i];
    }
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (7 * i + 3) % 61 - 30;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  sumAndSquares<<<kBlocks, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kOut; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kOut);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kOut);
  return 0;
}
