// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Issue 22, shape i: a read guarded by `if (pass != last)` whose next pass
// starts with a barrier. The barrier at the top of every pass orders the
// read of one pass before the store of the next, whatever the guard; the
// twin without that barrier races across passes.

#include <cuda_runtime.h>

__global__ void skipLastRead(float *out, int passes) {
  __shared__ float s[256];
  for (int pass = 0; pass < passes; ++pass) {
    __syncthreads();
    s[threadIdx.x] = out[threadIdx.x] + pass;
    __syncthreads();
    if (pass != passes - 1)
      out[threadIdx.x] = s[255 - threadIdx.x];
  }
}

// The same with the last pass named by a local, a while loop, and the
// barrier at the end of the pass instead of its start.
__global__ void skipLastReadEndBarrier(float *out, int passes) {
  __shared__ float s[256];
  const int last = passes - 1;
  int pass = 0;
  while (pass < passes) {
    s[threadIdx.x] = out[threadIdx.x] + pass;
    __syncthreads();
    if (pass < last)
      out[threadIdx.x] = s[255 - threadIdx.x];
    __syncthreads();
    ++pass;
  }
}

// Twin: no barrier between the read and the next pass's store.
__global__ void skipLastReadNoLeadingBarrier(float *out, int passes) {
  __shared__ float s[256];
  for (int pass = 0; pass < passes; ++pass) {
    s[threadIdx.x] = out[threadIdx.x] + pass;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+4]]:26: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (255,0,0) reads 's[0]' and thread (0,0,0) writes it one iteration of the enclosing loop later, with blockDim (256,1,1)
    __syncthreads();
    if (pass != passes - 1)
      out[threadIdx.x] = s[255 - threadIdx.x];
  }
}

int main() {
  skipLastRead<<<1, 256>>>(nullptr, 4);
  skipLastReadEndBarrier<<<1, 256>>>(nullptr, 4);
  skipLastReadNoLeadingBarrier<<<1, 256>>>(nullptr, 4);
}
