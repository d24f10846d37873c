// The default threshold is 4-way; 2-way conflicts show with MinimumDegree: 2.
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_stub --cuda-host-only
// RUN: %check_clang_tidy -check-suffix=TWO %s cuda-bank-conflict %t -- \
// RUN:   -config="{CheckOptions: {cuda-bank-conflict.MinimumDegree: 2}}" \
// RUN:   -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy -check-suffix=ROWS %s cuda-bank-conflict %t -- \
// RUN:   -config="{CheckOptions: {cuda-bank-conflict.AssumedBlockSize2D: '32,8'}}" \
// RUN:   -- %cuda_stub --cuda-device-only
// RUN: %clang_tidy --load=%clang_tidy_plugin -checks='-*,cuda-bank-conflict' \
// RUN:   -config="{CheckOptions: {cuda-bank-conflict.AssumedBlockSize2D: '16;x'}}" \
// RUN:   %s -- %cuda_stub --cuda-device-only 2>&1 | FileCheck --check-prefix=BAD-OPTION %s
// BAD-OPTION: invalid block size '16;x' for option 'AssumedBlockSize2D'; using the default

#include <cuda_runtime.h>

__global__ void strideTwo(float *out) {
  __shared__ float s[64];
  s[threadIdx.x * 2] = 1.0f;
  // CHECK-NOTES-TWO: :[[@LINE-1]]:3: warning: 2-way bank conflict writing 's': consecutive lanes are 2 words apart [cuda-bank-conflict]
  // CHECK-NOTES-TWO: :[[@LINE-2]]:3: note: predicted 2.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES-TWO: :[[@LINE-4]]:20: note: 's' is declared here
}

__global__ void strideEight(float *out) {
  __shared__ float s[256];
  s[threadIdx.x * 8] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 8-way bank conflict writing 's': consecutive lanes are 8 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 's' is declared here
  // CHECK-NOTES-TWO: :[[@LINE-4]]:3: warning: 8-way bank conflict writing 's': consecutive lanes are 8 words apart [cuda-bank-conflict]
  // CHECK-NOTES-TWO: :[[@LINE-5]]:3: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES-TWO: :[[@LINE-7]]:20: note: 's' is declared here
  // CHECK-NOTES-ROWS: :[[@LINE-7]]:3: warning: 8-way bank conflict writing 's': consecutive lanes are 8 words apart [cuda-bank-conflict]
  // CHECK-NOTES-ROWS: :[[@LINE-8]]:3: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES-ROWS: :[[@LINE-10]]:20: note: 's' is declared here
}

// No launch: the 2-D assumptions are 16x16, 32x8 and 32x32. Reading a
// 32-wide tile by row conflicts 2-way only with 16-wide blocks; by column it
// conflicts under every assumption.
__global__ void rowsOfThirtyTwo(float *out) {
  __shared__ float tile[32][32];
  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
  out[threadIdx.x] += tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:23: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:23: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: no launch of this kernel was found; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
  // CHECK-NOTES-TWO: :[[@LINE-4]]:23: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES-TWO: :[[@LINE-5]]:23: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: no launch of this kernel was found; also (32,8,1); also (32,32,1))
  // CHECK-NOTES-TWO: :[[@LINE-8]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
  // CHECK-NOTES-ROWS: :[[@LINE-7]]:23: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES-ROWS: :[[@LINE-8]]:23: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES-ROWS: :[[@LINE-11]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES-ROWS: :[[@LINE-12]]:29: note: pad each row of 'tile' by one element
}

void launch(float *f) {
  strideTwo<<<1, 32>>>(f);
  strideEight<<<1, 32>>>(f);
}
