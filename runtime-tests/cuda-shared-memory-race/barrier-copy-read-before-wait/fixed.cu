// barrier-copy-read-before-wait, fixed: bar.arrive_and_wait() before the read.
// It returns when every thread of the block has arrived and the copy that
// completes on the barrier has landed (the Programming Guide: "Waits for all
// copies to complete").
//
// racecheck: 0 hazards expected, as the fixed twins of GPU-FACTS.md.
//
// RUNTIME: tool=racecheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>
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
constexpr int kIn = kThreads;
constexpr int kOut = kThreads;

namespace cg = cooperative_groups;
using Barrier = cuda::barrier<cuda::thread_scope_block>;

// out[t] = in[255 - t]: the block copies in[] into shared memory with
// cuda::memcpy_async, whose completion the block barrier tracks, then each
// thread reads the element of thread 255 - t. The barrier is initialized by
// one thread for the whole block, then the block synchronizes, as the
// Programming Guide does.
__global__ void reverseBlock(const int *in, int *out) {
  __shared__ int tile[kThreads];
  __shared__ Barrier bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, tile, in, sizeof(int) * kThreads, bar);
  int t = block.thread_rank();
  bar.arrive_and_wait();
  out[t] = tile[kThreads - 1 - t];
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = in[kIn - 1 - i];
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = 11 * i + 5;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  reverseBlock<<<1, kThreads>>>(in, out);
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
