// guarded-helper-read, fixed: a barrier between reading the carry through
// the helper and adding it in place, so that every thread has read its
// carry before any thread updates its element.
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

// The value `offset` places to the left, or 0 past the start.
__device__ int carryFrom(const int *p, int t, int offset) {
  return t >= offset ? p[t - offset] : 0;
}

__global__ void inclusiveScan(const int *in, int *out) {
  __shared__ int s[kThreads];
  int t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (int offset = 1; offset < kThreads; offset *= 2) {
    int carry = carryFrom(s, t, offset);
    __syncthreads();
    s[t] += carry;
    __syncthreads();
  }
  out[t] = s[t];
}

void reference(const int *in, int *expected) {
  int sum = 0;
  for (int i = 0; i < kThreads; ++i)
    expected[i] = sum += in[i];
}

int main() {
  static int hostIn[kThreads], hostOut[kThreads], expected[kThreads];
  for (int i = 0; i < kThreads; ++i)
    hostIn[i] = i % 7 + 1;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  inclusiveScan<<<1, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kThreads; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kThreads);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n",
              kThreads);
  return 0;
}
