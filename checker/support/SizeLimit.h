//===--- SizeLimit.h - Bodies too large to analyse -------------*- C++ -*-===//
//
// The dependence analysis declines a body whose CFG has more blocks than its
// MaxBlocks option (ThreadDependence.h says why there is a limit). A check
// never skips code in silence: each one gives every declined body one
// warning that names it and the option that raises the limit.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SUPPORT_SIZELIMIT_H
#define CUDA_TIDY_SUPPORT_SIZELIMIT_H

#include "analysis/dependence/ThreadDependence.h"
#include "clang-tidy/ClangTidyCheck.h"
#include "clang/AST/Attr.h"

namespace clang::tidy::cuda_tidy {

/// Dependence options with the block limit of a check's 'MaxBlocks' option.
inline clang::cuda_tidy::DependenceOptions
withBlockLimit(unsigned MaxBlocks,
               clang::cuda_tidy::DependenceOptions Options = {}) {
  Options.MaxBlocks = MaxBlocks;
  return Options;
}

/// Warns once about each body \p Dependence declined since the last call;
/// \p Reported counts those already told. \p Purpose completes "was not
/// analysed for ...".
inline void reportOversizedBodies(
    ClangTidyCheck &Check,
    const clang::cuda_tidy::ThreadDependenceAnalysis &Dependence,
    llvm::StringRef Purpose, size_t &Reported) {
  auto Bodies = Dependence.getOversizedBodies();
  for (; Reported < Bodies.size(); ++Reported) {
    const FunctionDecl *Function = Bodies[Reported].Function;
    Check.diag(Function->getLocation(),
               "%select{function|kernel}0 '%1' was not analysed for %2: its "
               "body has %3 control-flow blocks, past the limit of %4; raise "
               "the check's 'MaxBlocks' option to analyse it")
        << Function->hasAttr<CUDAGlobalAttr>() << Function->getName() << Purpose
        << Bodies[Reported].Blocks << Dependence.getOptions().MaxBlocks;
  }
}

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_SUPPORT_SIZELIMIT_H
