// shared-flag-loop, bad (issue 22, shape d): a block iterates while any of
// its threads still has work. Thread 0 resets the shared flag after the
// first barrier of a pass, the threads with work set it after the second,
// and the loop condition reads it with no barrier after those writes: a
// thread can test the flag for the next pass before another thread of the
// block has set it, leave the loop with work left, and leave the others to
// meet the barriers without it. The check reports the read in the loop
// condition against the guarded write, for input data where the work test
// holds; racecheck reports the hazard between the write and the read.
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

constexpr int kThreads = 256;
constexpr int kSteps = 16;

// out[t] = the number of passes thread t took: one more than the last step
// at which any thread of the block had work.
__global__ void passesWhileAnyWork(const int *work, int *out) {
  __shared__ bool any;
  int t = threadIdx.x;
  if (t == 0)
    any = true;
  __syncthreads();
  int steps = 0;
  while (any) {
    // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
    __syncthreads();
    if (t == 0)
      any = false;
    __syncthreads();
    if (steps < kSteps && work[t * kSteps + steps] > 0)
      any = true;
    ++steps;
  }
  out[t] = steps;
}

int main() {
  static int hostWork[kThreads * kSteps], hostOut[kThreads];
  // Thread t has work in its first (t % 13) steps; thread 255 in all 16.
  int last = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int s = 0; s < kSteps; ++s) {
      bool has = s < t % 13 || (t == kThreads - 1);
      hostWork[t * kSteps + s] = has ? 1 : 0;
      if (has && s + 1 > last)
        last = s + 1;
    }
  int expected = last + 1;

  int *work, *out;
  CHECK(cudaMalloc(&work, sizeof hostWork));
  CHECK(cudaMalloc(&out, sizeof hostOut));
  CHECK(cudaMemcpy(work, hostWork, sizeof hostWork, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(out, 0, sizeof hostOut));
  passesWhileAnyWork<<<1, kThreads>>>(work, out);
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(hostOut, out, sizeof hostOut, cudaMemcpyDeviceToHost));
  CHECK(cudaFree(work));
  CHECK(cudaFree(out));

  int wrong = 0;
  for (int t = 0; t < kThreads; ++t)
    if (hostOut[t] != expected && wrong++ < 5)
      std::printf("out[%d] = %d, expected %d\n", t, hostOut[t], expected);
  if (wrong) {
    std::printf("result check: %d of %d values differ from the CPU reference\n",
                wrong, kThreads);
    return 1;
  }
  std::printf("result check: all %d values match the CPU reference\n",
              kThreads);
  return 0;
}
