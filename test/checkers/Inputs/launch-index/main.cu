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

__global__ void halvesApi(float *a);
__global__ void halvesHelper(float *a);

template <typename Kernel>
void launchWith(Kernel kernel, unsigned threads, float *a) {
  kernel<<<1, threads>>>(a);
}

// Indexed too: a cudaLaunchKernel launch, and a helper's launch at the call
// that hands it the kernel.
void runMore(float *a) {
  void *args[] = {&a};
  cudaLaunchKernel((const void *)halvesApi, dim3(1), dim3(128), args, 0, 0);
  launchWith(halvesHelper, 128, a);
}
