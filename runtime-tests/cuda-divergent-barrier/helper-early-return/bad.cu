// helper-early-return, bad: a __device__ helper returns early for threads
// without input and holds a barrier after that return. Those threads go on to
// the kernel's next barrier while the others wait at the helper's.
//
// RUNTIME: tool=synccheck expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_real

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
constexpr int kCount = kThreads;
constexpr int kValid = 160; // only the first five warps have input

// Copies this thread's input, if it has one, into the shared tile and waits
// until the whole tile is there.
__device__ void loadTile(int *tile, const int *in, int n) {
  int t = threadIdx.x;
  if (t >= n)
    return;
  tile[t] = in[t];
  __syncthreads();
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
}

// out[t] = in[t] + 2 * in[t + 1] + in[t + 2] (indices wrap at n) for the
// first n threads, 0 for the rest: two rounds of neighbour sums in one tile.
__global__ void neighbourSums(const int *in, int *out, int n) {
  __shared__ int tile[kThreads];
  loadTile(tile, in, n);
  int t = threadIdx.x;
  int sum = 0;
  if (t < n)
    sum = tile[t] + tile[(t + 1) % n];
  __syncthreads();
  if (t < n)
    tile[t] = sum;
  __syncthreads();
  if (t < n)
    out[t] = tile[t] + tile[(t + 1) % n];
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kCount; ++i)
    expected[i] = 0;
  for (int i = 0; i < kValid; ++i)
    expected[i] = in[i] + 2 * in[(i + 1) % kValid] + in[(i + 2) % kValid];
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = 11 * i + 4;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  neighbourSums<<<1, kThreads>>>(in, out, kValid);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kCount; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kCount);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kCount);
  return 0;
}
