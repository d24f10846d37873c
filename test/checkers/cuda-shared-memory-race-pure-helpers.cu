// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Writes of one value through a pure helper (llm.c's load128): a helper that
// only computes its result from its argument and the memory it reads through
// it returns equal values for equal arguments, so two threads storing its
// result for the same argument store one value (the same-value rule).

#include <cuda_runtime.h>

// As the toolkit's crt/common_functions.h declares it.
extern "C" __host__ __device__ void *memcpy(void *, const void *, size_t);

// llm.c's Packed128 and load128 (dev/cuda/common.h), reduced.
template <class ElementType> struct alignas(16) Packed128 {
  Packed128() = default;
  __device__ explicit Packed128(int4 bits) {
    static_assert(sizeof(bits) == sizeof(payload), "Size mismatch.");
    memcpy(&payload, &bits, sizeof(bits));
  }
  __device__ ElementType &operator[](int index) { return payload[index]; }
  static constexpr const int size = sizeof(int4) / sizeof(ElementType);
  ElementType payload[size];
};
typedef Packed128<float> f128;

template <class ElementType>
__device__ Packed128<ElementType> load128(const ElementType *address) {
  return Packed128<ElementType>{*reinterpret_cast<const int4 *>(address)};
}

// Not pure: it stores through its argument.
template <class ElementType>
__device__ Packed128<ElementType> load128AndClear(ElementType *address) {
  Packed128<ElementType> v{*reinterpret_cast<const int4 *>(address)};
  address[0] = ElementType(0);
  return v;
}

// Not pure: what it returns depends on the thread.
template <class ElementType>
__device__ Packed128<ElementType> load128OfLane(const ElementType *address) {
  return Packed128<ElementType>{
      *reinterpret_cast<const int4 *>(address + 4 * threadIdx.x)};
}

// Every z sub-block loads the same weights into the same slots
// (fused_residual_forward_kernel6): one value per slot.
__global__ void sameWeightsFromEverySubBlock(const float *weight, int C) {
  extern __shared__ char params[];
  f128 *s_weight = reinterpret_cast<f128 *>(params);
  int cidx = (threadIdx.x + 32 * threadIdx.y) * f128::size;
  int step = blockDim.y * 32 * f128::size;
  for (int c = cidx; c < C; c += step)
    s_weight[c / f128::size] = load128(weight + c);
}

__device__ float sink;

// Each z sub-block loads its own row into the same slot: different values.
__global__ void differentRowsPerSubBlock(const float *weight, int C) {
  extern __shared__ char params[];
  f128 *s_weight = reinterpret_cast<f128 *>(params);
  int cidx = (threadIdx.x + 32 * threadIdx.y) * f128::size;
  int step = blockDim.y * 32 * f128::size;
  for (int c = cidx; c < C; c += step)
    s_weight[c / f128::size] = load128(weight + threadIdx.z * C + c);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'params': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (3,0,0) writes 'params[48]' (in iteration 0 of the loop over 'c') and thread (3,0,1) writes it (in iteration 0 of the loop over 'c'), when 'C' = 13, with blockDim (32,8,4)
}

// The helper stores: the loads of the sub-blocks are no longer of one value.
__global__ void helperThatStores(float *weight, int C) {
  extern __shared__ char params[];
  f128 *s_weight = reinterpret_cast<f128 *>(params);
  int cidx = (threadIdx.x + 32 * threadIdx.y) * f128::size;
  int step = blockDim.y * 32 * f128::size;
  for (int c = cidx; c < C; c += step)
    s_weight[c / f128::size] = load128AndClear(weight + c);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'params': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (3,0,0) writes 'params[48]' (in iteration 0 of the loop over 'c') and thread (3,0,1) writes it (in iteration 0 of the loop over 'c'), when 'C' = 13, with blockDim (32,8,4)
}

// The helper reads threadIdx: equal arguments, different values.
__global__ void helperThatReadsTheThread(const float *weight, int C) {
  extern __shared__ char params[];
  f128 *s_weight = reinterpret_cast<f128 *>(params);
  int cidx = (threadIdx.x + 32 * threadIdx.y) * f128::size;
  int step = blockDim.y * 32 * f128::size;
  for (int c = cidx; c < C; c += step)
    s_weight[c / f128::size] = load128OfLane(weight + c);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'params': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (3,0,0) writes 'params[48]' (in iteration 0 of the loop over 'c') and thread (3,0,1) writes it (in iteration 0 of the loop over 'c'), when 'C' = 13, with blockDim (32,8,4)
}

void launch(const float *w, float *m, int C) {
  dim3 block(32, 8, 4);
  sameWeightsFromEverySubBlock<<<1, block, 2 * C * sizeof(float)>>>(w, C);
  differentRowsPerSubBlock<<<1, block, 2 * C * sizeof(float)>>>(w, C);
  helperThatStores<<<1, block, 2 * C * sizeof(float)>>>(m, C);
  helperThatReadsTheThread<<<1, block, 2 * C * sizeof(float)>>>(w, C);
}
