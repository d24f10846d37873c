// runtime-block-size-one-array, bad: the block size is a run-time value
// (threads, 128 unless the command line says otherwise) and the bytes follow
// it, threads * sizeof(float), but the kernel carves two arrays of blockDim.x
// floats out of the pool (xs = pool, ys = pool + blockDim.x): too few bytes
// for every block size. Every access to ys is past the end.
//
// RUNTIME: tool=memcheck expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_real

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

constexpr int kN = 256;

// out[i] = x[i] * y[i + 1], the neighbour taken cyclically within the block:
// x and y staged in two arrays carved from one dynamic pool.
__global__ void dotNeighbours(const float *x, const float *y, float *out) {
  extern __shared__ float pool[];
  float *xs = pool;
  float *ys = pool + blockDim.x;
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  xs[t] = x[i];
  ys[t] = y[i];
  __syncthreads();
  out[i] = xs[t] * ys[(t + 1) % blockDim.x];
}

void reference(const float *x, const float *y, float *expected, int threads) {
  for (int i = 0; i < kN; ++i) {
    int block = i / threads, t = i % threads;
    expected[i] = x[i] * y[block * threads + (t + 1) % threads];
  }
}

// One launch over kN elements in blocks of the given size (a divisor of kN).
void launch(const float *x, const float *y, float *out, int threads) {
  int blocks = kN / threads;
  dotNeighbours<<<blocks, threads, threads * sizeof(float)>>>(x, y, out);
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-dynamic-shared-bounds]
  CHECK(cudaGetLastError());
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? std::atoi(argv[1]) : 128;
  if (threads <= 0 || threads > kN || kN % threads != 0) {
    std::fprintf(stderr, "the block size must divide %d\n", kN);
    return 2;
  }
  static float hostX[kN], hostY[kN], hostOut[kN], expected[kN];
  for (int i = 0; i < kN; ++i) {
    hostX[i] = (float)(i % 13 + 1);
    hostY[i] = (float)(i % 5 + 2);
  }
  reference(hostX, hostY, expected, threads);

  float *x, *y, *out;
  CHECK(cudaMalloc(&x, sizeof hostX));
  CHECK(cudaMalloc(&y, sizeof hostY));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(x, hostX, sizeof hostX, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(y, hostY, sizeof hostY, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  launch(x, y, out, threads);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(x));
  CHECK(cudaFree(y));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kN; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kN);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kN);
  return 0;
}
