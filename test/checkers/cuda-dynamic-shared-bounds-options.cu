// Target limits, and overflows that happen only for some values.
// RUN: %check_clang_tidy -check-suffixes=,SM90 %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-device-only --cuda-gpu-arch=sm_90
// RUN: %check_clang_tidy -check-suffixes=,SM80 %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-device-only --cuda-gpu-arch=sm_80
// RUN: %check_clang_tidy -check-suffixes=,HOST %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-host-only --cuda-gpu-arch=sm_90
// RUN: %check_clang_tidy -check-suffixes=,SM90,POSSIBLE %s cuda-dynamic-shared-bounds %t -- \
// RUN:   -config="{CheckOptions: {cuda-dynamic-shared-bounds.ReportPossibleOverflows: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only --cuda-gpu-arch=sm_90

#include <cuda_runtime.h>

__global__ void big(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = 1.0f;
}

__global__ void strided(float *out, int n) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = out[i];
}

void launches(float *f, int n) {
  cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       200 * 1024);
  big<<<1, 256, 200 * 1024>>>(f);
  // CHECK-MESSAGES-SM80: :[[@LINE-1]]:3: warning: launch of 'big' asks for 204800 bytes of dynamic shared memory, more than a block can have on sm_80 (166912 bytes) [cuda-dynamic-shared-bounds]
  big<<<1, 256, 300 * 1024>>>(f);
  // CHECK-MESSAGES-SM90: :[[@LINE-1]]:3: warning: launch of 'big' asks for 307200 bytes of dynamic shared memory, more than a block can have on sm_90 (232448 bytes) [cuda-dynamic-shared-bounds]
  // CHECK-MESSAGES-SM80: :[[@LINE-2]]:3: warning: launch of 'big' asks for 307200 bytes of dynamic shared memory, more than a block can have on sm_80 (166912 bytes) [cuda-dynamic-shared-bounds]
  // CHECK-MESSAGES-HOST: :[[@LINE-3]]:3: warning: launch of 'big' asks for 307200 bytes of dynamic shared memory, more than a block can have on any current GPU (232448 bytes) [cuda-dynamic-shared-bounds]

  // Fits for n up to 100 floats, overflows past: silent unless asked.
  strided<<<1, 128, 100 * sizeof(float)>>>(f, n);
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:3: warning: launch of 'strided' may pass too little dynamic shared memory: when 'n' is 128, it passes 400 bytes and 'strided' reaches 512 [cuda-dynamic-shared-bounds]
}
