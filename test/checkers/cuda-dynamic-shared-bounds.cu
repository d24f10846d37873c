// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-device-only --cuda-gpu-arch=sm_90 -std=c++17
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-host-only --cuda-gpu-arch=sm_90 -std=c++17

#include <cuda_runtime.h>

// --- Kernels --------------------------------------------------------------------

__global__ void oneArray(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = out[threadIdx.x];
}

__global__ void twoArrays(float *out) {
  extern __shared__ float pool[];
  float *a = pool;
  float *b = pool + blockDim.x;
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] = 2.0f;
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

__global__ void mixedTypes(float *out) {
  extern __shared__ char raw[];
  double *d = reinterpret_cast<double *>(raw);
  int *i = (int *)&d[blockDim.x];
  d[threadIdx.x] = 1.0;
  i[threadIdx.x] = 2;
}

__global__ void strided(float *out, int n) {
  extern __shared__ float s[];
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    s[i] = out[i];
}

__global__ void rowsOfParameter(float *out, int width) {
  extern __shared__ float s[];
  s[threadIdx.y * width + threadIdx.x] = 1.0f;
}

template <int Extra> __global__ void templated(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x + Extra] = 1.0f;
}

template <class T> __global__ void templatedType(T *out) {
  extern __shared__ unsigned char bytes[];
  T *s = reinterpret_cast<T *>(bytes);
  s[threadIdx.x] = out[threadIdx.x];
}

__device__ void fill(float *p, int i) { p[i] = 0.0f; }

__global__ void throughHelper(float *out) {
  extern __shared__ float s[];
  fill(s, threadIdx.x + blockDim.x);
}

__global__ void guardedTail(float *out, int n) {
  extern __shared__ float s[];
  if (threadIdx.x < n)
    s[threadIdx.x] = 1.0f;
}

__global__ void twoDeclarations(float *out) {
  extern __shared__ float first[];
  extern __shared__ int second[];
  first[threadIdx.x] = 1.0f;
  second[threadIdx.x + blockDim.x] = 2;
}

__global__ void big(float *out) {
  extern __shared__ float s[];
  s[threadIdx.x] = 1.0f;
}

__global__ void noDynamicSharedMemory(float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = 1.0f;
}

__global__ void unknownIndex(float *out, const int *idx) {
  extern __shared__ float s[];
  s[idx[threadIdx.x]] = 1.0f;
}

// --- Launches ---------------------------------------------------------------------

void launches(float *f, double *d, int n, int threads, cudaStream_t stream) {
  oneArray<<<1, 256, 256 * sizeof(float)>>>(f);
  oneArray<<<1, 256, 128 * sizeof(float)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'oneArray' passes 512 bytes of dynamic shared memory, but 'oneArray' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-83]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  oneArray<<<1, 256>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'oneArray' passes no dynamic shared memory, but 'oneArray' uses 's' [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-86]]:3: note: 's' is accessed here
  oneArray<<<1, 256, 0, stream>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'oneArray' passes no dynamic shared memory, but 'oneArray' uses 's' [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-89]]:3: note: 's' is accessed here
  oneArray<<<4, 128, 128 * sizeof(float), stream>>>(f);

  twoArrays<<<1, 256, 2 * 256 * sizeof(float)>>>(f);
  twoArrays<<<1, 256, 256 * sizeof(float)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'twoArrays' passes 1024 bytes of dynamic shared memory, but 'twoArrays' reaches 2048 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-87]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 2044 to 2047 of the pool here
  // CHECK-NOTES: :[[@LINE-90]]:10: note: 'b' is carved out of the pool here
  twoArrays<<<1, threads, threads * sizeof(float)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'twoArrays' passes 4096 bytes of dynamic shared memory, but 'twoArrays' reaches 8192 bytes of it (when 'threads' is 1024; too few for every value tried) [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-91]]:3: note: thread (1023,0,0) of a (1024,1,1) block accesses bytes 8188 to 8191 of the pool here
  // CHECK-NOTES: :[[@LINE-94]]:10: note: 'b' is carved out of the pool here
  twoArrays<<<1, threads, 2 * threads * sizeof(float)>>>(f);
  twoArrays<<<1, threads, 1024>>>(f);

  dim3 block(64);
  mixedTypes<<<1, block, 64 * sizeof(double) + 64 * sizeof(int)>>>(f);
  mixedTypes<<<1, block, 64 * sizeof(double)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'mixedTypes' passes 512 bytes of dynamic shared memory, but 'mixedTypes' reaches 768 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-91]]:3: note: thread (63,0,0) of a (64,1,1) block accesses bytes 764 to 767 of the pool here
  // CHECK-NOTES: :[[@LINE-94]]:8: note: 'i' is carved out of the pool here

  strided<<<1, 128, 200 * sizeof(float)>>>(f, 200);
  strided<<<1, 128, 100 * sizeof(float)>>>(f, 200);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'strided' passes 400 bytes of dynamic shared memory, but 'strided' reaches 800 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-91]]:5: note: thread (71,0,0) of a (128,1,1) block accesses bytes 796 to 799 of the pool here
  strided<<<1, 128, 100 * sizeof(float)>>>(f, n);

  rowsOfParameter<<<1, dim3(16, 8), 16 * 8 * sizeof(float)>>>(f, 16);
  rowsOfParameter<<<1, dim3(16, 8), 16 * 8 * sizeof(float)>>>(f, 32);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'rowsOfParameter' passes 512 bytes of dynamic shared memory, but 'rowsOfParameter' reaches 960 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-92]]:3: note: thread (15,7,0) of a (16,8,1) block accesses bytes 956 to 959 of the pool here

  templated<32><<<1, 64, (64 + 32) * sizeof(float)>>>(f);
  templated<32><<<1, 64, 64 * sizeof(float)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'templated' passes 256 bytes of dynamic shared memory, but 'templated' reaches 384 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-92]]:3: note: thread (63,0,0) of a (64,1,1) block accesses bytes 380 to 383 of the pool here
  templatedType<double><<<1, 32, 32 * sizeof(double)>>>(d);
  templatedType<double><<<1, 32, 32 * sizeof(float)>>>(d);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'templatedType' passes 128 bytes of dynamic shared memory, but 'templatedType' reaches 256 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-90]]:3: note: thread (31,0,0) of a (32,1,1) block accesses bytes 248 to 255 of the pool here
  // CHECK-NOTES: :[[@LINE-92]]:6: note: 's' is carved out of the pool here

  throughHelper<<<1, 32, 64 * sizeof(float)>>>(f);
  throughHelper<<<1, 32, 32 * sizeof(float)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'throughHelper' passes 128 bytes of dynamic shared memory, but 'throughHelper' reaches 256 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-93]]:41: note: thread (31,0,0) of a (32,1,1) block accesses bytes 252 to 255 of the pool here
  // CHECK-NOTES: :[[@LINE-90]]:3: note: through this call

  guardedTail<<<1, 256, 100 * sizeof(float)>>>(f, 100);
  guardedTail<<<1, 256, 100 * sizeof(float)>>>(f, 200);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'guardedTail' passes 400 bytes of dynamic shared memory, but 'guardedTail' reaches 800 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-89]]:5: note: thread (199,0,0) of a (256,1,1) block accesses bytes 796 to 799 of the pool here

  twoDeclarations<<<1, 32, 64 * sizeof(float)>>>(f);
  twoDeclarations<<<1, 32, 32 * sizeof(float)>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'twoDeclarations' passes 128 bytes of dynamic shared memory, but 'twoDeclarations' reaches 256 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-87]]:3: note: thread (31,0,0) of a (32,1,1) block accesses bytes 252 to 255 of the pool here

  noDynamicSharedMemory<<<1, 256>>>(f);
  unknownIndex<<<1, 32, 4>>>(f, nullptr);

  big<<<1, 256, 64 * 1024>>>(f);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'big' asks for 65536 bytes of dynamic shared memory, more than the 49152 a launch gets without 'cudaFuncAttributeMaxDynamicSharedMemorySize': the launch fails [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: call 'cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536)' before the launch
  cudaFuncSetAttribute(big, cudaFuncAttributeMaxDynamicSharedMemorySize,
                       100 * 1024);
  big<<<1, 256, 64 * 1024>>>(f);
}

void launchApis(float *f) {
  void *args[] = {&f};
  cudaLaunchKernel((const void *)oneArray, dim3(1), dim3(256), args,
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'oneArray' passes 512 bytes of dynamic shared memory, but 'oneArray' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-163]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
                   128 * sizeof(float), 0);
  cudaLaunchKernel((const void *)oneArray, dim3(1), dim3(256), args,
                   256 * sizeof(float), 0);
  cudaLaunchCooperativeKernel((const void *)oneArray, dim3(1), dim3(64), args,
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'oneArray' passes 128 bytes of dynamic shared memory, but 'oneArray' reaches 256 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-169]]:3: note: thread (63,0,0) of a (64,1,1) block accesses bytes 252 to 255 of the pool here
                              32 * sizeof(float), 0);
}

// An early exit on the global index: block 0 runs all 128 threads when
// n = 192, and writes 512 bytes into a 256-byte pool. The twin with room for
// 128 ints is silent.
__global__ void stageEarlyExit(const int *in, int *out, int n) {
  extern __shared__ int prefix[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  if (i >= n)
    return;
  prefix[t] = in[i];
  __syncthreads();
  out[i] = prefix[(t + 1) % blockDim.x];
}

void launchEarlyExit(const int *in, int *out) {
  stageEarlyExit<<<2, 128, 64 * sizeof(int)>>>(in, out, 192);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'stageEarlyExit' passes 256 bytes of dynamic shared memory, but 'stageEarlyExit' reaches 512 bytes of it [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :[[@LINE-8]]:3: note: thread (127,0,0) of a (128,1,1) block accesses bytes 508 to 511 of the pool here
  stageEarlyExit<<<2, 128, 128 * sizeof(int)>>>(in, out, 192);
}
