// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-dynamic-shared-bounds %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Host values by path (issue 22, shape k): a byte count set in the arms of
// one condition and a launch in the arms of the same condition later. Each
// launch gets the value of the arm with the same condition, as long as the
// condition has one value throughout (no side effects; its variables set
// once, by their declaration, or parameters never assigned); a launch on an
// arm a known condition rules out never runs and is no finding.

#include <cuda_runtime.h>

extern __shared__ float pool[];

// Reaches 1024 bytes of the pool in a 256-thread block.
__global__ void fluxOne(float *out) {
  pool[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = pool[255 - threadIdx.x];
}

// Reaches 2048 bytes.
__global__ void fluxTwo(float *out) {
  pool[2 * threadIdx.x + 1] = out[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = pool[2 * (255 - threadIdx.x) + 1];
}

// A flag known at the launch: the else arm never runs.
void constantFlag(float *out) {
  bool zeroflux = true;
  size_t bytes;
  if (zeroflux)
    bytes = 256 * sizeof(float);
  else
    bytes = 128 * sizeof(float);
  for (int it = 0; it < 3; ++it) {
    if (zeroflux)
      fluxOne<<<1, 256, bytes>>>(out);
    else
      fluxTwo<<<1, 256, bytes>>>(out);
  }
}

// The twin with the flag false: the else arm runs with 512 bytes.
void constantFlagFalse(float *out) {
  bool zeroflux = false;
  size_t bytes;
  if (zeroflux)
    bytes = 512 * sizeof(float);
  else
    bytes = 128 * sizeof(float);
  for (int it = 0; it < 3; ++it) {
    if (zeroflux)
      fluxTwo<<<1, 256, bytes>>>(out);
    else
      fluxOne<<<1, 256, bytes>>>(out);
      // CHECK-NOTES: :[[@LINE-1]]:7: warning: launch of 'fluxOne' passes 512 bytes of dynamic shared memory, but 'fluxOne' reaches 1024 bytes of it [cuda-dynamic-shared-bounds]
      // CHECK-NOTES: :[[@LINE-42]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 1020 to 1023 of the pool here
  }
}

// A flag known only at run time: each launch gets its own arm's count.
void runtimeFlag(float *out, int argc) {
  bool zeroflux = argc > 1;
  size_t bytes;
  if (zeroflux)
    bytes = 256 * sizeof(float);
  else
    bytes = 512 * sizeof(float);
  for (int it = 0; it < 3; ++it) {
    if (zeroflux)
      fluxOne<<<1, 256, bytes>>>(out);
    else
      fluxTwo<<<1, 256, bytes>>>(out);
  }
}

// The same with the flag a parameter, the second test negated, and the
// count computed in a helper macro.
#define FLOATS(n) ((n) * sizeof(float))
void parameterFlag(float *out, bool zeroflux) {
  size_t bytes = FLOATS(512);
  if (zeroflux)
    bytes = FLOATS(256);
  if (!zeroflux)
    fluxTwo<<<1, 256, bytes>>>(out);
  else
    fluxOne<<<1, 256, bytes>>>(out);
}

// The nearest true twin: the arms' counts swapped, so the second kernel
// gets the first kernel's smaller count.
void swappedCounts(float *out, int argc) {
  bool zeroflux = argc > 1;
  size_t bytes;
  if (zeroflux)
    bytes = 512 * sizeof(float);
  else
    bytes = 256 * sizeof(float);
  if (zeroflux)
    fluxOne<<<1, 256, bytes>>>(out);
  else
    fluxTwo<<<1, 256, bytes>>>(out);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: launch of 'fluxTwo' passes 1024 bytes of dynamic shared memory, but 'fluxTwo' reaches 2048 bytes of it [cuda-dynamic-shared-bounds]
    // CHECK-NOTES: :[[@LINE-82]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 2044 to 2047 of the pool here
}

// A flag that changes between the two tests is not one value: both counts
// reach the launch, and the smaller one is too few.
void changingFlag(float *out, int argc) {
  bool zeroflux = argc > 1;
  size_t bytes;
  if (zeroflux)
    bytes = 256 * sizeof(float);
  else
    bytes = 512 * sizeof(float);
  zeroflux = !zeroflux;
  if (zeroflux)
    fluxOne<<<1, 256, bytes>>>(out);
  else
    fluxTwo<<<1, 256, bytes>>>(out);
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: launch of 'fluxTwo' passes 1024 bytes of dynamic shared memory, but 'fluxTwo' reaches 2048 bytes of it (when 'bytes' is 1024; too few for every value tried) [cuda-dynamic-shared-bounds]
    // CHECK-NOTES: :[[@LINE-100]]:3: note: thread (255,0,0) of a (256,1,1) block accesses bytes 2044 to 2047 of the pool here
}
