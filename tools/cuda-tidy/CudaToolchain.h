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
//  * `-D__CUDA_TIDY_CUDACC_VER_MAJOR__=13` (and `_MINOR__`, `_BUILD__`): the
//    toolkit's version, from which the compat header defines nvcc's
//    `__CUDACC_VER_MAJOR__`, `__CUDACC_VER_MINOR__` and `__CUDACC_VER_BUILD__`
//    unless the command line already does. Real code branches on them
//    (llm.c's common.h defines its own `__ldcs` below CUDA 12); undefined, they
//    read as 0, and such code redefines what the toolkit declares.
//
// Beside the flags, a virtual file system overlay (toolkitOverlay), made
// when the toolkit's libcu++ gives the block-scope `cuda::barrier` a
// destructor (CUDA 12.4 and later): it shows Clang that header without the
// destructor. Clang allows no `__shared__` variable whose type has a
// non-empty constructor or destructor ("initialization is not supported for
// __shared__ variables"); nvcc does, and `__shared__ cuda::barrier<...>
// bar;` (or a `cuda::pipeline_shared_state`, which holds barriers) is how
// CUDA's own samples write it. The destructor only invalidates the
// mbarrier, nothing the analyses look at. cuda-tidy passes it as
// `clang-tidy --vfsoverlay=` (clang-tidy sets up its file system before it
// reads compile flags, so `-ivfsoverlay` there is ignored); cuda-clangd as
// `-ivfsoverlay`.
//
// And where the command names no GPU architecture, the device pass targets
// the toolkit's default, as nvcc would (defaultGpuArch): sm_75 for CUDA 13,
// which dropped sm_52, Clang's own default.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CUDATOOLCHAIN_H
#define CUDA_TIDY_TOOLS_CUDATOOLCHAIN_H

#include "llvm/ADT/ArrayRef.h"
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

/// The version of the toolkit's nvcc, as `__CUDACC_VER_MAJOR__`,
/// `__CUDACC_VER_MINOR__` and `__CUDACC_VER_BUILD__` give it: the major and
/// minor from CUDA_VERSION, the build from `version.json`'s `cuda_nvcc`
/// entry or the `nvidia_cuda_nvcc-X.Y.Z.dist-info` folder of a pip-style
/// install (0 when neither is there). All 0 when CUDA_VERSION is unknown.
struct ToolkitVersion {
  unsigned Major = 0, Minor = 0, Build = 0;
};
ToolkitVersion readToolkitVersion(llvm::StringRef Cuda);

/// The GPU architecture nvcc of the toolkit at \p Cuda compiles for when
/// none is named: sm_75 from CUDA 13 on, sm_52 before; empty when the
/// version is unknown.
std::string defaultGpuArch(llvm::StringRef Cuda);

/// Whether Clang arguments \p Args name a GPU architecture
/// (`--cuda-gpu-arch=`, `--offload-arch=`, `--no-offload-arch=`).
bool namesGpuArch(llvm::ArrayRef<std::string> Args);

/// The nvcc compatibility header of the installation that \p Executable
/// belongs to: `<prefix>/share/cuda-tidy/cuda_tidy_nvcc_compat.h`, beside
/// the bin/ directory it is in.
std::string findCompatHeader(llvm::StringRef Executable);

/// The libcu++ header that defines the block-scope `cuda::barrier` in the
/// toolkit at \p Cuda, when it gives that class a destructor; empty otherwise.
std::string barrierHeaderWithDestructor(llvm::StringRef Cuda);

/// An overlay file (Clang's -ivfsoverlay YAML) that maps \p Header to a
/// copy of it without the block-scope barrier's destructor, both written
/// under \p CacheDir (created if needed) with names derived from the
/// header's path and contents, so that concurrent runs share them; empty
/// when the header cannot be read or rewritten.
std::string sharedVariableOverlay(llvm::StringRef Header,
                                  llvm::StringRef CacheDir);

/// The overlay for the toolkit at \p Cuda (sharedVariableOverlay of its
/// barrierHeaderWithDestructor, in cacheDirectory()); empty when it needs
/// none or it cannot be written.
std::string toolkitOverlay(llvm::StringRef Cuda);

/// Where cuda-tidy keeps files it derives from the toolkit:
/// `$XDG_CACHE_HOME/cuda-tidy`, `$HOME/.cache/cuda-tidy`, or a folder in
/// the system's temporary directory.
std::string cacheDirectory();

/// The Clang flags listed above for the toolkit at \p Cuda; the compat
/// header is included only if \p CompatHeader exists.
std::vector<std::string> cudaToolchainFlags(llvm::StringRef Cuda,
                                            llvm::StringRef CompatHeader);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CUDATOOLCHAIN_H
