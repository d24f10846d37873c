// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>
// --- Warp syncs inside helpers (issue 10, class 7) ---------------------------

__device__ float warpSum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}

// Each warp reads its own 32 slots; the next iteration's write is ordered
// after those reads by the shuffles inside warpSum, at every call.
__global__ void ownWarpSlotsOrderedByHelper(float *out, int n) {
  __shared__ float slots[256];
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    float s = warpSum(out[it * 256 + threadIdx.x]);
    slots[threadIdx.x] = s;
    __syncwarp();
    for (int k = 0; k < 32; ++k)
      acc += slots[(threadIdx.x / 32) * 32 + k];
  }
  out[threadIdx.x] = acc;
}

__device__ float plainScale(float v) { return 2.0f * v; }

// The same without a sync in the helper: lane 1's next write races with lane
// 0's read.
__global__ void ownWarpSlotsHelperWithoutSync(float *out, int n) {
  __shared__ float slots[256];
  float acc = 0.0f;
  for (int it = 0; it < n; ++it) {
    float s = plainScale(out[it * 256 + threadIdx.x]);
    slots[threadIdx.x] = s;
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'slots': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+4]]:14: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) reads 'slots[0]' (with 'k' = 0) and thread (0,0,0) writes it one iteration of the enclosing loop later, with blockDim (256,1,1)
    __syncwarp();
    for (int k = 0; k < 32; ++k)
      acc += slots[(threadIdx.x / 32) * 32 + k];
  }
  out[threadIdx.x] = acc;
}

void launchWarpHelpers(float *f, int n) {
  ownWarpSlotsOrderedByHelper<<<1, 256>>>(f, n);
  ownWarpSlotsHelperWithoutSync<<<1, 256>>>(f, n);
}
