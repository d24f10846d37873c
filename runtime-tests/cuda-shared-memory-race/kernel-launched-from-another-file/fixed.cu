// kernel-launched-from-another-file, fixed: the same kernel, written for
// blocks of one warp, and Inputs/fixed-main.cu launches it so, eight blocks
// of 32 threads: each block is one warp, and __syncwarp() orders the store
// before the neighbour's load. The check, seeing the launch in the other
// file through the compile database (cuda-tidy -p over both files), is
// silent; alone, with its assumed 256 threads, it would report a race the
// program cannot have (issue 9, example 5).
//
// RUNTIME: tool=racecheck expect=clean
// SOURCES: Inputs/fixed-main.cu
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
}
