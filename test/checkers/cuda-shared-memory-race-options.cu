// Defaults: races that depend on unknown values stay silent; kernels with no
// launch are assumed to run 256 threads (16x16 for 2-D indices).
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only
// RUN: %check_clang_tidy -check-suffix=POSSIBLE %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy -check-suffix=SMALL %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.AssumedBlockSize: 128}}" \
// RUN:   -- %cuda_stub --cuda-device-only
// RUN: %clang_tidy --load=%clang_tidy_plugin -checks='-*,cuda-shared-memory-race' \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.AssumedBlockSize: 'zero'}}" \
// RUN:   %s -- %cuda_stub --cuda-device-only 2>&1 | FileCheck --check-prefix=BAD-OPTION %s
// BAD-OPTION: invalid block size 'zero' for option 'AssumedBlockSize'; using the default

#include <cuda_runtime.h>

// Races only when n falls inside the block's range: possible, not certain.
__global__ void dependsOnParameter(float *a, int n) {
  __shared__ float s[512];
  if (threadIdx.x == 0)
    s[n] = a[0];
  a[threadIdx.x] = s[threadIdx.x + 64];
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:20: warning: possible read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:20: note: for example, thread (0,0,0) writes 's[190]' and thread (126,0,0) reads it, when 'n' = 190, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

// Every thread writes s[n], whatever n is: certain.
__global__ void everyThreadWritesParameterIndex(float *a, int n) {
  __shared__ float s[2048];
  s[n] = a[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 's[50]' and thread (0,0,0) writes it, when 'n' = 50, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:3: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:3: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-6]]:3: note: for example, thread (1,0,0) writes 's[50]' and thread (0,0,0) writes it, when 'n' = 50, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES-SMALL: :[[@LINE-7]]:3: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-SMALL: :[[@LINE-8]]:3: note: the other thread's write is here
  // CHECK-NOTES-SMALL: :[[@LINE-9]]:3: note: for example, thread (1,0,0) writes 's[50]' and thread (0,0,0) writes it, when 'n' = 50, with blockDim (128,1,1) (assumed: no launch of this kernel was found)
}

// With 256 threads the upper half reads what the lower half of the next
// 128 writes; with 128 threads the halves never meet.
__global__ void halves(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:3: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:3: note: a barrier is missing before this statement
}

// __launch_bounds__ gives the block size when no launch is seen.
__global__ void __launch_bounds__(64) boundedBlock(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}
