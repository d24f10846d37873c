// over-48k-without-attribute, bad: a launch asks for 64 KiB of dynamic shared
// memory, more than the 48 KiB a kernel gets unless
// cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
// bytes) raised its limit first. The launch itself fails (cudaGetLastError()
// returns cudaErrorInvalidValue) and the kernel never runs: the program
// reports the launch error and its output stays zero, which the result check
// against the CPU reference catches (exit 1).
//
// RUNTIME: tool=result expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_real

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
constexpr int kTile = 16384; // floats: 64 KiB
constexpr size_t kBytes = kTile * sizeof(float);

// out[j] = in[kTile - 1 - j]: one block reverses a 64 KiB tile through dynamic
// shared memory, each thread moving every blockDim.x-th element.
__global__ void reverseTile(const float *in, float *out) {
  extern __shared__ float tile[];
  for (int j = threadIdx.x; j < kTile; j += blockDim.x)
    tile[j] = in[j];
  __syncthreads();
  for (int j = threadIdx.x; j < kTile; j += blockDim.x)
    out[j] = tile[kTile - 1 - j];
}

void reference(const float *in, float *expected) {
  for (int i = 0; i < kTile; ++i)
    expected[i] = in[kTile - 1 - i];
}

int main() {
  static float hostIn[kTile], hostOut[kTile], expected[kTile];
  for (int i = 0; i < kTile; ++i)
    hostIn[i] = (float)(i + 1);
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  reverseTile<<<1, kThreads, kBytes>>>(in, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-dynamic-shared-bounds]
  // A launch that fails leaves the output as it was; say why and let the
  // result check report it.
  cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess)
    std::printf("launch of reverseTile with %zu bytes of dynamic shared memory "
                "failed: %s (%s)\n",
                kBytes, cudaGetErrorName(launch), cudaGetErrorString(launch));
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kTile; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kTile);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kTile);
  return 0;
}
