// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -config="{CheckOptions: {cuda-shared-memory-race.WorkBudget: 4000000}}" -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -config="{CheckOptions: {cuda-shared-memory-race.WorkBudget: 4000000}}" -- %cuda_stub --cuda-host-only -std=c++17
//
// Tiles of an unknown width d in one dynamic buffer, each row a thread's
// (llm.c's attention_forward_kernel2): `Kj[tx * d + x]` with `x < d`, at a
// base `Bc * d` past the start. The offsets hold products of unknowns
// (`tx * d`, `y * d`) that the solver refutes only at great cost: each
// such question used to run to its resource limit, and the kernel stopped
// at the work budget, not fully analysed. Split into rows of width d
// (RowSplit.h), each pair is decided by a linear pre-query, well within a
// budget of two full questions. The true twins (a column that reaches the
// next row, tiles that share rows) are still reported.

#include "cuda_runtime.h"

// Three tiles of Bc rows of d floats, one row per thread, and a score tile
// of Bc * Bc: as the kernel, with the block of Bc = 32 threads it is
// launched with.
__global__ void tiles(const float *K, const float *V, float *O, int d,
                      int Bc) {
  extern __shared__ float sram[];
  int tx = threadIdx.x;
  int tile = Bc * d;
  float *Qi = sram;
  float *Kj = &sram[tile];
  float *Vj = &sram[tile * 2];
  float *S = &sram[tile * 3];
  for (int x = 0; x < d; x++) {
    Kj[tx * d + x] = K[tx * d + x];
    Vj[tx * d + x] = V[tx * d + x];
    Qi[tx * d + x] = K[tx * d + x];
  }
  __syncthreads();
  for (int y = 0; y < Bc; y++) {
    float sum = 0;
    for (int x = 0; x < d; x++)
      sum += Qi[tx * d + x] * Kj[y * d + x];
    S[Bc * tx + y] = sum;
  }
  for (int x = 0; x < d; x++) {
    float pv = 0;
    for (int y = 0; y < Bc; y++)
      pv += S[Bc * tx + y] * Vj[y * d + x];
    O[tx * d + x] = pv;
  }
}

// The same rows through a helper and a macro.
__device__ float *row(float *tile, int r, int d) { return tile + r * d; }
#define AT(tile, r, c, d) (tile)[(r) * (d) + (c)]

__global__ void tilesHelper(const float *K, float *O, int d, int Bc) {
  extern __shared__ float sram[];
  float *Kj = &sram[Bc * d];
  float *Vj = &sram[2 * Bc * d];
  for (int x = 0; x < d; x++) {
    row(Kj, threadIdx.x, d)[x] = K[x];
    AT(Vj, threadIdx.x, x, d) = K[x];
  }
  float sum = 0;
  for (int x = 0; x < d; x++)
    sum += AT(Vj, threadIdx.x, x, d) + row(Kj, threadIdx.x, d)[x];
  O[threadIdx.x] = sum;
}

// The same with a template's element type: rows of d doubles, so the width
// is 8 * d bytes.
template <typename T>
__global__ void tilesOf(const T *K, T *O, int d, int Bc) {
  extern __shared__ double raw[];
  T *buf = reinterpret_cast<T *>(raw);
  T *Kj = buf + Bc * d;
  T *Vj = buf + 2 * Bc * d;
  for (int x = 0; x < d; x++) {
    Kj[threadIdx.x * d + x] = K[x];
    Vj[threadIdx.x * d + x] = K[x];
  }
  T sum = 0;
  for (int x = 0; x < d; x++)
    sum += Kj[threadIdx.x * d + x] * Vj[threadIdx.x * d + x];
  O[threadIdx.x] = sum;
}

// A column that runs one past the row: thread tx's last store is thread
// tx + 1's first.
__global__ void tilesPastRow(const float *K, float *O, int d, int Bc) {
  extern __shared__ float sram[];
  float *Kj = &sram[Bc * d];
  for (int x = 0; x <= d; x++)
    Kj[threadIdx.x * d + x] = K[x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'sram': no barrier orders this write after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-2]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (1,0,0) writes 'sram[264]' (with 'x' = 0) and thread (0,0,0) writes it (with 'x' = 8), when 'd' = 8, with 'Bc' = 32 as the launch at cuda-shared-memory-race-row-split.cu{{.*}}:{{[0-9]+}} passes, with blockDim (32,1,1)
  O[threadIdx.x] = Kj[threadIdx.x * d];
  // CHECK-NOTES: :[[@LINE-1]]:20: warning: read after write race on shared 'sram': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-6]]:5: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:20: note: for example, thread (18,0,0) writes 'sram[1326]' (with 'x' = 26) and thread (19,0,0) reads it, when 'd' = 26, with 'Bc' = 32 as the launch at cuda-shared-memory-race-row-split.cu{{.*}}:{{[0-9]+}} passes, with blockDim (32,1,1)
}

// Two tiles one row apart: Vj's rows start inside Kj's.
__global__ void tilesOverlap(const float *K, float *O, int d, int Bc) {
  extern __shared__ float sram[];
  float *Kj = &sram[0];
  float *Vj = &sram[d];
  for (int x = 0; x < d; x++) {
    Kj[threadIdx.x * d + x] = K[x];
    O[x] = Vj[threadIdx.x * d + x];
    // CHECK-NOTES: :[[@LINE-1]]:12: warning: read after write race on shared 'sram': no barrier orders this read after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:12: note: for example, thread (15,0,0) writes 'sram[766]' (with 'x' = 1) and thread (14,0,0) reads it (with 'x' = 1), when 'd' = 51, with blockDim (32,1,1)
  }
}

void launch(const float *K, const float *V, float *O, int d) {
  const int Bc = 32;
  size_t bytes = (3 * Bc * d + Bc * Bc) * sizeof(float);
  tiles<<<1, Bc, bytes>>>(K, V, O, d, Bc);
  tilesHelper<<<1, Bc, bytes>>>(K, O, d, Bc);
  tilesPastRow<<<1, Bc, bytes>>>(K, O, d, Bc);
  tilesOf<double><<<1, Bc, 2 * bytes>>>((const double *)K, (double *)O, d, Bc);
  tilesOverlap<<<1, Bc, bytes>>>(K, O, d, Bc);
}
