// inplace-scan-one-barrier, bad: the in-place scan has one barrier a step,
// after the update. Within a step, thread t reads temp[t - off] while thread
// t - off updates it, so the reader can get the old or the new sum.
//
// RUNTIME: tool=racecheck expect=fault
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
constexpr int kBlocks = 2;
constexpr int kIn = kThreads * kBlocks;
constexpr int kOut = kThreads * kBlocks;

// out = the inclusive prefix sums of each block's kThreads values
// (Hillis-Steele scan in shared memory).
__global__ void blockScan(const int *in, int *out) {
  __shared__ int temp[kThreads];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  temp[t] = in[i];
  __syncthreads();
  for (int off = 1; off < kThreads; off *= 2) {
    if (t >= off)
      temp[t] += temp[t - off];
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
    __syncthreads();
  }
  out[i] = temp[t];
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = in[i] + (i % kThreads ? expected[i - 1] : 0);
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (5 * i + 2) % 13;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  blockScan<<<kBlocks, kThreads>>>(in, out);
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
