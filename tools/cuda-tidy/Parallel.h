//===--- Parallel.h - clang-tidy over many translation units ----*- C++ -*-===//
//
// `cuda-tidy -p build -j N` with no files analyses every CUDA translation
// unit of the database, one clang-tidy process per file on N workers (an
// llvm::ThreadPool of threads that each wait on their process: no scheduler
// of our own). Each process's output is captured whole, so the merged report
// can be sorted and deduplicated and does not depend on N.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_PARALLEL_H
#define CUDA_TIDY_TOOLS_PARALLEL_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// One entry of a JSON compile database.
struct CompileCommand {
  std::string Directory;
  /// Absolute, without `.` and `..`.
  std::string File;
  /// The command line, compiler first.
  std::vector<std::string> Args;
};

/// The entries of `<Dir>/compile_commands.json`, in its order.
llvm::Expected<std::vector<CompileCommand>>
readCompileCommands(llvm::StringRef Dir);

/// The files of `<Dir>/compile_commands.json` that are compiled as CUDA
/// (a .cu file, `-x cuda`, `-x cu` or nvcc), absolute, sorted, each once.
llvm::Expected<std::vector<std::string>> databaseCudaFiles(llvm::StringRef Dir);

struct ProcessOutcome {
  /// The exit status, or -1 when the process could not run or crashed.
  int Status = 0;
  std::string Stdout;
  std::string Stderr;
  /// Why it could not run or crashed; empty otherwise.
  std::string Failure;
  /// The fix-its the run exported (clang-tidy's --export-fixes YAML), when
  /// the gate asked for them.
  std::string ExportedFixes;
};

/// Runs \p Program with \p Args (program name first) and captures its
/// output; in \p Environment (`NAME=VALUE` words) when one is given, else
/// in ours.
ProcessOutcome
runOne(llvm::StringRef Program, llvm::ArrayRef<std::string> Args,
       std::optional<llvm::ArrayRef<std::string>> Environment = std::nullopt);

/// Calls \p Run for 0 to \p Count - 1, at most \p Workers at a time (each
/// call typically waits on runOne); results in index order. With
/// \p Progress, a line on standard error counts finished calls (for a
/// terminal).
std::vector<ProcessOutcome>
runAll(size_t Count, unsigned Workers, bool Progress,
       llvm::function_ref<ProcessOutcome(size_t)> Run);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_PARALLEL_H
