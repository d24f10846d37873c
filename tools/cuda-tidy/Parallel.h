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
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>
#include <vector>

namespace cuda_tidy {

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
};

/// Runs \p Program once per argument list of \p Commands, at most \p Workers
/// at a time; results in the order of \p Commands. With \p Progress, a line
/// on standard error counts finished runs (for a terminal).
std::vector<ProcessOutcome>
runAll(llvm::StringRef Program,
       llvm::ArrayRef<std::vector<std::string>> Commands, unsigned Workers,
       bool Progress);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_PARALLEL_H
