// kernel-launched-from-another-file, bad: a kernel written for blocks of one
// warp rotates its block's slice through shared memory with only a
// __syncwarp() between the store and the load. This file holds no launch:
// Inputs/bad-main.cu launches it with blocks of 256 threads, where thread 31
// reads what thread 32, in the next warp, writes, with nothing ordering
// them. The check sees the shape through the compile database (cuda-tidy -p
// over both files) and reports the read (issue 9, example 5).
//
// RUNTIME: tool=racecheck expect=fault
// SOURCES: Inputs/bad-main.cu
// REQUIRES: cuda-toolkit
// RUN: %cuda_tidy_program %s cuda-shared-memory-race

// out[i] = in[i + 1] within each block's slice, the last element taking the
// slice's first.
__global__ void rotateSlice(const float *in, float *out) {
  __shared__ float s[1024];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  s[t] = in[i];
  __syncwarp(); // Orders the block's accesses only when it is one warp.
  out[i] = s[(t + 1) % blockDim.x];
  // CHECK-MESSAGES: :[[@LINE-1]]:{{[0-9]+}}: warning: {{.*}} [cuda-shared-memory-race]
}
