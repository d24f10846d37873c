// Kernels with no launch in the file: the shape the kernel's own code is
// written for corrects the assumed one, and every note says which shape was
// used and why.
// RUN: %check_clang_tidy %s cuda-bank-conflict,cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict,cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

#define assert(condition) ((condition) ? (void)0 : __builtin_trap())

#define ROWS 16
#define COLS 8
#define STEPS 10

// 's' is 16 rows of 8 * 10 + 1: thread (x, y) writes row x, columns y,
// y + 8, ... The assumed (16,16,1) would run y + 72 into the next row and
// invent a write-write race; the extents say (16,8,1), where every element
// has one writer.
__global__ void authorsExtents(float *out) {
  __shared__ float s[ROWS][COLS * STEPS + 1];
  for (int k = 0; k < STEPS; ++k)
    s[threadIdx.x][threadIdx.y + COLS * k] = out[k];
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y + 1];
}

// The twin without the barrier: thread (x, y + 1) writes what (x, y) reads.
__global__ void authorsExtentsNoBarrier(float *out) {
  __shared__ float s[ROWS][COLS * STEPS + 1];
  for (int k = 0; k < STEPS; ++k)
    s[threadIdx.x][threadIdx.y + COLS * k] = out[k];
  out[threadIdx.x] = s[threadIdx.x][threadIdx.y + 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (0,1,0) writes 's[0][1]' (with 'k' = 0) and thread (0,0,0) reads it, with blockDim (16,8,1) (assumed from the extents of 's': no launch of this kernel was found)
}

// 'y' holds 1024 floats, eight per thread: at most 128 threads, not the
// assumed 256 (which would put thread 128 past the end and leave the check
// undecided). Each thread reads its neighbour's first float without a
// barrier.
__global__ void eightPerThread(float *out) {
  __shared__ float y[1024];
  for (int k = 0; k < 8; ++k)
    y[threadIdx.x + 128 * k] = out[k];
  out[threadIdx.x] = y[(threadIdx.x + 1) % 128];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'y': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (0,0,0) writes 'y[0]' (with 'k' = 0) and thread (127,0,0) reads it, with blockDim (128,1,1) (assumed from the extents of 'y': no launch of this kernel was found)
}

// The twin with a barrier: silent.
__global__ void eightPerThreadSynced(float *out) {
  __shared__ float y[1024];
  for (int k = 0; k < 8; ++k)
    y[threadIdx.x + 128 * k] = out[k];
  __syncthreads();
  out[threadIdx.x] = y[(threadIdx.x + 1) % 128];
}

// The author asserts 16 threads in x: the column read of the 16-wide tile
// conflicts 8-way (two rows of 16 lanes per warp), where the assumed
// (32,8,1) would read past the tile and say nothing.
__global__ void assertedWidth(float *out) {
  assert(blockDim.x == 16);
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 8-way bank conflict reading 'tile': lanes 0 and 14 both use bank 0 (words 0 and 224) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed from 'assert(blockDim.x == 16)': no launch of this kernel was found; also (16,8,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

// The row read of the same tile is conflict-free: silent.
__global__ void assertedWidthRows(float *out) {
  assert(blockDim.x == 16);
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}
