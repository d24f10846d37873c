// matched-barriers-whole-warps, fixed: the barrier stands before the branch,
// where every thread of the block executes the same instruction.
//
// RUNTIME: tool=synccheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_real

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

constexpr int kWidth = 32;
constexpr int kRows = 128 / kWidth;
constexpr int kCount = kWidth * kRows;

// out[y][x] = in[y][x] + in[y + 1][x] on even rows, 0 on odd rows. Even rows
// read what odd rows wrote.
__global__ void pairRows(const int *in, int *out) {
  __shared__ int slot[kRows][kWidth];
  int x = threadIdx.x, y = threadIdx.y;
  slot[y][x] = in[y * kWidth + x];
  int sum = 0;
  __syncthreads();
  if (y % 2 == 0)
    sum = slot[y][x] + slot[y + 1][x];
  out[y * kWidth + x] = sum;
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = (37 * i) % 101 + 1;
  for (int y = 0; y < kRows; ++y)
    for (int x = 0; x < kWidth; ++x)
      expected[y * kWidth + x] =
          y % 2 == 0 ? hostIn[y * kWidth + x] + hostIn[(y + 1) * kWidth + x]
                     : 0;

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  pairRows<<<1, dim3(kWidth, kRows)>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kCount; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kCount);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kCount);
  return 0;
}
