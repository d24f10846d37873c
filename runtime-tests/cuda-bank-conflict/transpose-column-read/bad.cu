// transpose-column-read, bad: a 256 x 256 float transpose through a shared
// tile of 32 x 32 floats, one element a thread (blocks of 32 x 32 threads).
// The tile is stored row by row and read column by column: the 32 lanes of a
// warp read tile[0..31][y], words 32 apart, all in one bank. Each warp's read
// takes 32 wavefronts where 1 would do (a 32-way bank conflict).
//
// RUNTIME: tool=ncu expect=fault kernel=transposeTile op=ld wavefronts=32 ideal=1
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_real

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

constexpr int kTile = 32;
constexpr int kN = 256; // an 8 x 8 grid of tiles
constexpr int kSize = kN * kN;

// out = the transpose of in. The only shared load is the column read.
__global__ void transposeTile(const float *in, float *out) {
  __shared__ float tile[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * kN + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * kN + x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict reading 'tile'{{.*}} [cuda-bank-conflict]
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
  transposeTile<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kTile)>>>(in, out);
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
