// named-barrier-arrive-before-store, fixed: the producers store, then arrive;
// the consumers' bar.sync returns once all 128 threads have arrived, so after
// every store. The two roles reach the same named barrier with the same count
// by different instructions: correct, and the check is to stay silent.
//
// RUNTIME: tool=result expect=clean
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
constexpr int kProducers = 64;
constexpr int kIn = kProducers;
constexpr int kOut = kThreads - kProducers;

// Warp-specialized: warps 0 and 1 produce buf[] (2 * in[t]), warps 2 and 3
// consume it (out[c] = buf[63 - c]). They meet at named barrier 1, counting
// all 128 threads: the producers arrive (bar.arrive, no wait), the
// consumers wait (bar.sync). __syncthreads() uses barrier 0.
__global__ void producerConsumer(const int *in, int *out) {
  __shared__ int buf[kProducers];
  int t = threadIdx.x;
  if (t < kProducers) {
    buf[t] = 2 * in[t];
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    int c = t - kProducers;
    out[c] = buf[kProducers - 1 - c];
  }
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = 2 * in[kProducers - 1 - i];
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = 3 * i + 7;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  producerConsumer<<<1, kThreads>>>(in, out);
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
