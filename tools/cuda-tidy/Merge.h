//===--- Merge.h - one report of the parts of a sharded run -----*- C++ -*-===//
//
// `cuda-tidy --merge-sarif=OUT IN...` and `--merge-baseline=OUT IN...`:
// the parts of a CI matrix (`--shard=K/N`, Shard.h) each write a SARIF log
// and a baseline; the last job writes one of each. The merged SARIF log is
// the one an unsharded run writes: the parts' findings read back
// (readSarifFindings), sorted and deduplicated as one run's are, and
// written again against the first log's root. The merged baseline keeps
// each entry's largest count (mergeBaselines).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_MERGE_H
#define CUDA_TIDY_TOOLS_MERGE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <string>

namespace cuda_tidy {

/// Writes to \p Out the SARIF log of the findings of the logs \p Inputs.
llvm::Error mergeSarifFiles(llvm::StringRef Out,
                            llvm::ArrayRef<std::string> Inputs);

/// Writes to \p Out the baseline of the baselines \p Inputs.
llvm::Error mergeBaselineFiles(llvm::StringRef Out,
                               llvm::ArrayRef<std::string> Inputs);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_MERGE_H
