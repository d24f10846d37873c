// memberwise-vector-write, bad: each thread stores the four members of one
// float4 element of a shared tile in straight-line code, which nvcc issues as
// one 16-byte store (STS.128), served a quarter-warp at a time. The element
// is slot (t % 8) * 32 + t / 8: the 8 lanes of a quarter-warp store 512
// bytes apart, all into the same four banks: 8 wavefronts a quarter-warp, 32
// a store where 4 would do (an 8-way bank conflict). The tile is then read
// back in order (LDS.128, conflict-free).
//
// RUNTIME: tool=ncu expect=fault kernel=writeVectors op=st wavefronts=32 ideal=4
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

constexpr int kThreads = 256;
constexpr int kBlocks = 64;
constexpr int kSize = kThreads * kBlocks;

// out[i] = the four inputs of thread (i % 32) * 8 + i / 32, scaled by 1 to 4.
// The only shared store is the member-wise one.
__global__ void writeVectors(const float *in, float4 *out) {
  __shared__ float4 tile[kThreads];
  int t = threadIdx.x;
  const float *v = in + 4 * (blockIdx.x * kThreads + t);
  int slot = (t % 8) * 32 + t / 8;
  tile[slot].x = v[0];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: 8-way bank conflict writing 'tile'{{.*}} [cuda-bank-conflict]
  tile[slot].y = 2 * v[1];
  tile[slot].z = 3 * v[2];
  tile[slot].w = 4 * v[3];
  __syncthreads();
  out[blockIdx.x * kThreads + t] = tile[t];
}

bool operator!=(float4 a, float4 b) {
  return a.x != b.x || a.y != b.y || a.z != b.z || a.w != b.w;
}

int main() {
  static float hostIn[4 * kSize];
  static float4 hostOut[kSize], expected[kSize];
  for (int i = 0; i < 4 * kSize; ++i)
    hostIn[i] = static_cast<float>(i % 1000);
  for (int b = 0; b < kBlocks; ++b)
    for (int i = 0; i < kThreads; ++i) {
      const float *v = hostIn + 4 * (b * kThreads + (i % 32) * 8 + i / 32);
      expected[b * kThreads + i] =
          make_float4(v[0], 2 * v[1], 3 * v[2], 4 * v[3]);
    }

  float *in;
  float4 *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  writeVectors<<<kBlocks, kThreads>>>(in, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(in));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int i = 0; i < kSize; ++i)
    if (hostOut[i] != expected[i] && wrong++ < 5)
      std::printf("out[%d].x = %g, expected %g\n", i, hostOut[i].x,
                  expected[i].x);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kSize);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n", kSize);
  return 0;
}
