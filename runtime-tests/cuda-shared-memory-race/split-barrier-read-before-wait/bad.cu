// split-barrier-read-before-wait, bad: bar.arrive() and bar.wait(token) are the
// two halves of a block barrier. Each thread stores tile[t], arrives, and reads
// tile[255 - t] between its arrive and its wait: the writer of that slot has
// not necessarily arrived yet, so nothing orders its store before the read
// (issue 23, sketch 4: "arrive(), then a read of another thread's element, then
// wait()").
//
// racecheck reports the split arrive/wait shape on the H200 (GPU-FACTS.md,
// modern synchronization).
//
// RUNTIME: tool=racecheck expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda/barrier>
#include <cuda_runtime.h>
#include <utility>

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

// out[t] = 3 * in[t] + in[255 - t]: each thread stages its element, arrives
// at the split barrier, works on its own element while the others arrive,
// and adds the element of thread 255 - t.
__global__ void ownPlusMirror(const int *in, int *out) {
  __shared__ int tile[kThreads];
  __shared__ Barrier bar;
  cg::thread_block block = cg::this_thread_block();
  if (block.thread_rank() == 0)
    init(&bar, block.size());
  block.sync();
  int t = block.thread_rank();
  tile[t] = in[t];
  Barrier::arrival_token token = bar.arrive();
  int own = 3 * tile[t];
  int mirror = tile[kThreads - 1 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
  bar.wait(std::move(token));
  out[t] = own + mirror;
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = 3 * in[i] + in[kIn - 1 - i];
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = 13 * i + 1;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  ownPlusMirror<<<1, kThreads>>>(in, out);
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
