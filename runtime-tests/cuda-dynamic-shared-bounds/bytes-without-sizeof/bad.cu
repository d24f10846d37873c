// bytes-without-sizeof, bad: the dynamic shared memory of a launch is a
// count of bytes, but this one passes the element count: n threads stage n
// floats through the pool and the launch passes n bytes (<<<1, n, n>>>), a
// quarter of what they reach. Threads n / 4 and up write past its end.
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

constexpr int kMax = 1024;

// out[t] = in[n - 1 - t]: the block reverses its values through one dynamic
// shared array of blockDim.x floats.
__global__ void reverseBlock(const float *in, float *out) {
  extern __shared__ float s[];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[blockDim.x - 1 - t];
}

void reference(const float *in, float *expected, int n) {
  for (int i = 0; i < n; ++i)
    expected[i] = in[n - 1 - i];
}

int main() {
  const int n = 256;
  static float hostIn[kMax], hostOut[kMax], expected[kMax];
  for (int i = 0; i < n; ++i)
    hostIn[i] = (float)(7 * i + 3);
  reference(hostIn, expected, n);

  float *in, *out;
  CHECK(cudaMalloc(&in, n * sizeof(float)));
  CHECK(cudaMalloc(&out, n * sizeof(float)));
  CHECK(cudaMemcpy(in, hostIn, n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, n * sizeof(float)));
  reverseBlock<<<1, n, n>>>(in, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-dynamic-shared-bounds]
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < n; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, n);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", n);
  return 0;
}
