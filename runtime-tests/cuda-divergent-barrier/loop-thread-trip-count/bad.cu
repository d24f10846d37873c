// loop-thread-trip-count, bad: the barriers are inside a loop whose trip count
// depends on the thread. Threads that leave the loop early reach the barrier
// after it while the others wait at the loop's first barrier (synccheck:
// divergent threads in block), then read slots the others are still
// rewriting. racecheck saw no hazard here on sm_90 (RESULTS.md), though the
// result was wrong.
//
// RUNTIME: tool=synccheck expect=fault
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
constexpr int kGroup = 64; // threads of one group run the same pass count

// Smooths the values around a ring of 256 threads: a pass replaces a thread's
// value by the mean of it and its two neighbours. Thread t runs 1 + t / 64
// passes; a thread that has finished keeps offering its last value. Then
// out[t] is the final value of thread 255 - t.
__global__ void smooth(const int *in, int *out) {
  __shared__ int slot[kThreads];
  int t = threadIdx.x;
  int v = in[t];
  int passes = 1 + t / kGroup;
  for (int p = 0; p < passes; ++p) {
    slot[t] = v;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
    int left = slot[(t + kThreads - 1) % kThreads];
    int right = slot[(t + 1) % kThreads];
    v = (left + v + right) / 3;
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
  }
  slot[t] = v;
  __syncthreads();
  out[t] = slot[kThreads - 1 - t];
}

void reference(const int *in, int *expected) {
  int v[kCount], next[kCount];
  for (int t = 0; t < kCount; ++t)
    v[t] = in[t];
  int blockPasses = 1 + (kCount - 1) / kGroup;
  for (int p = 0; p < blockPasses; ++p) {
    for (int t = 0; t < kCount; ++t) {
      int left = v[(t + kCount - 1) % kCount], right = v[(t + 1) % kCount];
      next[t] = p < 1 + t / kGroup ? (left + v[t] + right) / 3 : v[t];
    }
    for (int t = 0; t < kCount; ++t)
      v[t] = next[t];
  }
  for (int t = 0; t < kCount; ++t)
    expected[t] = v[kCount - 1 - t];
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = (7919 * i) % 1000;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  smooth<<<1, kThreads>>>(in, out);
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
