// wrapping-guard, fixed: the count is taken with one barrier that every
// thread reaches (__syncthreads_count), before the guard; the guard then wraps
// the rest of the kernel. The threads past the end reach the end of the
// kernel without meeting a barrier or touching shared memory: the same
// program as `if (i >= n) return;`, correct on sm_70 and later. The checker
// is silent and the runtime shows no fault.
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
constexpr int kBlocks = 2;
constexpr int kCount = kBlocks * kThreads;
constexpr int kValid = 400; // even, and splits the second block's fifth warp

// out[i] = in[i] + in[i ^ 1] for the first n values, 0 past them;
// count[b] = how many of block b's threads have an input.
__global__ void pairSumsAndCount(const int *in, int *out, int *count, int n) {
  __shared__ int slot[kThreads];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  int valid = __syncthreads_count(i < n);
  if (t == 0)
    count[blockIdx.x] = valid;
  if (i < n) {
    slot[t] = in[i];
    __syncthreads();
    out[i] = slot[t] + slot[t ^ 1];
  }
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
