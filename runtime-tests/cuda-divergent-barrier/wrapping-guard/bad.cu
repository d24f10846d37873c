// wrapping-guard, bad: the barrier is inside a guard on the input size, and
// after the guard every thread of the block meets a second barrier. The
// threads past the end skip the first barrier and wait at the second while
// the others wait at the first: the block splits between two barriers.
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
constexpr int kBlocks = 2;
constexpr int kCount = kBlocks * kThreads;
constexpr int kValid = 400; // even, and splits the second block's fifth warp

// out[i] = in[i] + in[i ^ 1] for the first n values, 0 past them;
// count[b] = how many of block b's threads have an input.
__global__ void pairSumsAndCount(const int *in, int *out, int *count, int n) {
  __shared__ int slot[kThreads];
  __shared__ int valid;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (t == 0)
    valid = 0;
  __syncthreads();
  if (i < n) {
    slot[t] = in[i];
    __syncthreads();
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
    out[i] = slot[t] + slot[t ^ 1];
    atomicAdd(&valid, 1);
  }
  __syncthreads();
  if (t == 0)
    count[blockIdx.x] = valid;
}

void reference(const int *in, int *expected, int *expectedCount) {
  for (int i = 0; i < kCount; ++i)
    expected[i] = i < kValid ? in[i] + in[i ^ 1] : 0;
  for (int b = 0; b < kBlocks; ++b) {
    int left = kValid - b * kThreads;
    expectedCount[b] = left < 0 ? 0 : (left > kThreads ? kThreads : left);
  }
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  int hostCount[kBlocks], expectedCount[kBlocks];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = 11 * i + 2;
  reference(hostIn, expected, expectedCount);

  int *in, *out, *count;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMalloc(&count, sizeof hostCount));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  pairSumsAndCount<<<kBlocks, kThreads>>>(in, out, count, kValid);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hostCount, count, sizeof hostCount, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  CHECK(cudaFree(count));

  int wrong = 0;
  for (int i = 0; i < kCount; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  for (int b = 0; b < kBlocks; ++b)
    if (hostCount[b] != expectedCount[b] && wrong++ < 5)
      std::printf("count[%d] = %d, expected %d\n", b, hostCount[b],
                  expectedCount[b]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kCount + kBlocks);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n",
              kCount + kBlocks);
  return 0;
}
