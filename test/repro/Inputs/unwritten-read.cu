// A block reduction under a guard: the threads that left never wrote their
// slots, which every thread then reads. No GPU tool reports a read of shared
// memory no thread wrote (initcheck follows global memory only), so the
// finding gets no reproducer, and says why.
#include <cuda_runtime.h>

__global__ void sumUnderGuard(const float *in, float *out, int n) {
  __shared__ float partial[256];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    partial[threadIdx.x] = in[i];
    __syncthreads();
    float total = 0.0f;
    for (int k = 0; k < 256; ++k)
      total += partial[k];
    out[i] = total;
  }
}
