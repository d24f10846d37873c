// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Relations that launches give between a kernel's parameters and the
// launched block: when every launch of the kernel passes, for a parameter,
// the same affine form of the block variable's components and of what it
// passes whole for other parameters (`block.x + 2 * radius` where `r` gets
// `radius`), the parameter is that form of blockDim and the others in the
// question (tilew = blockDim.x + 2 * r), and the note says which launch
// gives it. cuda-samples' postProcessGL was reported for halo rows that
// overlap only when the tile's width is not the block's plus both halos.

#include <cuda_runtime.h>

// A tile with a halo of 'r' on every side, rows of 'width': the interior,
// the left and right columns, the top and bottom rows and the four corners,
// each written by the threads that own them. With width = blockDim.x + 2 * r
// no two regions share a cell: no race.
__global__ void haloTile(float *out, int width, int r) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bw = blockDim.x, bh = blockDim.y;
  tile[(r + ty) * width + r + tx] = out[0];
  if (threadIdx.x < r) {
    tile[(r + ty) * width + tx] = out[1];
    tile[(r + ty) * width + r + bw + tx] = out[2];
  }
  if (threadIdx.y < r) {
    tile[ty * width + r + tx] = out[3];
    tile[(r + bh + ty) * width + r + tx] = out[4];
  }
  if (threadIdx.x < r && threadIdx.y < r) {
    tile[ty * width + tx] = out[5];
    tile[(r + bh + ty) * width + tx] = out[6];
    tile[ty * width + r + bw + tx] = out[7];
    tile[(r + bh + ty) * width + r + bw + tx] = out[8];
  }
  __syncthreads();
  out[ty * bw + tx] = tile[(r + ty) * width + r + tx];
}

void launchTile(dim3 grid, dim3 block, float *out, int radius) {
  haloTile<<<grid, block, 4096>>>(out, block.x + (2 * radius), radius);
}

// The rows of such a tile: the interior and the left and right columns.
// The same launch form with a block of constant shape: silent as well.
__global__ void haloRowsFixed(float *out, int width, int r) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bw = blockDim.x;
  tile[(r + ty) * width + r + tx] = out[0];
  if (threadIdx.x < r) {
    tile[(r + ty) * width + tx] = out[1];
    tile[(r + ty) * width + r + bw + tx] = out[2];
  }
  __syncthreads();
  out[ty * bw + tx] = tile[(r + ty) * width + r + tx];
}

void launchRowsFixed(dim3 grid, float *out, int radius) {
  dim3 block(16, 16);
  haloRowsFixed<<<grid, block, 4096>>>(out, block.x + 2 * radius, radius);
}

// The true twin: rows of blockDim.x + r leave room for one halo only, and a
// row's right column is the next row's left one. The witness keeps the
// relation ('width' = 16 + 'r').
__global__ void haloRowsNarrow(float *out, int width, int r) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bw = blockDim.x;
  tile[(r + ty) * width + r + tx] = out[0];
  if (threadIdx.x < r) {
    tile[(r + ty) * width + tx] = out[1];
    tile[(r + ty) * width + r + bw + tx] = out[2];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'tile': no barrier orders this write after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-3]]:5: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (0,10,0) writes 'tile[216]' and thread (0,9,0) writes it, when 'r' = 2, 'width' = 18 (width = blockDim.x + r from the launch at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+7]]), with blockDim (16,16,1) (assumed: the block of the launch at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+7]] is not a constant)
  }
  __syncthreads();
  out[ty * bw + tx] = tile[(r + ty) * width + r + tx];
}

void launchRowsNarrow(dim3 grid, dim3 block, float *out, int radius) {
  haloRowsNarrow<<<grid, block, 4096>>>(out, block.x + radius, radius);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the block of this launch of 'haloRowsNarrow' is not a constant: it comes from parameter 'block' of 'launchRowsNarrow'
}

// Two launches that disagree: one passes the relation, the other a width
// of its own. No relation holds, 'width' is an unknown of its own, and the
// rows overlap for some values of it, as before.
__global__ void haloRowsEither(float *out, int width, int r) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bw = blockDim.x;
  tile[(r + ty) * width + r + tx] = out[0];
  if (threadIdx.x < r) {
    tile[(r + ty) * width + tx] = out[1];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'tile': no barrier orders this write after another thread's write [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (0,9,0) writes 'tile[3140]' and thread (12,10,0) writes it, when 'r' = 58, 'width' = 46, with blockDim (16,16,1) (assumed: the blocks of the launches at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+9]], cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+10]] are not constants)
    tile[(r + ty) * width + r + bw + tx] = out[2];
  }
  __syncthreads();
  out[ty * bw + tx] = tile[(r + ty) * width + r + tx];
}

void launchRowsEither(dim3 grid, dim3 block, float *out, int radius,
                      int width) {
  haloRowsEither<<<grid, block, 4096>>>(out, block.x + 2 * radius, radius);
  haloRowsEither<<<grid, block, 4096>>>(out, width, radius);
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the block of this launch of 'haloRowsEither' is not a constant: it comes from parameter 'block' of 'launchRowsEither'
  // CHECK-NOTES: :[[@LINE-2]]:3: note: the block of this launch of 'haloRowsEither' is not a constant: it comes from parameter 'block' of 'launchRowsEither'
}

// A relation over the block alone is a constant of each shape the kernel is
// analysed with (here the assumed 16x16): rows of blockDim.x + 1, and a
// thread writes two columns to the right of its own, into the next row's
// first cells for the last threads of a row.
__global__ void rowsOneWider(float *out, int width) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  tile[ty * width + tx] = out[0];
  tile[ty * width + tx + 2] = out[1];
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: write after write race on shared 'tile': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-3]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:3: note: for example, thread (2,1,0) writes 'tile[19]' and thread (0,1,0) writes it, when 'width' = 17 (width = blockDim.x + 1 from the launch at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+4]]), with blockDim (16,16,1) (assumed: the block of the launch at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+4]] is not a constant)
}

void launchOneWider(dim3 grid, dim3 block, float *out) {
  rowsOneWider<<<grid, block, 4096>>>(out, block.x + 1);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the block of this launch of 'rowsOneWider' is not a constant: it comes from parameter 'block' of 'launchOneWider'
}

// The halo columns written mirrored, the row width first and the column
// counted down: the pairs the row lemma keeps apart are answered from the
// rows and the columns alone, here `r + tx` against `r + bw + r - 1 - tx`
// (the minus sign belongs to the column, not to the row). Silent.
__global__ void haloMirrored(float *out, int width, int r) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bw = blockDim.x;
  tile[r + tx + width * (r + ty)] = out[0];
  if (threadIdx.x < r) {
    tile[(r + ty) * width + (r - 1) - tx] = out[1];
    tile[(r + ty) * width + (r + bw + r - 1) - tx] = out[2];
  }
  __syncthreads();
  out[ty * bw + tx] = tile[(r + ty) * width + r + tx];
}

void launchMirrored(dim3 grid, dim3 block, float *out, int radius) {
  haloMirrored<<<grid, block, 4096>>>(out, block.x + 2 * radius, radius);
}

// Its true twin: the right halo mirrored one block too far to the left,
// onto the interior of its own row (thread 0 and thread 15 of a row).
__global__ void haloMirroredInto(float *out, int width, int r) {
  extern __shared__ float tile[];
  int tx = threadIdx.x, ty = threadIdx.y;
  int bw = blockDim.x;
  tile[r + tx + width * (r + ty)] = out[0];
  if (threadIdx.x < r)
    tile[(r + ty) * width + (r + bw - 1) - tx] = out[1];
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after write race on shared 'tile': no barrier orders this write after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-4]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (7,3,0) writes 'tile[9719]' and thread (8,3,0) writes it, when 'r' = 64, 'width' = 144 (width = blockDim.x + 2 * r from the launch at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+6]]), with blockDim (16,16,1) (assumed: the block of the launch at cuda-shared-memory-race-launch-relation.cu{{.*}}:[[@LINE+6]] is not a constant)
  __syncthreads();
  out[ty * bw + tx] = tile[(r + ty) * width + r + tx];
}

void launchMirroredInto(dim3 grid, dim3 block, float *out, int radius) {
  haloMirroredInto<<<grid, block, 4096>>>(out, block.x + 2 * radius, radius);
  // CHECK-NOTES: :[[@LINE-1]]:3: note: the block of this launch of 'haloMirroredInto' is not a constant: it comes from parameter 'block' of 'launchMirroredInto'
}
