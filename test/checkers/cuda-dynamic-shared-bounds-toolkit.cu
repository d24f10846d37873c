// cudaLaunchKernelEx with the real toolkit: block and bytes come from the
// cudaLaunchConfig_t set before the call.
// REQUIRES: cuda-toolkit
// RUN: %cuda_tidy --checks='-*,cuda-dynamic-shared-bounds' %s -- --cuda-device-only --cuda-gpu-arch=sm_90 -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'
// RUN: %cuda_tidy --checks='-*,cuda-dynamic-shared-bounds' %s -- --cuda-host-only --cuda-gpu-arch=sm_90 -std=c++17 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='{{warning|error}}:'

#include <cuda_runtime.h>

__global__ void twoArrays(float *out, int n) {
  extern __shared__ float pool[];
  float *a = pool;
  float *b = pool + n;
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] = 2.0f;
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

void launch(float *out) {
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(1);
  config.blockDim = dim3(128);
  config.dynamicSmemBytes = 128 * sizeof(float);
  cudaLaunchKernelEx(&config, twoArrays, out, 128);
  // CHECK: :[[@LINE-1]]:3: warning: launch of 'twoArrays' passes 512 bytes of dynamic shared memory, but 'twoArrays' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK: :16:3: note: thread (127,0,0) of a (128,1,1) block accesses bytes 1020 to 1023 of the pool here
  // CHECK: :14:10: note: 'b' is carved out of the pool here

  config.dynamicSmemBytes = 2 * 128 * sizeof(float);
  cudaLaunchKernelEx(&config, twoArrays, out, 128);
}
