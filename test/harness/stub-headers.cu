// Everything the stub headers offer, used once, compiles in both passes with
// no diagnostic, and a kernel launch with all four <<<>>> arguments parses.
// RUN: %clang_tidy -checks='-*,clang-diagnostic-*,misc-unused-alias-decls' %s -- %cuda_stub --cuda-device-only -Wall -Wextra 2>&1 | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'
// RUN: %clang_tidy -checks='-*,clang-diagnostic-*,misc-unused-alias-decls' %s -- %cuda_stub --cuda-host-only -Wall -Wextra 2>&1 | FileCheck %s --allow-empty --implicit-check-not='{{warning|error}}:'

#include <cooperative_groups.h>
#include <cuda_runtime.h>

namespace cg = cooperative_groups;

__constant__ float Scale;
__device__ int Counter;

__device__ __forceinline__ int laneOf(unsigned int tid) { return tid % warpSize; }

__global__ void __launch_bounds__(256, 2)
everything(int *out, unsigned int *uout, float *fout, unsigned long long *lout) {
  __shared__ int tile[256];
  extern __shared__ float dynamic[];
  unsigned int tid = threadIdx.x + blockIdx.x * blockDim.x;
  unsigned int total = gridDim.x * blockDim.x + threadIdx.y + threadIdx.z +
                       blockIdx.y + blockIdx.z + blockDim.y + blockDim.z +
                       gridDim.y + gridDim.z;
  dim3 t = threadIdx;
  uint3 b = blockIdx;
  dim3 bd = blockDim;
  dim3 gd(gridDim);
  tile[threadIdx.x] = laneOf(tid);
  dynamic[threadIdx.x] = Scale;

  __syncthreads();
  int count = __syncthreads_count(tile[0] > 0);
  int all = __syncthreads_and(tile[1] > 0);
  int any = __syncthreads_or(tile[2] > 0);
  __syncwarp();
  __syncwarp(0xffffffffu);
  unsigned int active = __activemask();
  unsigned int ballot = __ballot_sync(active, tid & 1);
  int vote = __any_sync(active, 1) + __all_sync(active, 1);
  int s0 = __shfl_sync(active, count, 0);
  unsigned int s1 = __shfl_up_sync(active, total, 1u);
  float s2 = __shfl_down_sync(active, dynamic[0], 1u, 16);
  int s3 = __shfl_xor_sync(active, all, 1);
  __threadfence();
  __threadfence_block();
  long long start = clock64();
  int tick = clock();

  atomicAdd(out, 1);
  atomicAdd(uout, 1u);
  atomicAdd(lout, 1ull);
  atomicAdd(fout, 1.0f);
  atomicSub(out, 1);
  atomicSub(uout, 1u);
  atomicExch(out, 2);
  atomicExch(uout, 2u);
  atomicExch(fout, 2.0f);
  atomicMax(out, any);
  atomicMax(uout, ballot);
  atomicMin(out, vote);
  atomicMin(uout, s1);
  atomicCAS(out, 0, s0);
  atomicCAS(uout, 0u, t.x + b.y + bd.z + gd.x);
  atomicCAS(lout, 0ull, 1ull);
  out[1] = min(s3, tick) + max(Counter, 0) + static_cast<int>(min(s2, 1.0f)) +
           static_cast<int>(max(start, 0ll));
  out[2] = static_cast<int>(cudaGetLastError());

  cg::thread_block block = cg::this_thread_block();
  block.sync();
  cg::thread_block::arrival_token token = block.barrier_arrive();
  block.barrier_wait(static_cast<cg::thread_block::arrival_token &&>(token));
  dim3 gi = block.group_index();
  dim3 ti = block.thread_index();
  dim3 dt = block.dim_threads();
  unsigned int r = block.thread_rank() + block.size() + block.num_threads() +
                   gi.x + ti.x + dt.x;

  cg::thread_block_tile<32, cg::thread_block> warp = cg::tiled_partition<32>(block);
  warp.sync();
  int w = warp.shfl(count, 0) + warp.shfl_down(count, 1u) + warp.shfl_up(count, 1u) +
          warp.shfl_xor(count, 1u) + static_cast<int>(warp.ballot(1)) +
          warp.any(1) + warp.all(1);
  unsigned int wr = warp.thread_rank() + warp.meta_group_rank() + warp.size() +
                    warp.num_threads();
  cg::thread_block_tile<32> erased = warp;
  erased.sync();
  wr += erased.meta_group_rank();

  cg::thread_group dynamicTile = cg::tiled_partition(block, 16u);
  dynamicTile.sync();
  cg::coalesced_group active_threads = cg::coalesced_threads();
  active_threads.sync();
  r += active_threads.thread_rank() + active_threads.size();

  cg::sync(block);
  cg::sync(warp);
  r += static_cast<unsigned int>(cg::thread_rank(block) + cg::thread_rank(warp));

  cg::grid_group grid = cg::this_grid();
  grid.sync();
  uout[0] = r + wr + static_cast<unsigned int>(w) +
            static_cast<unsigned int>(grid.thread_rank() + grid.size());
}

__global__ void child(int *p) { p[threadIdx.x] = 0; }

int main() {
  int *data = nullptr;
  unsigned int *udata = nullptr;
  float *fdata = nullptr;
  unsigned long long *ldata = nullptr;
  if (cudaMalloc(&data, 256 * sizeof(int)) != cudaSuccess)
    return 1;
  cudaMalloc(reinterpret_cast<void **>(&udata), 256 * sizeof(unsigned int));
  cudaMalloc(&fdata, sizeof(float));
  cudaMalloc(&ldata, sizeof(unsigned long long));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  cudaFuncSetAttribute(everything, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       1024);
  everything<<<dim3(4, 1, 1), 256, 1024, stream>>>(data, udata, fdata, ldata);
  child<<<1, 32>>>(data);
  void *args[] = {&data};
  cudaLaunchKernel(child, dim3(1), dim3(32), args, 0, stream);
  cudaStreamSynchronize(stream);
  cudaDeviceSynchronize();
  int host[256];
  cudaMemcpy(host, data, sizeof(host), cudaMemcpyDeviceToHost);
  cudaMemset(data, 0, sizeof(host));
  cudaError_t err = cudaGetLastError();
  const char *message = cudaGetErrorString(err);
  cudaStreamDestroy(stream);
  cudaFree(data);
  return host[0] + (message != nullptr);
}
