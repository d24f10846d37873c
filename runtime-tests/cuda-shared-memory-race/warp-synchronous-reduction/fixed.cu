// warp-synchronous-reduction, fixed: the tail with __syncwarp(): a lane reads
// its partner into a register, the warp syncs, the lane stores its sum, the
// warp syncs again; no slot is read and written between two syncs.
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
constexpr int kBlocks = 2;
constexpr int kIn = kThreads * kBlocks;
constexpr int kOut = kBlocks;

// out[b] = the sum of block b's kThreads values: a tree reduction with
// barriers down to 64 partial sums, then the last warp alone.
__global__ void blockSum(const int *in, int *out) {
  __shared__ int sdata[kThreads];
  int t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (t < s)
      sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t < 32) {
    // The warp's steps ordered with __syncwarp(): each lane reads its
    // partner into a register, the warp syncs, then it stores and syncs.
    int sum = sdata[t] + sdata[t + 32];
    __syncwarp();
    for (int s = 16; s > 0; s >>= 1) {
      sdata[t] = sum;
      __syncwarp();
      sum += sdata[t + s];
      __syncwarp();
    }
    if (t == 0)
      out[blockIdx.x] = sum;
  }
}

void reference(const int *in, int *expected) {
  for (int b = 0; b < kBlocks; ++b) {
    expected[b] = 0;
    for (int i = 0; i < kThreads; ++i)
      expected[b] += in[b * kThreads + i];
  }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (3 * i + 1) % 17;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  blockSum<<<kBlocks, kThreads>>>(in, out);
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
