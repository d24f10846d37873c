// extern-pool-column-write, bad: a 256 x 256 float transpose through an
// `extern __shared__` pool indexed by hand, blocks of 32 x 32 threads. The
// transpose happens on the way in: thread (x, y) writes pool[x * 32 + y], so
// the 32 lanes of a warp (x = 0..31) write words 32 apart, all in one bank,
// and the read pool[y * 32 + x] is row-wise. 32 wavefronts a write where 1
// would do (a 32-way bank conflict on the store).
//
// RUNTIME: tool=ncu expect=fault kernel=transposePool op=st wavefronts=32 ideal=1
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
constexpr int kN = 256; // an 8 x 8 grid of tiles
constexpr int kSize = kN * kN;

// out = the transpose of in, through a dynamic shared pool indexed by hand.
// Thread (x, y) stores its element at row x, column y of a 32-word-wide tile,
// so the read is row-wise. The only shared store is that transposed write.
__global__ void transposePool(const float *in, float *out) {
  extern __shared__ float pool[];
  int x = blockIdx.x * kTile + threadIdx.x;
  int y = blockIdx.y * kTile + threadIdx.y;
  pool[threadIdx.x * kTile + threadIdx.y] = in[y * kN + x];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 32-way bank conflict writing 'pool'{{.*}} [cuda-bank-conflict]
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x;
  y = blockIdx.x * kTile + threadIdx.y;
  out[y * kN + x] = pool[threadIdx.y * kTile + threadIdx.x];
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
                  kTile * kTile * sizeof(float)>>>(in, out);
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
