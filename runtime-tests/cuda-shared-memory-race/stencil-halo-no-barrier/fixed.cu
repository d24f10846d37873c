// stencil-halo-no-barrier, fixed: a __syncthreads() after the loads (outside
// the halo's if): the whole window is in shared memory before any thread reads
// it.
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

constexpr int kThreads = 128;
constexpr int kBlocks = 2;
constexpr int kRadius = 3;
constexpr int kOut = kThreads * kBlocks;
constexpr int kIn = kOut + 2 * kRadius; // padded by kRadius on both sides

// out[i] = the sum of in over the window of radius kRadius around i (in is
// padded, so in[i + kRadius] is the centre). Each block loads its values and
// a halo of kRadius on each side into shared memory.
__global__ void stencil(const int *in, int *out) {
  __shared__ int tile[kThreads + 2 * kRadius];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t + kRadius] = in[i + kRadius];
  if (t < kRadius) {
    tile[t] = in[i];
    tile[t + kThreads + kRadius] = in[i + kThreads + kRadius];
  }
  __syncthreads();
  int sum = 0;
  for (int k = -kRadius; k <= kRadius; ++k)
    sum += tile[t + kRadius + k];
  out[i] = sum;
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i) {
    expected[i] = 0;
    for (int k = 0; k <= 2 * kRadius; ++k)
      expected[i] += in[i + k];
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (11 * i + 4) % 19;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  stencil<<<kBlocks, kThreads>>>(in, out);
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
