// warp-halving-helper-tile-sync, bad: a warp's halving loop in a helper
// (the shape of cuda-samples' threadFenceReduction reduceBlock) with no sync
// in its rounds: lane t reads sdata[t + i] while lane t + i may still be
// updating it in the round before, the lanes relying on lockstep, which
// sm_70 and later do not give. The check reports the idiom at the call.
//
// RUNTIME: tool=racecheck expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

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
constexpr int kBlocks = 2;
constexpr int kWarps = kThreads / 32;
constexpr int kIn = kThreads * kBlocks;
constexpr int kOut = kBlocks * kWarps;

__device__ void reduceWarp(volatile int *sdata, int mySum, unsigned tid,
                           cg::thread_block cta) {
  sdata[tid] = mySum;
  const unsigned vid = tid & 31;
  int beta = mySum;
  for (unsigned i = 16; i > 0; i >>= 1) {
    if (vid < i) {
      beta += sdata[tid + i];
      sdata[tid] = beta;
      // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
    }
  }
  cg::sync(cta);
}

// out[b * kWarps + w] = the sum of warp w's 32 values in block b.
__global__ void warpSums(const int *in, int *out) {
  __shared__ int sdata[kThreads];
  cg::thread_block cta = cg::this_thread_block();
  unsigned t = threadIdx.x;
  reduceWarp(sdata, in[blockIdx.x * kThreads + t], t, cta);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
  if (t % 32 == 0)
    out[blockIdx.x * kWarps + t / 32] = sdata[t];
}

void reference(const int *in, int *expected) {
  for (int w = 0; w < kOut; ++w) {
    expected[w] = 0;
    for (int i = 0; i < 32; ++i)
      expected[w] += in[w * 32 + i];
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (5 * i + 3) % 23;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  warpSums<<<kBlocks, kThreads>>>(in, out);
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
