//===--- DiffFilter.h - findings on the lines a change touched --*- C++ -*-===//
//
// A pull request should fail on what it changed, not on what it happens to
// sit beside. `--diff=FILE` reads a unified diff (as `git diff -U0
// origin/main` writes it; `-` for standard input) and keeps the findings
// whose warning or any note lies on a line the diff adds or changes: a race
// whose write was there before but whose new read the diff adds is the
// diff's. A pure deletion touches the lines on either side of it, so that
// removing a barrier reaches the code beside it. Paths in the diff are read
// relative to the directory cuda-tidy runs in (the repository's root), with
// git's "b/" prefix removed.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_DIFFFILTER_H
#define CUDA_TIDY_TOOLS_DIFFFILTER_H

#include "Findings.h"
#include "llvm/Support/Error.h"
#include <map>
#include <set>
#include <string>
#include <vector>

namespace cuda_tidy {

class ChangedLines {
public:
  /// Reads the unified diff \p Text; file paths become absolute under
  /// \p Root. An error says what is wrong with the text.
  static llvm::Expected<ChangedLines> parse(llvm::StringRef Text,
                                            llvm::StringRef Root);

  /// The files the diff leaves in place (not deleted ones), absolute.
  std::vector<std::string> files() const;

  /// Whether \p F's warning or one of its notes is on a changed line.
  /// \p Root makes relative paths in \p F absolute.
  bool touches(const Finding &F, llvm::StringRef Root) const;

private:
  bool touches(const DiagnosticLine &D, llvm::StringRef Root) const;

  /// Changed line numbers (1-based, in the new file), by absolute path.
  std::map<std::string, std::set<unsigned>> Lines;
};

/// \p File absolute under \p Root, without "." and ".." components.
std::string absoluteUnder(llvm::StringRef File, llvm::StringRef Root);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_DIFFFILTER_H
