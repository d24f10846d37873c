// Matrix transpose through a shared tile, 32x8 threads per 32x32 tile. The
// tile is written by rows and read by columns: reading a column of an
// unpadded [32][32] float tile sends all 32 lanes of a warp to one bank.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int Tile = 32, Rows = 8;

__global__ void transpose(float *out, const float *in, int n) {
  __shared__ float tile[Tile][Tile];
  int x = blockIdx.x * Tile + threadIdx.x, y = blockIdx.y * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += Rows)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * Tile + threadIdx.x;
  y = blockIdx.x * Tile + threadIdx.y;
  for (int j = 0; j < Tile; j += Rows)
    out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j]; // cuda-bank-conflict: 32-way
}

int main() {
  const int n = 256;
  float *in, *out;
  if (cudaMalloc(&in, n * n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, n * n * sizeof(float)) != cudaSuccess)
    return 1;
  transpose<<<dim3(n / Tile, n / Tile), dim3(Tile, Rows)>>>(out, in, n);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
