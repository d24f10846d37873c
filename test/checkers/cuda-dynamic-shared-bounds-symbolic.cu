// Symbolic launch sizes (issue 9): extents that are host values, with a byte
// count over them. The samples of bx and by include the degenerate (1,1),
// where one thread fits any tile; the solver (ExactQuery.h) decides for
// generic extents (2 and more, at a point no extent is isolated at) and
// gives the witness.
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-device-only --cuda-gpu-arch=sm_90 -std=c++17
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-host-only --cuda-gpu-arch=sm_90 -std=c++17

#include <cuda_runtime.h>

// A tile padded by one element a row: (blockDim.x + 1) * blockDim.y floats.
__global__ void paddedTile(float *out) {
  extern __shared__ float s[];
  int tx = threadIdx.x, ty = threadIdx.y;
  s[ty * (blockDim.x + 1) + tx] = out[ty * blockDim.x + tx];
}

// In bounds for every shape: the furthest index is (by - 1) * (bx + 1) +
// bx - 1, one short of the count. Silent.
void launchPadded(float *out, int bx, int by) {
  dim3 block(bx, by);
  paddedTile<<<1, block, (bx + 1) * by * sizeof(float)>>>(out);
}

// The twin: the count forgets the padding. Over by by - 1 floats: only the
// degenerate by = 1 fits, which a sample hits; generic extents overflow.
void launchUnpadded(float *out, int bx, int by) {
  dim3 block(bx, by);
  paddedTile<<<1, block, bx * by * sizeof(float)>>>(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'paddedTile' passes 16 bytes of dynamic shared memory, but 'paddedTile' reaches 20 bytes of it (when 'bx' is 2, 'by' is 2; too few for every block extent of 2 or more, by the solver) [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :15:3: note: thread (1,1,0) of a (2,2,1) block accesses bytes 16 to 19 of the pool here
}

// A constant extent and a symbolic one: silent when the count is right.
void launchRows(float *out, int by) {
  paddedTile<<<1, dim3(32, by), 33 * by * sizeof(float)>>>(out);
}

// The twin: one row short, for every value: the samples suffice (no
// solver), with the largest as the witness.
void launchRowsShort(float *out, int by) {
  paddedTile<<<1, dim3(32, by), 33 * (by - 1) * sizeof(float)>>>(out);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: launch of 'paddedTile' passes 4092 bytes of dynamic shared memory, but 'paddedTile' reaches 4220 bytes of it (when 'by' is 32; too few for every value tried) [cuda-dynamic-shared-bounds]
  // CHECK-NOTES: :15:3: note: thread (31,31,0) of a (32,32,1) block accesses bytes 4216 to 4219 of the pool here
}
