#include "common.cuh"
#include <cuda_runtime.h>

__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = in[i];
    __syncthreads();
    out[i] = tile[(threadIdx.x + 1) % 256];
  }
  __syncthreads();
}

void launchStencil(const float *in, float *out, int n) {
  stencil<<<(n + 255) / 256, 256>>>(in, out, n);
  scaleTile<<<1, 64>>>(out);
}
