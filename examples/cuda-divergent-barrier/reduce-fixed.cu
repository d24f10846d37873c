// The same reduction: the helper predicates the load and keeps every thread
// on the path to the barrier.
#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__device__ void accumulate(cg::thread_block block, float *partial,
                           const float *in, int i, int n) {
  if (i < n)
    partial[block.thread_rank()] = in[i];
  block.sync();
}

__global__ void sum(const float *in, float *out, int n) {
  __shared__ float partial[256];
  cg::thread_block block = cg::this_thread_block();
  partial[block.thread_rank()] = 0.0f;
  block.sync();
  accumulate(block, partial, in, blockIdx.x * blockDim.x + threadIdx.x, n);
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (block.thread_rank() < s)
      partial[block.thread_rank()] += partial[block.thread_rank() + s];
    block.sync();
  }
  if (block.thread_rank() == 0)
    out[blockIdx.x] = partial[0];
}

int main() {
  const int n = 1000;
  float *in, *out;
  if (cudaMalloc(&in, n * sizeof(float)) != cudaSuccess ||
      cudaMalloc(&out, 4 * sizeof(float)) != cudaSuccess)
    return 1;
  sum<<<4, 256>>>(in, out, n);
  std::printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
