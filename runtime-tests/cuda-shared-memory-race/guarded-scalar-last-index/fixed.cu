// guarded-scalar-last-index, fixed: only the thread that holds the last index
// writes it.
//
// RUNTIME: tool=racecheck expect=clean
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

// Every thread adds the last index below n to its element.
__global__ void addLastIndex(int n, const float *in, float *out) {
  __shared__ unsigned last;
  int i = threadIdx.x;
  if (i == n - 1)
    last = i;
  __syncthreads();
  out[i] = in[i] + last;
}

void reference(const float *in, float *expected) {
  for (int i = 0; i < kThreads; ++i)
    expected[i] = in[i] + (kN - 1);
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
  addLastIndex<<<1, kThreads>>>(kN, in, out);
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
