// grid-sync-per-block, bad: a grid-wide barrier under a branch on the block
// index. A grid barrier waits for every block of the grid; the odd blocks
// never arrive, so the even blocks wait forever and the cooperative launch
// never finishes.
//
// RUNTIME: tool=hang expect=fault
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_real

#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

#define CHECK(call)                                                            \
  do {                                                                         \
    cudaError_t err_ = (call);                                                 \
    if (err_ != cudaSuccess) {                                                 \
      std::fprintf(stderr, "%s:%d: CUDA error: %s returned %s\n", __FILE__,    \
                   __LINE__, #call, cudaGetErrorString(err_));                 \
      std::exit(1);                                                            \
    }                                                                          \
  } while (0)

constexpr int kThreads = 128;
constexpr int kBlocks = 4;
constexpr int kCount = kBlocks * kThreads;

// Every thread doubles its input into mid; after the grid barrier the even
// blocks add the doubled value of the same thread of the next block:
// out[i] = 2 * in[i] + 2 * in[i + kThreads] in even blocks, 2 * in[i] in odd.
__global__ void pairBlocks(const int *in, int *mid, int *out) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  mid[i] = 2 * in[i];
  out[i] = mid[i];
  if (blockIdx.x % 2 == 0) {
    grid.sync();
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-divergent-barrier]
    out[i] += mid[i + blockDim.x];
  }
}

void reference(const int *in, int *expected) {
  for (int i = 0; i < kCount; ++i) {
    expected[i] = 2 * in[i];
    if (i / kThreads % 2 == 0)
      expected[i] += 2 * in[i + kThreads];
  }
}

int main() {
  int device = 0, cooperative = 0;
  CHECK(cudaGetDevice(&device));
  CHECK(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch,
                               device));
  if (!cooperative) {
    std::fprintf(stderr, "the device cannot launch cooperative kernels\n");
    return 1;
  }
  int hostIn[kCount], hostOut[kCount], expected[kCount];
  for (int i = 0; i < kCount; ++i)
    hostIn[i] = 7 * i + 1;
  reference(hostIn, expected);

  int *in, *mid, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&mid, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  void *args[] = {&in, &mid, &out};
  // A grid barrier needs every block resident at once: a cooperative launch.
  CHECK(cudaLaunchCooperativeKernel(reinterpret_cast<void *>(pairBlocks),
                                    dim3(kBlocks), dim3(kThreads), args, 0,
                                    nullptr));
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(mid));
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
