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
/// its toolkit with `--cuda-path=<toolkit>`. A command that names no
/// architecture gets the default of nvcc's toolkit, or of \p FallbackCuda
/// when nvcc's path names none (defaultGpuArch; none when that is empty).
std::vector<std::string>
translateNvccCommand(llvm::ArrayRef<std::string> Args,
                     llvm::StringRef Directory,
                     llvm::StringRef FallbackCuda = "");

/// \p Args (a Clang command line, compiler first) without what would make
/// clang-tidy run a program or write a file: a compile database is input
/// from the analysed project, which cuda-tidy only reads. Response files are
/// expanded (relative to \p Directory) so that no flag hides in one; then
/// `-Xclang`/`-mllvm` and every other pass-through, `-Wp,`/`-Wa,`/`-Wl,`,
/// `--serialize-diagnostics`, module caches, plugins, `-save-temps`,
/// `-ftime-trace`, `--config`, `-B`, the GPU probe tools and `native` GPU
/// architectures (which run them) are dropped, and the compiler keeps its
/// name but loses its directory (the driver looks there for configuration
/// files and tools).
std::vector<std::string> withoutUnsafeFlags(llvm::ArrayRef<std::string> Args,
                                            llvm::StringRef Directory);

/// Finds the compile database that clang-tidy would read for `-p Dir`
/// (compile_commands.json or compile_flags.txt in \p Dir or its nearest
/// parent that has one); if some entry runs nvcc or has a flag that
/// withoutUnsafeFlags drops, writes the translated database of the same name
/// to \p OutDir and returns true. Returns false when there is nothing to
/// change, or no database; an error when \p Dir is not a directory or the
/// database cannot be read as one.
llvm::Expected<bool> translateDatabase(llvm::StringRef Dir,
                                       llvm::StringRef OutDir);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_NVCCDATABASE_H
