// The same stencil with the work predicated instead of the barrier: every
// thread of the block loads (a zero outside the image), every thread reaches
// the barrier, and only threads inside the image store a result.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int Tile = 16;

__global__ void stencil(const float *in, float *out, int w, int h) {
  __shared__ float tile[Tile + 2][Tile + 2];
  int x = blockIdx.x * Tile + threadIdx.x;
  int y = blockIdx.y * Tile + threadIdx.y;
  bool inside = x < w && y < h;
  tile[threadIdx.y + 1][threadIdx.x + 1] = inside ? in[y * w + x] : 0.0f;
  __syncthreads();
  if (inside) {
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
