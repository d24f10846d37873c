// double-buffer-no-barrier-after-compute, fixed: a barrier at the end of the
// loop body, after the read, so no thread issues the copy into a stage before
// every thread has finished reading it.
//
// racecheck: 0 hazards expected, as the double-buffered fixed twin of GPU-
// FACTS.md.
//
// RUNTIME: tool=racecheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cstdio>
#include <cstdlib>
#include <cuda_pipeline.h>
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
constexpr int kStages = 2;
constexpr int kTiles = 8;
constexpr int kIn = kTiles * kThreads;
constexpr int kOut = kThreads;

// out[t] = sum over tiles k of (k + 1) * in[k * 256 + 255 - t]. Tile k + 1 is
// copied into stage (k + 1) % 2 asynchronously while tile k, in stage k % 2,
// is read; one commit an iteration (an empty group for the last) keeps
// __pipeline_wait_prior(1) meaning "tile k has landed".
__global__ void stagedSums(const int *in, int *out) {
  __shared__ int tile[kStages][kThreads];
  int t = threadIdx.x;
  int acc = 0;
  __pipeline_memcpy_async(&tile[0][t], &in[t], sizeof(int));
  __pipeline_commit();
  for (int k = 0; k < kTiles; ++k) {
    if (k + 1 < kTiles) {
      const int *src = &in[(k + 1) * kThreads + t];
      __pipeline_memcpy_async(&tile[(k + 1) % kStages][t], src, sizeof(int));
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += (k + 1) * tile[k % kStages][kThreads - 1 - t];
    __syncthreads();
  }
  out[t] = acc;
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i) {
    expected[i] = 0;
    for (int k = 0; k < kTiles; ++k)
      expected[i] += (k + 1) * in[k * kThreads + kThreads - 1 - i];
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (3 * i + 1) % 101;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  stagedSums<<<1, kThreads>>>(in, out);
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
