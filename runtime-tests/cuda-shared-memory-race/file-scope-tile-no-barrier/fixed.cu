// file-scope-tile-no-barrier, fixed: the barrier between the writes of the
// tile and its reads.
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

constexpr int kTile = 16;
constexpr int kThreads = kTile * kTile;

// A tile at namespace scope.
__shared__ float tile[kTile][kTile];

// out[ty][tx] = tile[ty][(tx + 1) % 16] = in[ty][(tx + 1) % 16]: the tile is
// written transposed and read transposed back, one column over.
__global__ void shiftedTranspose(const float *in, float *out) {
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[tx][ty] = in[tx * kTile + ty];
  __syncthreads();
  out[ty * kTile + tx] = tile[ty][(tx + 1) % kTile];
}

void reference(const float *in, float *expected) {
  for (int ty = 0; ty < kTile; ++ty)
    for (int tx = 0; tx < kTile; ++tx)
      expected[ty * kTile + tx] = in[ty * kTile + (tx + 1) % kTile];
}

int main() {
  static float hostIn[kThreads], hostOut[kThreads], expected[kThreads];
  for (int i = 0; i < kThreads; ++i)
    hostIn[i] = 3.0f * i + 1.0f;
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  shiftedTranspose<<<1, dim3(kTile, kTile)>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
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
