// skip-and-spin, bad: the producers wait at a barrier that the consumers never
// reach, because the consumers spin on a flag that a producer sets only after
// that barrier. The block never finishes.
//
// RUNTIME: tool=hang expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_real

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
constexpr int kCount = kThreads;
constexpr int kProducers = kThreads / 2; // the first four warps

// The first half of the block (producers) puts doubled inputs in shared
// memory; the second half (consumers) waits for a ready flag, then reads them.
// out[t] = 2 * in[127 - t] for a producer, 2 * in[t - 128] + 1 for a consumer.
__global__ void produceConsume(const int *in, int *out) {
  __shared__ int slot[kProducers];
  __shared__ volatile int ready;
  int t = threadIdx.x;
  if (t == 0)
    ready = 0;
  __syncthreads();
  if (t < kProducers) {
    slot[t] = 2 * in[t];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
    if (t == 0)
      ready = 1;
    out[t] = slot[kProducers - 1 - t];
  } else {
    while (ready == 0) {
    }
    out[t] = slot[t - kProducers] + 1;
  }
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kCount; ++i)
    expected[i] = i < kProducers ? 2 * in[kProducers - 1 - i]
                                 : 2 * in[i - kProducers] + 1;
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = 13 * i + 3;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  produceConsume<<<1, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kCount; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kCount);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kCount);
  return 0;
}
