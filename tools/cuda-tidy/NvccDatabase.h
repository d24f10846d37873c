//===--- NvccDatabase.h - nvcc compile commands for clang-tidy --*- C++ -*-===//
//
// Projects build CUDA with nvcc, so their compile_commands.json holds nvcc
// command lines, which Clang's driver rejects ("unknown argument
// '--expt-relaxed-constexpr'", "-gencode"...). cuda-tidy rewrites such a
// database into Clang's spelling before clang-tidy reads it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_NVCCDATABASE_H
#define CUDA_TIDY_TOOLS_NVCCDATABASE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_tidy {

/// Whether \p Compiler (a command's first word) is nvcc.
bool isNvcc(llvm::StringRef Compiler);

/// The Clang command line for an nvcc one: architectures to one
/// `--cuda-gpu-arch` (clang-tidy needs exactly one device job), `-x cu` to
/// `-x cuda`, `-rdc=true` to `-fgpu-rdc`, `-Xcompiler` flags unpacked,
/// `--options-file` files read (relative to \p Directory), and flags with no
/// meaning for analysis (`--expt-relaxed-constexpr`, `-lineinfo`, `-Xptxas`,
/// `-ccbin`...) dropped. An nvcc at an absolute <toolkit>/bin/nvcc names
/// its toolkit with `--cuda-path=<toolkit>`.
std::vector<std::string> translateNvccCommand(llvm::ArrayRef<std::string> Args,
                                              llvm::StringRef Directory);

/// Reads `<Dir>/compile_commands.json`; if some entry runs nvcc, writes the
/// translated database to `<OutDir>/compile_commands.json` and returns true.
/// Returns false when there is nothing to translate.
llvm::Expected<bool> translateDatabase(llvm::StringRef Dir,
                                       llvm::StringRef OutDir);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_NVCCDATABASE_H
