// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// A method reads members of the object it is called on one by one, and a
// lambda reads its captures one by one: a condition on members that are the
// same in every thread is uniform although the object also holds the
// thread's own position. Each silent kernel has a reported twin below it.

#include <cuda_runtime.h>

// A threadblock-scoped tile loop in the style of CUTLASS's Mma: each thread
// holds its own offset; the flag and the stage count are the block's.
struct TileLoop {
  int offset;
  int stages;
  bool prologueDone;

  __device__ TileLoop(int threadOffset, int stageCount)
      : offset(threadOffset), stages(stageCount), prologueDone(false) {}

  __device__ void setPrologueDone(bool value) { prologueDone = value; }

  __device__ void operator()(float *s, const float *a, int iterations) {
    if (!prologueDone)
      iterations -= stages;
    for (; iterations > -stages; --iterations) {
      s[offset] = a[offset + iterations];
      __syncthreads();
    }
  }

  // The trip count is the thread's own.
  __device__ void ragged(float *s, const float *a) {
    for (int k = 0; k < offset; ++k) {
      s[offset] = a[k];
      __syncthreads();
    }
  }
};

__global__ void uniformMembers(const float *a, int iterations) {
  __shared__ float s[256];
  TileLoop loop(threadIdx.x, 2);
  loop.setPrologueDone(true);
  loop(s, a, iterations);
}

__global__ void threadMember(const float *a) {
  __shared__ float s[256];
  TileLoop loop(threadIdx.x, 2);
  loop.ragged(s, a);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'ragged' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-19]]:21: note: threads of a block may disagree on this loop condition: it depends on member 'offset' of the object it is called on
  // CHECK-NOTES: :[[@LINE-18]]:7: note: barrier '__syncthreads' is reached here
}

// The flag set from the thread: the prologue runs in some threads only.
__global__ void flagFromThread(const float *a, int iterations) {
  __shared__ float s[256];
  TileLoop loop(threadIdx.x, 2);
  loop.setPrologueDone(threadIdx.x == 0);
  loop(s, a, iterations);
  // CHECK-NOTES: :[[@LINE-1]]:7: warning: call to 'operator()' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-38]]:12: note: threads of a block may disagree on this loop condition: it depends on member 'prologueDone' of the object it is called on
  // CHECK-NOTES: :[[@LINE-37]]:7: note: barrier '__syncthreads' is reached here
}

// The stage count given from the thread.
__global__ void stagesFromThread(const float *a, int iterations) {
  __shared__ float s[256];
  TileLoop loop(blockIdx.x, threadIdx.x & 1);
  loop.setPrologueDone(true);
  loop(s, a, iterations);
  // CHECK-NOTES: :[[@LINE-1]]:7: warning: call to 'operator()' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-49]]:12: note: threads of a block may disagree on this loop condition: it depends on member 'stages' of the object it is called on
  // CHECK-NOTES: :[[@LINE-48]]:7: note: barrier '__syncthreads' is reached here
}

// A lambda called where it is written, as CUTLASS's DISPATCH_BOOL does:
// its condition reads only the captures that are uniform.
__global__ void lambdaCaptures(float *a, int n) {
  __shared__ float s[256];
  int start = blockIdx.x * 64;
  int mine = threadIdx.x;
  ([&] {
    if (start + 64 >= n) {
      s[mine] = a[start + mine];
      __syncthreads();
    }
  })();
}

__global__ void lambdaThreadCapture(float *a, int n) {
  __shared__ float s[256];
  int start = blockIdx.x * 64;
  int mine = threadIdx.x;
  ([&] {
    if (start + mine >= n) {
      s[mine] = a[start + mine];
      __syncthreads();
    }
  })();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call to 'operator()' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-6]]:9: note: threads of a block may disagree on this condition: it depends on the object it is called on
  // CHECK-NOTES: :[[@LINE-5]]:7: note: barrier '__syncthreads' is reached here
}

// A base class initialised from the thread writes only the base's members.
struct Position {
  int lane;
  __device__ explicit Position(int l) : lane(l) {}
};

struct Stepper : Position {
  int steps;
  __device__ Stepper(int l, int n) : Position(l), steps(n) {}
  __device__ void run(float *s) {
    for (int k = 0; k < steps; ++k) {
      s[lane] = k;
      __syncthreads();
    }
  }
  __device__ void runOwn(float *s) {
    for (int k = 0; k < lane; ++k) {
      s[lane] = k;
      __syncthreads();
    }
  }
};

__global__ void baseFromThread(int n) {
  __shared__ float s[256];
  Stepper stepper(threadIdx.x, n);
  stepper.run(s);
}

__global__ void baseMemberRead(int n) {
  __shared__ float s[256];
  Stepper stepper(threadIdx.x, n);
  stepper.runOwn(s);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'runOwn' reaches barrier '__syncthreads', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-18]]:21: note: threads of a block may disagree on this loop condition: it depends on member 'lane' of the object it is called on
  // CHECK-NOTES: :[[@LINE-17]]:7: note: barrier '__syncthreads' is reached here
}
