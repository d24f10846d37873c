// cp-async-ptx-no-wait, bad: inline PTX cp.async.ca.shared.global copies
// tile[t], cp.async.commit_group closes the group, and the thread reads
// tile[255 - t] with neither cp.async.wait_group nor a barrier: the copy
// completes only at a wait, and the slot is another thread's (issue 23, sketch
// 8). The PTX form of pipeline-copy-no-wait.
//
// racecheck reports the __pipeline_memcpy_async form on the H200 (GPU-
// FACTS.md), which compiles to the same instruction; this one is not yet
// measured.
//
// RUNTIME: tool=racecheck expect=fault
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
constexpr int kIn = kThreads;
constexpr int kOut = kThreads;

// out[t] = in[255 - t]: each thread copies its element into shared memory
// with the cp.async instruction (inline PTX, as CUTLASS and flash-attention
// write it), then reads the element of thread 255 - t.
__global__ void reverseBlock(const int *in, int *out) {
  __shared__ int tile[kThreads];
  int t = threadIdx.x;
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(&tile[t]));
  asm volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"(dst),
               "l"(&in[t])
               : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  out[t] = tile[kThreads - 1 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = in[kIn - 1 - i];
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = 5 * i + 2;
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
