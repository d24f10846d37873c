// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// --- Straight-line code ------------------------------------------------------

__global__ void reverseWithoutBarrier(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[t];
  a[t] = s[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: for example, thread (255,0,0) writes 's[255]' and thread (0,0,0) reads it, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-FIXES: {{^}}  s[t] = a[t];{{$}}
  // CHECK-FIXES-NEXT: {{^}}  __syncthreads();{{$}}
  // CHECK-FIXES-NEXT: {{^}}  a[t] = s[255 - t];{{$}}
}

__global__ void reverseWithBarrier(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[t];
  __syncthreads();
  a[t] = s[255 - t];
}

__global__ void ownElement(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[t];
  a[t] = s[t] * 2.0f;
}

__global__ void shiftLeftInPlace(float *a) {
  __shared__ float s[257];
  int t = threadIdx.x;
  float next = s[t + 1];
  s[t] = next;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after read race on shared 's': no barrier orders this write after another thread's read [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:16: note: the other thread's read is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (0,0,0) reads 's[1]' and thread (1,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void everyThreadWritesOneScalar(const float *a) {
  __shared__ float s;
  s = a[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 's': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) writes 's' and thread (0,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

// Every thread stores the same element of the same array: one value.
__global__ void everyThreadWritesOneScalarTheSameValue(const float *a) {
  __shared__ float s;
  s = a[0];
}

__global__ void everyThreadUpdatesOneElement(float *a) {
  __shared__ float s[4];
  s[0] += a[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 's': no barrier orders this update after another thread's update [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the other thread's update is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (1,0,0) updates 's[0]' and thread (0,0,0) updates it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

__global__ void differentArrays(float *a) {
  __shared__ float x[256], y[256];
  x[threadIdx.x] = a[threadIdx.x];
  a[threadIdx.x] = y[255 - threadIdx.x];
}

__global__ void readsOnly(const float *a, float *out) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = s[0] + s[255 - threadIdx.x];
}

// --- One producer ------------------------------------------------------------

__global__ void producerWithoutBarrier(float *a) {
  __shared__ float v;
  if (threadIdx.x == 0)
    v = a[0];
  a[threadIdx.x + 1] = v;
  // CHECK-NOTES: :[[@LINE-1]]:24: warning: read after write race on shared 'v': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:24: note: for example, thread (0,0,0) writes 'v' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void producerWithBarrier(float *a) {
  __shared__ float v;
  if (threadIdx.x == 0)
    v = a[0];
  __syncthreads();
  a[threadIdx.x + 1] = v;
}

__global__ void producerReadsItsOwnValue(float *a) {
  __shared__ float v;
  if (threadIdx.x == 0) {
    v = a[0];
    a[1] = v;
  }
}

struct Header {
  int count;
  float scale;
};

__global__ void structMemberPublished(float *a) {
  __shared__ Header h;
  if (threadIdx.x == 0)
    h.scale = a[0];
  a[threadIdx.x] *= h.scale;
  // CHECK-NOTES: :[[@LINE-1]]:21: warning: read after write race on shared 'h': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:21: note: for example, thread (0,0,0) writes 'h.scale' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void structMembersApart(float *a) {
  __shared__ Header h;
  if (threadIdx.x == 0)
    h.count = 1;
  if (threadIdx.x == 1)
    a[0] = h.scale;
}

// --- Branches ------------------------------------------------------------------

// Threads below 32 all store the same constant: benign among themselves;
// the read on the other side of the branch races with them.
__global__ void twoSidesOfABranch(float *a) {
  __shared__ float s[1];
  if (threadIdx.x < 32)
    s[0] = 1.0f;
  else
    a[threadIdx.x] = s[0];
    // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-4]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (0,0,0) writes 's[0]' and thread (32,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

__global__ void guardKeepsThreadsApart(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t < 128)
    s[t + 128] = s[t];
}

__global__ void evenThreadsCompact(float *a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  if (t % 2 == 0)
    s[t / 2] = a[t];
  a[t] = s[t];
  // CHECK-NOTES: :[[@LINE-1]]:10: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:10: note: for example, thread (2,0,0) writes 's[1]' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void unknownIndex(const int *idx, float *a) {
  __shared__ float s[256];
  s[idx[threadIdx.x]] = 1.0f;
  a[threadIdx.x] = s[threadIdx.x];
}

// --- Reductions -------------------------------------------------------------

__global__ void treeReduction(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void treeReductionWithoutBarrier(float *out, const float *in) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'sdata': no barrier orders this update after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:21: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (0,0,0) reads 'sdata[64]' (with 's' = 64) and thread (64,0,0) updates it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

template <unsigned BlockSize>
__global__ void templatedReduction(float *out, const float *in) {
  __shared__ float sdata[BlockSize];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  for (unsigned s = BlockSize / 2; s > 0; s >>= 1) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
      // CHECK-NOTES: :[[@LINE-1]]:21: warning: read after write race on shared 'sdata': no barrier orders this read after another thread's write [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-5]]:3: note: the other thread's write is here
      // CHECK-NOTES: :[[@LINE-3]]:21: note: for example, thread (64,0,0) writes 'sdata[64]' and thread (0,0,0) reads it (with 's' = 64), with blockDim (128,1,1)
    __syncthreads();
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void legacyWarpSynchronous(float *out, const float *in) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    volatile float *vs = sdata;
    vs[tid] += vs[tid + 32];
    vs[tid] += vs[tid + 16];
    // CHECK-NOTES: :[[@LINE-1]]:16: warning: warp-synchronous read after write on shared 'sdata' relies on the lanes of a warp running in lockstep, which sm_70 and later do not guarantee [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's update is here
    // CHECK-NOTES: :[[@LINE-3]]:16: note: for example, thread (16,0,0) updates 'sdata[16]' and thread (0,0,0) reads it, with blockDim (64,1,1)
    // CHECK-NOTES: :[[@LINE-4]]:16: note: order the lanes with '__syncwarp()' between the accesses
  }
  if (tid == 0)
    out[blockIdx.x] = sdata[0];
}

__global__ void warpReductionWithSyncwarp(float *out, const float *in) {
  __shared__ float sdata[64];
  unsigned tid = threadIdx.x;
  sdata[tid] = in[tid];
  __syncthreads();
  if (tid < 32) {
    float v = sdata[tid] + sdata[tid + 32];
    __syncwarp();
    sdata[tid] = v;
    __syncwarp();
    v += sdata[tid + 16];
    __syncwarp();
    sdata[tid] = v;
  }
}

__global__ void syncwarpDoesNotOrderWarps(float *a) {
  __shared__ float s[64];
  s[threadIdx.x] = a[threadIdx.x];
  __syncwarp();
  a[threadIdx.x] = s[63 - threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (63,0,0) writes 's[63]' and thread (0,0,0) reads it, with blockDim (64,1,1)
}

__global__ void shuffleReduction(float *out, const float *in) {
  __shared__ float warpSums[8];
  float v = in[threadIdx.x];
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_down_sync(0xffffffff, v, offset);
  if (threadIdx.x % 32 == 0)
    warpSums[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    float total = 0.0f;
    for (int i = 0; i < 8; ++i)
      total += warpSums[i];
    out[blockIdx.x] = total;
  }
}

// --- Tiles ----------------------------------------------------------------------

#define TILE 16

__global__ void matrixProduct(const float *A, const float *B, float *C,
                              int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int m = 0; m < n / TILE; ++m) {
    As[ty][tx] = A[row * n + m * TILE + tx];
    Bs[ty][tx] = B[(m * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void matrixProductWithoutFirstBarrier(const float *A,
                                                 const float *B, float *C,
                                                 int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int m = 0; m < n / TILE; ++m) {
    As[ty][tx] = A[row * n + m * TILE + tx];
    Bs[ty][tx] = B[(m * TILE + ty) * n + col];
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
      // CHECK-NOTES: :[[@LINE-1]]:14: warning: read after write race on shared 'As': no barrier orders this read after another thread's write [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-5]]:5: note: the other thread's write is here
      // CHECK-NOTES: :[[@LINE-3]]:14: note: for example, thread (0,0,0) writes 'As[0][0]' and thread (1,0,0) reads it (with 'k' = 0), with blockDim (16,16,1)
      // CHECK-NOTES: :[[@LINE-4]]:26: warning: read after write race on shared 'Bs': no barrier orders this read after another thread's write [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-7]]:5: note: the other thread's write is here
      // CHECK-NOTES: :[[@LINE-6]]:26: note: for example, thread (0,0,0) writes 'Bs[0][0]' and thread (0,1,0) reads it (with 'k' = 0), with blockDim (16,16,1)
    __syncthreads();
  }
  C[row * n + col] = acc;
}

__global__ void matrixProductWithoutSecondBarrier(const float *A,
                                                  const float *B, float *C,
                                                  int n) {
  __shared__ float As[TILE][TILE], Bs[TILE][TILE];
  int tx = threadIdx.x, ty = threadIdx.y;
  int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
  float acc = 0.0f;
  for (int m = 0; m < n / TILE; ++m) {
    As[ty][tx] = A[row * n + m * TILE + tx];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'As': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+5]]:14: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) reads 'As[0][0]' (with 'k' = 0) and thread (0,0,0) writes it one iteration of the enclosing loop later, with blockDim (16,16,1)
    Bs[ty][tx] = B[(m * TILE + ty) * n + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      acc += As[ty][k] * Bs[k][tx];
      // CHECK-NOTES: :[[@LINE-4]]:5: warning: write after read race on shared 'Bs': no barrier orders this write after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:26: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-6]]:5: note: for example, thread (0,1,0) reads 'Bs[0][0]' (with 'k' = 0) and thread (0,0,0) writes it one iteration of the enclosing loop later, with blockDim (16,16,1)
  }
  C[row * n + col] = acc;
}

__global__ void transpose(float *out, const float *in, int w) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transposeWithoutBarrier(float *out, const float *in, int w) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x, y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  x = blockIdx.y * 32 + threadIdx.x;
  y = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
    // CHECK-NOTES: :[[@LINE-1]]:28: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-6]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:28: note: for example, thread (1,0,0) writes 'tile[0][1]' (with 'j' = 0) and thread (0,1,0) reads it (with 'j' = 0), with blockDim (32,8,1)
}

__global__ void stencilWithHalo(float *out, const float *in) {
  __shared__ float s[256 + 2];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + 1;
  s[l] = in[g];
  if (threadIdx.x == 0)
    s[0] = in[g - 1];
  if (threadIdx.x == blockDim.x - 1)
    s[l + 1] = in[g + 1];
  __syncthreads();
  out[g] = s[l - 1] + s[l] + s[l + 1];
}

__global__ void stencilWithoutBarrier(float *out, const float *in) {
  __shared__ float s[256 + 2];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + 1;
  s[l] = in[g];
  if (threadIdx.x == 0)
    s[0] = in[g - 1];
  if (threadIdx.x == blockDim.x - 1)
    s[l + 1] = in[g + 1];
  out[g] = s[l - 1] + s[l] + s[l + 1];
  // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-7]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (0,0,0) writes 's[1]' and thread (1,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
  // CHECK-NOTES: :[[@LINE-5]]:30: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-11]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-7]]:30: note: for example, thread (1,0,0) writes 's[2]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-8]]:3: note: a barrier is missing before this statement
}

// --- Scans ----------------------------------------------------------------------

__global__ void scanInPlace(float *out, const float *in) {
  __shared__ float temp[256];
  int tid = threadIdx.x;
  temp[tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < 256; offset *= 2) {
    if (tid >= offset)
      temp[tid] += temp[tid - offset];
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: write after read race on shared 'temp': no barrier orders this update after another thread's read [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:20: note: the other thread's read is here
      // CHECK-NOTES: :[[@LINE-3]]:7: note: for example, thread (2,0,0) reads 'temp[1]' (with 'offset' = 1) and thread (1,0,0) updates it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
    __syncthreads();
  }
  out[tid] = temp[tid];
}

__global__ void scanInPlaceTwoBarriers(float *out, const float *in) {
  __shared__ float temp[256];
  int tid = threadIdx.x;
  temp[tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < 256; offset *= 2) {
    float t = tid >= offset ? temp[tid - offset] : 0.0f;
    __syncthreads();
    temp[tid] += t;
    __syncthreads();
  }
  out[tid] = temp[tid];
}

__global__ void scanDoubleBuffered(float *out, const float *in) {
  __shared__ float temp[2 * 256];
  int tid = threadIdx.x, n = 256;
  int pout = 0, pin = 1;
  temp[pout * n + tid] = in[tid];
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (tid >= offset)
      temp[pout * n + tid] = temp[pin * n + tid] + temp[pin * n + tid - offset];
    else
      temp[pout * n + tid] = temp[pin * n + tid];
    __syncthreads();
  }
  out[tid] = temp[pout * n + tid];
}

// --- Atomics ----------------------------------------------------------------------

__global__ void histogram(int *out, const int *in) {
  __shared__ int bins[64];
  if (threadIdx.x < 64)
    bins[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&bins[in[threadIdx.x] & 63], 1);
  __syncthreads();
  if (threadIdx.x < 64)
    out[threadIdx.x] = bins[threadIdx.x];
}

__global__ void atomicsOnOneCounter(int *out) {
  __shared__ int count;
  atomicAdd(&count, 1);
  atomicSub(&count, 1);
}

__global__ void atomicAgainstPlainRead(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0)
    count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  out[threadIdx.x] = count;
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'count': no barrier orders this read after another thread's atomic update [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:13: note: the other thread's atomic update is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (1,0,0) atomically updates 'count' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

// --- Dynamic shared memory ----------------------------------------------------------

__global__ void carvedPoolDisjoint(float *out) {
  extern __shared__ float pool[];
  float *a = pool;
  float *b = pool + blockDim.x;
  a[threadIdx.x] = 1.0f;
  b[threadIdx.x] = 2.0f;
  out[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

__global__ void carvedPoolOverlapping(float *out) {
  extern __shared__ float pool[];
  float *a = pool;
  float *b = pool + blockDim.x / 2;
  a[threadIdx.x] = 1.0f;
  out[threadIdx.x] = b[threadIdx.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'pool': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (128,0,0) writes 'pool[128]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__global__ void twoExternDeclarationsAlias(float *out) {
  extern __shared__ float first[];
  extern __shared__ float second[];
  first[threadIdx.x] = 1.0f;
  out[threadIdx.x] = second[threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'first': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (1,0,0) writes 'first[1]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

template <class T> struct SharedMemory {
  __device__ operator T *() {
    extern __shared__ int smem[];
    return (T *)smem;
  }
};

__global__ void sharedMemoryAccessor(float *out) {
  float *s = SharedMemory<float>();
  s[threadIdx.x] = 1.0f;
  out[threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'smem': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (1,0,0) writes 'smem[1]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

// --- Cooperative groups and helpers -------------------------------------------------

__global__ void groupSync(float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[256];
  s[block.thread_rank()] = 1.0f;
  block.sync();
  out[block.thread_rank()] = s[255 - block.thread_rank()];
}

__global__ void groupWithoutSync(float *out) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ float s[256];
  s[block.thread_rank()] = 1.0f;
  out[block.thread_rank()] = s[255 - block.thread_rank()];
  // CHECK-NOTES: :[[@LINE-1]]:30: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:30: note: for example, thread (255,0,0) writes 's[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

__device__ void store(float *p, int i, float v) { p[i] = v; }
__device__ float load(const float *p, int i) { return p[i]; }

__global__ void throughHelpers(float *out) {
  __shared__ float s[256];
  store(s, threadIdx.x, 1.0f);
  out[threadIdx.x] = load(s, 255 - threadIdx.x);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-7]]:55: note: the read is made here, inside 'load'
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is made by this call
  // CHECK-NOTES: :[[@LINE-10]]:51: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-5]]:22: note: for example, thread (255,0,0) writes 's[255]' and thread (0,0,0) reads it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

__global__ void throughHelpersWithBarrier(float *out) {
  __shared__ float s[256];
  store(&s[threadIdx.x], 0, 1.0f);
  __syncthreads();
  out[threadIdx.x] = load(s, 255 - threadIdx.x);
}

// --- Launch shapes ----------------------------------------------------------------

__global__ void tileOwnElement(float *out) {
  __shared__ float tile[16][16];
  tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x];
}

__global__ void neighbourInRow(float *out) {
  __shared__ float tile[16][17];
  tile[threadIdx.y][threadIdx.x] = 1.0f;
  out[threadIdx.x] = tile[threadIdx.y][threadIdx.x + 1];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'tile': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (1,0,0) writes 'tile[0][1]' and thread (0,0,0) reads it, with blockDim (16,16,1)
  // CHECK-NOTES: :[[@LINE-4]]:3: note: a barrier is missing before this statement
}

// --- Loops that start at the thread's index, benign stores, pruned code ----------

__global__ void blockStrideInit(float *out, int n) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    s[i] = 0.0f;
  __syncthreads();
  out[threadIdx.x] = s[1023 - threadIdx.x];
}

__global__ void blockStrideWithoutBarrier(float *out) {
  __shared__ float s[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x)
    s[i] = 1.0f;
  out[threadIdx.x] = s[(threadIdx.x + 1) % 1024];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (1,0,0) writes 's[1]' (in iteration 0 of the loop over 'i') and thread (0,0,0) reads it, with blockDim (256,1,1)
}

__global__ void everyThreadRaisesTheSameFlag(int *out) {
  __shared__ int converged;
  while (true) {
    converged = 1;
    __syncthreads();
    if (out[threadIdx.x] > 0)
      converged = 0;
    __syncthreads();
    if (converged)
      break;
    __syncthreads();
  }
}

template <unsigned BlockSize> __global__ void prunedStage(float *out) {
  __shared__ float sdata[256];
  unsigned tid = threadIdx.x;
  sdata[tid] = out[tid];
  __syncthreads();
  if ((BlockSize >= 256) && (tid < 128))
    sdata[tid] += sdata[tid + 128];
  __syncthreads();
  out[tid] = sdata[tid];
}
template __global__ void prunedStage<128>(float *);
template __global__ void prunedStage<256>(float *);

// --- Warp-uniform stores, and a broadcast overwritten too early ------------------

namespace cg = cooperative_groups;

// Every lane of a warp stores the same reduction result: only the warps
// could race, and each has its own slot.
__global__ void warpSumsWithoutLaneGuard(const float *in, float *out) {
  __shared__ float sums[8];
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float v = in[threadIdx.x];
  float total = cg::reduce(warp, v, cg::plus<float>());
  sums[threadIdx.x / 32] = total;
  __syncthreads();
  total = threadIdx.x < 8 ? sums[threadIdx.x] : 0.0f;
  out[threadIdx.x] = total;
}

// Every thread reads the broadcast maximum, then warp 0 overwrites slot 0
// with its partial sum before the slower warps have read it.
__global__ void broadcastOverwritten(const float *in, float *out) {
  __shared__ float storage[8];
  if (threadIdx.x == 0)
    storage[0] = in[0];
  __syncthreads();
  float offset = storage[0];
  out[threadIdx.x] = in[threadIdx.x] - offset;
  if (threadIdx.x % 32 == 0)
    storage[threadIdx.x / 32] = out[threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'storage': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-5]]:18: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) reads 'storage[0]' and thread (0,0,0) writes it, with blockDim (256,1,1) (assumed: no launch of this kernel was found)
}

void launchAll(float *f, const float *cf, int *i, const int *ci) {
  reverseWithoutBarrier<<<1, 256>>>(f);
  templatedReduction<128><<<1, 128>>>(f, cf);
  tileOwnElement<<<1, dim3(16, 16)>>>(f);
  neighbourInRow<<<1, dim3(16, 16)>>>(f);
  transposeWithoutBarrier<<<dim3(2, 2), dim3(32, 8)>>>(f, cf, 64);
  transpose<<<dim3(2, 2), dim3(32, 8)>>>(f, cf, 64);
  matrixProduct<<<1, dim3(TILE, TILE)>>>(cf, cf, f, 64);
  matrixProductWithoutFirstBarrier<<<1, dim3(TILE, TILE)>>>(cf, cf, f, 64);
  matrixProductWithoutSecondBarrier<<<1, dim3(TILE, TILE)>>>(cf, cf, f, 64);
  legacyWarpSynchronous<<<1, 64>>>(f, cf);
  warpReductionWithSyncwarp<<<1, 64>>>(f, cf);
  syncwarpDoesNotOrderWarps<<<1, 64>>>(f);
  blockStrideInit<<<1, 256>>>(f, 4);
  blockStrideWithoutBarrier<<<1, 256>>>(f);
  everyThreadRaisesTheSameFlag<<<1, 256>>>(i);
  prunedStage<128><<<1, 128>>>(f);
  prunedStage<256><<<1, 256>>>(f);
}
