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
// (32,8,1) would read past the tile and say nothing. 'tile[threadIdx.y]'
// says y is 16 too: (16,8,1) would leave rows 8 to 15 unwritten.
__global__ void assertedWidth(float *out) {
  assert(blockDim.x == 16);
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 8-way bank conflict reading 'tile': lanes 0 and 14 both use bank 0 (words 0 and 224) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed from 'assert(blockDim.x == 16)': no launch of this kernel was found)
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

// The shape of GROMACS's PME gather (pme_gather.cu): z is the atom, x and y
// the ORDER * ORDER threads of one atom, two atoms per warp. The helper
// writes atom a's grid lines from the threads of a's own warp
// ('warp * ATOMS_PER_WARP + threadIdx.z % ATOMS_PER_WARP' is 'threadIdx.z'
// when 16 threads make an atom), so '__syncwarp()' orders the read. The
// assumed (8,8,4) shrunk to '__launch_bounds__' is (4,8,4), where the
// warp is z and the writer of atom 3's lines is in warp 1. The kernel's own
// code says z is 8: 'charges', one per atom, is read at 'threadIdx.z'; with
// the bound that gives (4,4,8), the shape GROMACS launches it with.
#define ORDER 4
#define ATOMS 8
#define ATOMS_PER_WARP (32 / (ORDER * ORDER))

__device__ void gridLines(int *lines, float charge, int shift) {
  const int tid = threadIdx.z * blockDim.x * blockDim.y +
                  threadIdx.y * blockDim.x + threadIdx.x;
  const int warp = tid / 32;
  const int atom = (warp * ATOMS_PER_WARP + threadIdx.z % ATOMS_PER_WARP +
                    shift) % ATOMS;
  const int xy = threadIdx.y * blockDim.x + threadIdx.x;
  if (xy < 3)
    lines[atom * 3 + xy] = (int)charge + xy;
}

__global__ void __launch_bounds__(ORDER * ORDER * ATOMS)
    perAtomGather(const float *in, float *out) {
  __shared__ float charges[ATOMS];
  __shared__ int lines[ATOMS * 3];
  const int atom = threadIdx.z;
  const int tid = threadIdx.z * blockDim.x * blockDim.y +
                  threadIdx.y * blockDim.x + threadIdx.x;
  if (tid < ATOMS)
    charges[tid] = in[blockIdx.x * ATOMS + tid];
  __syncthreads();
  gridLines(lines, charges[atom], 0);
  __syncwarp();
  out[tid] = lines[atom * 3 + 2] + threadIdx.x;
}

// The twin: each warp writes the lines of the atoms two further on, which
// the next warp reads; '__syncwarp()' does not order that.
__global__ void __launch_bounds__(ORDER * ORDER * ATOMS)
    perAtomGatherOtherWarp(const float *in, float *out) {
  __shared__ float charges[ATOMS];
  __shared__ int lines[ATOMS * 3];
  const int atom = threadIdx.z;
  const int tid = threadIdx.z * blockDim.x * blockDim.y +
                  threadIdx.y * blockDim.x + threadIdx.x;
  if (tid < ATOMS)
    charges[tid] = in[blockIdx.x * ATOMS + tid];
  __syncthreads();
  gridLines(lines, charges[atom], 2);
  __syncwarp();
  out[tid] = lines[atom * 3 + 2] + threadIdx.x;
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 'lines': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is made by this call
  // CHECK-NOTES: :[[@LINE-35]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-4]]:14: note: for example, thread (2,0,6) writes 'lines[2]' and thread (0,0,0) reads it, with blockDim (4,4,8) (assumed from 'charges' indexed by 'threadIdx.z' and '__launch_bounds__(128)': no launch of this kernel was found)
}

// With no per-thread array, '__launch_bounds__' alone cuts the assumed
// (8,8,4) to (4,8,4), and the note says so. 'flags' is indexed by
// 'threadIdx.z' only where 'threadIdx.z < 2', which says nothing of
// blockDim.z.
__global__ void __launch_bounds__(128) boundedOnly(const float *in,
                                                   float *out) {
  __shared__ float s[1024];
  __shared__ float flags[8];
  const int tid = threadIdx.z * blockDim.x * blockDim.y +
                  threadIdx.y * blockDim.x + threadIdx.x;
  if (threadIdx.z < 2 && threadIdx.x == 0 && threadIdx.y == 0)
    flags[threadIdx.z] = 1.0f;
  s[tid] = in[tid];
  out[tid] = s[(tid + 1) % 128];
  // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, thread (1,0,0) writes 's[1]' and thread (0,0,0) reads it, with blockDim (4,8,4) (assumed from '__launch_bounds__(128)': no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}
