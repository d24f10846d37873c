// Stand-in unit for cub-rle-warp-aggregates, written for the oracle (not CCCL
// code): one call of cub::DeviceRunLengthEncode::NonTrivialRuns, which
// instantiates and launches the AgentRle kernel with CUB's own tuning policies.
#include <cub/device/device_run_length_encode.cuh>

cudaError_t oracle_rle(void* temp, size_t& temp_bytes, const int* in, int* offsets, int* lengths,
                       int* num_runs, int n, cudaStream_t s)
{
  return cub::DeviceRunLengthEncode::NonTrivialRuns(temp, temp_bytes, in, offsets, lengths,
                                                    num_runs, n, s);
}
