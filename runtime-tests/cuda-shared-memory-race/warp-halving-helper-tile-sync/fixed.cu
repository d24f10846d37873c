// warp-halving-helper-tile-sync, fixed: the same helper with a tile sync
// after the first store and at the end of every round, as cuda-samples'
// reduceBlock has it. Lane t reads sdata[t + i] only after lane t + i's
// last update (an earlier round), the sync between the rounds ordering the
// two lanes; threads of two warps never meet (t + i stays in t's warp). The
// check is silent (lit: cuda-shared-memory-race-warp-rounds.cu).
//
// RUNTIME: tool=racecheck expect=clean
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
  cg::thread_block_tile<32> tile32 = cg::tiled_partition<32>(cta);
  sdata[tid] = mySum;
  cg::sync(tile32);
  const unsigned vid = tid & 31;
  int beta = mySum;
  for (unsigned i = 16; i > 0; i >>= 1) {
    if (vid < i) {
      beta += sdata[tid + i];
      sdata[tid] = beta;
    }
    cg::sync(tile32);
  }
  cg::sync(cta);
}

// out[b * kWarps + w] = the sum of warp w's 32 values in block b.
__global__ void warpSums(const int *in, int *out) {
  __shared__ int sdata[kThreads];
  cg::thread_block cta = cg::this_thread_block();
  unsigned t = threadIdx.x;
  reduceWarp(sdata, in[blockIdx.x * kThreads + t], t, cta);
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
