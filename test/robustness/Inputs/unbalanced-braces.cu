// Braces opened and never closed (half-typed.test).
#include <cuda_runtime.h>

__global__ void k(float *out) {
  __shared__ float s[64];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = out[threadIdx.x];
    for (int i = 0; i < 4; ++i) {
      {
  __syncthreads();
}
