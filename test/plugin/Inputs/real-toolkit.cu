// A small program against the real CUDA headers: cuda_runtime.h through
// clang's wrapper, cooperative_groups.h, and launches with <<<>>>.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__global__ void divergent(float *data) {
  if (threadIdx.x < 16) {
    data[threadIdx.x] = 0.0f;
    __syncthreads();
    // CHECK: real-toolkit.cu:[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  }
  data[threadIdx.x + 16] = 1.0f;
}

__global__ void uniform(float *data) {
  __shared__ float tile[256];
  cg::thread_block block = cg::this_thread_block();
  tile[block.thread_rank()] = data[block.thread_rank()];
  block.sync();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float sum = tile[block.thread_rank()];
  for (int offset = 16; offset > 0; offset /= 2)
    sum += warp.shfl_down(sum, offset);
  if (warp.thread_rank() == 0)
    atomicAdd(&data[0], sum);
}

int main() {
  float *data = nullptr;
  cudaMalloc(&data, 256 * sizeof(float));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  divergent<<<1, 32, 0, stream>>>(data);
  uniform<<<dim3(1), dim3(256)>>>(data);
  cudaDeviceSynchronize();
  cudaFree(data);
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
