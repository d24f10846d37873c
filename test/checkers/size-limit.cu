// A body past a check's 'MaxBlocks' option is not analysed, and every check
// says so once, naming the function and the option; a body within the limit
// is analysed as usual. The default limit (20000 blocks) is exercised by
// bench/scaling.sh, not here: tests do not time or size the machine.
// RUN: %check_clang_tidy %s cuda-divergent-barrier,cuda-shared-memory-race,cuda-bank-conflict,cuda-dynamic-shared-bounds %t -- -config="{CheckOptions: {cuda-divergent-barrier.MaxBlocks: 30, cuda-shared-memory-race.MaxBlocks: 30, cuda-bank-conflict.MaxBlocks: 30, cuda-dynamic-shared-bounds.MaxBlocks: 30}}" -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier,cuda-shared-memory-race,cuda-bank-conflict,cuda-dynamic-shared-bounds %t -- -config="{CheckOptions: {cuda-divergent-barrier.MaxBlocks: 30, cuda-shared-memory-race.MaxBlocks: 30, cuda-bank-conflict.MaxBlocks: 30, cuda-dynamic-shared-bounds.MaxBlocks: 30}}" -- %cuda_stub --cuda-host-only -std=c++17

#include <cuda_runtime.h>

// Within the limit: the divergent barrier and the race are reported.
__global__ void small(float *out) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = out[t];
  if (t < 16)
    __syncthreads();
  out[t] = s[t + 1];
}
// CHECK-NOTES: :[[@LINE-3]]:5: warning: barrier '__syncthreads' may be reached by only some threads of the block [cuda-divergent-barrier]
// CHECK-NOTES: :[[@LINE-5]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 't'
// CHECK-NOTES: :[[@LINE-4]]:12: warning: read after write race on shared 's': no barrier orders this read after another thread's write [cuda-shared-memory-race]
// CHECK-NOTES: :[[@LINE-8]]:3: note: the other thread's write is here
// CHECK-NOTES: :[[@LINE-6]]:12: note: for example, thread (1,0,0) writes 's[1]' and thread (0,0,0) reads it, with blockDim (256,1,1)
// CHECK-NOTES: :[[@LINE-7]]:3: note: a barrier is missing before this statement

// Past the limit: the same defects, and one warning from each check instead.
__global__ void large(float *out, int n) {
// CHECK-NOTES: :[[@LINE-1]]:17: warning: kernel 'large' was not analysed for bank conflicts: its body has 35 control-flow blocks, past the limit of 30; raise the check's 'MaxBlocks' option to analyse it [cuda-bank-conflict]
// CHECK-NOTES: :[[@LINE-2]]:17: warning: kernel 'large' was not analysed for divergent barriers: its body has 35 control-flow blocks, past the limit of 30; raise the check's 'MaxBlocks' option to analyse it [cuda-divergent-barrier]
// CHECK-NOTES: :[[@LINE-3]]:17: warning: kernel 'large' was not analysed for dynamic shared memory bounds: its body has 35 control-flow blocks, past the limit of 30; raise the check's 'MaxBlocks' option to analyse it [cuda-dynamic-shared-bounds]
// CHECK-NOTES: :[[@LINE-4]]:17: warning: kernel 'large' was not analysed for shared-memory races: its body has 35 control-flow blocks, past the limit of 30; raise the check's 'MaxBlocks' option to analyse it [cuda-shared-memory-race]
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  if (n > 0) acc += 1.0f;
  if (n > 1) acc += 1.0f;
  if (n > 2) acc += 1.0f;
  if (n > 3) acc += 1.0f;
  if (n > 4) acc += 1.0f;
  if (n > 5) acc += 1.0f;
  if (n > 6) acc += 1.0f;
  if (n > 7) acc += 1.0f;
  if (n > 8) acc += 1.0f;
  if (n > 9) acc += 1.0f;
  if (n > 10) acc += 1.0f;
  if (n > 11) acc += 1.0f;
  if (n > 12) acc += 1.0f;
  if (n > 13) acc += 1.0f;
  if (n > 14) acc += 1.0f;
  s[t] = acc;
  if (t < 16)
    __syncthreads();
  out[t] = s[t + 1];
}

void launch(float *out, int n) {
  small<<<1, 256>>>(out);
  large<<<1, 256>>>(out, n);
}
