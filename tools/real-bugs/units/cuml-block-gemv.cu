// Stand-in unit for cuml-block-gemv, written for the oracle (not cuML code).
// cuML's own unit, tests/prims/linalg_block.cu, needs gtest and a generated
// logger header; this one includes the header under test and calls the device
// helper _block_gemv from a kernel of its own, launched with a policy of the
// project's test (BlockGemvPolicy<16, 4>: 64 threads).
#include "block.cuh"

using namespace MLCommon::LinAlg;

template <typename Policy, typename T>
__global__ void oracle_block_gemv(int m, int n, T alpha, const T* a, const T* x, T* y)
{
  __shared__ GemvStorage<Policy, T> gemv_storage;
  _block_gemv<Policy, false>(
    m, n, alpha, a + m * n * blockIdx.x, x + n * blockIdx.x, y + m * blockIdx.x, gemv_storage);
}

void oracle_launch(int m, int n, float alpha, const float* a, const float* x, float* y, int batch,
                   cudaStream_t stream)
{
  using Policy = BlockGemvPolicy<16, 4>;
  oracle_block_gemv<Policy><<<batch, Policy::BlockSize, 0, stream>>>(m, n, alpha, a, x, y);
}
