// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Kernels launched through launch helpers that receive the kernel as a
// function pointer (ggml's launch_fattn and ggml_cuda_kernel_launch): the
// launch in the helper counts at each call of it, with the kernel and the
// block the caller passes.

#include <cuda_runtime.h>

typedef void (*kernel_t)(float *);

template <typename Kernel>
void launchKernel(Kernel kernel, dim3 block, float *out) {
  kernel<<<1, block>>>(out);
}

void launchWithShape(kernel_t kernel, float *out) {
  const dim3 block(32, 8, 1);
  launchKernel(kernel, block, out);
}

// Read by column: the blocks are 32x8 as the helpers launch them, not the
// 16x16 assumed without a launch.
__global__ void byColumn(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1){{$}}
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:29: note: pad each row of 'tile' by one element
}

void launchByColumn(float *out) {
  kernel_t kernel;
  kernel = byColumn;
  launchWithShape(kernel, out);
}

// The same kernel through a helper whose block is a structure member: the
// member is followed to the aggregate's initialiser, 64x4.
struct LaunchParams {
  dim3 block;
};

template <typename Kernel>
void launchWithParams(Kernel kernel, const LaunchParams &params, float *out) {
  kernel<<<1, params.block>>>(out);
}

__global__ void byColumnThroughParams(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (64,4,1){{$}}
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:29: note: pad each row of 'tile' by one element
}

void launchThroughParams(float *out) {
  LaunchParams params{dim3(64, 4)};
  launchWithParams(byColumnThroughParams, params, out);
}
