// The padding fix-it sits on the note at the declaration: --fix-notes.
// Every degree from 2 up (the default is 4: see the options test).
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- --fix-notes -config="{CheckOptions: {cuda-bank-conflict.MinimumDegree: 2}}" -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-bank-conflict %t -- --fix-notes -config="{CheckOptions: {cuda-bank-conflict.MinimumDegree: 2}}" -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// --- Transposes ---------------------------------------------------------------

__global__ void transposeNaive(float *out, const float *in) {
  __shared__ float tile[32][32];
  // CHECK-FIXES: {{^}}  __shared__ float tile[32][33];{{$}}
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:41: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:41: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-8]]:29: note: pad each row of 'tile' by one element
}

__global__ void transposePadded(float *out, const float *in) {
  __shared__ float tile[32][33];
  tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
  __syncthreads();
  out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

__global__ void transposeSwizzled(float *out, const float *in) {
  __shared__ float tile[32][32];
  int x = threadIdx.x, y = threadIdx.y;
  tile[y][x ^ y] = in[y * 32 + x];
  __syncthreads();
  out[y * 32 + x] = tile[x][y ^ x];
}

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transposeTiledRows(float *out, const float *in, int w) {
  __shared__ float tile[TILE_DIM][TILE_DIM];
  // CHECK-FIXES: {{^}}  __shared__ float tile[TILE_DIM][TILE_DIM + 1];{{$}}
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
    // CHECK-NOTES: :[[@LINE-1]]:28: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
    // CHECK-NOTES: :[[@LINE-2]]:28: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
    // CHECK-NOTES: :[[@LINE-13]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
    // CHECK-NOTES: :[[@LINE-14]]:35: note: pad each row of 'tile' by one element
}

__global__ void transposeTiledRowsPadded(float *out, const float *in, int w) {
  __shared__ float tile[TILE_DIM][TILE_DIM + 1];
  int x = blockIdx.x * TILE_DIM + threadIdx.x;
  int y = blockIdx.y * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE_DIM + threadIdx.x;
  y = blockIdx.x * TILE_DIM + threadIdx.y;
  for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
    out[(y + j) * w + x] = tile[threadIdx.x][threadIdx.y + j];
}

// --- Other widths and element sizes ---------------------------------------------

__global__ void sixteenWide(float *out) {
  __shared__ float t[16][16];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 8-way bank conflict reading 't': lanes 0 and 14 both use bank 0 (words 0 and 224) [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (16,16,1)
  // CHECK-NOTES: :[[@LINE-6]]:20: note: 't' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

__global__ void sixtyFourWide(float *out) {
  __shared__ float t[32][64];
  t[threadIdx.x][threadIdx.y] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 32-way bank conflict writing 't': consecutive lanes are 64 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 't' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-5]]:26: note: pad each row of 't' by one element
}

__global__ void sixtyFourWideByRow(float *out) {
  __shared__ float t[8][64];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  t[threadIdx.y][threadIdx.x + 32] = 2.0f;
}

__global__ void doubleColumn(double *out) {
  __shared__ double t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 16-way bank conflict reading 't': consecutive lanes are 64 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 2 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-6]]:21: note: 't' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-7]]:27: note: pad each row of 't' by one element
}

__global__ void doubleRow(double *out) {
  __shared__ double t[8][32];
  t[threadIdx.y][threadIdx.x] = 1.0;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}

__global__ void float4Column(float4 *out) {
  __shared__ float4 t[32][32];
  t[threadIdx.y][threadIdx.x] = out[0];
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.x][threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 8-way bank conflict reading 't': consecutive lanes are 128 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 4 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-6]]:21: note: 't' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-7]]:27: note: pad each row of 't' by one element
}

__global__ void float2Row(float2 *out) {
  __shared__ float2 t[8][32];
  t[threadIdx.y][threadIdx.x] = out[0];
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][threadIdx.x];
}

__global__ void charColumn(char *out) {
  __shared__ char t[32][32];
  t[threadIdx.x][threadIdx.y] = 1;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 8-way bank conflict writing 't': consecutive lanes are 8 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 8.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-4]]:19: note: 't' is declared here; pad each row by one element, or swizzle the column index with the row (for example 'col ^ row')
}

__global__ void charRow(char *out) {
  __shared__ char t[8][32];
  t[threadIdx.y][threadIdx.x] = 1;
}

struct Particle {
  float x, y, z, w;
};

__global__ void structMember(float *out) {
  __shared__ Particle p[256];
  out[threadIdx.x] = p[threadIdx.x].x;
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 4-way bank conflict reading 'p': consecutive lanes are 4 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 4.0 wavefronts per request where 1 would do, with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:23: note: 'p' is declared here
}

// --- Broadcasts and strides -------------------------------------------------------

__global__ void broadcastRow(float *out) {
  __shared__ float t[32][32];
  t[threadIdx.y][threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = t[threadIdx.y][0];
}

__global__ void everyLaneOneWord(float *out) {
  __shared__ float s[32];
  out[threadIdx.x] = s[0];
}

__global__ void strideTwo(float *out) {
  __shared__ float s[64];
  s[threadIdx.x * 2] = 1.0f;
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 2-way bank conflict writing 's': consecutive lanes are 2 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 2.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:20: note: 's' is declared here
}

__global__ void strideThree(float *out) {
  __shared__ float s[96];
  s[threadIdx.x * 3] = 1.0f;
}

__global__ void halfWarpActive(float *out) {
  __shared__ float t[32][32];
  if (threadIdx.x < 16)
    out[threadIdx.x] = t[threadIdx.x][0];
    // CHECK-NOTES: :[[@LINE-1]]:24: warning: 16-way bank conflict reading 't': consecutive lanes are 32 words apart [cuda-bank-conflict]
    // CHECK-NOTES: :[[@LINE-2]]:24: note: predicted 16.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
    // CHECK-NOTES: :[[@LINE-5]]:20: note: 't' is declared here; padding each row by one element makes its accesses conflict-free
    // CHECK-NOTES: :[[@LINE-6]]:26: note: pad each row of 't' by one element
}

// --- Matrix-product tiles -----------------------------------------------------------

template <int Block>
__global__ void matrixProduct(const float *A, const float *B, float *C, int n) {
  __shared__ float As[Block][Block], Bs[Block][Block];
  int tx = threadIdx.x, ty = threadIdx.y;
  float acc = 0.0f;
  for (int m = 0; m < n / Block; ++m) {
    As[ty][tx] = A[ty * n + m * Block + tx];
    Bs[ty][tx] = B[(m * Block + ty) * n + tx];
    __syncthreads();
    for (int k = 0; k < Block; ++k)
      acc += As[ty][k] * Bs[k][tx];
    __syncthreads();
  }
  C[ty * n + tx] = acc;
}
template __global__ void matrixProduct<16>(const float *, const float *,
                                           float *, int);

__global__ void matrixProductTransposedLoad(const float *A, float *C, int n) {
  __shared__ float As[32][32];
  int tx = threadIdx.x, ty = threadIdx.y;
  As[tx][ty] = A[ty * n + tx];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 32-way bank conflict writing 'As': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 'As' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-6]]:27: note: pad each row of 'As' by one element
  __syncthreads();
  C[ty * n + tx] = As[ty][tx];
}

// --- Dynamic pools indexed by hand ------------------------------------------------------

__global__ void poolColumn(float *out) {
  extern __shared__ float s[];
  s[threadIdx.y * 32 + threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 32 + threadIdx.y];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 's': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-6]]:27: note: 's' is declared here; index it so that consecutive lanes use different banks: pad each row of a tile by one element, swizzle, or address sequentially
}

__global__ void poolColumnPadded(float *out) {
  extern __shared__ float s[];
  s[threadIdx.y * 33 + threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x * 33 + threadIdx.y];
}

__device__ float readColumn(const float *tile, int lane) {
  return tile[lane * 32];
}

__global__ void throughHelper(float *out) {
  __shared__ float t[32 * 32];
  out[threadIdx.x] = readColumn(t, threadIdx.x);
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: 32-way bank conflict reading 't': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-7]]:10: note: the access is here, inside 'readColumn'
  // CHECK-NOTES: :[[@LINE-3]]:22: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES: :[[@LINE-5]]:20: note: 't' is declared here
}

void launchAll(float *f, double *d, float4 *f4, float2 *f2, char *c) {
  dim3 rows(32, 8);
  transposeNaive<<<1, rows>>>(f, f);
  transposePadded<<<1, rows>>>(f, f);
  transposeSwizzled<<<1, rows>>>(f, f);
  transposeTiledRows<<<dim3(4, 4), dim3(TILE_DIM, BLOCK_ROWS)>>>(f, f, 128);
  transposeTiledRowsPadded<<<dim3(4, 4), dim3(TILE_DIM, BLOCK_ROWS)>>>(f, f, 128);
  sixteenWide<<<1, dim3(16, 16)>>>(f);
  sixtyFourWide<<<1, dim3(32, 8)>>>(f);
  sixtyFourWideByRow<<<1, dim3(32, 8)>>>(f);
  doubleColumn<<<1, rows>>>(d);
  doubleRow<<<1, rows>>>(d);
  float4Column<<<1, rows>>>(f4);
  float2Row<<<1, rows>>>(f2);
  charColumn<<<1, rows>>>(c);
  charRow<<<1, rows>>>(c);
  structMember<<<1, 256>>>(f);
  broadcastRow<<<1, rows>>>(f);
  everyLaneOneWord<<<1, 32>>>(f);
  strideTwo<<<1, 32>>>(f);
  strideThree<<<1, 32>>>(f);
  halfWarpActive<<<1, 32>>>(f);
  matrixProduct<16><<<1, dim3(16, 16)>>>(f, f, f, 64);
  matrixProductTransposedLoad<<<1, rows>>>(f, f, 32);
  poolColumn<<<1, rows, 32 * 32 * sizeof(float)>>>(f);
  poolColumnPadded<<<1, rows, 32 * 33 * sizeof(float)>>>(f);
  throughHelper<<<1, 32>>>(f);
}

// Guards that mention the block index decide which lanes run, not where they
// go: the tiled transpose's bounds test and an early return leave the
// unpadded tile's column access 32-way for every generic size.
__global__ void transposeBoundsGuarded(float *odata, const float *idata,
                                       int width, int height) {
  __shared__ float tile[32][32];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  int outX = blockIdx.y * 32 + threadIdx.x;
  int outY = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (outX < height && outY + j < width)
      odata[(outY + j) * height + outX] = tile[threadIdx.x][threadIdx.y + j];
  // CHECK-NOTES: :[[@LINE-1]]:43: warning: 32-way bank conflict reading 'tile': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:43: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,8,1)
  // CHECK-NOTES: :[[@LINE-14]]:20: note: 'tile' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-15]]:29: note: pad each row of 'tile' by one element
}

// The padded twin: silent.
__global__ void transposeBoundsGuardedPadded(float *odata, const float *idata,
                                             int width, int height) {
  __shared__ float tile[32][33];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (x < width && y + j < height)
      tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
  __syncthreads();
  int outX = blockIdx.y * 32 + threadIdx.x;
  int outY = blockIdx.x * 32 + threadIdx.y;
  for (int j = 0; j < 32; j += 8)
    if (outX < height && outY + j < width)
      odata[(outY + j) * height + outX] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void earlyReturnColumn(float *out, int n) {
  __shared__ float s[32][32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[threadIdx.x][0] = out[i];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: 32-way bank conflict writing 's': consecutive lanes are 32 words apart [cuda-bank-conflict]
  // CHECK-NOTES: :[[@LINE-2]]:3: note: predicted 32.0 wavefronts per request where 1 would do, with blockDim (32,1,1)
  // CHECK-NOTES: :[[@LINE-7]]:20: note: 's' is declared here; padding each row by one element makes its accesses conflict-free
  // CHECK-NOTES: :[[@LINE-8]]:26: note: pad each row of 's' by one element
  __syncthreads();
  out[i] = s[0][threadIdx.x];
}

// The row-wise twin: silent.
__global__ void earlyReturnRow(float *out, int n) {
  __shared__ float s[32][32];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  s[0][threadIdx.x] = out[i];
  __syncthreads();
  out[i] = s[threadIdx.x][threadIdx.x];
}

void launchGuarded(float *o, const float *in, int w, int h) {
  transposeBoundsGuarded<<<dim3(w / 32, h / 32), dim3(32, 8)>>>(o, in, w, h);
  transposeBoundsGuardedPadded<<<dim3(w / 32, h / 32), dim3(32, 8)>>>(o, in, w, h);
  earlyReturnColumn<<<4, 32>>>(o, w);
  earlyReturnRow<<<4, 32>>>(o, w);
}

// An asynchronous copy's stores are the copy unit's, not a warp's requests
// to the banks: 16 bytes per lane, lanes 4 words apart, is no conflict, and
// the copies are not judged (the race check reads them). No warning.
#include <cuda_pipeline.h>
__global__ void asyncCopyRows(const float *in, float *out) {
  __shared__ float tile[32 * 4];
  __pipeline_memcpy_async(&tile[threadIdx.x * 4], &in[threadIdx.x * 4], 16);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
