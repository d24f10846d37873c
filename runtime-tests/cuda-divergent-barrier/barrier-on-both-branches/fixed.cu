// barrier-on-both-branches, fixed: one barrier after the branch, reached by
// every thread.
//
// RUNTIME: tool=synccheck expect=clean
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

// out[t] = in[t] as a percentage of the block's largest value. Thread 0 finds
// the largest value; the other threads wait for it.
__global__ void percentOfLargest(const int *in, int *out) {
  __shared__ int slot[kThreads];
  __shared__ int largest;
  int t = threadIdx.x;
  slot[t] = in[t];
  __syncthreads();
  if (t == 0) {
    int m = slot[0];
    for (int i = 1; i < kThreads; ++i)
      m = max(m, slot[i]);
    largest = m;
  }
  __syncthreads();
  out[t] = slot[t] * 100 / largest;
}

void reference(const int *in, int *expected) {
  int largest = in[0];
  for (int i = 1; i < kCount; ++i)
    largest = in[i] > largest ? in[i] : largest;
  for (int i = 0; i < kCount; ++i)
    expected[i] = in[i] * 100 / largest;
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = (37 * i) % 101 + 1;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  percentOfLargest<<<1, kThreads>>>(in, out);
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
