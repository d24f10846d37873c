// barrier-in-loop-that-always-runs, bad: the same kernel with the number of
// tiles a kernel parameter, launched with 0 tiles. The loop that held the
// only barrier between staging the row and reading the neighbour's element
// does not run, so thread t reads what thread t + 1 writes with nothing
// ordering them. The check reports the read: a trip count that may be zero
// leaves a path around the barrier (issue 10, class 5, the twin).
//
// RUNTIME: tool=racecheck expect=fault
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
constexpr int kTiles = 2; // the weights allocated
constexpr int kTilesLaunched = 0;

// out[t] = in[t + 1] + the sum over the tiles of w[k][t + 1], the neighbour
// taken round the block.
__global__ void neighbourPlusTiles(int tiles, const float *in, const float *w,
                                   float *out) {
  __shared__ float row[kThreads];
  __shared__ float tile[kThreads];
  int t = threadIdx.x;
  int right = (t + 1) % kThreads;
  row[t] = in[t];
  float acc = 0.0f;
  for (int k = 0; k < tiles; ++k) {
    tile[t] = w[k * kThreads + t];
    __syncthreads();
    acc += tile[right];
    __syncthreads();
  }
  out[t] = row[right] + acc;
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
}

void reference(const float *in, const float *w, int tiles, float *expected) {
  for (int t = 0; t < kThreads; ++t) {
    int right = (t + 1) % kThreads;
    float acc = 0.0f;
    for (int k = 0; k < tiles; ++k)
      acc += w[k * kThreads + right];
    expected[t] = in[right] + acc;
  }
}

int main() {
  static float hostIn[kThreads], hostW[kTiles * kThreads], hostOut[kThreads],
      expected[kThreads];
  for (int i = 0; i < kThreads; ++i)
    hostIn[i] = 3.0f * i + 1.0f;
  for (int i = 0; i < kTiles * kThreads; ++i)
    hostW[i] = 0.5f * (i % 7);
  reference(hostIn, hostW, kTilesLaunched, expected);

  float *in, *w, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&w, sizeof hostW));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(w, hostW, sizeof hostW, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  neighbourPlusTiles<<<1, kThreads>>>(kTilesLaunched, in, w, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(w));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kThreads; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kThreads);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n",
              kThreads);
  return 0;
}
