// Minimal stand-in for CUB's block primitives, for lit tests only: the
// class names, their TempStorage and the member calls a check reads by
// their documented contract (each needs a barrier before its TempStorage is
// used again). Declared only.
#ifndef CUDA_TIDY_TEST_STUB_CUB_CUH
#define CUDA_TIDY_TEST_STUB_CUB_CUH
#include <cuda_runtime.h>
namespace cub {
template <typename T, int BlockThreads> class BlockReduce {
public:
  struct TempStorage { T partials[BlockThreads / 32 + 1]; };
  __device__ BlockReduce(TempStorage &temp);
  __device__ T Sum(T input);
  template <typename Op> __device__ T Reduce(T input, Op op);
};
template <typename T, int BlockThreads> class BlockScan {
public:
  struct TempStorage { T partials[BlockThreads / 32 + 2]; };
  __device__ BlockScan(TempStorage &temp);
  __device__ void ExclusiveSum(T input, T &output);
  __device__ void InclusiveSum(T input, T &output);
};
template <typename T, int BlockThreads, int Items> class BlockLoad {
public:
  struct TempStorage { T items[BlockThreads * Items]; };
  __device__ BlockLoad(TempStorage &temp);
  __device__ void Load(const T *in, T (&items)[Items]);
};
} // namespace cub
#endif
