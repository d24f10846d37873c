// A histogram whose race needs data that sends one thread's atomic to a bin
// another thread zeroes: possible, and no reproducer can give such data.
#include <cuda_runtime.h>

__global__ void gridStrideAfterZero(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  for (int i = t; i < n; i += blockDim.x)
    atomicAdd(&counts[in[i] % 64], 1u);
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}
