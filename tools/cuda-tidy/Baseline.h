//===--- Baseline.h - known findings a team has not fixed yet ---*- C++ -*-===//
//
// A team adopting cuda-tidy on an existing codebase records today's findings
// (`--write-baseline=FILE`) and from then on fails only on new ones
// (`--baseline=FILE`). A finding is known when its check, file, enclosing
// function and message match an entry: not its line, so that an edit above
// it does not bring it back. Identical findings in one function are counted,
// so that a second copy of a known bug is still new.
//
// The file is JSON, sorted so that it diffs well under version control:
//
//   {
//     "version": 1,
//     "findings": [
//       {"check": "cuda-shared-memory-race", "file": "src/k.cu",
//        "function": "transpose", "message": "write after read race ...",
//        "count": 1}
//     ]
//   }
//
// Paths are relative to the directory cuda-tidy runs in (the repository's
// root in CI) when they lie under it, so the file works in any checkout.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_BASELINE_H
#define CUDA_TIDY_TOOLS_BASELINE_H

#include "Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace cuda_tidy {

struct BaselineEntry {
  std::string Check;
  std::string File;
  std::string Function;
  std::string Message;
  unsigned Count = 1;
};

/// \p File relative to \p Root when it lies under it, in '/' spelling.
std::string relativeToRoot(llvm::StringRef File, llvm::StringRef Root);

/// The baseline that records \p Findings.
llvm::json::Value makeBaseline(llvm::ArrayRef<Finding> Findings,
                               llvm::StringRef Root);

/// One baseline of the findings of several: those of the parts of a
/// sharded run (Shard.h). Each part saw every finding of the files it
/// analysed, and a header's finding seen from several parts is one finding,
/// so an entry's count is the largest any part gives, not their sum.
llvm::json::Value
mergeBaselines(llvm::ArrayRef<std::vector<BaselineEntry>> Baselines);

/// The entries of a baseline file's text; an error says what is wrong.
llvm::Expected<std::vector<BaselineEntry>> parseBaseline(llvm::StringRef Text);

struct BaselineOutcome {
  /// How many findings the baseline knew, and removed.
  unsigned Suppressed = 0;
  /// Entries (or the part of their count) that matched nothing: bugs fixed
  /// since, which the team can drop from the file.
  std::vector<BaselineEntry> NoLongerSeen;
};

/// Removes from \p Findings those the baseline \p Entries knows.
BaselineOutcome applyBaseline(llvm::ArrayRef<BaselineEntry> Entries,
                              std::vector<Finding> &Findings,
                              llvm::StringRef Root);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_BASELINE_H
