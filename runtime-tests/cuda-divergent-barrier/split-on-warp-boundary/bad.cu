// split-on-warp-boundary, bad: the barrier is under t < 128, which splits the
// block between whole warps. The first four warps wait at it; the last four
// skip it and read the slots the first four write. synccheck reports nothing
// for a split between whole warps, so the fault is shown by racecheck on the
// slots the barrier should have ordered.
//
// RUNTIME: tool=racecheck expect=fault
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

// out[t] = in[255 - t]: the block reverses its values through shared memory.
__global__ void reverseBlock(const int *in, int *out) {
  __shared__ int slot[kThreads];
  int t = threadIdx.x;
  slot[t] = in[t];
  if (t < kThreads / 2)
    __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
  out[t] = slot[kThreads - 1 - t];
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kCount; ++i)
    expected[i] = in[kCount - 1 - i];
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = 5 * i + 2;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  reverseBlock<<<1, kThreads>>>(in, out);
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
