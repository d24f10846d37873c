// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-host-only -std=c++17

// The shapes a kernel is analysed with come from its launches by every route
// the launch model resolves: cudaLaunchKernel, a block held in a struct
// member, a helper two calls deep, a local function pointer. Each kernel
// reads a 32x32 tile by column: a 32x8 block makes lanes 32 words apart (a
// 32-way conflict), a 1x32 block walks a row (conflict-free, silent). A
// launch whose block is no constant leaves the assumed shapes, and a note at
// the launch says why.

#include <cuda_runtime.h>

__global__ void apiWide(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:29: note: pad each row of 'tile' by one element
}

__global__ void apiRow(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void apiUnknown(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: the block of the launch at cuda-bank-conflict-launch-routes.cu{{.*}}:[[@LINE+51]] is not a constant; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
  // CHECK-NOTES: :[[@LINE+49]]:3: note: the block of this launch of 'apiUnknown' is not a constant: it comes from parameter 'given' of 'launchApi'
}

__global__ void memberWide(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:29: note: pad each row of 'tile' by one element
}

__global__ void memberRow(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void helperWide(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:29: note: pad each row of 'tile' by one element
}

__global__ void helperRow(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void pointerWide(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:29: note: pad each row of 'tile' by one element
}

__global__ void pointerRow(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launchApi(float *out, dim3 given) {
  void *args[] = {&out};
  cudaLaunchKernel((const void *)apiWide, dim3(1), dim3(32, 8), args, 0, 0);
  cudaLaunchKernel((const void *)apiRow, dim3(1), dim3(1, 32), args, 0, 0);
  cudaLaunchKernel((const void *)apiUnknown, dim3(1), given, args, 0, 0);
}

struct LaunchConfig {
  dim3 grid;
  dim3 block;
};

void launchMembers(float *out) {
  LaunchConfig wide{dim3(1), dim3(32, 8)};
  memberWide<<<wide.grid, wide.block>>>(out);
  LaunchConfig row{dim3(1), dim3(1, 32)};
  memberRow<<<row.grid, row.block>>>(out);
}

template <typename Kernel>
void launchInner(Kernel kernel, dim3 block, float *out) {
  kernel<<<1, block>>>(out);
}

template <typename Kernel>
void launchOuter(Kernel kernel, dim3 block, float *out) {
  launchInner(kernel, block, out);
}

void launchHelpers(float *out) {
  launchOuter(helperWide, dim3(32, 8), out);
  launchOuter(helperRow, dim3(1, 32), out);
}

void launchPointers(float *out) {
  void (*wide)(float *) = pointerWide;
  wide<<<1, dim3(32, 8)>>>(out);
  void (*rowKernel)(float *) = &pointerRow;
  rowKernel<<<1, dim3(1, 32)>>>(out);
}
