// parameter-guard-shift, bad: the threads below a kernel parameter n
// read the element of their right neighbour in a shared copy that the
// neighbour writes, with no barrier between: thread i + 1 writes what thread i
// reads, for every n >= 2 (issue 9, example 1).
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
constexpr int kN = 200;

// out[i] = in[i] + in[i + 1] below n, through a shared copy.
__global__ void shiftAdd(int n, const float *in, float *out) {
  __shared__ float s[kThreads + 1];
  int i = threadIdx.x;
  if (i < n)
    s[i] = in[i];
  if (i < n)
    out[i] = s[i] + (i + 1 < n ? s[i + 1] : 0.0f);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
}

void reference(const float *in, float *expected) {
  for (int i = 0; i < kThreads; ++i)
    expected[i] = i < kN ? in[i] + (i + 1 < kN ? in[i + 1] : 0.0f) : 0.0f;
}

int main() {
  static float hostIn[kThreads], hostOut[kThreads], expected[kThreads];
  for (int i = 0; i < kThreads; ++i)
    hostIn[i] = 3.0f * i + 1.0f;
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  shiftAdd<<<1, kThreads>>>(kN, in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kThreads; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kThreads);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n",
              kThreads);
  return 0;
}
