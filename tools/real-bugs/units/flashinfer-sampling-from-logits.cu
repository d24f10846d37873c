// Stand-in unit for flashinfer-sampling-logits-reduce, written for the oracle
// (not FlashInfer code): one call of the host launcher SamplingFromLogits,
// which instantiates SamplingFromLogitsKernel for the block sizes of
// DISPATCH_COMPUTE_CAP_NUM_THREADS and launches it (through cudaLaunchKernel).
#include "sampling.cuh"

cudaError_t oracle_sampling(float* logits, int* output, int* indices, uint32_t batch_size,
                            uint32_t d, uint64_t seed, uint64_t offset, cudaStream_t s)
{
  return flashinfer::sampling::SamplingFromLogits<float, int>(
    logits, output, indices, batch_size, d, /*deterministic=*/true, nullptr, seed, nullptr, offset, s);
}
