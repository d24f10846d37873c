// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-host-only -std=c++17

// The launches whose bytes are compared with the kernel's reach come by
// every route the launch model resolves: cudaLaunchKernel, a block held in
// a struct member, a helper two calls deep (its block and bytes followed
// through the helpers' parameters), a local function pointer. Each kernel
// reaches 4 bytes per thread: 256 threads overrun 512 bytes (reported) and
// fit in 1024 (silent).

#include <cuda_runtime.h>

__global__ void apiShort(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void apiEnough(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void memberShort(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void memberEnough(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void helperShort(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void helperEnough(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void pointerShort(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

__global__ void pointerEnough(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

void launchApi(float *a) {
  void *args[] = {&a};
  cudaLaunchKernel((const void *)apiShort, dim3(1), dim3(256), args, 512, 0);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'apiShort' passes 512 bytes of dynamic shared memory, but 'apiShort' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-58]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  cudaLaunchKernel((const void *)apiEnough, dim3(1), dim3(256), args, 1024, 0);
}

struct LaunchConfig {
  dim3 grid;
  dim3 block;
};

void launchMembers(float *a) {
  LaunchConfig config{dim3(1), dim3(256)};
  memberShort<<<config.grid, config.block, 512>>>(a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'memberShort' passes 512 bytes of dynamic shared memory, but 'memberShort' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-57]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  memberEnough<<<config.grid, config.block, 1024>>>(a);
}

template <typename Kernel>
void launchInner(Kernel kernel, dim3 block, size_t bytes, float *a) {
  kernel<<<1, block, bytes>>>(a);
}

template <typename Kernel>
void launchOuter(Kernel kernel, dim3 block, size_t bytes, float *a) {
  launchInner(kernel, block, bytes, a);
}

void launchHelpers(float *a) {
  launchOuter(helperShort, dim3(256), 512, a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'helperShort' passes 512 bytes of dynamic shared memory, but 'helperShort' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-11]]:3: note: 'helperShort' is launched here, inside 'launchInner'
  // CHECK-NOTES: :[[@LINE-61]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  launchOuter(helperEnough, dim3(256), 1024, a);
}

void launchPointers(float *a) {
  void (*shortKernel)(float *) = pointerShort;
  shortKernel<<<1, 256, 512>>>(a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'pointerShort' passes 512 bytes of dynamic shared memory, but 'pointerShort' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-55]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  void (*enough)(float *) = &pointerEnough;
  enough<<<1, 256, 1024>>>(a);
}

// More than 48 KiB through a local pointer: the attribute set through the
// same pointer raises the kernel's limit (CUTLASS's attention examples).
__global__ void pointerLarge(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x * 64] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x * 64];
}

__global__ void pointerLargeUnset(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x * 64] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x * 64];
}

void launchLargeThroughPointers(float *a) {
  auto large = pointerLarge;
  cudaFuncSetAttribute(large, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       65536);
  large<<<1, 256, 65536>>>(a);
  auto unset = pointerLargeUnset;
  unset<<<1, 256, 65536>>>(a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'pointerLargeUnset' asks for 65536 bytes of dynamic shared memory, more than the 49152 a launch gets without 'cudaFuncAttributeMaxDynamicSharedMemorySize': the launch fails [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: call 'cudaFuncSetAttribute(pointerLargeUnset, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536)' before the launch
}
