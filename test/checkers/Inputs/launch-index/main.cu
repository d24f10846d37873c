// Launches the kernels of kernels.cu, which this file only declares.
#include <cuda_runtime.h>

__global__ void halves(float *a);
__global__ void halvesWide(float *a);
__global__ void pool256(float *a);
__global__ void pool128(float *a);

void run(float *a) {
  halves<<<1, 128>>>(a);
  halvesWide<<<1, 256>>>(a);
  const unsigned threads = 256;
  pool256<<<1, threads, 128 * sizeof(float)>>>(a);
  pool128<<<1, threads / 2, 128 * sizeof(float)>>>(a);
}
