// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only
// RUN: %check_clang_tidy -check-suffix=POSSIBLE %s cuda-shared-memory-race %t -- \
// RUN:   -config="{CheckOptions: {cuda-shared-memory-race.ReportPossibleRaces: true}}" \
// RUN:   -- %cuda_stub --cuda-device-only

// Atomics at a data-dependent index against plain accesses (fuzz finding 4).
// The index `in[t] % 64` (unsigned) or `in[t] & 63` can be any bin: the
// race is certain when some thread's atomic meets another thread's access
// whatever bin the data selects, possible when only some data meets one.

#include <cuda_runtime.h>

// Bins zeroed by the first 64 threads, then every thread adds its value's
// bin with no barrier between: thread 64's atomic hits a bin another thread
// zeroes, whatever the data.
__global__ void zeroThenAddEveryThread(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  atomicAdd(&counts[in[t] % 64], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] % 64' == 0; another thread touches every element 'in[t] % 64' can select, so the race happens whatever the data, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:13: warning: write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:13: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] % 64' == 0; another thread touches every element 'in[t] % 64' can select, so the race happens whatever the data, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:3: note: a barrier is missing before this statement
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// The same with a mask.
__global__ void zeroThenAddMasked(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  atomicAdd(&counts[in[t] & 63], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] & 63' == 0; another thread touches every element 'in[t] & 63' can select, so the race happens whatever the data, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:13: warning: write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:13: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] & 63' == 0; another thread touches every element 'in[t] & 63' can select, so the race happens whatever the data, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:3: note: a barrier is missing before this statement
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// The flush reads the bins with no barrier after the atomics.
__global__ void flushWithoutBarrier(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  __syncthreads();
  atomicAdd(&counts[in[t] % 64], 1u);
  if (t < 64)
    out[t] = counts[t];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 'counts': no barrier orders this read after another thread's atomic update [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:13: note: the other thread's atomic update is here
  // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, thread (0,0,0) reads 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] % 64' == 0; another thread touches every element 'in[t] % 64' can select, so the race happens whatever the data, with blockDim (256,1,1)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:14: warning: read after write race on shared 'counts': no barrier orders this read after another thread's atomic update [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:13: note: the other thread's atomic update is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-6]]:14: note: for example, thread (0,0,0) reads 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] % 64' == 0; another thread touches every element 'in[t] % 64' can select, so the race happens whatever the data, with blockDim (256,1,1)
}

// The generator's histogram: the loop over the input runs in threads below
// n only. For n <= 64 the adding threads are the zeroing ones and data that
// sends each to its own bin does not race: possible, not certain.
__global__ void gridStrideAfterZero(const unsigned *in, unsigned *out, int n) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  for (int i = t; i < n; i += blockDim.x)
    atomicAdd(&counts[in[i] % 64], 1u);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:15: warning: possible write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:15: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[i] % 64' == 0, when 'n' = 100, with blockDim (256,1,1)
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// Only half the bins zeroed: data that avoids them does not race.
__global__ void halfZeroed(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 32)
    counts[t] = 0;
  atomicAdd(&counts[in[t] % 64], 1u);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:13: warning: possible write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:13: note: for example, thread (1,0,0) writes 'counts[1]' and thread (0,0,0)'s atomic hits it for data with 'in[t] % 64' == 1, with blockDim (256,1,1)
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// The correct histogram: silent.
__global__ void histogram(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  __syncthreads();
  atomicAdd(&counts[in[t] % 64], 1u);
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// A signed index may be negative: not judged.
__global__ void signedIndex(const int *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  atomicAdd(&counts[in[t] % 64], 1u);
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// One warp: each adding thread zeroes a bin itself, and data that sends
// each to its own bin does not race.
__global__ void oneWarp(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[32];
  int t = threadIdx.x;
  counts[t] = 0;
  atomicAdd(&counts[in[t] % 32], 1u);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:13: warning: possible write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:13: note: for example, thread (1,0,0) writes 'counts[1]' and thread (0,0,0)'s atomic hits it for data with 'in[t] % 32' == 1, with blockDim (32,1,1)
  __syncthreads();
  out[t] = counts[t];
}

void launch(const unsigned *in, const int *signedIn, unsigned *out, int n) {
  zeroThenAddEveryThread<<<1, 256>>>(in, out);
  zeroThenAddMasked<<<1, 256>>>(in, out);
  flushWithoutBarrier<<<1, 256>>>(in, out);
  gridStrideAfterZero<<<1, 256>>>(in, out, n);
  halfZeroed<<<1, 256>>>(in, out);
  histogram<<<1, 256>>>(in, out);
  signedIndex<<<1, 256>>>(signedIn, out);
  oneWarp<<<1, 32>>>(in, out);
}


// --- No launch: the block shape is assumed -----------------------------------

// 64 threads from the extents of 'counts': each adding thread zeroes a bin.
__global__ void assumedFromExtents(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  counts[t] = 0;
  atomicAdd(&counts[in[t] % 64], 1u);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:13: warning: possible write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:13: note: for example, thread (1,0,0) writes 'counts[1]' and thread (0,0,0)'s atomic hits it for data with 'in[t] % 64' == 1, with blockDim (64,1,1) (assumed from the extents of 'counts': no launch of this kernel was found)
  __syncthreads();
  out[t] = counts[t];
}

__global__ void assumedShapeGuardedZeroing(const unsigned *in, unsigned *out) {
  __shared__ unsigned counts[64];
  int t = threadIdx.x;
  if (t < 64)
    counts[t] = 0;
  atomicAdd(&counts[in[t] % 64], 1u);
  // CHECK-NOTES: :[[@LINE-1]]:13: warning: write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] % 64' == 0; another thread touches every element 'in[t] % 64' can select, so the race happens whatever the data, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES-POSSIBLE: :[[@LINE-5]]:13: warning: write after write race on shared 'counts': no barrier orders this atomic update after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:5: note: the other thread's write is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-7]]:13: note: for example, thread (0,0,0) writes 'counts[0]' and thread (64,0,0)'s atomic hits it for data with 'in[t] % 64' == 0; another thread touches every element 'in[t] % 64' can select, so the race happens whatever the data, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES-POSSIBLE: :[[@LINE-8]]:3: note: a barrier is missing before this statement
  __syncthreads();
  if (t < 64)
    out[t] = counts[t];
}

// --- Loops on both sides and the block index ---------------------------------

// The flush reads the bins in a loop with no barrier after the grid-stride
// atomics: possible (for n <= 32 the adding threads are the reading ones).
__global__ void gridStrideThenFlushLoop(const unsigned *in, unsigned *out,
                                        int n) {
  __shared__ unsigned counts[32];
  int t = threadIdx.x;
  for (int b = t; b < 32; b += blockDim.x)
    counts[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&counts[in[i] % 32], 1u);
  for (int b = t; b < 32; b += blockDim.x)
    atomicAdd(&out[b], counts[b]);
  // CHECK-NOTES-POSSIBLE: :[[@LINE-1]]:24: warning: possible read after write race on shared 'counts': no barrier orders this read after another thread's atomic update [cuda-shared-memory-race]
  // CHECK-NOTES-POSSIBLE: :[[@LINE-4]]:15: note: the other thread's atomic update is here
  // CHECK-NOTES-POSSIBLE: :[[@LINE-3]]:24: note: for example, thread (0,0,0) reads 'counts[0]' and thread (32,0,0)'s atomic hits it for data with 'in[i] % 32' == 0, when 'gridDim.x' = 33, 'n' = 33, with blockDim (256,1,1)
}

void launchGridStride(const unsigned *in, unsigned *out, int n) {
  gridStrideThenFlushLoop<<<4, 256>>>(in, out, n);
}
