// tiled-matmul-missing-first-barrier, bad: the tiled matrix product loads a
// tile of a and a tile of b into shared memory and reads them at once, with no
// barrier after the load. A thread reads bs[k][tx], which the threads of row k
// write (another warp for most k), possibly before they have written it. The
// barrier at the end of the loop body is there.
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

constexpr int kTile = 16;
constexpr int kN = 32; // C = A * B, all kN x kN; a 2 x 2 grid of 16 x 16 tiles
constexpr int kIn = 2 * kN * kN; // A, then B
constexpr int kOut = kN * kN;

// c = a * b: each block computes one kTile x kTile tile of c, walking the
// tiles of a's rows and b's columns through shared memory.
__global__ void matmul(const int *a, const int *b, int *c) {
  __shared__ int as[kTile][kTile];
  __shared__ int bs[kTile][kTile];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * kTile + ty;
  int col = blockIdx.x * kTile + tx;
  int acc = 0;
  for (int k0 = 0; k0 < kN; k0 += kTile) {
    as[ty][tx] = a[row * kN + k0 + tx];
    bs[ty][tx] = b[(k0 + ty) * kN + col];
    for (int k = 0; k < kTile; ++k)
      acc += as[ty][k] * bs[k][tx];
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
    // CHECK-MESSAGES: :[[@LINE-2]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
    __syncthreads();
  }
  c[row * kN + col] = acc;
}

void reference(const int *in, int *expected) {
  const int *a = in, *b = in + kN * kN;
  for (int i = 0; i < kN; ++i)
    for (int j = 0; j < kN; ++j) {
      int acc = 0;
      for (int k = 0; k < kN; ++k)
        acc += a[i * kN + k] * b[k * kN + j];
      expected[i * kN + j] = acc;
    }
}

int main() {
  static int hostIn[kIn], hostOut[kOut], expected[kOut];
  for (int i = 0; i < kIn; ++i)
    hostIn[i] = (7 * i + 3) % 9 - 4;
  reference(hostIn, expected);

  int *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  matmul<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kTile)>>>(in, in + kN * kN,
                                                               out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kOut; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kOut);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kOut);
  return 0;
}
