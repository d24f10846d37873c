//===--- Sarif.h - findings as SARIF 2.1.0 ----------------------*- C++ -*-===//
//
// CI systems (GitHub code scanning, GitLab, Azure DevOps) read SARIF 2.1.0.
// cuda-tidy writes one result per warning or error, its notes as related
// locations, its fix-its as `fixes`; one rule per check with the summary
// sentence of rules/<check>.md and a link to it. Code scanning tracks a
// result from one commit to the next by its `partialFingerprints`, so ours
// hash what the baseline matches on (check, file, function, message), not
// the line: a finding moved by an edit above it stays the same alert.
// Paths under the run's root are written relative to it, with the root as
// the `%SRCROOT%` base, which is how code scanning maps them to the
// repository.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_SARIF_H
#define CUDA_TIDY_TOOLS_SARIF_H

#include "Findings.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <string>
#include <vector>

namespace cuda_tidy {

/// The SARIF log for \p Findings; \p Root is the directory relative paths
/// are written against ("" for absolute file URIs everywhere).
llvm::json::Value findingsToSarif(llvm::ArrayRef<Finding> Findings,
                                  llvm::StringRef Root);

/// The SARIF log for clang-tidy's printed output \p Output.
llvm::json::Value diagnosticsToSarif(llvm::StringRef Output);

/// The path of the `%SRCROOT%` a log written by findingsToSarif names; ""
/// when it names none.
std::string sarifRoot(const llvm::json::Value &Log);

/// The findings of a log that findingsToSarif wrote, with relative paths
/// resolved against \p Root, so that findingsToSarif(readSarifFindings(L,
/// sarifRoot(L)), sarifRoot(L)) writes L again: what `--merge-sarif` relies
/// on. What SARIF does not hold (the source excerpts clang-tidy prints,
/// whether a warning was made an error) is left empty.
llvm::Expected<std::vector<Finding>>
readSarifFindings(const llvm::json::Value &Log, llvm::StringRef Root);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_SARIF_H
