// A launch that passes what its host function was given, two calls below
// main: a reproducer takes the values of that run of the program
// (checker/model/ProgramValues.h) for the parameters the witness does not
// name, and the byte count the witness's block gets.
#include <cuda_runtime.h>

__global__ void smooth(const float *in, float *out, int rows, int width) {
  extern __shared__ float row[];
  for (int r = 0; r < rows; ++r) {
    row[threadIdx.x] = in[r * width + threadIdx.x];
    out[r * width + threadIdx.x] =
        row[threadIdx.x] + row[(threadIdx.x + 1) % blockDim.x];
    __syncthreads();
  }
}

void launchSmooth(const float *in, float *out, int rows, int width,
                  int block) {
  smooth<<<1, block, block * sizeof(float)>>>(in, out, rows, width);
}

void run(int kernel, const float *in, float *out, int rows, int width,
         int block) {
  if (kernel == 1)
    launchSmooth(in, out, rows, width, block);
}

int main() {
  const int rows = 3;
  int width = 4096;
  int blocks[] = {64, 128, 256};
  for (int block : blocks)
    run(1, nullptr, nullptr, rows, width, block);
  return 0;
}
