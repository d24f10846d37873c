// Stand-in unit for flashinfer-filtered-topk-histogram, written for the oracle
// (not FlashInfer code): one call of the host launcher LaunchFilteredTopKUnified
// (plain mode), which instantiates FilteredTopKUnifiedKernel with
// FILTERED_TOPK_BLOCK_THREADS threads and launches it through cudaLaunchKernel.
// topk.cuh relies on math.cuh and utils.cuh being included first, as the
// project's sampling.cuh does.
#include "math.cuh"
#include "utils.cuh"
#include "topk.cuh"

cudaError_t oracle_topk(float* input, int* output, float* values, uint32_t num_rows,
                        uint32_t top_k, uint32_t max_len, cudaStream_t s)
{
  using namespace flashinfer::sampling;
  return LaunchFilteredTopKUnified<FilteredTopKMode::Plain, float, int>(
    input, output, values, nullptr, 0, nullptr, nullptr, nullptr, num_rows, top_k, max_len, false,
    TopKTieBreak::None, s);
}
