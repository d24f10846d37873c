//===--- CalleeBodies.cpp - What a helper's body does at a call ----------===//

#include "analysis/CalleeBodies.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::cuda_tidy {

namespace {

bool isShared(const VarDecl *VD) { return VD && VD->hasAttr<CUDASharedAttr>(); }

/// Whether \p S holds a `return` of the function it is in.
bool containsReturn(const Stmt *S) {
  if (!S || isa<LambdaExpr>(S))
    return false;
  if (isa<ReturnStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (containsReturn(Child))
      return true;
  return false;
}

/// Whether running \p S always ends in a `return`: `return x;` or a block
/// whose last statement is one.
bool alwaysReturns(const Stmt *S) {
  if (const auto *Compound = dyn_cast_or_null<CompoundStmt>(S))
    return !Compound->body_empty() && alwaysReturns(Compound->body_back());
  return isa_and_nonnull<ReturnStmt>(S);
}

/// Whether the loop \p Loop of the callee \p Callee decides the same way
/// in every thread of the block when called by \p CE: the dependence of its
/// condition, instantiated with the dependence of the call's arguments.
bool uniformAtCall(const FunctionDependence &Callee, const Stmt *Loop,
                   const CallExpr *CE, const FunctionDependence &Caller) {
  for (const CFGBlock *B : Callee.getCFG())
    if (B && B->getTerminatorStmt() == Loop) {
      DepSet D =
          instantiate(Callee.getConditionDeps(B), Caller.getArgumentDeps(CE),
                      Caller.getObjectDeps(CE), Caller.getObjectMemberDeps(CE));
      return !(D & dep::Thread);
    }
  return false;
}

} // namespace

bool mentionsShared(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (isShared(dyn_cast<VarDecl>(DRE->getDecl())))
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsShared(Child))
      return true;
  return false;
}

CalleeIntervals::CalleeIntervals(const FunctionDependence &Callee) {
  llvm::SmallPtrSet<const Stmt *, 8> Barriers;
  for (const BarrierSite &Site : Callee.getBarrierSites())
    Barriers.insert(Site.Call);
  const CFG &Graph = Callee.getCFG();
  auto StmtOf = [](const CFGElement &E) -> const Stmt * {
    if (auto CS = E.getAs<CFGStmt>())
      return CS->getStmt();
    return nullptr;
  };
  // Forward from the entry: every element up to the first barrier of
  // each path.
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen;
  llvm::SmallVector<const CFGBlock *, 32> Work{&Graph.getEntry()};
  Seen.insert(&Graph.getEntry());
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    bool Stopped = false;
    for (const CFGElement &E : *B) {
      const Stmt *S = StmtOf(E);
      if (!S)
        continue;
      if (Barriers.count(S)) {
        Stopped = true;
        break;
      }
      Bits[S] |= First;
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  // Backward from the exit: every element after the last barrier of
  // each path.
  Seen.clear();
  Work.push_back(&Graph.getExit());
  Seen.insert(&Graph.getExit());
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    bool Stopped = false;
    for (auto It = B->rbegin(), End = B->rend(); It != End; ++It) {
      const Stmt *S = StmtOf(*It);
      if (!S)
        continue;
      if (Barriers.count(S)) {
        Stopped = true;
        break;
      }
      Bits[S] |= Last;
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Pred : B->preds())
      if (Pred && Seen.insert(Pred).second)
        Work.push_back(Pred);
  }
}

std::optional<unsigned char> CalleeIntervals::of(const Expr *E,
                                                 const ParentMap &PM) const {
  for (const Stmt *S = E; S; S = PM.getParent(S)) {
    auto It = Bits.find(S);
    if (It != Bits.end())
      return It->second;
  }
  return std::nullopt;
}

CalleeConditions calleeConditions(SymbolicTranslator &Sym, const Expr *Access,
                                  const ParentMap &CalleeParents,
                                  const CallExpr *CE,
                                  const FunctionDependence *CalleeDeps,
                                  const FunctionDependence &Deps) {
  // The helper's body is walked from the access up, not through a CFG of
  // its own: the shapes helpers use to guard a read (`c ? p[i] : 0`,
  // `if (c) return p[i];`, `if (!c) return 0;` before it, `c && p[i]`) are
  // syntactic, and a condition is only worth keeping when the symbolic
  // translator can state it in the caller's terms anyway.
  CalleeConditions Result;
  auto Require = [&](const Expr *Condition, bool Holds) {
    SymId Guard = Sym.translate(Condition);
    if (Sym.isUnknown(Guard)) {
      Result.Unknown = true;
      return;
    }
    if (Sym.usesThread(Guard)) {
      Result.Guards.push_back({Guard, Holds});
      return;
    }
    // A uniform condition sends every thread the same way, and the kernel's
    // own uniform conditions are not kept either (computeGuards); one that
    // is false whatever the unknowns (a constant argument) removes the
    // access at this call.
    std::optional<std::int64_t> Value = Sym.evaluate(Guard, SymEnv());
    if (Value && (*Value != 0) != Holds)
      Result.Never = true;
  };
  const Stmt *Child = Access;
  for (const Stmt *Parent = CalleeParents.getParent(Child); Parent;
       Child = Parent, Parent = CalleeParents.getParent(Parent)) {
    if (const auto *If = dyn_cast<IfStmt>(Parent)) {
      if (Child == If->getThen())
        Require(If->getCond(), true);
      else if (Child == If->getElse())
        Require(If->getCond(), false);
    } else if (const auto *Conditional =
                   dyn_cast<ConditionalOperator>(Parent)) {
      if (Child == Conditional->getTrueExpr())
        Require(Conditional->getCond(), true);
      else if (Child == Conditional->getFalseExpr())
        Require(Conditional->getCond(), false);
    } else if (const auto *BO = dyn_cast<BinaryOperator>(Parent)) {
      if (BO->isLogicalOp() && Child == BO->getRHS())
        Require(BO->getLHS(), BO->getOpcode() == BO_LAnd);
    } else if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Parent)) {
      // Every thread runs a loop whose condition they agree on equally
      // often, as the kernel's own uniform loops (computeGuards keeps no
      // uniform condition); one they may disagree on is a guard the
      // translator cannot state.
      if (!CalleeDeps || uniformAtCall(*CalleeDeps, Parent, CE, Deps))
        Result.Unknown = Result.Unknown || !CalleeDeps;
      else
        Result.Unknown = true;
    } else if (isa<SwitchStmt, AbstractConditionalOperator>(Parent)) {
      Result.Unknown = true;
    } else if (const auto *Compound = dyn_cast<CompoundStmt>(Parent)) {
      // Statements before this one that may return: `if (c) return ...;`
      // lets only the threads with !c go on; any other return makes who
      // arrives here unknown.
      for (const Stmt *Earlier : Compound->body()) {
        if (Earlier == Child)
          break;
        if (!containsReturn(Earlier))
          continue;
        const auto *EarlyExit = dyn_cast<IfStmt>(Earlier);
        if (EarlyExit && !EarlyExit->getElse() &&
            !EarlyExit->getConditionVariable() && !EarlyExit->getInit() &&
            alwaysReturns(EarlyExit->getThen()))
          Require(EarlyExit->getCond(), false);
        else
          Result.Unknown = true;
      }
    }
  }
  return Result;
}

} // namespace clang::cuda_tidy
