// sixteen-wide-column-read, fixed: the same transpose with the unpadded
// 16 x 16 tile and the column swizzled with the row: element (r, c) is kept
// at tile[r][c ^ r]. The column read tile[x][y ^ x] puts the lanes of row y
// in banks 16 * (x % 2) + (y ^ x), and those of row y + 1 (which differs from
// y in its lowest bit) in the other 16: one wavefront a read, and the store
// stays conflict-free too.
//
// RUNTIME: tool=ncu expect=clean kernel=transpose16 op=ld wavefronts=1 ideal=1
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

constexpr int kTile = 16;
constexpr int kN = 256; // a 16 x 16 grid of tiles
constexpr int kSize = kN * kN;

// out = the transpose of in. The only shared load is the column read.
__global__ void transpose16(const float *in, float *out) {
  __shared__ float tile[kTile][kTile];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  tile[threadIdx.y][threadIdx.x ^ threadIdx.y] = in[y * kN + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * kN + x] = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
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
