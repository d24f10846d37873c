// two-block-reductions-no-barrier, fixed: the same two calls of the
// block-reduction helper with a barrier between them, so that every thread
// has read the first result from buf[0] before the second call stores.
//
// RUNTIME: tool=racecheck expect=clean
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_real

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: CUDA error: %s returned %s\n", __FILE__,    \
                   __LINE__, #call, cudaGetErrorString(err_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int kThreads = 256;

__device__ float blockReduce(float *buf, float x) {
  buf[threadIdx.x] = x;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s)
      buf[threadIdx.x] += buf[threadIdx.x + s];
    __syncthreads();
  }
  return buf[0];
}

__global__ void meanAndSquares(const float *in, float *out) {
  __shared__ float buf[kThreads];
  float x = in[threadIdx.x];
  float sum = blockReduce(buf, x);
  __syncthreads();
  float squares = blockReduce(buf, x * x);
  out[2 * threadIdx.x] = sum;
  out[2 * threadIdx.x + 1] = squares;
}

int main() {
  static float hostIn[kThreads], hostOut[2 * kThreads];
  float sum = 0, squares = 0;
  for (int i = 0; i < kThreads; ++i) {
    hostIn[i] = float(i % 5);
    sum += hostIn[i];
    squares += hostIn[i] * hostIn[i];
  }
  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  meanAndSquares<<<1, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));
  int wrong = 0;
  for (int i = 0; i < kThreads; ++i)
    wrong += hostOut[2 * i] != sum || hostOut[2 * i + 1] != squares;
  std::printf("result check: %d of %d threads saw a wrong sum or square sum\n",
              wrong, kThreads);
  return wrong ? 1 : 0;
}
