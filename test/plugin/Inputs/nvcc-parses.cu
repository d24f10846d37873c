// What nvcc compiles as it is, and cuda-tidy must parse without flags.
#include <cuda/barrier>
#include <cuda/pipeline>
#include <cuda_runtime.h>

// nvcc's version macros are defined from the toolkit's version: code that
// branches on them (llm.c's common.h declares its own __ldcs below CUDA 12)
// takes the toolkit's branch.
#if !defined(__CUDACC_VER_MAJOR__) || __CUDACC_VER_MAJOR__ < 12
__device__ float __ldcs(const float *p) { return *p; }
#endif
static_assert(__CUDACC_VER_MAJOR__ * 1000 + __CUDACC_VER_MINOR__ * 10 ==
                  CUDART_VERSION,
              "the version macros are the toolkit's");

// With no architecture named, the device pass targets the toolkit's
// default (sm_75 for CUDA 13, which dropped Clang's sm_52).
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ != EXPECTED_ARCH
#error "not the toolkit's default architecture"
#endif

// Clang rejects __shared__ variables of types with a non-empty destructor;
// nvcc accepts them, and CUDA's samples hold their barriers so.
__global__ void stage(const float *in, float *out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
  __shared__ float tile[256];
  if (threadIdx.x == 0)
    init(&bar, blockDim.x);
  __syncthreads();
  tile[threadIdx.x] = __ldcs(in + threadIdx.x);
  __syncthreads();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  (void)state;
}
