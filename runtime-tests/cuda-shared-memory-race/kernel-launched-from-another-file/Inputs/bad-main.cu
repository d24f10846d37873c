// kernel-launched-from-another-file, bad: the launch of the kernel defined in
// ../bad.cu, with blocks of 256 threads (eight warps).

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

__global__ void rotateSlice(const float *in, float *out);

constexpr int kN = 256;
constexpr int kBlock = 256;

void reference(const float *in, float *expected) {
  for (int i = 0; i < kN; ++i) {
    int base = i / kBlock * kBlock;
    expected[i] = in[base + (i - base + 1) % kBlock];
  }
}

int main() {
  static float hostIn[kN], hostOut[kN], expected[kN];
  for (int i = 0; i < kN; ++i)
    hostIn[i] = 3.0f * i + 1.0f;
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  rotateSlice<<<kN / kBlock, kBlock>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kN);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kN);
  return 0;
}
