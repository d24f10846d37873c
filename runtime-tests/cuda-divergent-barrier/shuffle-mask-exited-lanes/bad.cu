// shuffle-mask-exited-lanes, bad: the warp reduction sits inside if (i < n) and
// shuffles with the full mask 0xffffffff. n = 1000 is not a multiple of 32, so
// in the last warp only lanes 0 to 7 enter the branch: the mask names 24 lanes
// that have left, and the values read from them are undefined (issue 23, sketch
// 5).
//
// No sanitizer reports it on the H200: racecheck and synccheck are silent, and
// the values read from the exited lanes came back as 0 (GPU-FACTS.md, modern
// synchronization). So the elements are all negative and the reduction is a
// maximum: a 0 from an exited lane becomes the last warp's result, which
// differs from the CPU reference.
//
// RUNTIME: tool=result expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_real

#include <climits>
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
constexpr int kBlocks = 4;
constexpr int kIn = 1000;
constexpr int kOut = kThreads * kBlocks / 32;

// out[w] = the largest of warp w's elements below n (n = 1000, one thread an
// element, 4 blocks of 256 threads: the last warp holds 8 elements).
__global__ void warpMax(const int *in, int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (i < n) {
    int v = in[i];
    for (int offset = 16; offset > 0; offset /= 2)
      v = max(v, __shfl_down_sync(0xffffffff, v, offset));
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
    if (lane == 0)
      out[i / 32] = v;
  }
}

void reference(const int *in, int *expected) {
  for (int w = 0; w < kOut; ++w) {
    expected[w] = INT_MIN;
    for (int i = 32 * w; i < 32 * w + 32 && i < kIn; ++i)
      expected[w] = expected[w] > in[i] ? expected[w] : in[i];
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = -(1 + (37 * i) % 997);
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  warpMax<<<kBlocks, kThreads>>>(in, out, kIn);
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
