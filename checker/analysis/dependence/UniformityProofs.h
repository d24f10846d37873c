//===--- UniformityProofs.h - Why a value is the same in every thread -*- C++
//-*-//
//
// The uniformity proofs of the dependence analysis (ThreadDependence.h): the
// facts, read off the syntax and the CFG, that show a value or a branch the
// same in every thread where its plain dependence says it may differ. A
// loop whose counter differs between threads may still run equally often
// in each (uniformTripCountTerms); a loop body may be known to run at least
// once (loopRunsAtLeastOnce); a branch may repeat its loop's condition
// (branchesImpliedByLoops). And the lane rules: which values depend on the
// thread only through its lane (isLaneOfThreadIdxX, SettledSharedReads),
// and which calls reduce such a value over the whole warp
// (warpReducedArgument).
//
// The fixpoint (DependenceFixpoint.h) asks them; so does the race check,
// for the loops it must see through.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_UNIFORMITYPROOFS_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_UNIFORMITYPROOFS_H

#include "analysis/dependence/ThreadDependence.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::cuda_tidy {

/// Whether the body of \p Loop (a `for`, `while` or `do` statement) runs at
/// least once each time the loop is entered: a `do`-`while`, a condition
/// that is constant true, or `for (int k = C0; k < N; ...)` (any comparison,
/// `k` declared or assigned in the init) with C0 and N constants, constexpr
/// values or template arguments of the instantiation that satisfy it. On the
/// CFG the path from the loop's entry through the header's exit edge is
/// then infeasible: the exit edge is taken only after the body ran.
bool loopRunsAtLeastOnce(const Stmt *Loop, const ASTContext &Context);

/// The argument whose reduction over all 32 lanes of the warp \p CE
/// returns, the same value in every lane, computed from the lanes' values
/// of that argument alone: `__all_sync`, `__any_sync`, `__ballot_sync` or
/// `__reduce_*_sync` with mask 0xffffffff, or a call of a function whose
/// body, through branches on constants of its instantiation, returns such
/// a builtin of one of its parameters unchanged, or runs a butterfly
/// reduction (butterflyReduction) on that parameter and returns it. Null
/// otherwise.
const Expr *warpReducedArgument(const CallExpr *CE, const ASTContext &Context);

/// For `for (V = Start; V op Bound; V += Step)` (or `++V`, `-=`, `--V`) over
/// a signed counter, where Start and Bound share terms of their sums
/// (`base + tid` and `base + n * C + tid`) and the loop writes none of the
/// variables they and Step read: the terms left once the shared ones cancel,
/// and Step. The loop's condition in iteration k is `(Start - Bound) + k *
/// Step op 0`, so when these are uniform every thread runs the same number
/// of iterations although the counter differs. Nullopt when the loop has
/// another shape or nothing cancels.
std::optional<llvm::SmallVector<const Expr *, 4>>
uniformTripCountTerms(const ForStmt *Loop);

/// The `if` statements inside the body of a `for` loop (at any depth) whose
/// condition is the loop's own condition, when the body writes none of the
/// variables it reads: `for (j = 0; j < n; ++j) { ...; if (j < n)
/// __syncthreads(); }`. Their else edge is never taken.
llvm::SmallPtrSet<const IfStmt *, 4> branchesImpliedByLoops(const Stmt *Body);

//===----------------------------------------------------------------------===//
// The lane rules (DependenceOptions::LaneRules)
//===----------------------------------------------------------------------===//

/// Whether \p BO is `threadIdx.x % C` (C a power of two up to 32) or
/// `threadIdx.x & M` (M from 0 to 31): a function of the lane alone when
/// the block's x extent is a multiple of 32.
bool isLaneOfThreadIdxX(const BinaryOperator *BO, const ASTContext &Context);

/// A lane-only value seen from outside the rules that know it: may differ
/// between threads.
inline DepSet widenLane(DepSet Deps) {
  return Deps & dep::Lane ? (Deps & ~dep::Lane) | dep::Thread : Deps;
}

/// The loads from a `__shared__` array of a kernel that read memory no
/// thread writes between the block barriers around them: every path to the
/// load passes a block barrier after the last store to the array, and every
/// path from it one before the next store, and the array is used only by
/// subscripts. All threads then read one and the same memory, so a
/// lane-only index gives a lane-only value. Answers are cached per load.
class SettledSharedReads {
public:
  SettledSharedReads(const FunctionDecl *Function, const CFG &Graph)
      : Function(Function), Graph(Graph) {}

  /// Whether the load \p ASE of a `__shared__` array of the kernel reads
  /// memory no thread writes between the block barriers around it.
  bool isSettled(const ArraySubscriptExpr *ASE);

  /// Whether \p VD is used only as the array of subscripts that are loaded
  /// or stored to (no address taken, no reference bound, nothing passed).
  bool usedOnlyBySubscripts(const VarDecl *VD);

private:
  const FunctionDecl *Function;
  const CFG &Graph;
  llvm::DenseMap<const ArraySubscriptExpr *, bool> SettledReads;
  llvm::DenseMap<const VarDecl *, bool> OnlySubscripts;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_UNIFORMITYPROOFS_H
