// launch-without-bytes, bad: the kernel stages its block's values in an
// extern __shared__ array, but the launch has no third argument, so the block
// gets no dynamic shared memory at all: the first write to it is already out
// of bounds.
//
// RUNTIME: tool=memcheck expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_real

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

constexpr int kBlocks = 2;
constexpr int kThreads = 128;
constexpr int kN = kBlocks * kThreads;

// out[i] = in[i] + in[i + 1], the neighbour taken cyclically within the block,
// through one dynamic shared array of blockDim.x floats.
__global__ void neighbourSums(const float *in, float *out) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  __syncthreads();
  out[i] = s[t] + s[(t + 1) % blockDim.x];
}

void reference(const float *in, float *expected) {
  for (int i = 0; i < kN; ++i) {
    int block = i / kThreads, t = i % kThreads;
    expected[i] = in[i] + in[block * kThreads + (t + 1) % kThreads];
  }
}

int main() {
  static float hostIn[kN], hostOut[kN], expected[kN];
  for (int i = 0; i < kN; ++i)
    hostIn[i] = (float)(5 * i + 2);
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  neighbourSums<<<kBlocks, kThreads>>>(in, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-dynamic-shared-bounds]
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kN);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kN);
  return 0;
}
