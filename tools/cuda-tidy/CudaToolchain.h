//===--- CudaToolchain.h - flags for CUDA 13 under Clang 22 -----*- C++ -*-===//
//
// The one place that knows which Clang flags make current CUDA toolkits parse
// under Clang 22. `cuda-tidy` passes them to clang-tidy as `--extra-arg`s and
// `cuda-clangd` adds them to every compile command clangd uses, so that both
// see the same translation units:
//
//  * `--cuda-path=<toolkit>`: `$CUDA_PATH`, `$CUDA_HOME` or /usr/local/cuda.
//  * `-Xclang -target-sdk-version=12.9` when the toolkit is newer than 12.9.
//    Clang's driver gives the device pass no SDK version, so Sema falls back
//    to the pre-9.2 launch API and every `<<<...>>>` fails with "use of
//    undeclared identifier cudaConfigureCall". 12.9 is the newest version
//    Clang 22 knows; its launch API is the one CUDA 13 uses.
//  * `-isystem <cuda>/include/cccl` when it exists: CUDA 13 moved thrust, cub
//    and libcu++ there, and cooperative_groups.h needs it.
//  * `-Wno-unknown-cuda-version`: the "newer than supported" warning says
//    nothing about the user's code.
//  * `-include <prefix>/share/cuda-tidy/cuda_tidy_nvcc_compat.h`: what nvcc's
//    headers give that Clang's do not (see the header).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDATOOLCHAIN_H
#define CUDA_TIDY_TOOLS_CUDATOOLCHAIN_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_tidy {

/// The newest CUDA version Clang 22 supports, as CUDA_VERSION spells it.
constexpr unsigned NewestSupportedCuda = 12090;

/// The CUDA toolkit to analyse against: `$CUDA_PATH`, `$CUDA_HOME` or
/// /usr/local/cuda, the first that is a directory; empty if none is.
std::string findCuda();

/// CUDA_VERSION from `<Cuda>/include/cuda.h`, or 0.
unsigned readCudaVersion(llvm::StringRef Cuda);

/// The nvcc compatibility header of the installation that \p Executable
/// belongs to: `<prefix>/share/cuda-tidy/cuda_tidy_nvcc_compat.h`, beside
/// the bin/ directory it is in.
std::string findCompatHeader(llvm::StringRef Executable);

/// The Clang flags listed above for the toolkit at \p Cuda; the compat
/// header is included only if \p CompatHeader exists.
std::vector<std::string> cudaToolchainFlags(llvm::StringRef Cuda,
                                            llvm::StringRef CompatHeader);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDATOOLCHAIN_H
