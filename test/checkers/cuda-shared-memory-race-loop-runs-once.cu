// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17
// RUN: %check_clang_tidy -check-suffix=POSSIBLE %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only -std=c++17

#include <cuda_runtime.h>

// A loop whose first test always passes (issue 10, class 5): the path that
// skips the loop does not exist, so a barrier in its body separates what
// comes before the loop from what comes after it. Its twins may run zero
// times, or leave a way round the barrier, and the race stays.

constexpr int kTiles = 2;

__global__ void constantTripCount(const float *w, float *out) {
  __shared__ float row[256];
  __shared__ float tile[256];
  int t = threadIdx.x;
  row[t] = out[t];
  float acc = 0.0f;
  for (int k = 0; k < kTiles; ++k) {
    tile[t] = w[k * 256 + t];
    __syncthreads();
    acc += tile[(t + 1) % 256];
    __syncthreads();
  }
  out[t] = row[(t + 1) % 256] + acc;
}

template <int Tiles> __global__ void templateTripCount(float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  for (int k = Tiles; k > 0; --k)
    __syncthreads();
  out[t] = row[255 - t];
}
template __global__ void templateTripCount<3>(float *);

__global__ void whileConstant(float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  while (true) {
    __syncthreads();
    break;
  }
  out[t] = row[255 - t];
}

// A trip count the kernel is given: the way round the barrier runs only
// when `tiles` is 0 at the launch. No launch is seen, so the race is a
// question of that value: possible (ReportPossibleRaces), silent by default.
__global__ void parameterTripCount(int tiles, float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  for (int k = 0; k < tiles; ++k)
    __syncthreads();
  out[t] = row[255 - t];
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-1]]:12: warning: possible read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
}

// The same loop, launched with 0 tiles (the runtime test
// barrier-in-loop-that-always-runs): the launch makes the zero-trip way
// certain, and the race is reported. With 3 tiles it cannot happen.
__global__ void parameterTripCountLaunched(int tiles, float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  for (int k = 0; k < tiles; ++k)
    __syncthreads();
  out[t] = row[255 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-2]]:12: warning: read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
}

__global__ void parameterTripCountLaunchedThree(int tiles, float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  for (int k = 0; k < tiles; ++k)
    __syncthreads();
  out[t] = row[255 - t];
}

void launchTripCounts(float *out) {
  parameterTripCountLaunched<<<1, 256>>>(0, out);
  parameterTripCountLaunchedThree<<<1, 256>>>(3, out);
}

__global__ void zeroTripCount(float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  for (int k = 0; k < kTiles - 2; ++k)
    __syncthreads();
  out[t] = row[255 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-MESSAGES: :[[@LINE-5]]:3: note: the other thread's write is here
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) writes 'row[0]' and thread (255,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-5]]:12: warning: read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
}

// A `continue` before the barrier goes round without it: the second test
// may exit with nothing ordering the staging write before the read.
__global__ void continueSkipsBarrier(int skip, float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  for (int k = 0; k < kTiles; ++k) {
    if (k >= skip)
      continue;
    __syncthreads();
  }
  out[t] = row[255 - t];
  // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-MESSAGES: :[[@LINE-8]]:3: note: the other thread's write is here
  // CHECK-MESSAGES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) writes 'row[0]' and thread (255,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-MESSAGES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-MESSAGES-POSSIBLE: :[[@LINE-5]]:12: warning: read after write race on shared 'row': no barrier orders this read after another thread's write [cuda-shared-memory-race]
}

// do-while runs its body first: the CFG already has no way round it.
__global__ void doWhileParameter(int tiles, float *out) {
  __shared__ float row[256];
  int t = threadIdx.x;
  row[t] = out[t];
  int k = 0;
  do {
    __syncthreads();
  } while (++k < tiles);
  out[t] = row[255 - t];
}
