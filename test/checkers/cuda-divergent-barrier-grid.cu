// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-divergent-barrier %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Grid and cluster barriers: every block of the grid (or of the cluster)
// must reach them, so a branch that may differ between blocks is divergent
// for them, and so is one that differs between threads of a block.

#include <cooperative_groups.h>
#include <cuda_runtime.h>
namespace cg = cooperative_groups;

// --- Grid barriers ------------------------------------------------------------

__global__ void gridSyncOnEvenBlocks(float *a) {
  if (blockIdx.x % 2 == 0)
    cg::this_grid().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on 'blockIdx.x'
}

__global__ void gridSyncThroughVariable(float *a, int n) {
  cg::grid_group grid = cg::this_grid();
  int firstRow = blockIdx.y * 16;
  if (firstRow < n)
    grid.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on 'blockIdx.y' through 'firstRow'
}

// A thread-dependent branch splits the grid as surely as a block-dependent one.
__global__ void freeSyncOnThreadBranch(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0)
    cg::sync(grid);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'cooperative_groups::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
}

// Uniform across the grid: parameters, gridDim, blockDim, loop counters.
__global__ void gridSyncUniform(float *a, int n, int steps) {
  cg::grid_group grid = cg::this_grid();
  if (n > 0 && gridDim.x > 1)
    grid.sync();
  for (int s = 0; s < steps; ++s) {
    a[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
    grid.sync();
  }
}

// The nearest true twin of the first kernel, with a block barrier: blocks
// may disagree, threads of one block cannot.
__global__ void blockSyncOnEvenBlocks(float *a) {
  if (blockIdx.x % 2 == 0)
    __syncthreads();
}

// Threads that leave the kernel early still hold a grid barrier up: the
// grid barrier waits for every block, and for the thread that arrives for
// its block.
__global__ void earlyExitBeforeGridSync(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a[i] = 0.0f;
  cg::this_grid().sync();
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-5]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x' through 'i'
  // CHECK-NOTES: :[[@LINE-6]]:7: note: for example, threads of one block disagree on it when {{.*}}
}

// A value each block holds in shared memory may differ between blocks.
__global__ void gridSyncOnSharedFlag(const int *work) {
  __shared__ int more;
  if (threadIdx.x == 0)
    more = work[blockIdx.x];
  __syncthreads();
  if (more)
    cg::this_grid().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on 'more' in shared memory
}

// The block's vote is the same in every thread of the block, not between
// blocks.
__global__ void gridSyncOnBlockVote(const float *a) {
  int any = __syncthreads_or(a[blockIdx.x * blockDim.x + threadIdx.x] > 0.0f);
  if (any)
    __syncthreads();
  if (any)
    cg::this_grid().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on the result of '__syncthreads_or' through 'any'
}

__global__ void gridSyncOnBlockRank(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (grid.block_rank() < 4)
    grid.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on the result of 'grid_group::block_rank'
}

// The SM a block runs on, read with inline asm.
__global__ void gridSyncOnSm(float *a) {
  unsigned sm;
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  if (sm == 0)
    cg::this_grid().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on a register read by inline asm through 'sm'
}

// --- Through helpers ----------------------------------------------------------

__device__ void syncGridIf(cg::grid_group grid, int step) {
  if (step == 0)
    grid.sync();
}

__global__ void helperArgumentPerBlock(float *a) {
  syncGridIf(cg::this_grid(), blockIdx.x);
  // CHECK-NOTES: :[[@LINE-1]]:3: warning: call to 'syncGridIf' reaches barrier 'grid_group::sync', which may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-7]]:7: note: whether 'syncGridIf' reaches the barrier depends on this condition, which depends on parameter 'step'
  // CHECK-NOTES: :[[@LINE-3]]:31: note: the argument for 'step' differs between blocks: it depends on 'blockIdx.x'
  // CHECK-NOTES: :[[@LINE-8]]:5: note: barrier 'grid_group::sync' is reached here
}

__global__ void helperArgumentUniform(float *a, int step) {
  syncGridIf(cg::this_grid(), step);
}

// A wrapper template in a namespace of the user's own: the barrier is found
// through the instantiation's summary, with the scope of the group it is
// instantiated with.
namespace util {
template <class Group> __device__ void wait(const Group &g) { g.sync(); }
} // namespace util

__global__ void wrapperOnBlockUnderThreadBranch(float *a) {
  cg::thread_block block = cg::this_thread_block();
  if (threadIdx.x < 32)
    util::wait(block);
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call to 'wait' reaches barrier 'thread_block::sync', which may be reached by only some threads of the block [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  // CHECK-NOTES: :[[@LINE-9]]:63: note: barrier 'thread_block::sync' is reached here
  __syncthreads();
}

__global__ void wrapperOnBlockUnderBlockBranch(float *a) {
  if (blockIdx.x == 0)
    util::wait(cg::this_thread_block());
}

__global__ void wrapperOnGridUnderBlockBranch(float *a) {
  if (blockIdx.x == 0)
    util::wait(cg::this_grid());
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: call to 'wait' reaches barrier 'grid_group::sync', which may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on 'blockIdx.x'
  // CHECK-NOTES: :[[@LINE-23]]:63: note: barrier 'grid_group::sync' is reached here
}

__global__ void wrapperOnTileUnderWarpBranch(float *a) {
  auto tile = cg::tiled_partition<32>(cg::this_thread_block());
  if (threadIdx.x / 32 == 0)
    util::wait(tile);
}

// --- Cluster barriers ---------------------------------------------------------

__global__ void clusterSyncOnBlockRank(float *a) {
  cg::cluster_group cluster = cg::this_cluster();
  if (cluster.block_rank() == 0)
    cluster.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'cluster_group::sync' may be reached by only some threads of the cluster [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of a cluster may disagree on this condition: it depends on the result of 'cluster_group::block_rank'
  __syncthreads();
}

__global__ void clusterSyncOnThread(float *a) {
  if (threadIdx.x % 2 == 0)
    cg::this_cluster().sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'cluster_group::sync' may be reached by only some threads of the cluster [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: threads of a block may disagree on this condition: it depends on 'threadIdx.x'
  __syncthreads();
}

// Every block of one cluster agrees on the cluster's index; the grid does not.
__global__ void clusterSyncOnClusterRank(float *a) {
  cg::grid_group grid = cg::this_grid();
  if (grid.cluster_rank() == 0)
    cg::this_cluster().sync();
  if (grid.cluster_rank() == 0)
    grid.sync();
  // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier 'grid_group::sync' may be reached by only some threads of the grid [cuda-divergent-barrier]
  // CHECK-NOTES: :[[@LINE-3]]:7: note: blocks of the grid may disagree on this condition: it depends on the result of 'grid_group::cluster_rank'
}

__global__ void clusterIntrinsics(float *a) {
  if (__clusterIdx().x == 0)
    __cluster_barrier_wait();
  if (__clusterRelativeBlockRank() == 1) {
    __cluster_barrier_arrive();
    __cluster_barrier_wait();
    // CHECK-NOTES: :[[@LINE-1]]:5: warning: barrier '__cluster_barrier_wait' may be reached by only some threads of the cluster [cuda-divergent-barrier]
    // CHECK-NOTES: :[[@LINE-4]]:7: note: blocks of a cluster may disagree on this condition: it depends on the result of '__clusterRelativeBlockRank'
  }
  __syncthreads();
}

// Threads that have exited no longer count at a cluster barrier (PTX waits
// for the non-exited threads of the cluster), as at a block barrier.
__global__ void earlyExitBeforeClusterSync(float *a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  a[i] = 0.0f;
  cg::this_cluster().sync();
}
