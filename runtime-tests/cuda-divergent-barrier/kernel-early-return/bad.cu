// kernel-early-return, "bad": the kernel itself returns early for threads past
// the end of the input, before a barrier. The threads that return reach no
// barrier on their way out, and exited threads do not hold a barrier up on
// sm_70 and later, so this is correct: the checker is silent and the runtime
// shows no fault. It pairs with the guarded rewrite to pin both down.
//
// RUNTIME: tool=synccheck expect=clean
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
constexpr int kBlocks = 2;
constexpr int kCount = kBlocks * kThreads;
constexpr int kValid = 400; // the second block has input for 144 threads, so
                            // the threads past the end split its fifth warp

// Rotates each block's slice of the first n values by one place (out[i] =
// in[i + 1], wrapping at the end of the slice); out[i] = 0 past n.
__global__ void rotateSlices(const int *in, int *out, int n) {
  __shared__ int slot[kThreads];
  int t = threadIdx.x;
  int sliceStart = blockIdx.x * blockDim.x;
  int sliceLength = min(n - sliceStart, static_cast<int>(blockDim.x));
  int i = sliceStart + t;
  if (i >= n)
    return;
  slot[t] = in[i];
  __syncthreads();
  out[i] = slot[(t + 1) % sliceLength];
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kCount; ++i)
    expected[i] = 0;
  for (int i = 0; i < kValid; ++i) {
    int sliceStart = i / kThreads * kThreads;
    int sliceEnd =
        sliceStart + kThreads < kValid ? sliceStart + kThreads : kValid;
    expected[i] = in[i + 1 < sliceEnd ? i + 1 : sliceStart];
  }
}

int main() {
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = 17 * i + 5;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  rotateSlices<<<kBlocks, kThreads>>>(in, out, kValid);
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
