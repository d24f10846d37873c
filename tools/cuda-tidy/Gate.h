//===--- Gate.h - cuda-tidy as a pull-request gate --------------*- C++ -*-===//
//
// What turns clang-tidy's run into a CI gate: one clang-tidy process per
// translation unit (on N workers), their findings merged, sorted and
// deduplicated, then filtered by the pull request's diff and by the
// baseline of known findings, printed as clang-tidy prints them and written
// as SARIF. With --shard it analyses one part of the database's units, and
// with --cache-dir it replays the runs of units that have not changed. The
// exit status is clang-tidy's, taken from what is left after
// filtering: 1 when an error remains (a compile error, or a warning made an
// error by --warnings-as-errors) or a run failed without saying why, 2 when
// cuda-tidy cannot do its job (bad baseline, unreadable diff, clang-tidy
// crashing), 0 otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_GATE_H
#define CUDA_TIDY_TOOLS_GATE_H

#include "Repro.h"
#include "Shard.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

class ResultCache;

struct GateOptions {
  std::optional<std::string> Baseline;
  std::optional<std::string> WriteBaseline;
  std::optional<std::string> Diff;
  std::optional<std::string> Sarif;
  unsigned Jobs = 1;
  /// The part of the database's units to analyse (Shard.h).
  std::optional<Shard> Part;
  /// Where the units' runs are kept across runs (ResultCache.h); none when
  /// null.
  ResultCache *Cache = nullptr;
  /// Whether to note, once per analysed file, its use of the APIs CUDA 13
  /// removed (LegacyCuda.h).
  bool NoteRemovedApis = false;
  /// Where to write a reproducer for each finding (Repro.h), and how each
  /// file's reproducer is built.
  std::optional<std::string> ReproDir;
  std::function<ReproBuild(llvm::StringRef File)> ReproBuildOf;
  /// The confirmations.json whose outcomes are noted under the findings.
  std::optional<std::string> Confirmations;
};

/// A clang-tidy command line split for running once per file: the words
/// before the files, the files, and the words from `--` on.
struct SplitCommand {
  std::vector<std::string> Options;
  std::vector<std::string> Files;
  std::vector<std::string> AfterFiles;
  /// The value of -p, if any.
  std::optional<std::string> DatabaseDir;
};

/// Splits clang-tidy's arguments \p Args (without the program name).
SplitCommand splitCommand(llvm::ArrayRef<std::string> Args);

/// Runs the gate; returns the exit status.
int runGate(llvm::StringRef ClangTidy, const SplitCommand &Command,
            const GateOptions &Options);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_GATE_H
