// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// The shapes a kernel is analysed with come from its launches by every route
// the launch model resolves: cudaLaunchKernel, a block held in a struct
// member, a helper two calls deep, a local function pointer. Each kernel
// writes s[threadIdx.x] and reads s[threadIdx.x + 128]: with 256 threads
// the halves meet (a race), with 128 they never do (silent). A launch whose
// block is no constant leaves the assumed 256 threads, and a note at the
// launch says why.

#include <cuda_runtime.h>

__global__ void apiHalves(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void apiQuarter(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}

__global__ void apiUnknown(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: the block of the launch at cuda-shared-memory-race-launch-routes.cu{{.*}}:[[@LINE+57]] is not a constant)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES: :[[@LINE+55]]:3: note: the block of this launch of 'apiUnknown' is not a constant: it comes from parameter 'given' of 'launchApi'
}

__global__ void memberHalves(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void memberQuarter(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}

__global__ void helperHalves(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void helperQuarter(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}

__global__ void pointerHalves(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void pointerQuarter(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + 128];
}

void launchApi(float *a, unsigned given) {
  void *args[] = {&a};
  cudaLaunchKernel((const void *)apiHalves, dim3(1), dim3(256), args, 0, 0);
  cudaLaunchKernel((const void *)apiQuarter, dim3(1), dim3(128), args, 0, 0);
  cudaLaunchKernel((const void *)apiUnknown, dim3(1), dim3(given), args, 0, 0);
}

struct LaunchConfig {
  dim3 grid;
  dim3 block;
};

void launchMembers(float *a) {
  LaunchConfig halves{dim3(1), dim3(256)};
  memberHalves<<<halves.grid, halves.block>>>(a);
  LaunchConfig quarter{dim3(1), dim3(128)};
  memberQuarter<<<quarter.grid, quarter.block>>>(a);
}

template <typename Kernel>
void launchInner(Kernel kernel, dim3 block, float *a) {
  kernel<<<1, block>>>(a);
}

template <typename Kernel>
void launchOuter(Kernel kernel, dim3 block, float *a) {
  launchInner(kernel, block, a);
}

void launchHelpers(float *a) {
  launchOuter(helperHalves, dim3(256), a);
  launchOuter(helperQuarter, dim3(128), a);
}

void launchPointers(float *a) {
  void (*halves)(float *) = pointerHalves;
  halves<<<1, 256>>>(a);
  void (*quarter)(float *) = &pointerQuarter;
  quarter<<<1, 128>>>(a);
}
