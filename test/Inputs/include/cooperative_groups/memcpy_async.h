// Minimal stand-in for the CUDA toolkit's cooperative_groups/memcpy_async.h,
// for lit tests only: a group's copy commits its own batch; wait() waits for
// every batch and then syncs the group.
#ifndef CUDA_TIDY_TEST_STUB_CG_MEMCPY_ASYNC_H
#define CUDA_TIDY_TEST_STUB_CG_MEMCPY_ASYNC_H
#include <cooperative_groups.h>
namespace cooperative_groups {
namespace __v1 {
template <class Group, class T>
__device__ void memcpy_async(const Group &group, T *dst, const T *src,
                             size_t bytes);
template <class Group> __device__ void wait(const Group &group);
template <unsigned Stage, class Group>
__device__ void wait_prior(const Group &group);
} // namespace __v1
} // namespace cooperative_groups
#endif
