// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Members of local aggregates, and elements of local arrays at constant
// indices, each have their own dependence: a thread-dependent member does
// not make its uniform neighbours thread-dependent. Each silent kernel has a
// reported twin below it.

#include <cuda_runtime.h>

struct Pair {
  int x;
  int y;
};

struct Tile {
  Pair origin;
  int extent[2];
};

// One member holds the thread, the other the block: a condition on the
// second is uniform.
__global__ void uniformMember(float *a, int k, int h) {
  __shared__ float s[256];
  Pair p;
  p.x = threadIdx.x;
  p.y = blockIdx.y * k;
  if (p.y < h) {
    s[threadIdx.x] = a[p.x];
    __syncthreads();
    a[p.x] = s[threadIdx.x ^ 1];
  }
}

// The condition reads the member that holds the thread.
__global__ void threadMember(float *a, int k, int h) {
  __shared__ float s[256];
  Pair p;
  p.x = threadIdx.x;
  p.y = blockIdx.y * k;
  if (p.x < h) {
    s[threadIdx.x] = a[p.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'p'
    a[p.x] = s[threadIdx.x ^ 1];
  }
  a[blockIdx.x] = 0.0f;
}

// Overwritten with a uniform value, the member is uniform again.
__global__ void memberOverwritten(float *a, int h) {
  __shared__ float s[256];
  Pair p;
  p.x = threadIdx.x;
  p.y = threadIdx.x;
  p.y = blockIdx.x;
  if (p.y < h) {
    s[threadIdx.x] = a[p.x];
    __syncthreads();
  }
  a[p.x] = s[threadIdx.x ^ 1];
}

// Whole-object initialisation from the thread index covers every member.
__global__ void wholeInitialised(float *a, int h) {
  __shared__ float s[256];
  Pair p = {int(threadIdx.x), int(blockIdx.x)};
  if (p.y < h) {
    s[threadIdx.x] = a[p.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'p'
  }
  a[p.x] = s[threadIdx.x ^ 1];
}

// Nested members and array elements at constant indices.
__global__ void nestedParts(float *a, int h) {
  __shared__ float s[256];
  Tile t;
  t.origin.x = threadIdx.x;
  t.origin.y = blockIdx.y;
  t.extent[0] = threadIdx.x;
  t.extent[1] = blockDim.x;
  if (t.origin.y + t.extent[1] < h) {
    s[threadIdx.x] = a[t.origin.x + t.extent[0]];
    __syncthreads();
  }
  a[t.origin.x] = s[threadIdx.x ^ 1];
}

// An element at an index that differs between threads may be any of them.
__global__ void elementAtThreadIndex(float *a, int h) {
  __shared__ float s[256];
  int e[2];
  e[0] = blockIdx.x;
  e[1] = blockIdx.y;
  e[threadIdx.x & 1] = threadIdx.x;
  if (e[1] < h) {
    s[threadIdx.x] = a[e[0]];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'e'
  }
  a[blockIdx.x] = s[threadIdx.x ^ 1];
}

// A member written under a thread-dependent branch differs after the join.
__global__ void memberUnderBranch(float *a, int h) {
  __shared__ float s[256];
  Pair p;
  p.x = threadIdx.x;
  p.y = blockIdx.x;
  if (p.x == 0)
    p.y = h;
  if (p.y < h) {
    s[threadIdx.x] = a[p.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'p'
  }
  a[blockIdx.x] = s[threadIdx.x ^ 1];
}

// A union's members share storage: a store to one changes the other.
union Bits {
  int i;
  float f;
};

__global__ void unionMembers(float *a, int h) {
  __shared__ float s[256];
  Bits b;
  b.i = blockIdx.x;
  b.f = threadIdx.x;
  if (b.i < h) {
    s[threadIdx.x] = a[blockIdx.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'b'
  }
  a[blockIdx.x] = s[threadIdx.x ^ 1];
}

// A pointer to one member reaches the others.
__device__ void storeThread(int *q) { q[1] = threadIdx.x; }

__global__ void memberByPointer(float *a, int h) {
  __shared__ float s[256];
  Pair p;
  p.x = blockIdx.x;
  p.y = blockIdx.y;
  storeThread(&p.x);
  if (p.y < h) {
    s[threadIdx.x] = a[blockIdx.x];
    __syncthreads();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: threads of a block may disagree on this condition: it depends on the value that 'storeThread' stores through 'p'
  }
  a[blockIdx.x] = s[threadIdx.x ^ 1];
}

// A reference to one member: the callee writes that member only.
__device__ void setToThread(int &q) { q = threadIdx.x; }

__global__ void memberByReference(float *a, int h) {
  __shared__ float s[256];
  Pair p;
  p.x = blockIdx.x;
  p.y = blockIdx.y;
  setToThread(p.x);
  if (p.y < h) {
    s[threadIdx.x] = a[p.x];
    __syncthreads();
  }
  a[blockIdx.x] = s[threadIdx.x ^ 1];
}
