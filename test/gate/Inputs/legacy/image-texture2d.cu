// A 2D image filter through a normalised texture reference bound to a CUDA
// array, and a device query printing fields CUDA 13 removed.
#include <cstdio>
#include <cuda_runtime.h>

texture<unsigned char, 2, cudaReadModeNormalizedFloat> imageTex;

__global__ void boxFilter(float *out, int width, int height) {
  __shared__ float row[16][16];
  int x = blockIdx.x * 16 + threadIdx.x;
  int y = blockIdx.y * 16 + threadIdx.y;
  row[threadIdx.y][threadIdx.x] = tex2D(imageTex, x + 0.5f, y + 0.5f);
  float left = threadIdx.x > 0 ? row[threadIdx.y][threadIdx.x - 1] : 0.0f;
  out[y * width + x] = 0.5f * (left + row[threadIdx.y][threadIdx.x]);
}

int main() {
  cudaDeviceProp prop = {0};
  cudaGetDeviceProperties(&prop, 0);
  std::printf("%s: %d kHz, overlap %d, timeout %d, mode %d\n", prop.name,
              prop.clockRate, prop.deviceOverlap,
              prop.kernelExecTimeoutEnabled, prop.computeMode);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<unsigned char>();
  cudaArray *pixels;
  cudaMallocArray(&pixels, &desc, 512, 512);
  imageTex.normalized = false;
  imageTex.filterMode = cudaFilterModeLinear;
  cudaBindTextureToArray(imageTex, pixels, desc);
  float *out;
  cudaMalloc(&out, 512 * 512 * sizeof(float));
  boxFilter<<<dim3(32, 32), dim3(16, 16)>>>(out, 512, 512);
  cudaThreadSynchronize();
  return 0;
}
