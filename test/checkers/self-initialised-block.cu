// A block argument whose variable initialises itself ('dim3 b(b)', legal C++
// with an indeterminate value) once sent the block-shape reader into endless
// recursion. It must read as an unknown launch: the kernel keeps its assumed
// shapes and no launch-dependent verdict is drawn.
// RUN: %check_clang_tidy %s cuda-bank-conflict,cuda-dynamic-shared-bounds,cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict,cuda-dynamic-shared-bounds,cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

__global__ void transposeSelf(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: no launch of this kernel was found; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

__global__ void poolSelf(float *out) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = pool[threadIdx.x];
}

void launchSelf(float *out, const float *in) {
  dim3 b(b);
  transposeSelf<<<1, b>>>(out, in);
  poolSelf<<<1, b, 16>>>(out);
  dim3 c = (dim3(c));
  poolSelf<<<1, (c), 16>>>(out);
}
