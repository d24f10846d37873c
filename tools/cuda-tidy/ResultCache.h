//===--- ResultCache.h - clang-tidy's results, kept across runs -*- C++ -*-===//
//
// `--cache-dir=DIR` (or CUDA_TIDY_CACHE_DIR) keeps each translation unit's
// clang-tidy run, so that a unit that has not changed costs a preprocessor
// run instead of an analysis, as ctcache does for clang-tidy. A run is
// stored whole (its status, standard output and error, and the fix-its it
// exported) and a hit replays it, so that everything cuda-tidy prints and
// writes from it (findings, baseline, SARIF) is the same bytes.
//
// The key hashes (BLAKE3) everything the run's result depends on:
//  * the tool: cuda-tidy's version, `clang-tidy --version`, and the
//    plugin's contents (a rebuilt plugin is another tool);
//  * clang-tidy's options (the checks, --config, --extra-args ...; not the
//    -p folder, which is a temporary copy when the database is rewritten),
//    and the configuration clang-tidy reads for the unit's folder
//    (`--dump-config`: .clang-tidy files and every check option's value);
//  * each compile command of the unit (the database's, or the words after
//    `--`), and its output under Clang's preprocessor with the same flags
//    (`clang -E`, both CUDA passes), so that a change to any header it
//    includes, or to a macro, is a change of the key; and the bytes of
//    every file that output names, since it drops the comments and spacing
//    that the printed source excerpts and columns show;
//  * the launches the pre-pass found in the database's other files
//    (LaunchIndex.h), which give kernels their block shapes.
//
// Entries are files DIR/<2 hex digits>/<62 hex digits>, written under a
// temporary name and renamed, so that parallel runs may share DIR. Nothing
// is ever evicted: clear the cache with `rm -rf DIR`. A unit without a key
// (not in the database, or its preprocessing fails) is run and not stored.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_RESULTCACHE_H
#define CUDA_TIDY_TOOLS_RESULTCACHE_H

#include "Gate.h"
#include "Parallel.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// The run of one translation unit as the cache keeps it.
struct CachedRun {
  int Status = 0;
  std::string Stdout;
  std::string Stderr;
  std::string ExportedFixes;
};

class ResultCache {
public:
  /// Opens (making it if needed) the cache in \p Dir for the runs of
  /// \p Command with \p ClangTidy and the plugin \p Plugin; \p Clang is the
  /// driver that preprocesses. Reads the database and the launch index
  /// (CUDA_TIDY_LAUNCH_INDEX) once.
  static llvm::Expected<std::unique_ptr<ResultCache>>
  open(llvm::StringRef Dir, llvm::StringRef ClangTidy, llvm::StringRef Plugin,
       llvm::StringRef Clang, const SplitCommand &Command);

  /// The key of the run of \p File (absolute); none when it cannot be
  /// computed. Safe to call from several threads.
  std::optional<std::string> keyFor(llvm::StringRef File);

  std::optional<CachedRun> lookup(llvm::StringRef Key) const;

  /// Stores \p Run under \p Key; a failure to write only loses the entry.
  void store(llvm::StringRef Key, const CachedRun &Run) const;

  llvm::StringRef directory() const { return Dir; }

private:
  ResultCache() = default;

  std::string entryPath(llvm::StringRef Key) const;
  /// clang-tidy's configuration for \p File, read once per folder.
  std::string configurationFor(llvm::StringRef File);
  /// The command line (program first) that preprocesses \p Command.
  std::vector<std::string>
  preprocessorArgs(const CompileCommand &Command) const;

  std::string Dir;
  std::string ClangTidy;
  std::string Clang;
  SplitCommand Command;
  /// The digest of what every key shares: the tool, the options, the
  /// launch index.
  std::string Shared;
  /// The database's commands by file; empty with `--`.
  llvm::StringMap<std::vector<CompileCommand>> Database;
  /// clang-tidy's --extra-arg-before and --extra-arg, which it adds to
  /// every compile command.
  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> ExtraArgs;
  std::mutex ConfigurationLock;
  llvm::StringMap<std::string> ConfigurationByFolder;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_RESULTCACHE_H
