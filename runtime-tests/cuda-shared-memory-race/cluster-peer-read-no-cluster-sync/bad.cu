// cluster-peer-read-no-cluster-sync, bad: blocks of a cluster of two fill
// their own shared slots, pass only __syncthreads(), and read the other
// block's slots through cluster.map_shared_rank (distributed shared memory):
// __syncthreads() orders one block's threads, so a block can read its peer's
// slots before the peer has written them; and with no cluster barrier after
// the read, the peer may exit, and its shared memory end, before it (issue
// 23, sketch 8: map_shared_rank reads without cluster.sync()).
//
// On the H200 the launch fails ("unspecified launch failure"), and racecheck
// reports each early read as "Potential invalid __shared__ read ... located
// in a block that might not have entered yet" (712 errors); the fixed program
// is clean under every tool and its results are right.
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
constexpr int kOut = kThreads * kBlocks;

// Block 1 is slow to fill its slots (a spin of about 20 microseconds), as a
// block that is scheduled later or does more work first would be.
__device__ void slowStart(unsigned rank) {
  if (rank == 1) {
    long long start = clock64();
    while (clock64() - start < 40000)
      ;
  }
}

// Clusters of two blocks: each block fills smem[t] = 1000 * rank + t, then
// reads the other block's slot 255 - t through map_shared_rank.
__global__ void __cluster_dims__(2, 1, 1) peerReverse(int *out) {
  __shared__ int smem[kThreads];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  slowStart(rank);
  smem[t] = 1000 * rank + t;
  __syncthreads();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * kThreads + t] = peer[kThreads - 1 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
  // CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
}

void reference(int *expected) {
  for (int b = 0; b < kBlocks; ++b)
    for (int t = 0; t < kThreads; ++t)
      expected[b * kThreads + t] = 1000 * (b ^ 1) + (kThreads - 1 - t);
}

int main() {
  static int hostOut[kOut], expected[kOut];
  reference(expected);
  int *out;
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  peerReverse<<<kBlocks, kThreads>>>(out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
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
