// mixed-types-second-array-forgotten, bad: the kernel carves a double array
// and then an int array out of one raw extern __shared__ pool by hand
// (d = (double *)raw, w = (int *)&d[blockDim.x]), so a block needs
// blockDim.x * (sizeof(double) + sizeof(int)) bytes, but the launch passes
// bytes for the doubles only. Every access to w is past the end.
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

// out[i] = in[i] * w[j], w[t] = t % 7 + 1 and j the mirror of i in its block:
// a double array and an int array carved from one raw pool.
__global__ void scaleByWeights(const double *in, double *out) {
  extern __shared__ unsigned char raw[];
  double *d = reinterpret_cast<double *>(raw);
  int *w = reinterpret_cast<int *>(&d[blockDim.x]);
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  d[t] = in[i];
  w[t] = t % 7 + 1;
  __syncthreads();
  out[i] = d[t] * w[blockDim.x - 1 - t];
}

void reference(const double *in, double *expected) {
  for (int i = 0; i < kN; ++i) {
    int t = i % kThreads;
    expected[i] = in[i] * ((kThreads - 1 - t) % 7 + 1);
  }
}

int main() {
  static double hostIn[kN], hostOut[kN], expected[kN];
  for (int i = 0; i < kN; ++i)
    hostIn[i] = 0.5 * i + 1.0;
  reference(hostIn, expected);

  double *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  scaleByWeights<<<kBlocks, kThreads, kThreads * sizeof(double)>>>(in, out);
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
