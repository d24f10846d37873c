#include "common.cuh"
#include <cuda_runtime.h>

__global__ void reduce(const float *in, float *out) {
  __shared__ float partial[256];
  partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    out[blockIdx.x] = partial[0];
}

void launchReduce(const float *in, float *out, int blocks) {
  reduce<<<blocks, 256>>>(in, out);
  scaleTile<<<1, 64>>>(out);
}
