// wrapped-cp-async-wait-no-barrier, bad: the per-thread cp.async, its commit
// and its wait written through wrappers as ggml writes them (cp_async_cg_16
// <preload>, cp_async_commit_group, cp_async_wait_group<N>, with the
// destination a 32-bit shared address plus an offset): the wait completes
// only this thread's copy, and the thread then reads another thread's chunk
// with no barrier (issue 23: copies and waits inside __device__ helpers).
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
constexpr int kIn = kThreads * 4;
constexpr int kOut = kThreads * 4;

// ggml's wrappers of the per-thread copy (cp-async.cuh): the destination is
// a 32-bit shared address, offset by the caller; the commit and the wait.
static __device__ __forceinline__ unsigned toShared(void *p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}
template <int preload>
static __device__ __forceinline__ void cp_async_cg_16(unsigned dst,
                                                      const void *src) {
  if (preload == 64) {
    asm volatile("cp.async.cg.shared.global.L2::64B [%0], [%1], 16;"
                 :
                 : "r"(dst), "l"(src)
                 : "memory");
  } else {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;"
                 :
                 : "r"(dst), "l"(src)
                 : "memory");
  }
}
static __device__ __forceinline__ void cp_async_commit_group() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
template <int N>
static __device__ __forceinline__ void cp_async_wait_group() {
  asm volatile("cp.async.wait_group %0;" : : "n"(N) : "memory");
}

// out[] = in[] reversed by 16-byte chunks: each thread copies chunk t of
// in[] into tile[] through the wrappers, waits for its own copy, then reads
// chunk 255 - t, another thread's.
__global__ void chunkReverse(const int4 *in, int4 *out) {
  __shared__ int4 tile[kThreads];
  int t = threadIdx.x;
  unsigned base = toShared(tile);
  cp_async_cg_16<64>(base + t * sizeof(int4), in + t);
  cp_async_commit_group();
  cp_async_wait_group<0>();
  out[t] = tile[kThreads - 1 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kOut; ++i)
    expected[i] = in[(kThreads - 1 - i / 4) * 4 + i % 4];
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
  chunkReverse<<<1, kThreads>>>(reinterpret_cast<const int4 *>(in), reinterpret_cast<int4 *>(out));
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
