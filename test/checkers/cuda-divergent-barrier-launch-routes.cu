// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// The barrier check's two launch questions read every route the launch model
// resolves: cudaLaunchKernel, a block held in a struct member, a helper two
// calls deep, a local function pointer. A reduction over whole warps is
// uniform when every launch gives the block an x extent that is a multiple
// of 32 (64: silent; 48: reported), and an exit on `threadIdx.y >= K` lets
// no thread leave when every launch makes the block exactly K high (8:
// silent; 32: reported).

#include <cuda_runtime.h>

__device__ __forceinline__ int warpSum(int x) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    x += __shfl_xor_sync(0xffffffff, x, offset, 32);
  return x;
}

__global__ void apiRows(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void apiRagged(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-10]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void memberRows(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void memberRagged(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-10]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void helperRows(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void helperRagged(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-10]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void pointerRows(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

__global__ void pointerRagged(const int *in, int *out, int n) {
  __shared__ int part[32];
  int j = 0;
  while (j < n) {
    int v = warpSum(in[j * 128 + threadIdx.x]);
    if ((threadIdx.x & 31) == 0)
      part[threadIdx.x / 32] = v;
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-6]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    v = warpSum(part[threadIdx.x & 31]);
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-10]]:10: note: threads of a block may disagree on this loop condition: it depends on 'threadIdx.x' through 'v' and 'j'
    if (v > 100)
      break;
    ++j;
  }
  out[blockIdx.x] = j;
}

template <int K> __global__ void apiHeight(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void apiTaller(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.y'
    // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'tile' here
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void memberHeight(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void memberTaller(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.y'
    // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'tile' here
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void helperHeight(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void helperTaller(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.y'
    // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'tile' here
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void pointerHeight(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

template <int K> __global__ void pointerTaller(const float *a, float *x) {
  if (threadIdx.y >= K)
    return;
  __shared__ float tile[32 * 32];
  tile[threadIdx.y * 32 + threadIdx.x] = a[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  float sum = 0.0f;
  for (int row = 0; row < 32; ++row)
    sum += tile[row * 32 + row];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: after the barrier every thread reads elements of 'tile' that threads which left the kernel early may never have written [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-9]]:7: note: threads of a block may disagree on this condition, and the threads on the side that leaves the kernel skip the write: it depends on 'threadIdx.y'
    // CHECK-NOTES: :[[@LINE-7]]:3: note: each thread that stays writes only its own element of 'tile' here
  x[threadIdx.y * 32 + threadIdx.x] = sum;
}

void launchApi(const int *in, int *out, int n, const float *a, float *x) {
  void *args[] = {&in, &out, &n};
  cudaLaunchKernel((const void *)apiRows, dim3(1), dim3(64, 2), args, 0, 0);
  cudaLaunchKernel((const void *)apiRagged, dim3(1), dim3(48, 2), args, 0, 0);
  void *tileArgs[] = {&a, &x};
  cudaLaunchKernel((const void *)apiHeight<8>, dim3(1), dim3(32, 8), tileArgs,
                   0, 0);
  cudaLaunchKernel((const void *)apiTaller<8>, dim3(1), dim3(32, 32),
                   tileArgs, 0, 0);
}

struct LaunchConfig {
  dim3 grid;
  dim3 block;
};

void launchMembers(const int *in, int *out, int n, const float *a, float *x) {
  LaunchConfig rows{dim3(1), dim3(64, 2)};
  memberRows<<<rows.grid, rows.block>>>(in, out, n);
  LaunchConfig ragged{dim3(1), dim3(48, 2)};
  memberRagged<<<ragged.grid, ragged.block>>>(in, out, n);
  LaunchConfig height{dim3(1), dim3(32, 8)};
  memberHeight<8><<<height.grid, height.block>>>(a, x);
  LaunchConfig taller{dim3(1), dim3(32, 32)};
  memberTaller<8><<<taller.grid, taller.block>>>(a, x);
}

template <typename Kernel, typename... Args>
void launchInner(Kernel kernel, dim3 block, Args... args) {
  kernel<<<1, block>>>(args...);
}

template <typename Kernel, typename... Args>
void launchOuter(Kernel kernel, dim3 block, Args... args) {
  launchInner(kernel, block, args...);
}

void launchHelpers(const int *in, int *out, int n, const float *a, float *x) {
  launchOuter(helperRows, dim3(64, 2), in, out, n);
  launchOuter(helperRagged, dim3(48, 2), in, out, n);
  launchOuter(helperHeight<8>, dim3(32, 8), a, x);
  launchOuter(helperTaller<8>, dim3(32, 32), a, x);
}

void launchPointers(const int *in, int *out, int n, const float *a, float *x) {
  void (*rows)(const int *, int *, int) = pointerRows;
  rows<<<1, dim3(64, 2)>>>(in, out, n);
  void (*ragged)(const int *, int *, int) = &pointerRagged;
  ragged<<<1, dim3(48, 2)>>>(in, out, n);
  void (*height)(const float *, float *) = pointerHeight<8>;
  height<<<1, dim3(32, 8)>>>(a, x);
  void (*taller)(const float *, float *) = pointerTaller<8>;
  taller<<<1, dim3(32, 32)>>>(a, x);
}
