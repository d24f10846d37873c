// memberwise-vector-write, fixed: each thread stores the four members of
// its own float4 element, tile[t], in straight-line code. nvcc issues them as
// one 16-byte store (STS.128): the 8 lanes of a quarter-warp store 16 bytes
// apart, 32 different banks, one wavefront a quarter-warp, 4 a store. Counted
// as four 4-byte stores 16 bytes apart it would look like a 4-way conflict;
// the check models the merged store and is silent. The tile is then read
// back reversed (LDS.128, conflict-free).
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
// shared store is the member-wise one.
__global__ void writeVectors(const float *in, float4 *out) {
  __shared__ float4 tile[kThreads];
  int t = threadIdx.x;
  const float *v = in + 4 * (blockIdx.x * kThreads + t);
  tile[t].x = v[0];
  tile[t].y = 2 * v[1];
  tile[t].z = 3 * v[2];
  tile[t].w = 4 * v[3];
  __syncthreads();
  out[blockIdx.x * kThreads + t] = tile[kThreads - 1 - t];
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
