// Block arguments the shape reader must not take at their initialiser: a
// variable that initialises itself ('dim3 b(b)', which once sent the reader
// into endless recursion), a dim3 set member by member after its (1,1,1)
// construction, and a parameter whose default says nothing of what callers
// pass. Each reads as an unknown launch: the kernel keeps its assumed shapes,
// and no launch-dependent verdict is drawn. A dim3 never changed after its
// construction is still read.
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

__global__ void transposeMembers(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: no launch of this kernel was found; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

void launchMembers(float *out, const float *in) {
  dim3 threads;
  threads.x = 32;
  threads.y = 32;
  transposeMembers<<<1, threads>>>(out, in);
}

__global__ void transposeParameter(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: no launch of this kernel was found; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

void launchParameter(float *out, const float *in, dim3 b = dim3(1, 1)) {
  transposeParameter<<<1, b>>>(out, in);
}

__global__ void transposeUnchanged(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,4,1)
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
}

void launchUnchanged(float *out, const float *in) {
  dim3 threads(32, 4);
  const dim3 &view = threads;
  transposeUnchanged<<<1, view>>>(out, in);
}
