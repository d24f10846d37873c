// The same blend with bytes for both arrays the kernel carves out of the
// pool.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void blend(const float *x, const float *y, float *out) {
  extern __shared__ float pool[];
  float *a = pool;
  float *b = pool + blockDim.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  a[threadIdx.x] = x[i];
  b[threadIdx.x] = y[i];
  __syncthreads();
  out[i] = a[threadIdx.x] + b[blockDim.x - 1 - threadIdx.x];
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 256;
  float *x, *y, *out;
  if (cudaMalloc(&x, 4 * threads * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&y, 4 * threads * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, 4 * threads * sizeof(float)) != cudaSuccess)
    return 1;
  blend<<<4, threads, 2 * threads * sizeof(float)>>>(x, y, out);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
