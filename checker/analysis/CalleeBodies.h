//===--- CalleeBodies.h - What a helper's body does at a call --*- C++ -*-===//
//
// The shared-memory accesses inside a `__device__` helper are attributed to
// the kernel's call of it (SharedAccessCollector::inlineCall). What that
// needs to know of the helper's body: which accesses it makes
// (CalleeAccessFinder), under which of its conditions, stated in the
// caller's terms (calleeConditions), and, for a helper that reaches a
// barrier, which of them may run before its first barrier or after its last
// (CalleeIntervals).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_CALLEEBODIES_H
#define CUDA_TIDY_ANALYSIS_CALLEEBODIES_H

#include "analysis/SharedAccesses.h"
#include "analysis/SymbolicIndex.h"
#include "analysis/dependence/ThreadDependence.h"
#include "model/SyncEvents.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>
#include <vector>

namespace clang::cuda_tidy {

/// Finds the reads, writes and atomics in a callee's body, and whether each
/// sits under a condition or loop of the callee.
class CalleeAccessFinder : public RecursiveASTVisitor<CalleeAccessFinder> {
public:
  struct Found {
    const Expr *LValue;
    AccessKind Kind;
    bool ThroughPointer;
  };
  std::vector<Found> Accesses;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      Accesses.push_back({BO->getLHS(),
                          BO->isCompoundAssignmentOp() ? AccessKind::ReadWrite
                                                       : AccessKind::Write,
                          false});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      Accesses.push_back({UO->getSubExpr(), AccessKind::ReadWrite, false});
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      Accesses.push_back({Cast->getSubExpr(), AccessKind::Read, false});
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    SyncEvent Event = classifySync(CE);
    if (Event.AtomicTarget && Event.AtomicInHelpers)
      Accesses.push_back({Event.AtomicTarget, AccessKind::Atomic, true});
    return true;
  }
};

/// The conditions of a helper's body under which an access inside it runs,
/// translated in the caller's frame (the helper's parameters stand for the
/// call's arguments, as in the access's offset).
struct CalleeConditions {
  llvm::SmallVector<std::pair<SymId, bool>, 2> Guards;
  /// Some condition could not be translated (it reads memory, a local the
  /// caller cannot see, or it is a switch's or a loop's the threads may
  /// disagree on).
  bool Unknown = false;
  /// Some condition is false for every thread at this call: the access
  /// never runs.
  bool Never = false;
};

/// The conditions under which \p Access, inside the helper \p CE calls,
/// runs, with \p Sym inside the callee's frame. \p CalleeDeps is the
/// helper's analysis (null when there is none) and \p Deps the caller's: a
/// loop of the helper whose condition is the same in every thread at this
/// call guards nothing.
CalleeConditions calleeConditions(SymbolicTranslator &Sym, const Expr *Access,
                                  const ParentMap &CalleeParents,
                                  const CallExpr *CE,
                                  const FunctionDependence *CalleeDeps,
                                  const FunctionDependence &Deps);

/// Whether \p S names a `__shared__` variable (a helper that declares its
/// own `extern __shared__` pool, or uses a file-scope array).
bool mentionsShared(const Stmt *S);
/// Whether \p S declares a `__shared__` variable of its own (a helper
/// whose shared variables are analysed as its kernel's).
bool declaresShared(const Stmt *S);

/// The tests of the `for`, `while` and range-for loops of \p F every
/// iteration of which passes one of its barrier sites (no way from the body
/// back to the test avoids one), each with its back edges (the
/// predecessors the CFG marks with the loop, CFGBlock::getLoopTarget).
/// Left at its first test, such a loop runs zero times and nothing orders
/// what precedes it against what follows: a way that only some values of
/// its condition take.
using SyncingLoopTests =
    llvm::DenseMap<const CFGBlock *, llvm::SmallPtrSet<const CFGBlock *, 2>>;
SyncingLoopTests syncingLoopTests(const FunctionDependence &F);

/// Where the statements of a callee that reaches a barrier run, relative to
/// the barriers a call of it holds. Bit First: reached from the callee's
/// entry with no barrier on the way, so run before the call's first barrier.
/// Bit Last: reaches the callee's exit with no barrier on the way, so run
/// after its last. A statement with neither bit runs between two of the
/// callee's barriers on every path, and those barriers order it against
/// everything outside the call; one with both lies on a path that skips
/// every barrier.
///
/// Computed on the callee's CFG, not on its syntax, so that barriers inside
/// loops and branches split the body as they run: a block reduction whose
/// halving loop syncs after each step has its first store before the call's
/// barrier and its final read of `buf[0]` after it, and two calls of it in a
/// row race there (issue 22, shape c). The barriers are the callee's own
/// barrier sites (its direct barriers and the calls that reach one), as the
/// dependence analysis found them.
///
/// A loop whose every iteration passes a barrier (no way from its body back
/// to its condition avoids one) can still be left at its first test, and
/// what follows it is then reached with no barrier on the way. Whether that
/// zero-trip way runs is a question of the values (cudf's ORC `IntegerRLE`
/// loops `while (numvals > 0)` and is called only under `numvals > 0`), so
/// the bits it alone gives are kept apart (ZeroTripFirst, ZeroTripLast):
/// the race analysis orders by the other bits, and takes these as possible
/// races only.
class CalleeIntervals {
public:
  enum : unsigned char {
    First = 1,
    Last = 2,
    ZeroTripFirst = 4,
    ZeroTripLast = 8
  };

  explicit CalleeIntervals(const FunctionDependence &Callee);

  /// The bits of the CFG element that evaluates \p E (the nearest
  /// enclosing expression the CFG lists); none when it is not reached. A
  /// ZeroTrip bit is set only where the plain bit is not.
  std::optional<unsigned char> of(const Expr *E, const ParentMap &PM) const;

private:
  llvm::DenseMap<const Stmt *, unsigned char> Bits;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_CALLEEBODIES_H
