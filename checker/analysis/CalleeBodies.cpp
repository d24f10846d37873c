//===--- CalleeBodies.cpp - What a helper's body does at a call ----------===//

#include "analysis/CalleeBodies.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <set>

namespace clang::cuda_tidy {

namespace {

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
  const CFGBlock *B = Callee.getTerminatorBlock(Loop);
  if (!B)
    return false;
  DepSet D =
      instantiate(Callee.getConditionDeps(B), Caller.getArgumentDeps(CE),
                  Caller.getObjectDeps(CE), Caller.getObjectMemberDeps(CE));
  return !(D & dep::Thread);
}

} // namespace

bool declaresShared(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (isSharedVariable(dyn_cast<VarDecl>(D)))
        return true;
  for (const Stmt *Child : S->children())
    if (declaresShared(Child))
      return true;
  return false;
}

bool mentionsShared(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (isSharedVariable(dyn_cast<VarDecl>(DRE->getDecl())))
      return true;
  for (const Stmt *Child : S->children())
    if (mentionsShared(Child))
      return true;
  return false;
}

SyncingLoopTests syncingLoopTests(const FunctionDependence &F) {
  llvm::SmallPtrSet<const Stmt *, 8> Barriers;
  for (const BarrierSite &Site : F.getBarrierSites())
    Barriers.insert(Site.Call);
  SyncingLoopTests Tests;
  if (Barriers.empty())
    return Tests;
  auto HoldsBarrier = [&](const CFGBlock *B) {
    for (const CFGElement &E : *B)
      if (auto CS = E.getAs<CFGStmt>(); CS && Barriers.count(CS->getStmt()))
        return true;
    return false;
  };
  // (A do-while's test is after its body: never reached from outside
  // without a barrier, it needs no such care.)
  for (const CFGBlock *B : F.getCFG()) {
    const Stmt *Loop = B->getTerminatorStmt();
    if (!Loop || B->succ_size() != 2 ||
        !isa<ForStmt, WhileStmt, CXXForRangeStmt>(Loop))
      continue;
    const CFGBlock *Body = *B->succ_begin();
    if (!Body)
      continue;
    llvm::SmallPtrSet<const CFGBlock *, 16> Seen{Body};
    llvm::SmallVector<const CFGBlock *, 16> Work{Body};
    bool Back = false;
    while (!Work.empty() && !Back) {
      const CFGBlock *X = Work.pop_back_val();
      if (HoldsBarrier(X))
        continue;
      for (const CFGBlock *Succ : X->succs()) {
        if (Succ == B) {
          Back = true;
          break;
        }
        if (Succ && Seen.insert(Succ).second)
          Work.push_back(Succ);
      }
    }
    if (Back)
      continue;
    auto &BackEdges = Tests[B];
    for (const CFGBlock *Pred : B->preds())
      if (Pred && Pred->getLoopTarget() == Loop)
        BackEdges.insert(Pred);
  }
  return Tests;
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
  // The zero-trip way leaves one of these at its first test.
  auto Gated = syncingLoopTests(Callee);
  auto IsZeroTripExit = [&](const CFGBlock *From, const CFGBlock *To) {
    return Gated.count(From) && *std::next(From->succ_begin()) == To;
  };
  // Forward from the entry: every element up to the first barrier of each
  // path; with \p Free, not through a zero-trip exit.
  auto Forward = [&](bool Free, unsigned char Bit) {
    llvm::SmallPtrSet<const CFGBlock *, 32> Seen{&Graph.getEntry()};
    llvm::SmallVector<const CFGBlock *, 32> Work{&Graph.getEntry()};
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
        Bits[S] |= Bit;
      }
      if (Stopped)
        continue;
      for (const CFGBlock *Succ : B->succs())
        if (Succ && !(Free && IsZeroTripExit(B, Succ)) &&
            Seen.insert(Succ).second)
          Work.push_back(Succ);
    }
  };
  // Backward from the exit: every element after the last barrier of each
  // path. A gated loop's condition reached from its exit edge is its last
  // test: before it ran the loop's last iteration (a back edge), or, on the
  // zero-trip way, what precedes the loop. With \p Free the walk goes on
  // from there by the back edges only; reached from its body (a `break`
  // before the body's barrier), the condition ran in a first iteration and
  // every predecessor is free.
  auto Backward = [&](bool Free, unsigned char Bit) {
    using Visit = std::pair<const CFGBlock *, bool>;
    std::set<Visit> Seen{{&Graph.getExit(), false}};
    llvm::SmallVector<Visit, 32> Work{{&Graph.getExit(), false}};
    while (!Work.empty()) {
      auto [B, FromExit] = Work.pop_back_val();
      bool Stopped = false;
      for (auto It = B->rbegin(), End = B->rend(); It != End; ++It) {
        const Stmt *S = StmtOf(*It);
        if (!S)
          continue;
        if (Barriers.count(S)) {
          Stopped = true;
          break;
        }
        Bits[S] |= Bit;
      }
      if (Stopped)
        continue;
      for (const CFGBlock *Pred : B->preds()) {
        if (!Pred)
          continue;
        if (FromExit && !Gated.lookup(B).count(Pred))
          continue;
        Visit Next{Pred, Free && IsZeroTripExit(Pred, B)};
        if (Seen.insert(Next).second)
          Work.push_back(Next);
      }
    }
  };
  Forward(/*Free=*/true, First);
  Backward(/*Free=*/true, Last);
  if (Gated.empty())
    return;
  Forward(/*Free=*/false, ZeroTripFirst);
  Backward(/*Free=*/false, ZeroTripLast);
  // A ZeroTrip bit says what only the zero-trip way gives.
  for (auto &[S, B] : Bits) {
    if (B & First)
      B &= ~ZeroTripFirst;
    if (B & Last)
      B &= ~ZeroTripLast;
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
