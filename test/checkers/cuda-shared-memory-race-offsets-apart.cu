// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17
//
// Pairs whose offsets alone keep every two threads apart, whatever their
// guards on unknown values say, are decided by enumerating the threads'
// offsets before any solver question (KernelRaceFinder::offsetsApart).
// cuda-samples' bitonic merge (mergeSort/bitonic.cu) is the model: its
// guards `threadIdx.x < lenSrcA` and `< lenSrcB` read shared scalars, but
// `s_key[threadIdx.x]` and `s_key[255 - threadIdx.x]` never meet in a block
// of 128 threads. Each silent kernel sits beside a true twin whose offsets
// do meet, which the solver still reports.

#include "cuda_runtime.h"

__global__ void mergeHalves(const unsigned *a, const unsigned *b,
                            unsigned lenA, unsigned lenB, unsigned *out) {
  __shared__ unsigned s[256];
  if (threadIdx.x < lenA)
    s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < lenB)
    s[255 - threadIdx.x] = b[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 128];
}

__global__ void mergeHalvesOverlap(const unsigned *a, const unsigned *b,
                                   unsigned lenA, unsigned lenB,
                                   unsigned *out) {
  __shared__ unsigned s[256];
  if (threadIdx.x < lenA)
    s[threadIdx.x] = a[threadIdx.x];
  if (threadIdx.x < lenB)
    s[threadIdx.x + 1] = b[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) writes 's[1]' and thread (0,0,0) writes it, when 'lenA' = 2, 'lenB' = 2 (lenB = lenA from the launch at {{.*}}.cu:{{[0-9]+}}), with blockDim (128,1,1)
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + s[threadIdx.x + 128];
}

// A listed loop counter takes each of its values in each access: odd
// elements read, even ones written, never the same element.
__global__ void oddReadsEvenWrites(const unsigned *a, unsigned n,
                                   unsigned *out) {
  __shared__ unsigned s[512];
  unsigned v = 0;
  if (threadIdx.x < n)
    s[2 * threadIdx.x] = a[threadIdx.x];
  for (int k = 1; k < 32; k += 2)
    if (threadIdx.x < n)
      v += s[(2 * threadIdx.x + k) % 256];
  out[threadIdx.x] = v;
}

__global__ void everyOffsetRead(const unsigned *a, unsigned n, unsigned *out) {
  __shared__ unsigned s[512];
  unsigned v = 0;
  if (threadIdx.x < n)
    s[2 * threadIdx.x] = a[threadIdx.x];
  for (int k = 1; k < 32; k += 1)
    if (threadIdx.x < n)
      v += s[(2 * threadIdx.x + k) % 256];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (8,0,0) writes 's[16]' and thread (7,0,0) reads it (with 'k' = 2), when 'n' = 41, with blockDim (128,1,1)
  out[threadIdx.x] = v;
}

// Offsets whose terms leave 32 bits are not enumerated (evaluate32 gives
// no value): the solver, which computes in 32 bits as this `unsigned`
// arithmetic does, decides them. Every thread writes s[0] here.
__global__ void wrapsToOneElement(unsigned n, unsigned *out) {
  __shared__ unsigned s[256];
  if (threadIdx.x < n)
    s[(threadIdx.x * 65536u * 65536u) >> 24] = threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) writes 's[0]' and thread (0,0,0) writes it, when 'n' = 3, with blockDim (128,1,1)
  __syncthreads();
  out[threadIdx.x] = s[0];
}

void launch(const unsigned *a, const unsigned *b, unsigned n, unsigned *o) {
  mergeHalves<<<1, 128>>>(a, b, n, n, o);
  mergeHalvesOverlap<<<1, 128>>>(a, b, n, n, o);
  oddReadsEvenWrites<<<1, 128>>>(a, n, o);
  everyOffsetRead<<<1, 128>>>(a, n, o);
  wrapsToOneElement<<<1, 128>>>(n, o);
}
