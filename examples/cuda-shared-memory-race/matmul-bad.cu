// Tiled matrix product, C = A * B for n x n matrices. The tiles are loaded,
// the block waits, the tiles are used... and the next iteration overwrites
// them while slower threads still read the old ones: there is no barrier
// between the last read of a tile and the next load.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int Tile = 16;

__global__ void matmul(const float *A, const float *B, float *C, int n) {
  __shared__ float As[Tile][Tile], Bs[Tile][Tile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * Tile + ty, col = blockIdx.x * Tile + tx;
  float acc = 0.0f;
  for (int m = 0; m < n / Tile; ++m) {
    As[ty][tx] = A[row * n + m * Tile + tx]; // cuda-shared-memory-race
    Bs[ty][tx] = B[(m * Tile + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < Tile; ++k)
      acc += As[ty][k] * Bs[k][tx];
  }
  C[row * n + col] = acc;
}

int main() {
  const int n = 64;
  float *A, *B, *C;
  if (cudaMalloc(&A, n * n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&B, n * n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&C, n * n * sizeof(float)) != cudaSuccess)
    return 1;
  matmul<<<dim3(n / Tile, n / Tile), dim3(Tile, Tile)>>>(A, B, C, n);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
