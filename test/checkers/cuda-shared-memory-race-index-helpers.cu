// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Indices computed by small helpers (cuML's laneId(), a slot function): the
// helper's value is the expression it returns, with its parameters standing
// for the call's arguments, so the race below is decided as if the index
// were written in the kernel. The kernel is cuML's batchedBlockReduce
// before its fix (rapidsai/cuml bf3e6b28): a pass's read of sTemp[rdIdx]
// and the next pass's write of sTemp[wrIdx] meet with no barrier between.

#include <cuda_runtime.h>

// cuML's laneId(): the lane read from the special register.
__device__ __forceinline__ int laneAsm() {
  int id;
  asm("mov.s32 %0, %%laneid;" : "=r"(id));
  return id;
}
__device__ __forceinline__ int laneArith() { return threadIdx.x % 32; }
__device__ int slot(int group, int width, int lane) {
  const int base = group * width;
  return base + lane;
}

template <int NThreads>
__device__ float reduceAsm(float val, char *smem) {
  auto *sTemp = reinterpret_cast<float *>(smem);
  constexpr int nGroupsPerWarp = 32 / NThreads;
  const int nGroups = (blockDim.x + NThreads - 1) / NThreads;
  const int lid = laneAsm();
  const int lgid = lid % NThreads;
  const int gid = threadIdx.x / NThreads;
  const auto wrIdx = (gid / nGroupsPerWarp) * NThreads + lgid;
  const auto rdIdx = gid * NThreads + lgid;
  for (int i = nGroups; i > 0;) {
    auto iAligned =
        ((i + nGroupsPerWarp - 1) / nGroupsPerWarp) * nGroupsPerWarp;
    if (gid < iAligned) {
      if (lid < NThreads)
        sTemp[wrIdx] = val;
      // CHECK-MESSAGES: :[[@LINE-1]]:9: warning: write after read race on shared 'smem': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    }
    __syncthreads();
    i /= nGroupsPerWarp;
    if (i > 0)
      val = gid < i ? sTemp[rdIdx] : 0.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:23: note: the other thread's read is here
      // CHECK-MESSAGES: :[[@LINE-8]]:9: note: for example, thread (8,0,0) reads 'smem[32]' and thread (32,0,0) writes it one iteration of the enclosing loop later, when 'i' = {{[0-9]+}}, with blockDim (256,1,1)
  }
  return val;
}

__global__ void kernelAsm(float *out, const float *in) {
  extern __shared__ char smem[];
  float v = reduceAsm<8>(in[threadIdx.x], smem);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: note: 'reduceAsm' is analysed as this call runs it, with its arguments and by every thread of the block
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// The same with the lane computed from threadIdx, and the read's index
// through a helper with parameters and a local.
template <int NThreads>
__device__ float reduceArith(float val, char *smem) {
  auto *sTemp = reinterpret_cast<float *>(smem);
  constexpr int nGroupsPerWarp = 32 / NThreads;
  const int nGroups = (blockDim.x + NThreads - 1) / NThreads;
  const int lid = laneArith();
  const int lgid = lid % NThreads;
  const int gid = threadIdx.x / NThreads;
  const auto wrIdx = (gid / nGroupsPerWarp) * NThreads + lgid;
  const auto rdIdx = slot(gid, NThreads, lgid);
  for (int i = nGroups; i > 0;) {
    if (lid < NThreads)
      sTemp[wrIdx] = val;
    // CHECK-MESSAGES: :[[@LINE-1]]:7: warning: write after read race on shared 'smem': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    __syncthreads();
    i /= nGroupsPerWarp;
    if (i > 0)
      val = gid < i ? sTemp[rdIdx] : 0.0f;
    // CHECK-MESSAGES: :[[@LINE-1]]:23: note: the other thread's read is here
    // CHECK-MESSAGES: :[[@LINE-7]]:7: note: for example, thread (8,0,0) reads 'smem[32]' and thread (32,0,0) writes it one iteration of the enclosing loop later, when 'i' = {{[0-9]+}}, with blockDim (256,1,1)
  }
  return val;
}

__global__ void kernelArith(float *out, const float *in) {
  extern __shared__ char smem[];
  float v = reduceArith<8>(in[threadIdx.x], smem);
  // CHECK-MESSAGES: :[[@LINE-1]]:13: note: 'reduceArith' is analysed as this call runs it, with its arguments and by every thread of the block
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// The fix: a barrier at the end of each pass.
template <int NThreads>
__device__ float reduceFixed(float val, char *smem) {
  auto *sTemp = reinterpret_cast<float *>(smem);
  constexpr int nGroupsPerWarp = 32 / NThreads;
  const int nGroups = (blockDim.x + NThreads - 1) / NThreads;
  const int lid = laneAsm();
  const int lgid = lid % NThreads;
  const int gid = threadIdx.x / NThreads;
  const auto wrIdx = (gid / nGroupsPerWarp) * NThreads + lgid;
  const auto rdIdx = slot(gid, NThreads, lgid);
  for (int i = nGroups; i > 0;) {
    if (lid < NThreads)
      sTemp[wrIdx] = val;
    __syncthreads();
    i /= nGroupsPerWarp;
    if (i > 0)
      val = gid < i ? sTemp[rdIdx] : 0.0f;
    __syncthreads();
  }
  return val;
}

__global__ void kernelFixed(float *out, const float *in) {
  extern __shared__ char smem[];
  float v = reduceFixed<8>(in[threadIdx.x], smem);
  if (threadIdx.x == 0)
    out[blockIdx.x] = v;
}

// Each lane owns its slot (a helper gives the same index to the write and
// the read): no two threads meet, with or without the helper.
__device__ float ownSlot(float val, char *smem) {
  auto *sTemp = reinterpret_cast<float *>(smem);
  for (int i = 0; i < 4; ++i) {
    sTemp[slot(threadIdx.x / 32, 32, laneArith())] = val;
    val += sTemp[slot(threadIdx.x / 32, 32, laneAsm())];
  }
  return val;
}

__global__ void kernelOwnSlot(float *out, const float *in) {
  extern __shared__ char smem[];
  out[threadIdx.x] = ownSlot(in[threadIdx.x], smem);
}

void launch(float *o, const float *i) {
  kernelAsm<<<10, 256, 256 * sizeof(float)>>>(o, i);
  kernelArith<<<10, 256, 256 * sizeof(float)>>>(o, i);
  kernelFixed<<<10, 256, 256 * sizeof(float)>>>(o, i);
  kernelOwnSlot<<<10, 256, 256 * sizeof(float)>>>(o, i);
}
