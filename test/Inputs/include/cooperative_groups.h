// Minimal stand-in for the CUDA toolkit's cooperative_groups.h, for lit tests
// only (see cuda_runtime.h next to this file).
//
// It keeps the parts of the real header's shape that a check can see: the
// versioned inline-like namespace (cooperative_groups::__v1, made visible by a
// using-directive), which members are static (thread_block::sync() is,
// grid_group::sync() is not), the base classes that declare a
// thread_block_tile's members, and the free function templates sync(),
// thread_rank() and tiled_partition<N>(). Functions are declared only: a
// check must recognise them by name, as it would have to with the real ones,
// whose bodies reach the barrier through layers of details:: helpers.

#ifndef CUDA_TIDY_TEST_STUB_COOPERATIVE_GROUPS_H
#define CUDA_TIDY_TEST_STUB_COOPERATIVE_GROUPS_H

#include <cuda_runtime.h>

namespace cooperative_groups {
namespace __v1 {

class thread_group {
public:
  __device__ unsigned long long size() const;
  __device__ unsigned long long num_threads() const;
  __device__ unsigned long long thread_rank() const;
  __device__ void sync() const;
};

class grid_group : public thread_group {
public:
  using arrival_token = unsigned int;

  __device__ bool is_valid() const;
  __device__ void sync() const;
  __device__ arrival_token barrier_arrive() const;
  __device__ void barrier_wait(arrival_token &&token) const;
  static __device__ unsigned long long size();
  static __device__ unsigned long long num_threads();
  static __device__ unsigned long long thread_rank();
  static __device__ dim3 dim_threads();
  static __device__ dim3 thread_index();
  static __device__ dim3 dim_blocks();
  static __device__ dim3 block_index();
  static __device__ unsigned long long block_rank();
  static __device__ dim3 cluster_index();
  static __device__ unsigned long long cluster_rank();
};

__device__ grid_group this_grid();

class cluster_group : public thread_group {
public:
  static __device__ void sync();
  static __device__ void barrier_arrive();
  static __device__ void barrier_wait();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 block_index();
  static __device__ unsigned int block_rank();
  static __device__ unsigned int num_blocks();
  // Distributed shared memory: another block's copy of a __shared__
  // variable.
  template <class T>
  static __device__ T *map_shared_rank(T *addr, unsigned int rank);
};

__device__ cluster_group this_cluster();

class thread_block : public thread_group {
public:
  struct arrival_token {};

  static __device__ void sync();
  __device__ arrival_token barrier_arrive() const;
  __device__ void barrier_wait(arrival_token &&token) const;
  static __device__ unsigned int size();
  static __device__ unsigned int num_threads();
  static __device__ unsigned int thread_rank();
  static __device__ dim3 group_index();
  static __device__ dim3 thread_index();
  static __device__ dim3 group_dim();
  static __device__ dim3 dim_threads();
};

__device__ thread_block this_thread_block();

class coalesced_group : public thread_group {
public:
  __device__ unsigned int size() const;
  __device__ unsigned int num_threads() const;
  __device__ unsigned int thread_rank() const;
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ void sync() const;
  template <typename T> __device__ T shfl(T var, unsigned int srcRank) const;
  template <typename T> __device__ T shfl_up(T var, int delta) const;
  template <typename T> __device__ T shfl_down(T var, int delta) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
};

__device__ coalesced_group coalesced_threads();

template <unsigned int Size> class __static_size_tile_base {
public:
  static __device__ unsigned int thread_rank();
  static constexpr __device__ unsigned int num_threads() { return Size; }
  static constexpr __device__ unsigned int size() { return Size; }
};

template <unsigned int Size>
class __static_size_thread_block_tile_base
    : public __static_size_tile_base<Size> {
public:
  static __device__ void sync();
  template <typename T> __device__ T shfl(T var, int srcRank) const;
  template <typename T> __device__ T shfl_up(T var, unsigned int delta) const;
  template <typename T>
  __device__ T shfl_down(T var, unsigned int delta) const;
  template <typename T>
  __device__ T shfl_xor(T var, unsigned int laneMask) const;
  __device__ int any(int predicate) const;
  __device__ int all(int predicate) const;
  __device__ unsigned int ballot(int predicate) const;
};

template <unsigned int Size, typename ParentT>
class __static_parent_thread_block_tile_base {
public:
  static __device__ unsigned int meta_group_rank();
  static __device__ unsigned int meta_group_size();
};

template <unsigned int Size, typename ParentT = void>
class thread_block_tile
    : public __static_size_thread_block_tile_base<Size>,
      public __static_parent_thread_block_tile_base<Size, ParentT> {
public:
  __device__ operator thread_block_tile<Size, void>() const;
  __device__ operator thread_group() const;
};

template <unsigned int Size>
class thread_block_tile<Size, void>
    : public __static_size_thread_block_tile_base<Size> {
public:
  template <typename ParentT>
  __device__ thread_block_tile(const thread_block_tile<Size, ParentT> &g);
  __device__ unsigned int meta_group_rank() const;
  __device__ unsigned int meta_group_size() const;
  __device__ operator thread_group() const;
};

template <unsigned int Size, typename ParentT>
__device__ thread_block_tile<Size, ParentT> tiled_partition(const ParentT &g);
__device__ thread_group tiled_partition(const thread_group &parent,
                                        unsigned int tilesz);
__device__ thread_group tiled_partition(const thread_block &parent,
                                        unsigned int tilesz);
__device__ coalesced_group tiled_partition(const coalesced_group &parent,
                                           unsigned int tilesz);

template <class GroupT> __device__ void sync(GroupT const &g);
template <class GroupT>
__device__ auto thread_rank(GroupT const &g) -> decltype(g.thread_rank());
template <class GroupT>
__device__ auto group_size(GroupT const &g) -> decltype(g.num_threads());

// <cooperative_groups/reduce.h>, folded in.
template <class T> struct plus {
  __device__ T operator()(T a, T b) const { return a + b; }
};
template <class GroupT, class T, class Op>
__device__ T reduce(GroupT const &g, T value, Op op);

} // namespace __v1
using namespace __v1;
} // namespace cooperative_groups

#endif // CUDA_TIDY_TEST_STUB_COOPERATIVE_GROUPS_H
