// Stand-in unit for cub-block-reduce-raking, written for the oracle (not CCCL
// code): a kernel that reduces with cub::BlockReduce's raking algorithm in the
// shape of the project's report (issue #1902: unsigned char, 65 threads, where
// the warp reduction of the raking partials goes through shared memory), and
// its launch.
#include <cub/block/block_reduce.cuh>

template <int BLOCK_THREADS>
__global__ void oracle_block_reduce_raking(const unsigned char* in, unsigned char* out)
{
  using BlockReduce = cub::BlockReduce<unsigned char, BLOCK_THREADS, cub::BLOCK_REDUCE_RAKING>;
  __shared__ typename BlockReduce::TempStorage temp_storage;
  unsigned char v = in[blockIdx.x * BLOCK_THREADS + threadIdx.x];
  unsigned char r = BlockReduce(temp_storage).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = r;
}

void oracle_launch(const unsigned char* in, unsigned char* out, int blocks, cudaStream_t s)
{
  oracle_block_reduce_raking<65><<<blocks, 65, 0, s>>>(in, out);
}
