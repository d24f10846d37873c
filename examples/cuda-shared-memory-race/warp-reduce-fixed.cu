// The same reduction with the last warp done by shuffles, which exchange
// registers among the lanes of a warp and synchronise them as they go.
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
    float v = sdata[tid] + sdata[tid + 32];
    for (int offset = 16; offset > 0; offset >>= 1)
      v += __shfl_down_sync(0xffffffff, v, offset);
    if (tid == 0)
      out[blockIdx.x] = v;
  }
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
