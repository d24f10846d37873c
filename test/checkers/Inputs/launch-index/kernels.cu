// Kernels launched from main.cu only.
#include <cuda_runtime.h>

// Launched with 128 threads: the halves of 's' never meet. The assumed 256
// would report a race the program cannot have.
__global__ void halves(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}

// Launched with 256 threads: the upper half reads what the lower half of the
// next 128 writes.
__global__ void halvesWide(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1) (launched in main.cu:11)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

// Launched with 256 threads and room for 128 floats.
__global__ void pool256(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'pool256' in main.cu:13 passes 512 bytes of dynamic shared memory, but 'pool256' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  __syncthreads();
  a[threadIdx.x] = pool[255 - threadIdx.x];
}

// Launched with 128 threads and room for 128 floats: fits.
__global__ void pool128(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[127 - threadIdx.x];
}

// Launched with 128 threads by cudaLaunchKernel and through a helper in
// main.cu: silent, as 'halves'.
__global__ void halvesApi(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}

__global__ void halvesHelper(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}
