// carved-pool-one-array-bytes, bad: the kernel carves two float arrays out of
// one extern __shared__ pool (a = pool, b = pool + blockDim.x), so a block
// needs 2 * blockDim.x floats of it, but the launch passes bytes for one
// array (kThreads * sizeof(float)). Every access to b is past the end of the
// block's dynamic shared memory.
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
constexpr int kThreads = 256;
constexpr int kN = kBlocks * kThreads;

// out[i] = in[i] + 2 * in[j], j the mirror of i in its block: the block keeps
// its values in a and their doubles in b, two arrays of one dynamic pool.
__global__ void pairSums(const float *in, float *out) {
  extern __shared__ float pool[];
  float *a = pool;
  float *b = pool + blockDim.x;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  a[t] = in[i];
  b[t] = 2.0f * in[i];
  __syncthreads();
  out[i] = a[t] + b[blockDim.x - 1 - t];
}

void reference(const float *in, float *expected) {
  for (int i = 0; i < kN; ++i) {
    int block = i / kThreads, t = i % kThreads;
    expected[i] = in[i] + 2.0f * in[block * kThreads + kThreads - 1 - t];
  }
}

int main() {
  static float hostIn[kN], hostOut[kN], expected[kN];
  for (int i = 0; i < kN; ++i)
    hostIn[i] = (float)(3 * i + 1);
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  pairSums<<<kBlocks, kThreads, kThreads * sizeof(float)>>>(in, out);
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
