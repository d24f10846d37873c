// Races whose accesses are guarded by a test of read-only input data: one
// value in all of the tested memory makes the test hold, or fail, in every
// thread, so the reproducer fills that buffer with it (fill_value). A bound
// that is no constant gives no value: such a race stays "cannot reproduce".
// (runtime-tests/cuda-shared-memory-race/shared-flag-loop/bad.cu is the
// `k < steps && work[...] > 0` spelling.)
#include <cuda_runtime.h>

// The load on the right and the test negated: `!(7 <= skip[t])` holds when
// every element is 6.
__global__ void negatedSwapped(const int *skip, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (!(7 <= skip[t]))
    s[t] = t;
  out[t] = s[255 - t];
}

// A bare flag: `keep[t]` holds when every element is 1.
__global__ void bareFlag(const unsigned char *keep, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (keep[t])
    s[t] = t;
  out[t] = s[255 - t];
}

// The bound is a parameter: no constant fill.
__global__ void parameterBound(const int *w, int limit, int *out) {
  __shared__ int s[256];
  int t = threadIdx.x;
  if (w[t] > limit)
    s[t] = t;
  out[t] = s[255 - t];
}

void launch(const int *w, const unsigned char *k, int *out, int limit) {
  negatedSwapped<<<1, 256>>>(w, out);
  bareFlag<<<1, 256>>>(k, out);
  parameterBound<<<1, 256>>>(w, limit, out);
}
