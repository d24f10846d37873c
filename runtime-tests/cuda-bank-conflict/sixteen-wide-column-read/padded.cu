// sixteen-wide-column-read, padded: the same transpose with each row of the
// tile padded by one float (tile[16][17]), the fix that works for 32-wide
// tiles. Here it leaves a 2-way conflict: lane (x = 0, row y) reads word y and
// lane (x = 15, row y + 1) word 17 * 15 + y + 1 = 256 + y, the same bank. The
// row-wise store meets the same pair (words 17 * y and 17 * y + 32). 2
// wavefronts a read where 1 would do; shown with MinimumDegree 2.
//
// RUNTIME: tool=ncu expect=fault kernel=transpose16 op=ld wavefronts=2 ideal=1
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -config="{CheckOptions: {cuda-bank-conflict.MinimumDegree: 2}}" -- %cuda_real

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

constexpr int kTile = 16;
constexpr int kN = 256; // a 16 x 16 grid of tiles
constexpr int kSize = kN * kN;

// out = the transpose of in. The only shared load is the column read.
__global__ void transpose16(const float *in, float *out) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * kN + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 2-way bank conflict writing 'tile'{{.*}} [cuda-bank-conflict]
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * kN + x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 2-way bank conflict reading 'tile'{{.*}} [cuda-bank-conflict]
}

void reference(const float *in, float *expected) {
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c)
      expected[c * kN + r] = in[r * kN + c];
}

int main() {
  static float hostIn[kSize], hostOut[kSize], expected[kSize];
  for (int i = 0; i < kSize; ++i)
    hostIn[i] = static_cast<float>(3 * i + 1);
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  transpose16<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kTile)>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kSize; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kSize);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kSize);
  return 0;
}
