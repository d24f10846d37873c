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
    __syncwarp();
    for (int k = 0; k < 32; ++k)
      acc += slots[(threadIdx.x / 32) * 32 + k];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 'slots': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, thread (0,0,0) writes 'slots[0]' and thread (1,0,0) reads it (with 'k' = 0), with blockDim (256,1,1)
  }
  out[threadIdx.x] = acc;
}

void launchWarpHelpers(float *f, int n) {
  ownWarpSlotsOrderedByHelper<<<1, 256>>>(f, n);
  ownWarpSlotsHelperWithoutSync<<<1, 256>>>(f, n);
}
