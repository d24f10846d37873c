// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// A barrier under a uniform branch on the loop's own counter (GROMACS's
// LINCS and SETTLE virial reductions): whether the barrier runs is decided
// per iteration. In the iteration of the write the condition holds, so the
// barrier runs; where it does not, every access is in warp 0, which
// __syncwarp() orders.

#include <cuda_runtime.h>

__global__ void __launch_bounds__(256) virialReduce(float *out) {
  __shared__ float sm[6 * 256];
  for (int d = 0; d < 6; d++)
    sm[d * blockDim.x + threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  for (int divideBy = 2; divideBy <= static_cast<int>(blockDim.x);
       divideBy *= 2) {
    int dividedAt = blockDim.x / divideBy;
    if (static_cast<int>(threadIdx.x) < dividedAt) {
      for (int d = 0; d < 6; d++)
        sm[d * blockDim.x + threadIdx.x] +=
            sm[d * blockDim.x + (threadIdx.x + dividedAt)];
    }
    if (dividedAt > warpSize / 2) {
      __syncthreads();
    } else {
      __syncwarp();
    }
  }
  if (threadIdx.x < 6)
    out[threadIdx.x] = sm[threadIdx.x * blockDim.x];
}

// The barrier stops at 64 threads: with 64 updating, warp 1 writes what
// warp 0 reads in the next iteration, and only __syncwarp() runs between.
__global__ void __launch_bounds__(256) virialReduceEarlyWarpSync(float *out) {
  __shared__ float sm[6 * 256];
  for (int d = 0; d < 6; d++)
    sm[d * blockDim.x + threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  for (int divideBy = 2; divideBy <= static_cast<int>(blockDim.x);
       divideBy *= 2) {
    int dividedAt = blockDim.x / divideBy;
    if (static_cast<int>(threadIdx.x) < dividedAt) {
      for (int d = 0; d < 6; d++)
        sm[d * blockDim.x + threadIdx.x] +=
            sm[d * blockDim.x + (threadIdx.x + dividedAt)];
            // CHECK-NOTES: :[[@LINE-1]]:13: warning: read after write race on shared 'sm': no barrier orders this read after another thread's update [cuda-shared-memory-race]
            // CHECK-NOTES: :[[@LINE-3]]:9: note: the other thread's update is here
            // CHECK-NOTES: :[[@LINE-3]]:13: note: for example, thread (32,0,0) updates 'sm[32]' (with 'd' = 0) and thread (0,0,0) reads it (with 'd' = 0, with 'divideBy' = 8) one iteration of the enclosing loop later, with blockDim (256,1,1)
    }
    if (dividedAt > 64) {
      __syncthreads();
    } else {
      __syncwarp();
    }
  }
  if (threadIdx.x < 6)
    out[threadIdx.x] = sm[threadIdx.x * blockDim.x];
}

// A condition on an unknown uniform value may skip the barrier in every
// iteration: still reported.
__global__ void __launch_bounds__(256) reduceUnlessFlag(float *out, int flag) {
  __shared__ float sm[256];
  sm[threadIdx.x] = out[threadIdx.x];
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (static_cast<int>(threadIdx.x) < s)
      sm[threadIdx.x] += sm[threadIdx.x + s];
      // CHECK-NOTES: :[[@LINE-1]]:26: warning: read after write race on shared 'sm': no barrier orders this read after another thread's update [cuda-shared-memory-race]
      // CHECK-NOTES: :[[@LINE-2]]:7: note: the other thread's update is here
      // CHECK-NOTES: :[[@LINE-3]]:26: note: for example, thread (64,0,0) updates 'sm[64]' and thread (0,0,0) reads it (with 's' = 64) one iteration of the enclosing loop later, with blockDim (256,1,1)
    if (flag > 0)
      __syncthreads();
  }
  out[threadIdx.x] = sm[0];
  // CHECK-NOTES: :[[@LINE-1]]:22: warning: read after write race on shared 'sm': no barrier orders this read after another thread's update [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-9]]:7: note: the other thread's update is here
  // CHECK-NOTES: :[[@LINE-3]]:22: note: for example, thread (0,0,0) updates 'sm[0]' and thread (1,0,0) reads it, with blockDim (256,1,1)
}

// --- A barrier skipped in the last pass only --------------------------------
//
// `if (pass != npass - 1) __syncthreads();` at the end of a pass of `for
// (pass = 0; pass < npass; ++pass)`: the pass that skips it has no next
// pass, so every read is ordered before the next pass's store. The
// condition reads the counter and a uniform parameter; the solver puts both
// into the question. Silent, written as a `for` loop, with the bound in a
// local, and as `while` loops that step the counter as their last
// statement: set by its declaration, or by an assignment before the loop.

__global__ void skipBarrierInLastPass(const float *in, float *out, int npass) {
  __shared__ float buf[256];
  float acc = 0;
  for (int pass = 0; pass < npass; ++pass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (pass != npass - 1)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__global__ void skipBarrierAtLastLocal(const float *in, float *out, int npass) {
  __shared__ float buf[256];
  const int last = npass - 1;
  float acc = 0;
  for (int pass = 0; pass < npass; ++pass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[255 - threadIdx.x];
    if (pass < last)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__global__ void skipBarrierWhile(const float *in, float *out, int npass) {
  __shared__ float buf[256];
  float acc = 0;
  int pass = 0;
  while (pass < npass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (pass + 1 != npass)
      __syncthreads();
    ++pass;
  }
  out[threadIdx.x] = acc;
}

__global__ void skipBarrierWhileAssigned(const float *in, float *out,
                                         int npass) {
  __shared__ float buf[256];
  float acc = 0;
  int pass;
  pass = npass;
  while (0 < pass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    __syncthreads();
    acc += buf[255 - threadIdx.x];
    if (pass > 1)
      __syncthreads();
    pass -= 1;
  }
  out[threadIdx.x] = acc;
}

// Reported: skipped in the first pass, in the one before the last (a next
// pass follows both), or on a flag alone (in every pass, maybe).
__global__ void skipBarrierInFirstPass(const float *in, float *out, int npass) {
  __shared__ float buf[256];
  float acc = 0;
  for (int pass = 0; pass < npass; ++pass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (128,0,0) reads 'buf[129]' and thread (129,0,0) writes it one iteration of the enclosing loop later, when 'npass' = 3, with blockDim (256,1,1)
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (pass != 0)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__global__ void skipBarrierBeforeLast(const float *in, float *out, int npass) {
  __shared__ float buf[256];
  float acc = 0;
  for (int pass = 0; pass < npass; ++pass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (128,0,0) reads 'buf[129]' and thread (129,0,0) writes it one iteration of the enclosing loop later, when 'npass' = 32, with blockDim (256,1,1)
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (pass != npass - 2)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__global__ void skipBarrierOnFlag(const float *in, float *out, int npass,
                                  int flag) {
  __shared__ float buf[256];
  float acc = 0;
  for (int pass = 0; pass < npass; ++pass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (0,0,0) reads 'buf[1]' and thread (1,0,0) writes it one iteration of the enclosing loop later, with blockDim (256,1,1)
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (flag > 0)
      __syncthreads();
  }
  out[threadIdx.x] = acc;
}

__global__ void skipBarrierWhileFirstPass(const float *in, float *out,
                                          int npass) {
  __shared__ float buf[256];
  float acc = 0;
  int pass = 0;
  while (pass < npass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (128,0,0) reads 'buf[129]' and thread (129,0,0) writes it one iteration of the enclosing loop later, when 'npass' = 3, with blockDim (256,1,1)
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (pass != 0)
      __syncthreads();
    ++pass;
  }
  out[threadIdx.x] = acc;
}

// A `continue` skips the step: the counter is not the loop's, and the
// branch cannot be decided per pass.
__global__ void skipBarrierWhileContinue(const float *in, float *out,
                                         int npass, int skip) {
  __shared__ float buf[256];
  float acc = 0;
  int pass = 0;
  while (pass < npass) {
    buf[threadIdx.x] = in[pass * 256 + threadIdx.x];
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: write after read race on shared 'buf': no barrier orders this write after another thread's read [cuda-shared-memory-race]
    // CHECK-NOTES: :[[@LINE+3]]:12: note: the other thread's read is here
    // CHECK-NOTES: :[[@LINE-3]]:5: note: for example, thread (0,0,0) reads 'buf[1]' and thread (1,0,0) writes it one iteration of the enclosing loop later, with blockDim (256,1,1)
    __syncthreads();
    acc += buf[(threadIdx.x + 1) % 256];
    if (pass + 1 != npass)
      __syncthreads();
    if (skip > 0)
      continue;
    ++pass;
  }
  out[threadIdx.x] = acc;
}

void launchSkips(const float *in, float *out, int npass, int flag) {
  skipBarrierInLastPass<<<1, 256>>>(in, out, npass);
  skipBarrierAtLastLocal<<<1, 256>>>(in, out, npass);
  skipBarrierWhile<<<1, 256>>>(in, out, npass);
  skipBarrierWhileAssigned<<<1, 256>>>(in, out, npass);
  skipBarrierWhileFirstPass<<<1, 256>>>(in, out, npass);
  skipBarrierWhileContinue<<<1, 256>>>(in, out, npass, flag);
  skipBarrierInFirstPass<<<1, 256>>>(in, out, npass);
  skipBarrierBeforeLast<<<1, 256>>>(in, out, npass);
  skipBarrierOnFlag<<<1, 256>>>(in, out, npass, flag);
}
