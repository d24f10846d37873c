// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17 -fgpu-rdc
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17 -fgpu-rdc

#include <cuda_runtime.h>

// The device-side launch API, which the stub toolkit does not declare.
extern "C" __device__ void *cudaGetParameterBuffer(size_t Alignment,
                                                   size_t Size);
extern "C" __device__ cudaError_t cudaLaunchDevice(void *Function,
                                                   void *Parameters, dim3 Grid,
                                                   dim3 Block,
                                                   unsigned SharedBytes,
                                                   cudaStream_t Stream);

// --- A launch from device code is not a call ---------------------------------
//
// cuda-samples' cdpSimplePrint: thread 0 writes a block id to shared memory,
// a barrier publishes it, and every thread passes it to a child grid. The
// child's blocks have shared memory of their own and none of the child's
// body runs in the launching thread, so the child's write of its own 'uid'
// is no write in this block.

__device__ int counter;

__global__ void childLaunch(int depth, int parent) {
  __shared__ int uid;
  if (threadIdx.x == 0)
    uid = atomicAdd(&counter, 1);
  __syncthreads();
  if (++depth >= 4)
    return;
  childLaunch<<<gridDim.x, blockDim.x>>>(depth, uid);
}

// The nearest true twin: the same read with no barrier after thread 0's
// write is still a race in this block.
__global__ void childLaunchNoBarrier(int depth, int parent) {
  __shared__ int uid;
  if (threadIdx.x == 0)
    uid = atomicAdd(&counter, 1);
  if (++depth >= 4)
    return;
  childLaunchNoBarrier<<<gridDim.x, blockDim.x>>>(depth, uid);
  // CHECK-MESSAGES: :[[@LINE-1]]:58: warning: read after write race on shared 'uid': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-MESSAGES: :[[@LINE-5]]:5: note: the other thread's write is here
  // CHECK-MESSAGES: :[[@LINE-3]]:58: note: for example, thread (0,0,0) writes 'uid' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}
