// CHECK-NOTES sees notes as well as warnings, and any note it does not expect
// fails the test; shown with the plugin's own check, in both passes.
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only
// RUN: not %check_clang_tidy -check-suffix=NO-NOTE %s cuda-divergent-barrier %t -- -- %cuda_stub 2>&1 \
// RUN:   | FileCheck %s --check-prefix=RESULT
// RESULT: IMPLICIT-CHECK-NOT: excluded string found in input
// RESULT: notes.cu.tmp.cu:[[#@LINE+11]]:7: note:
// RESULT: check_clang_tidy.py: FAIL: {{.*}}notes.cu: FileCheck of the notes failed (prefixes CHECK-NOTES-NO-NOTE)

#include <cuda_runtime.h>

__global__ void uniform(float *data) {
  data[threadIdx.x] = 0.0f;
  __syncthreads();
}

__global__ void divergent(float *data) {
  if (threadIdx.x < 16) {
    data[threadIdx.x] = 0.0f;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: {{.+}}
    // CHECK-NOTES-NO-NOTE: :[[@LINE-3]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
  }
  data[threadIdx.x + 16] = 1.0f;
}
