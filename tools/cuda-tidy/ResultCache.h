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
// Direct mode, as ccache's: with each unit, the cache lists the files its
// preprocessing read and their digests, under a key of its commands. When
// none has changed, the unit's digest is the stored one and nothing is
// preprocessed, so a warm run reads and hashes files and runs nothing but
// `--dump-config` once per folder. Like ccache's, it does not see a new
// header that an include would now find first in an earlier folder of the
// search path; CUDA_TIDY_CACHE_PREPROCESS=1 preprocesses every unit.
//
// The pre-pass's result for one file (the launch index files it wrote) is
// kept too, under a key of the same tool, options, configuration, commands
// and preprocessed text, so that a warm run parses no unchanged file.
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
  /// driver that preprocesses. Reads the database once.
  static llvm::Expected<std::unique_ptr<ResultCache>>
  open(llvm::StringRef Dir, llvm::StringRef ClangTidy, llvm::StringRef Plugin,
       llvm::StringRef Clang, const SplitCommand &Command);

  /// Makes the launch index in \p Dir (its files' contents) part of every
  /// key keyFor gives; call it before the first.
  void readLaunchIndex(llvm::StringRef Dir);

  /// The key of the run of \p File (absolute); none when it cannot be
  /// computed. Safe to call from several threads.
  std::optional<std::string> keyFor(llvm::StringRef File);

  /// The key of the launch pre-pass's run of \p File with the checks and
  /// arguments \p PrePass; none when it cannot be computed. Safe to call
  /// from several threads.
  std::optional<std::string> prePassKeyFor(llvm::StringRef File,
                                           llvm::ArrayRef<std::string> PrePass);

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
  /// The digest of \p File's commands, their preprocessed text and the
  /// files it reads, computed once per run; none when it cannot be.
  std::optional<std::string> unitDigest(llvm::StringRef File);

  std::string Dir;
  std::string ClangTidy;
  std::string Clang;
  SplitCommand Command;
  /// The digest of the tool and the options, which every key shares.
  std::string Tool;
  /// Tool and the launch index: what every key of a full run shares.
  std::string Shared;
  /// The database's commands by file; empty with `--`.
  llvm::StringMap<std::vector<CompileCommand>> Database;
  /// clang-tidy's --extra-arg-before and --extra-arg, which it adds to
  /// every compile command.
  std::vector<std::string> ExtraArgsBefore;
  std::vector<std::string> ExtraArgs;
  std::mutex ConfigurationLock;
  llvm::StringMap<std::string> ConfigurationByFolder;
  std::mutex UnitLock;
  llvm::StringMap<std::optional<std::string>> UnitDigests;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_RESULTCACHE_H
