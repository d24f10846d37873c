//===--- Sarif.h - clang-tidy's diagnostics as SARIF -------------*- C++
//-*-===//
//
// CI systems (GitHub code scanning, GitLab, Azure DevOps) read SARIF 2.1.0.
// cuda-tidy turns clang-tidy's printed diagnostics into a SARIF log: one
// result per warning or error, its notes as related locations.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_SARIF_H
#define CUDA_TIDY_TOOLS_SARIF_H

#include "llvm/Support/JSON.h"

namespace cuda_tidy {

/// The SARIF log for clang-tidy's output \p Output.
llvm::json::Value diagnosticsToSarif(llvm::StringRef Output);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_SARIF_H
