// Block arguments the shape reader must not take at their initialiser: a
// variable that initialises itself ('dim3 b(b)', which once sent the reader
// into endless recursion), a dim3 set member by member after its (1,1,1)
// construction, and a parameter whose default says nothing of what callers
// pass. Each reads as an unknown launch: the kernel keeps its assumed shapes,
// and no launch-dependent verdict is drawn. A dim3 never changed after its
// construction is still read.
// RUN: %check_clang_tidy %s cuda-bank-conflict,cuda-dynamic-shared-bounds,cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict,cuda-dynamic-shared-bounds,cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

__global__ void transposeSelf(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: the block of the launch at launch-block-arguments.cu{{.*}}:[[@LINE+13]] is not a constant; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

__global__ void poolSelf(float *out) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = pool[threadIdx.x];
}

void launchSelf(float *out, const float *in) {
  dim3 b(b);
  transposeSelf<<<1, b>>>(out, in);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the block of this launch of 'transposeSelf' is not a constant: 'b' is read before it is given a value
  poolSelf<<<1, b, 16>>>(out);
  dim3 c = (dim3(c));
  poolSelf<<<1, (c), 16>>>(out);
}

__global__ void transposeMembers(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: the block of the launch at launch-block-arguments.cu{{.*}}:[[@LINE+8]] is not a constant; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

void launchMembers(float *out, const float *in) {
  dim3 threads;
  threads.x = 32;
  threads.y = 32;
  transposeMembers<<<1, threads>>>(out, in);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the block of this launch of 'transposeMembers' is not a constant: 'threads' is changed in a way that is not followed ('threads.y = 32')
}

__global__ void transposeParameter(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 16-way bank conflict reading 'tile': lanes 0 and 15 both use bank 0 (words 0 and 480) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (16,16,1) (assumed: the block of the launch at launch-block-arguments.cu{{.*}}:[[@LINE+5]] is not a constant; also (32,8,1); also (32,32,1))
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

void launchParameter(float *out, const float *in, dim3 b = dim3(1, 1)) {
  transposeParameter<<<1, b>>>(out, in);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the block of this launch of 'transposeParameter' is not a constant: it comes from parameter 'b' of 'launchParameter'
}

__global__ void transposeUnchanged(float *out, const float *in) {
  __shared__ float tile[32][32];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,4,1)
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-7]]:29: note: pad each row of 'tile' by one element
}

void launchUnchanged(float *out, const float *in) {
  dim3 threads(32, 4);
  const dim3 &view = threads;
  transposeUnchanged<<<1, view>>>(out, in);
}

// Shapes the host code computes: an array of extents never changed after its
// initialiser, a copy, and the value that reaches each launch along its own
// path. With 128 threads the halves of 's' never meet; with 256 they race.
#define HALF 128

__global__ void halvesFromArray(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + HALF];
}

__global__ void halvesFromArrayTwice(float *a) {
  __shared__ float s[512];
  s[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = s[threadIdx.x + HALF];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (128,0,0) writes 's[128]' and thread (0,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

void launchFromArrays(float *a) {
  size_t work[3] = {HALF, 1, 1};
  dim3 block(work[0], work[1], work[2]);
  halvesFromArray<<<1, block>>>(a);
  size_t twice[3] = {2 * HALF, 1, 1};
  const size_t copy = twice[0];
  unsigned threads = copy;
  halvesFromArrayTwice<<<1, threads>>>(a);
}

// Each branch's launch gets the block shape and byte count that reach it:
// the zero-flux launch passes 128 threads and 512 bytes, the other 256
// threads and 512 bytes, which 'pool[threadIdx.x]' overruns.
__global__ void fluxPool(float *a) {
  extern __shared__ float pool[];
  pool[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = pool[threadIdx.x];
}

void launchFlux(float *a, bool zeroflux) {
  size_t bytes;
  unsigned threads = 64;
  if (zeroflux) {
    bytes = HALF * sizeof(float);
    threads = HALF;
    fluxPool<<<1, threads, bytes>>>(a);
  } else {
    bytes = 2 * HALF;
    threads = 2 * HALF;
    fluxPool<<<1, threads, 2 * bytes>>>(a);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: launch of 'fluxPool' passes 512 bytes of dynamic shared memory, but 'fluxPool' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
    // CHECK-NOTES: :[[@LINE-17]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  }
}
