//===--- WarpUniformity.h - Values every lane of a warp agrees on -*- C++ -*-//
//
// A fact the race analysis uses: lanes of one warp storing a value the warp
// agrees on (the result of a warp reduction) leave the same bytes whatever
// their order, so only threads of different warps can race then
// (`s[warp] = warpSum;` with no lane guard).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_WARPUNIFORMITY_H
#define CUDA_TIDY_ANALYSIS_RACE_WARPUNIFORMITY_H

#include "analysis/dependence/ThreadDependence.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::cuda_tidy {

/// Proves values of a kernel the same in every lane of a warp, or in every
/// thread of the block. (butterflyReduction, in SharedMemoryRace.h, is the
/// proof for a loop, which the dependence analysis uses too.)
class WarpUniformity {
public:
  WarpUniformity(ASTContext &Context, const FunctionDependence &Deps)
      : Context(Context), Deps(Deps) {}

  /// Whether every lane of a warp computes the same value for \p E, read at
  /// position \p Index of \p Block: results of warp reductions, votes and
  /// broadcasts, of helpers that return one (returnsWarpUniform), and what
  /// is computed from them and from constants, followed through local
  /// variables and elements of local arrays at an index the lanes agree on
  /// (`acc[j] = warpSum(acc[j]); s[w] = acc[j];`).
  bool isWarpUniform(const Expr *E, const CFGBlock *Block, unsigned Index,
                     unsigned Depth = 0) const;

private:
  /// Whether every variable \p E reads is the same in every thread of the
  /// block (constants, uniform locals and parameters).
  bool isBlockUniformIndex(const Expr *E) const;
  /// Whether the value \p Target (a local variable, or an element of a
  /// local array at an index every lane agrees on) last received before
  /// position \p Index of \p Block is the same in every lane, on every path
  /// that reaches there. \p Path holds the blocks of the path walked back so
  /// far, \p Steps bounds the walk.
  bool lastValueIsWarpUniform(const Expr *Target, const CFGBlock *Block,
                              unsigned Index, unsigned Depth,
                              llvm::SmallPtrSetImpl<const CFGBlock *> &Path,
                              unsigned &Steps) const;

  ASTContext &Context;
  const FunctionDependence &Deps;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_WARPUNIFORMITY_H
