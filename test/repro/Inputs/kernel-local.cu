// A certain race whose witness names a value the kernel computes: the
// stage a loop has reached.
#include <cuda_runtime.h>

__global__ void stages(const float *in, float *out, int n) {
  __shared__ float buf[256];
  int t = threadIdx.x;
  int stage = 0;
  for (int i = 0; i < n; ++i) {
    buf[(t + stage) % 256] = in[i * blockDim.x + t];
    out[i * blockDim.x + t] = buf[(t + 1) % 256];
    stage += 3;
    __syncthreads();
  }
}

int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  stages<<<1, 128>>>(in, out, 8);
  return 0;
}
