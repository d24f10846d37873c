// cub-load-scan-storage-union, fixed: __syncthreads() between the load and the
// scan, so no thread writes the union for the scan before every thread has
// finished reading it for the load.
//
// RUNTIME: tool=racecheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cstdio>
#include <cstdlib>
#include <cub/block/block_load.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_store.cuh>
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
constexpr int kItems = 4;
constexpr int kBlocks = 2;
constexpr int kTile = kThreads * kItems;
constexpr int kIn = kTile * kBlocks;
constexpr int kOut = kIn;

// out[] = the inclusive prefix sums of each block's tile of 512 elements:
// cub::BlockLoad (transposing through shared memory) into a blocked
// arrangement, cub::BlockScan over it, the storage of the two in one union.
__global__ void tileScan(const int *in, int *out) {
  using BlockLoad =
      cub::BlockLoad<int, kThreads, kItems, cub::BLOCK_LOAD_TRANSPOSE>;
  using BlockScan = cub::BlockScan<int, kThreads>;
  __shared__ union {
    typename BlockLoad::TempStorage load;
    typename BlockScan::TempStorage scan;
  } temp;
  int items[kItems];
  int base = blockIdx.x * kTile;
  BlockLoad(temp.load).Load(in + base, items);
  __syncthreads();
  BlockScan(temp.scan).InclusiveSum(items, items);
  cub::StoreDirectBlocked(threadIdx.x, out + base, items);
}

void reference(const int *in, int *expected) {
  for (int b = 0; b < kBlocks; ++b) {
    int sum = 0;
    for (int i = b * kTile; i < (b + 1) * kTile; ++i)
      expected[i] = sum += in[i];
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (5 * i + 2) % 23 - 11;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  tileScan<<<kBlocks, kThreads>>>(in, out);
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
