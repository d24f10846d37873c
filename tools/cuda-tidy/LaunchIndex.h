//===--- LaunchIndex.h - Every launch in a compile database -----*- C++ -*-===//
//
// A kernel launched from another file is analysed, file by file, without
// the shapes it is launched with. With a compile database the command sees
// every file, so it first runs a pre-pass: clang-tidy with the plugin's
// launch-index writer (the checks' WriteLaunchIndex mode; see the plugin's
// ProgramLaunches.h) over the database's other files that launch the
// analysed files' kernels, into a temporary directory. The real run then reads
// that directory (LaunchIndex), and each kernel is analysed with the shapes and
// byte counts of its launches in every file.
//
// Both passes get the directory through the environment, so that neither
// overrides the user's `--config` or `.clang-tidy` files. The pre-pass runs
// on the real run's -j workers; with a result cache, one process per file,
// whose index files the cache keeps (ResultCache.h), so that a warm run
// parses only the files that changed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_LAUNCHINDEX_H
#define CUDA_TIDY_TOOLS_LAUNCHINDEX_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace cuda_tidy {

class ResultCache;

/// The files of `<DatabaseDir>/compile_commands.json` that may launch a
/// kernel that \p Sources (every file of the database when empty) define in
/// another file: the kernel's name stands before a `<<<` there, or anywhere
/// in a file that calls a cudaLaunch* function. A text filter, so that
/// running cuda-tidy once per file over a large database (as CI scripts do)
/// parses only the few files that matter. Kernels defined in headers are
/// not looked for.
std::vector<std::string> launchingFiles(llvm::StringRef DatabaseDir,
                                        llvm::ArrayRef<std::string> Sources);

/// The launch index of one run: built by the constructor, offered to the
/// real run through CUDA_TIDY_LAUNCH_INDEX, removed by the destructor.
class LaunchIndex {
public:
  /// Runs the pre-pass with \p ClangTidyArgs (the real run's command line,
  /// whose `--load` and `--extra-arg`s it keeps) over the files of the
  /// database in \p DatabaseDir that may launch the kernels of \p Sources
  /// (every file of the database when empty), on \p Jobs workers, taking
  /// and keeping each file's index in \p Cache when there is one. Does
  /// nothing when \p DatabaseDir is empty; a failed pre-pass only leaves
  /// the index empty.
  LaunchIndex(llvm::ArrayRef<std::string> ClangTidyArgs,
              llvm::StringRef DatabaseDir, llvm::ArrayRef<std::string> Sources,
              unsigned Jobs = 1, ResultCache *Cache = nullptr);
  ~LaunchIndex();
  LaunchIndex(const LaunchIndex &) = delete;
  LaunchIndex &operator=(const LaunchIndex &) = delete;

  /// The directory the index is in; empty when there is none.
  llvm::StringRef directory() const { return Dir; }

  /// The files the pre-pass covered, and of them those whose index came
  /// from the cache.
  size_t files() const { return Files; }
  size_t replayed() const { return Replayed; }

private:
  llvm::SmallString<128> Dir;
  size_t Files = 0;
  size_t Replayed = 0;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_LAUNCHINDEX_H
