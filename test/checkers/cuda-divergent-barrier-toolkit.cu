// The real CUDA toolkit through the cuda-tidy wrapper, which must add what
// CUDA 13 needs (launch API, cccl include path) by itself.
// REQUIRES: cuda-toolkit
// RUN: %cuda_tidy --checks='-*,cuda-divergent-barrier' %s -- --cuda-device-only -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_tidy --checks='-*,cuda-divergent-barrier' %s -- --cuda-host-only -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'

#include <cooperative_groups.h>
#include <cstdio>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

__global__ void denoise(const float *in, float *out, int w, int h) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float tile[16][16];
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < w && iy < h) {
    tile[threadIdx.y][threadIdx.x] = in[iy * w + ix];
    cg::sync(cta);
    float sum = 0.0f;
    for (int y = 0; y < 16; ++y)
      for (int x = 0; x < 16; ++x)
        sum += tile[y][x];
    // CHECK: :[[@LINE-1]]:16: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
    // CHECK: :[[@LINE-8]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.x' through 'ix'
    // CHECK: :[[@LINE-8]]:5: note: each thread that stays writes only its own element of 'tile' here
    out[iy * w + ix] = sum;
  }
}

// A wrapping guard followed by more code is no early exit.
__global__ void denoiseThenCount(const float *in, float *out, int w, int h) {
  cg::thread_block cta = cg::this_thread_block();
  __shared__ float tile[16][16];
  int ix = blockIdx.x * blockDim.x + threadIdx.x;
  int iy = blockIdx.y * blockDim.y + threadIdx.y;
  if (ix < w && iy < h) {
    tile[threadIdx.y][threadIdx.x] = in[iy * w + ix];
    cg::sync(cta);
    // CHECK: :[[@LINE-1]]:5: warning: barrier 'cooperative_groups::sync' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'ix'
    out[iy * w + ix] = tile[15 - threadIdx.y][15 - threadIdx.x];
  }
  out[0] = 1.0f;
}

__global__ void reduce(const float *in, float *out, int n) {
  __shared__ float s[256];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + tid;
  s[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (tid < stride)
      s[tid] += s[tid + stride];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = s[0];
}

int main() {
  float *in = nullptr, *out = nullptr;
  if (cudaMalloc(&in, 1024 * sizeof(float)) != cudaSuccess)
    return 1;
  denoise<<<dim3(4, 4), dim3(16, 16)>>>(in, out, 60, 60);
  reduce<<<4, 256>>>(in, out, 1000);
  std::printf("%d\n", (int)cudaDeviceSynchronize());
  return 0;
}
