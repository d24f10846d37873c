// Two arrays carved out of one dynamic shared-memory pool, for a block size
// chosen at run time. The byte count covers one array: the second one, 'b',
// lies entirely past the end of what the launch passes.
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
  blend<<<4, threads, threads * sizeof(float)>>>(x, y, out); // cuda-dynamic-shared-bounds
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
