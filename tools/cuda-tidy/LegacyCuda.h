//===--- LegacyCuda.h - code written for older CUDA toolkits ----*- C++ -*-===//
//
// CUDA 13 removed APIs that older code still calls: cudaThreadSynchronize,
// cudaThreadExit, texture references (texture<T, N>, tex1Dfetch, tex2D on a
// reference, cudaBindTexture...) and some cudaDeviceProp fields. Such code
// is built with an older toolkit, so cuda-tidy uses the toolkit the user
// names: `--cuda-path=DIR` to cuda-tidy, after `--`, in an --extra-arg, or
// in the compile database (where an nvcc command names it by its path; see
// NvccDatabase.h). When none is named and the toolkit found is CUDA 13 or
// newer, the compatibility header (cuda_tidy_nvcc_compat.h) declares the
// removed APIs so that the kernels are still analysed, and cuda-tidy says
// so once per file that uses them.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_LEGACYCUDA_H
#define CUDA_TIDY_TOOLS_LEGACYCUDA_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// The toolkit named by `--cuda-path=DIR` in clang-tidy's arguments \p Args
/// (after `--` or in `--extra-arg=`) or in the first entry of
/// `<DatabaseDir>/compile_commands.json` that has one.
std::optional<std::string>
namedToolkit(llvm::ArrayRef<std::string> Args,
             std::optional<llvm::StringRef> DatabaseDir);

/// The APIs CUDA 13 removed that \p Source uses, each named once, in the
/// order of first use ("texture<>" for a texture reference).
std::vector<std::string> removedApisUsed(llvm::StringRef Source);

/// Reads \p File and, if it uses removed APIs, prints one note saying that
/// cuda-tidy's declarations of them were assumed.
void noteRemovedApis(llvm::StringRef File);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_LEGACYCUDA_H
