// shuffle-half-warp-full-mask, bad: __shfl_xor_sync(0xffffffff, v, 16) under if
// (t % 32 < 16): the mask names lanes 16 to 31, which take the other branch and
// never reach the call, and the lower lanes read their values from those very
// lanes. The Programming Guide leaves the result undefined (issue 23, sketch 6,
// with the partner in the other half so that the effect can show: with xor 1
// every partner is a lane of the branch, and the H200 ends normally, GPU-
// FACTS.md).
//
// No sanitizer reports a shuffle's mask; the effect is the values, so the
// result is checked against the CPU reference. Not yet measured on the H200: if
// the lower lanes read the right values there, this pair shows nothing at run
// time and needs another shape.
//
// RUNTIME: tool=result expect=fault
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

constexpr int kThreads = 128;
constexpr int kIn = kThreads;
constexpr int kOut = kThreads;

// out[t] = in[t] + in[t + 16] in the lower half of each warp, in[t] in the
// upper half, through a shuffle.
__global__ void halfWarpPairs(const int *in, int *out) {
  int t = threadIdx.x;
  int v = in[t];
  if (t % 32 < 16)
    v += __shfl_xor_sync(0xffffffff, v, 16);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
  out[t] = v;
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = i % 32 < 16 ? in[i] + in[i + 16] : in[i];
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = 9 * i + 4;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  halfWarpPairs<<<1, kThreads>>>(in, out);
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
