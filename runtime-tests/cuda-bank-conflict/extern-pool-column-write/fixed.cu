// extern-pool-column-write, fixed: the same transpose with the rows of the
// pool 33 words apart: pool[x * 33 + y] puts lane x in bank (x + y) % 32, one
// wavefront a write; the read pool[y * 33 + x] stays row-wise. The launch asks
// for the 32 extra words.
//
// RUNTIME: tool=ncu expect=clean kernel=transposePool op=st wavefronts=1 ideal=1
// REQUIRES: cuda-toolkit
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- -- %cuda_real

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

constexpr int kTile = 32;
constexpr int kPitch = kTile + 1; // words between rows of the pool
constexpr int kN = 256; // an 8 x 8 grid of tiles
constexpr int kSize = kN * kN;

// out = the transpose of in, through a dynamic shared pool indexed by hand.
// Thread (x, y) stores its element at row x, column y of a tile whose rows
// are 33 words apart, so the read is row-wise. The only shared store is that
// transposed write.
__global__ void transposePool(const float *in, float *out) {
  extern __shared__ float pool[];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  pool[threadIdx.x * kPitch + threadIdx.y] = in[y * kN + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * kN + x] = pool[threadIdx.y * kPitch + threadIdx.x];
}

void reference(const float *in, float *expected) {
  for (int r = 0; r < kN; ++r)
    for (int c = 0; c < kN; ++c)
      expected[c * kN + r] = in[r * kN + c];
}

int main() {
  static float hostIn[kSize], hostOut[kSize], expected[kSize];
  for (int i = 0; i < kSize; ++i)
    hostIn[i] = static_cast<float>(3 * i + 1);
  reference(hostIn, expected);

  float *in, *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  transposePool<<<dim3(kN / kTile, kN / kTile), dim3(kTile, kTile),
                  kTile * kPitch * sizeof(float)>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kSize; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d] = %g, expected %g\n", i, hostOut[i], expected[i]);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kSize);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kSize);
  return 0;
}
