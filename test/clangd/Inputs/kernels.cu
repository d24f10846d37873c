#include <cuda_runtime.h>

__global__ void transposeNaive(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

void launchTranspose(float *out, const float *in) {
  transposeNaive<<<1, dim3(32, 8)>>>(out, in);
}

__global__ void reverseWithoutBarrier(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[t];
  a[t] = s[255 - t];
}

__global__ void reverseSuppressed(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[t];
  a[t] = s[255 - t]; // NOLINT(cuda-shared-memory-race)
}

__global__ void deviceOnlyRace(float *a) {
#ifdef __CUDA_ARCH__
  __shared__ float d[256];
  int t = threadIdx.x;
  d[t] = a[t];
  a[t] = d[255 - t];
#endif
}

__device__ float mirrored(const float *s, int t) { return s[255 - t]; }

__global__ void reverseThroughHelper(float *a) {
  __shared__ float h[256];
  int t = threadIdx.x;
  h[t] = a[t];
  a[t] = mirrored(h, t);
}
