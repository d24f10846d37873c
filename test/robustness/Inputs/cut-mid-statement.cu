// A complete kernel with a divergent barrier, then one cut in the middle of
// its second statement (half-typed.test).
#include <cuda_runtime.h>

__global__ void complete(float *out) {
  __shared__ float tile[256];
  if (threadIdx.x < 32) {
    __syncthreads();
  }
  tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 256];
}

template <int N> __device__ float sum(const float *p) {
  return N == 0 ? 0.0f : p[0] + sum<(N > 0 ? N - 1 : 0)>(p + 1);
}

__global__ void cut(float *out) {
  __shared__ float buf[128];
  buf[threadIdx.x] = out[threadIdx.x];
  buf[threadIdx.x] = out[
