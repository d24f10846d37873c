// memberwise-vector-write, unrolled: the same as fixed.cu through a dynamic
// float pool, each thread storing its run of four consecutive floats,
// pool[4 * t + k], in a loop of four iterations. nvcc unrolls it and issues
// one 16-byte store (STS.128; the pool is `.extern .shared .align 16` in the
// PTX and 4 * t is a multiple of 4): 16 bytes between lanes, 4 wavefronts a
// store, conflict-free. The check models the unrolled store and is silent.
// The read back is four neighbouring loads, one LDS.128.
//
// RUNTIME: tool=ncu expect=clean kernel=writeVectors op=st wavefronts=4 ideal=4
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

// out[i] = the four inputs of thread 255 - i, scaled by 1 to 4. The only
// shared store is the one in the loop.
__global__ void writeVectors(const float *in, float4 *out) {
  extern __shared__ float pool[];
  int t = threadIdx.x;
  const float *v = in + 4 * (blockIdx.x * kThreads + t);
#pragma unroll
  for (int k = 0; k < 4; ++k)
    pool[4 * t + k] = (k + 1) * v[k];
  __syncthreads();
  int r = 4 * (kThreads - 1 - t);
  out[blockIdx.x * kThreads + t] =
      make_float4(pool[r], pool[r + 1], pool[r + 2], pool[r + 3]);
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
      const float *v = hostIn + 4 * (b * kThreads + kThreads - 1 - i);
      expected[b * kThreads + i] =
          make_float4(v[0], 2 * v[1], 3 * v[2], 4 * v[3]);
    }

  float *in;
  float4 *out;
  CHECK(cudaMalloc(&in, sizeof hostIn));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(in, hostIn, sizeof hostIn, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  writeVectors<<<kBlocks, kThreads, 4 * kThreads * sizeof(float)>>>(in, out);
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
