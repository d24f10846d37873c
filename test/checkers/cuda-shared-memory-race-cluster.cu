// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-device-only -std=c++17
// RUN: %check_clang_tidy %s cuda-shared-memory-race %t -- -- %cuda_stub --cuda-host-only -std=c++17

// Distributed shared memory (issue 23, sketch 8): `cluster.map_shared_rank(
// p, rank)` points into another block's copy of a __shared__ variable. Only
// a cluster barrier (`cluster.sync()`, or the split `barrier_arrive` /
// `barrier_wait`) orders the threads of two blocks: `__syncthreads()` orders
// one block's. Two faults follow: a read of the other block's element that
// its owner writes with no cluster barrier between (a race between threads
// of two blocks, which may have the same index), and an access after which
// the kernel may end with no cluster barrier (the owning block may have
// exited, and its shared memory is gone). The Programming Guide's pattern
// has a cluster.sync() on each side. (The kernels are launched in clusters
// of two blocks, with `__cluster_dims__` or cudaLaunchKernelEx; the stub
// headers' default architecture has no clusters, so the attribute is left
// out here: the check needs only the calls.)

#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// Neither barrier: the owner's write races with the peer's read, and the
// owner may exit before the peer reads.
__global__ void noClusterSync(int *out) {
  __shared__ int smem[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  smem[t] = rank * 1000 + t;
  __syncthreads();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 256 + t] = peer[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: read after write race on shared 'smem': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:31: note: for example, thread (254,0,0) of the block that owns it writes 'smem[254]' and thread (1,0,0) of another block of the cluster reads it through 'map_shared_rank', with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:31: note: the threads are of two blocks of the cluster: only a cluster barrier ('cluster.sync()') orders them, '__syncthreads()' orders one block's threads
  // CHECK-NOTES: :[[@LINE-5]]:31: warning: shared 'smem' of another block of the cluster is read here, and that block may have exited by then: no cluster barrier follows this access before the kernel ends [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-6]]:31: note: a block's shared memory ends with the block; call 'cluster.sync()' after the last access of another block's shared memory so that no block of the cluster exits before
}

// Fixed: a cluster barrier before the read and one before the end.
__global__ void clusterSynced(int *out) {
  __shared__ int smem[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  smem[t] = rank * 1000 + t;
  cluster.sync();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 256 + t] = peer[255 - t];
  cluster.sync();
}

// The same with the split cluster barrier, arrive then wait: fixed too.
__global__ void splitClusterBarrier(int *out) {
  __shared__ int smem[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  smem[t] = rank * 1000 + t;
  cluster.barrier_arrive();
  cluster.barrier_wait();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  int v = peer[255 - t];
  cluster.barrier_arrive();
  out[blockIdx.x * 256 + t] = v;
  cluster.barrier_wait();
}

// Only the last barrier is missing: the owner may be gone.
__global__ void noFinalClusterSync(int *out) {
  __shared__ int smem[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  smem[t] = rank * 1000 + t;
  cluster.sync();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 256 + t] = peer[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: shared 'smem' of another block of the cluster is read here, and that block may have exited by then: no cluster barrier follows this access before the kernel ends [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-2]]:31: note: a block's shared memory ends with the block; call 'cluster.sync()' after the last access of another block's shared memory so that no block of the cluster exits before
}

// Only the first: __syncthreads() orders the owner's own threads, not the
// reader's block.
__global__ void blockBarrierOnly(int *out) {
  __shared__ int smem[256];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  smem[t] = rank * 1000 + t;
  __syncthreads();
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 256 + t] = peer[255 - t];
  // CHECK-NOTES: :[[@LINE-1]]:31: warning: read after write race on shared 'smem': no barrier orders this read after another thread's write [cuda-shared-memory-race]
  // CHECK-NOTES: :[[@LINE-5]]:3: note: the other thread's write is here
  // CHECK-NOTES: :[[@LINE-3]]:31: note: for example, thread (254,0,0) of the block that owns it writes 'smem[254]' and thread (1,0,0) of another block of the cluster reads it through 'map_shared_rank', with blockDim (256,1,1)
  // CHECK-NOTES: :[[@LINE-4]]:31: note: the threads are of two blocks of the cluster: only a cluster barrier ('cluster.sync()') orders them, '__syncthreads()' orders one block's threads
  cluster.sync();
}

// Each block writes only the slots the other block never reads: no race
// (the final barrier is there).
__global__ void disjointSlots(int *out) {
  __shared__ int smem[512];
  cg::cluster_group cluster = cg::this_cluster();
  unsigned rank = cluster.block_rank();
  int t = threadIdx.x;
  smem[256 + t] = t;
  int *peer = cluster.map_shared_rank(smem, rank ^ 1);
  out[blockIdx.x * 256 + t] = peer[t];
  cluster.sync();
}

void launchAll(int *out) {
  noClusterSync<<<2, 256>>>(out);
  clusterSynced<<<2, 256>>>(out);
  splitClusterBarrier<<<2, 256>>>(out);
  noFinalClusterSync<<<2, 256>>>(out);
  blockBarrierOnly<<<2, 256>>>(out);
  disjointSlots<<<2, 256>>>(out);
}
