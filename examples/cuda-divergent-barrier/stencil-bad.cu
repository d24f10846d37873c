// A 5-point stencil through a shared tile. The barrier sits inside the
// load's bounds check, so on the right and bottom edges some threads of a
// block wait at it while their neighbours go on to the next statement:
// undefined behaviour, and in practice a tile read before it is written.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int Tile = 16;

__global__ void stencil(const float *in, float *out, int w, int h) {
  __shared__ float tile[Tile + 2][Tile + 2];
  int x = blockIdx.x * Tile + threadIdx.x;
  int y = blockIdx.y * Tile + threadIdx.y;
  if (x < w && y < h) {
    tile[threadIdx.y + 1][threadIdx.x + 1] = in[y * w + x];
    __syncthreads(); // cuda-divergent-barrier: not every thread gets here
  }
  if (x < w && y < h) {
    float sum = tile[threadIdx.y][threadIdx.x + 1] +
                tile[threadIdx.y + 2][threadIdx.x + 1] +
                tile[threadIdx.y + 1][threadIdx.x] +
                tile[threadIdx.y + 1][threadIdx.x + 2];
    out[y * w + x] = 0.25f * sum;
  }
}

int main() {
  const int w = 100, h = 70;
  float *in, *out;
  if (cudaMalloc(&in, w * h * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, w * h * sizeof(float)) != cudaSuccess)
    return 1;
  dim3 block(Tile, Tile), grid((w + Tile - 1) / Tile, (h + Tile - 1) / Tile);
  stencil<<<grid, block>>>(in, out, w, h);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
