// transpose-tile-no-barrier, fixed: a __syncthreads() between the store loop
// and the transposed load: the whole tile is stored before any of it is read.
//
// RUNTIME: tool=racecheck expect=clean
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

constexpr int kTile = 32;
constexpr int kRows = 8; // a block is kTile x kRows threads; each does 4 rows
constexpr int kN = 64;   // a 64 x 64 matrix: a 2 x 2 grid of tiles
constexpr int kIn = kN * kN;
constexpr int kOut = kN * kN;

// out = the transpose of in, through a padded shared tile (33 columns, so that
// the column reads do not conflict on banks).
__global__ void transpose(const int *in, int *out) {
  __shared__ int tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * kN + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    out[(y + j) * kN + x] = tile[threadIdx.x][threadIdx.y + j];
}

void reference(const int *in, int *expected) {
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c)
      expected[c * kN + r] = in[r * kN + c];
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = 3 * i + 1;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  transpose<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kRows)>>>(in, out);
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
