// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-host-only -std=c++17

// A pointer cast from bytes of shared memory to a wider type is only usable
// at a multiple of that type's alignment: a misaligned float4 access faults.
// The race check assumes the accesses it pairs are aligned so, which rules
// out the unknowns that would misalign them (llm.c's
// fused_residual_forward_kernel6 carves per-sub-block float4 regions out of
// one byte pool at multiples of C floats: they overlap only when C is not a
// multiple of 4, which misaligns them). Possible races are reported here:
// the overlap needs C % 4 != 0, so it is never certain, and the aligned
// shape must have no witness at all.

#include <cuda_runtime.h>

// Each z sub-block fills its own region of C floats, as float4 slots: the
// last slot of region z would reach into region z + 1 if C % 4 != 0, but then
// region 1 starts at a misaligned 4 * C bytes.
__global__ void ownFloat4RegionPerSubBlock(const float *in, int C) {
  extern __shared__ char params[];
  float4 *s_res =
      reinterpret_cast<float4 *>(params + threadIdx.z * C * sizeof(float));
  for (int c = 4 * threadIdx.x; c < C; c += 4 * blockDim.x) {
    float4 v;
    v.x = in[c] + threadIdx.z;
    v.y = v.z = v.w = 0.f;
    s_res[c / 4] = v;
  }
}

// The same regions written as floats: nothing is misaligned at any C, and
// with C % 4 != 0 the last thread of sub-block z writes past its region into
// the first floats of sub-block z + 1.
__global__ void ownFloatRegionPerSubBlock(const float *in, int C) {
  extern __shared__ char params[];
  float *s_res =
      reinterpret_cast<float *>(params + threadIdx.z * C * sizeof(float));
  for (int c = 4 * threadIdx.x; c < C; c += 4 * blockDim.x)
    for (int k = 0; k < 4; ++k)
      s_res[c + k] = in[c + k] + threadIdx.z;
  // CHECK-NOTES: :[[@LINE-1]]:7: warning: possible write after write race on shared 'params': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:7: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (4,0,2) writes 'params[228]' (in iteration 0 of the loop over 'c', with 'k' = 3) and thread (0,0,3) writes it (in iteration 0 of the loop over 'c', with 'k' = 0), when 'C' = 19, with blockDim (32,1,4)
}

void launch(const float *in, int C) {
  dim3 block(32, 1, 4);
  ownFloat4RegionPerSubBlock<<<1, block, 4 * C * sizeof(float)>>>(in, C);
  ownFloatRegionPerSubBlock<<<1, block, 4 * C * sizeof(float)>>>(in, C);
}
