// bulk-copy-read-before-wait, bad: thread 0 copies in[] into tile[] with a
// bulk copy (cp.async.bulk ... mbarrier::complete_tx::bytes, the TMA engine
// of sm_90) that completes on an mbarrier; every thread reads another
// thread's slot of tile[] before it waits for the mbarrier's phase, so the
// read can come before the copy has landed (issue 23, sketch 8: bulk copies
// and mbarrier.try_wait). The wait, written as the usual try_wait loop, is in
// a helper.
//
// RUNTIME: tool=result expect=fault
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
constexpr unsigned kBytes = kThreads * sizeof(int);

// Thread 0's arrival on the mbarrier, telling the phase to expect kBytes.
__device__ __forceinline__ void armPhase(unsigned bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(
                   bar),
               "r"(bytes)
               : "memory");
}

// Spins until phase 0 of the mbarrier completes.
__device__ __forceinline__ void waitPhase(unsigned bar) {
  asm volatile("{\n"
               ".reg .pred P1;\n"
               "LAB_WAIT:\n"
               "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], 0;\n"
               "@P1 bra DONE;\n"
               "bra LAB_WAIT;\n"
               "DONE:\n"
               "}" ::"r"(bar)
               : "memory");
}

// out[t] = in[255 - t]: thread 0 copies the whole of in[] into tile[] with
// one bulk copy (the TMA engine), which completes on the mbarrier; each
// thread then reads the element of thread 255 - t. tile[] is first filled
// with -1, so that a read of a slot the copy has not written yet shows.
__global__ void bulkReverse(const int *in, int *out) {
  __shared__ alignas(128) int tile[kThreads];
  __shared__ alignas(8) unsigned long long mbar;
  int t = threadIdx.x;
  unsigned bar = static_cast<unsigned>(__cvta_generic_to_shared(&mbar));
  unsigned dst = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  tile[t] = -1;
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar)
                 : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  }
  // The generic-proxy stores above come before the async proxy's writes.
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    armPhase(bar, kBytes);
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                 "::bytes [%0], [%1], %2, [%3];" ::"r"(dst),
                 "l"(in), "r"(kBytes), "r"(bar)
                 : "memory");
  }
  int v = tile[kThreads - 1 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
  waitPhase(bar);
  out[t] = v;
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
  bulkReverse<<<1, kThreads>>>(in, out);
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
