// Stand-in for PyTorch's header, written for the oracle (not PyTorch code):
// only what flash-attention's fmha kernels use of it, so that they parse
// without a PyTorch install. The kernels' shared-memory code does not touch it.
#pragma once
#include <cstdint>
#include <tuple>
#include <cuda_runtime_api.h>

namespace at {
struct PhiloxCudaState {
  PhiloxCudaState() = default;
  PhiloxCudaState(uint64_t seed, uint64_t offset) : seed_(seed), offset_(offset) {}
  uint64_t seed_ = 0;
  uint64_t offset_ = 0;
  bool captured_ = false;
};
namespace cuda {
cudaDeviceProp* getCurrentDeviceProperties();
namespace philox {
__host__ __device__ inline std::tuple<uint64_t, uint64_t> unpack(PhiloxCudaState arg) {
  return std::make_tuple(arg.seed_, arg.offset_);
}
}  // namespace philox
}  // namespace cuda
}  // namespace at
