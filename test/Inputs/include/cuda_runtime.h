// Minimal stand-in for the CUDA runtime headers, for lit tests only.
//
// Tests compile with %cuda_stub (-nocudainc -nocudalib --cuda-path=<stub
// install> -isystem test/Inputs/include), so nothing of the real toolkit is
// read. The declarations below follow the shapes that clang's own CUDA
// wrapper headers give the same names when compiling against a real toolkit
// (__clang_cuda_runtime_wrapper.h, __clang_cuda_device_functions.h,
// __clang_cuda_intrinsics.h), so a check sees the same AST on both:
//   - threadIdx, blockIdx, blockDim, gridDim and warpSize come from clang's
//     resource header __clang_cuda_builtin_vars.h, as in a real compile;
//   - __syncthreads() is not declared: clang knows it as a builtin in the
//     device pass and as an auxiliary-target builtin in the host pass;
//   - __syncthreads_and/_or/_count, __syncwarp, the vote and shuffle
//     intrinsics are inline wrappers over __nvvm_* builtins.

#ifndef CUDA_TIDY_TEST_STUB_CUDA_RUNTIME_H
#define CUDA_TIDY_TEST_STUB_CUDA_RUNTIME_H

#include <stddef.h>

#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __shared__ __attribute__((shared))
#define __constant__ __attribute__((constant))
#define __grid_constant__ __attribute__((grid_constant))
#define __forceinline__ __inline__ __attribute__((always_inline))
#define __launch_bounds__(...) __attribute__((launch_bounds(__VA_ARGS__)))

#include "__clang_cuda_builtin_vars.h"

// Vector types and the conversions __clang_cuda_builtin_vars.h declares.

struct uint3 {
  unsigned int x, y, z;
};

// Vector types, aligned as the real ones are (vector_types.h).
struct __attribute__((aligned(8))) float2 {
  float x, y;
};
struct __attribute__((aligned(16))) float4 {
  float x, y, z, w;
};
struct __attribute__((aligned(16))) int4 {
  int x, y, z, w;
};
struct dim3 {
  unsigned int x, y, z;
  __host__ __device__ constexpr dim3(unsigned int vx = 1, unsigned int vy = 1,
                                     unsigned int vz = 1)
      : x(vx), y(vy), z(vz) {}
  __host__ __device__ constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  __host__ __device__ constexpr operator uint3() const { return {x, y, z}; }
};

__device__ inline __cuda_builtin_threadIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_threadIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockIdx_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockIdx_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_blockDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_blockDim_t::operator uint3() const {
  return {x, y, z};
}
__device__ inline __cuda_builtin_gridDim_t::operator dim3() const {
  return dim3(x, y, z);
}
__device__ inline __cuda_builtin_gridDim_t::operator uint3() const {
  return {x, y, z};
}

// Runtime API (host side).

enum cudaError {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorLaunchFailure = 719,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

typedef struct CUstream_st *cudaStream_t;

extern "C" {
__host__ cudaError_t cudaMalloc(void **devPtr, size_t size);
__host__ cudaError_t cudaFree(void *devPtr);
__host__ cudaError_t cudaMemcpy(void *dst, const void *src, size_t count,
                                enum cudaMemcpyKind kind);
__host__ cudaError_t cudaMemset(void *devPtr, int value, size_t count);
__host__ cudaError_t cudaDeviceSynchronize(void);
__host__ __device__ cudaError_t cudaGetLastError(void);
__host__ __device__ cudaError_t cudaPeekAtLastError(void);
__host__ __device__ const char *cudaGetErrorString(cudaError_t error);
__host__ cudaError_t cudaStreamCreate(cudaStream_t *stream);
__host__ cudaError_t cudaStreamDestroy(cudaStream_t stream);
__host__ cudaError_t cudaStreamSynchronize(cudaStream_t stream);
__host__ cudaError_t cudaFuncSetAttribute(const void *func,
                                          enum cudaFuncAttribute attr,
                                          int value);
__host__ cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim,
                                      dim3 blockDim, void **args,
                                      size_t sharedMem, cudaStream_t stream);
__host__ cudaError_t cudaLaunchCooperativeKernel(const void *func,
                                                 dim3 gridDim, dim3 blockDim,
                                                 void **args, size_t sharedMem,
                                                 cudaStream_t stream);

// Kernel launch plumbing: clang lowers k<<<g, b, bytes, stream>>>(...) to a
// call of __cudaPushCallConfiguration for CUDA >= 9.2 (the stub install says
// 12.8) and to cudaConfigureCall before that.
unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                     size_t sharedMem = 0, void *stream = 0);
int cudaConfigureCall(dim3 gridDim, dim3 blockDim, size_t sharedMem = 0,
                      cudaStream_t stream = 0);
}

// The C++ conveniences of the real cuda_runtime.h.
template <class T>
static inline __host__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static inline __host__ cudaError_t
cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
  return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static inline __host__ cudaError_t
cudaLaunchKernel(T *func, dim3 gridDim, dim3 blockDim, void **args,
                 size_t sharedMem = 0, cudaStream_t stream = 0) {
  return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args,
                            sharedMem, stream);
}

// Device functions.

#define __STUB_DEVICE__ static __device__ __forceinline__

__STUB_DEVICE__ int __syncthreads_count(int pred) {
  return __nvvm_bar0_popc(pred);
}
__STUB_DEVICE__ int __syncthreads_and(int pred) {
  return __nvvm_bar0_and(pred);
}
__STUB_DEVICE__ int __syncthreads_or(int pred) { return __nvvm_bar0_or(pred); }
__STUB_DEVICE__ void __barrier_sync(unsigned id) { __nvvm_barrier_sync(id); }
// sm_90 cluster intrinsics (crt/sm_90_rt.h); declared only.
__device__ size_t __cvta_generic_to_shared(const void *ptr);
__device__ void __cluster_barrier_arrive(void);
__device__ void __cluster_barrier_wait(void);
__device__ dim3 __clusterIdx(void);
__device__ dim3 __clusterRelativeBlockIdx(void);
__device__ unsigned __clusterRelativeBlockRank(void);
__STUB_DEVICE__ void __threadfence(void) { __nvvm_membar_gl(); }
__STUB_DEVICE__ void __threadfence_block(void) { __nvvm_membar_cta(); }
__STUB_DEVICE__ int clock() { return __nvvm_read_ptx_sreg_clock(); }
__STUB_DEVICE__ long long clock64() {
  return __nvvm_read_ptx_sreg_clock64();
}

inline __device__ void __syncwarp(unsigned int mask = 0xffffffff) {
  return __nvvm_bar_warp_sync(mask);
}
inline __device__ int __all_sync(unsigned int mask, int pred) {
  return __nvvm_vote_all_sync(mask, pred);
}
inline __device__ int __any_sync(unsigned int mask, int pred) {
  return __nvvm_vote_any_sync(mask, pred);
}
inline __device__ unsigned int __ballot_sync(unsigned int mask, int pred) {
  return __nvvm_vote_ballot_sync(mask, pred);
}
inline __device__ unsigned int __activemask() { return __nvvm_activemask(); }

// The shuffles, for int, unsigned and float (the real ones also take
// 64-bit and double values).
#define __STUB_SYNC_SHUFFLES(Name, IntBuiltin, FloatBuiltin, LaneMask, Type)   \
  inline __device__ int Name(unsigned int mask, int val, Type offset,         \
                             int width = warpSize) {                          \
    return IntBuiltin(mask, val, offset, ((warpSize - width) << 8) | LaneMask); \
  }                                                                            \
  inline __device__ unsigned int Name(unsigned int mask, unsigned int val,    \
                                      Type offset, int width = warpSize) {    \
    return static_cast<unsigned int>(                                          \
        ::Name(mask, static_cast<int>(val), offset, width));                   \
  }                                                                            \
  inline __device__ float Name(unsigned int mask, float val, Type offset,     \
                               int width = warpSize) {                        \
    return FloatBuiltin(mask, val, offset,                                     \
                        ((warpSize - width) << 8) | LaneMask);                 \
  }
__STUB_SYNC_SHUFFLES(__shfl_sync, __nvvm_shfl_sync_idx_i32,
                     __nvvm_shfl_sync_idx_f32, 0x1f, int)
__STUB_SYNC_SHUFFLES(__shfl_up_sync, __nvvm_shfl_sync_up_i32,
                     __nvvm_shfl_sync_up_f32, 0, unsigned int)
__STUB_SYNC_SHUFFLES(__shfl_down_sync, __nvvm_shfl_sync_down_i32,
                     __nvvm_shfl_sync_down_f32, 0x1f, unsigned int)
__STUB_SYNC_SHUFFLES(__shfl_xor_sync, __nvvm_shfl_sync_bfly_i32,
                     __nvvm_shfl_sync_bfly_f32, 0x1f, int)
#undef __STUB_SYNC_SHUFFLES

// Atomics: declared only, as the real ones are opaque to a check.
__device__ int atomicAdd(int *address, int val);
__device__ unsigned int atomicAdd(unsigned int *address, unsigned int val);
__device__ unsigned long long atomicAdd(unsigned long long *address,
                                        unsigned long long val);
__device__ float atomicAdd(float *address, float val);
__device__ int atomicSub(int *address, int val);
__device__ unsigned int atomicSub(unsigned int *address, unsigned int val);
__device__ int atomicExch(int *address, int val);
__device__ unsigned int atomicExch(unsigned int *address, unsigned int val);
__device__ float atomicExch(float *address, float val);
__device__ int atomicMax(int *address, int val);
__device__ unsigned int atomicMax(unsigned int *address, unsigned int val);
__device__ int atomicMin(int *address, int val);
__device__ unsigned int atomicMin(unsigned int *address, unsigned int val);
__device__ int atomicCAS(int *address, int compare, int val);
__device__ unsigned int atomicCAS(unsigned int *address, unsigned int compare,
                                  unsigned int val);
__device__ unsigned long long atomicCAS(unsigned long long *address,
                                        unsigned long long compare,
                                        unsigned long long val);

// min and max, callable on both sides as with the real headers.
#define __STUB_MIN_MAX(Type)                                                   \
  static inline __host__ __device__ Type min(Type a, Type b) {                 \
    return a < b ? a : b;                                                      \
  }                                                                            \
  static inline __host__ __device__ Type max(Type a, Type b) {                 \
    return a < b ? b : a;                                                      \
  }
__STUB_MIN_MAX(int)
__STUB_MIN_MAX(unsigned int)
__STUB_MIN_MAX(long long)
__STUB_MIN_MAX(unsigned long long)
__STUB_MIN_MAX(float)
__STUB_MIN_MAX(double)
#undef __STUB_MIN_MAX

// As Clang's CUDA headers declare it.
__device__ __attribute__((noreturn)) void __trap(void);

// The device side of glibc's assert(), as Clang's CUDA wrapper declares it:
// not `noreturn`.
extern "C" __device__ void __assertfail(const char *, const char *, unsigned,
                                        const char *, __SIZE_TYPE__);
__device__ static inline void __assert_fail(const char *Message,
                                            const char *File, unsigned Line,
                                            const char *Function) {
  __assertfail(Message, File, Line, Function, sizeof(char));
}

#undef __STUB_DEVICE__

#endif // CUDA_TIDY_TEST_STUB_CUDA_RUNTIME_H
