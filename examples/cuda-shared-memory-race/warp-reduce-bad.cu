// The classic block reduction with its last warp unrolled "warp-
// synchronously" through volatile shared memory. Before Volta a warp ran in
// lockstep and this worked; on sm_70 and later the lanes of a warp may
// drift apart, and a lane can read its neighbour's partial sum before the
// neighbour has written it.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void sum(const float *in, float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[blockIdx.x * 256 + tid];
  __syncthreads();
  for (unsigned s = 128; s > 32; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *v = sdata;
    v[tid] += v[tid + 32];
    v[tid] += v[tid + 16]; // cuda-shared-memory-race: lanes 16..31 may not have written yet
    v[tid] += v[tid + 8];
    v[tid] += v[tid + 4];
    v[tid] += v[tid + 2];
    v[tid] += v[tid + 1];
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

int main() {
  float *in, *out;
  if (cudaMalloc(&in, 1024 * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, 4 * sizeof(float)) != cudaSuccess)
    return 1;
  sum<<<4, 256>>>(in, out);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
