//===--- HelperOrder.cpp - A helper's accesses, for the lanes of a warp ---===//
//
// See HelperOrder.h.
//
// The walk is our own rather than RaceConcurrency's: that one runs over
// the kernel's CFG and its collected sync points, and a helper's body is
// not part of either. It is the barrier-interval walk on the helper's CFG
// with warp-level syncs as the barriers, keeping for each element which
// loops' back edges the way to it went round.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/HelperOrder.h"
#include "analysis/SharedAccesses.h"
#include "analysis/dependence/ThreadDependence.h"
#include "analysis/race/RaceCommon.h"
#include "model/SyncEvents.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace clang::cuda_tidy {

namespace {

/// States the walks of one helper may visit before it is left unread: a
/// helper with many loops (each a bit of the state) or many syncs (each a
/// start) is not worth them.
constexpr unsigned StateCap = 50000;

} // namespace

struct HelperWarpOrders::Helper {
  bool Valid = false;
  const CFG *Graph = nullptr;
  std::unique_ptr<ParentMap> Parents;
  /// Each CFG element's statement, with its block and position.
  llvm::DenseMap<const Stmt *, std::pair<const CFGBlock *, unsigned>> ElementAt;
  /// The elements that sync the lanes of a warp (or the block).
  llvm::DenseSet<const Stmt *> Syncs;
  /// The loops whose back edges a walk records, each a bit.
  llvm::DenseMap<const Stmt *, unsigned> LoopBit;
  /// Per start (the entry, and just after each sync): the elements
  /// reached with no sync between, each with the sets of back edges the
  /// ways to it went round.
  std::vector<llvm::DenseMap<const Stmt *, llvm::SmallVector<std::uint64_t, 1>>>
      Reached;
  /// Loops every round of which passes a sync.
  llvm::DenseMap<const Stmt *, bool> RoundSynced;

  bool isSync(const CFGElement &E) const {
    auto S = E.getAs<CFGStmt>();
    return S && Syncs.contains(S->getStmt());
  }
  /// What is left of StateCap.
  unsigned Budget = StateCap;

  std::uint64_t bitOf(const CFGBlock *B) const {
    const Stmt *Target = B->getLoopTarget();
    auto It = Target ? LoopBit.find(Target) : LoopBit.end();
    return It == LoopBit.end() ? 0 : std::uint64_t(1) << It->second;
  }

  /// Walks from element \p Index of \p From with no sync between, calling
  /// \p Visit on each element statement with the back edges gone round,
  /// and \p Enter on each block entered (false stops the walk: the helper
  /// is left unread). False when the budget ran out.
  template <typename VisitFn, typename EnterFn>
  bool walk(const CFGBlock *From, unsigned Index, VisitFn Visit,
            EnterFn Enter) {
    llvm::DenseSet<std::pair<unsigned, std::uint64_t>> Seen;
    llvm::SmallVector<std::tuple<const CFGBlock *, unsigned, std::uint64_t>, 16>
        Work{{From, Index, 0}};
    while (!Work.empty()) {
      auto [Block, At, Mask] = Work.pop_back_val();
      bool Stopped = false;
      for (unsigned I = At; I < Block->size() && !Stopped; ++I) {
        const CFGElement &E = (*Block)[I];
        if (isSync(E))
          Stopped = true;
        else if (auto S = E.getAs<CFGStmt>())
          Visit(S->getStmt(), Mask);
      }
      if (Stopped)
        continue;
      for (const CFGBlock *Succ : Block->succs()) {
        if (!Succ)
          continue;
        std::uint64_t Next = Mask | bitOf(Succ);
        if (!Enter(Succ))
          return true;
        if (Seen.insert({Succ->getBlockID(), Next}).second) {
          if (Budget-- == 0)
            return false;
          Work.push_back({Succ, 0, Next});
        }
      }
    }
    return true;
  }

  bool roundSynced(const Stmt *Loop) {
    auto [It, Inserted] = RoundSynced.try_emplace(Loop, false);
    if (!Inserted)
      return It->second;
    // From each block that closes a round, no sync-free way to one again.
    bool Synced = true;
    for (const CFGBlock *B : *Graph) {
      if (!B || B->getLoopTarget() != Loop || !Synced)
        continue;
      bool Done = walk(
          B, 0, [](const Stmt *, std::uint64_t) {},
          [&](const CFGBlock *Entered) {
            if (Entered->getLoopTarget() == Loop)
              Synced = false;
            return Synced;
          });
      Synced = Synced && Done;
    }
    return It->second = Synced;
  }
};

HelperWarpOrders::HelperWarpOrders(SharedAccessCollector &Col) : Col(Col) {}
HelperWarpOrders::~HelperWarpOrders() = default;

HelperWarpOrders::Helper *
HelperWarpOrders::helperOf(const FunctionDecl *Callee) {
  auto [It, Inserted] = Helpers.try_emplace(Callee, nullptr);
  if (!Inserted)
    return It->second.get();
  It->second = std::make_unique<Helper>();
  Helper &H = *It->second;
  const FunctionDecl *Definition = nullptr;
  if (!Callee || !Callee->hasBody(Definition) || !Definition)
    return &H;
  const FunctionDependence *Deps = Col.analysis().analyze(Definition);
  if (!Deps)
    return &H;
  H.Graph = &Deps->getCFG();
  H.Parents =
      std::make_unique<ParentMap>(const_cast<Stmt *>(Definition->getBody()));
  llvm::DenseSet<const Stmt *> BarrierCalls;
  for (const BarrierSite &Site : Deps->getBarrierSites())
    BarrierCalls.insert(Site.Call);
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 4> Starts{
      {&H.Graph->getEntry(), 0}};
  for (const CFGBlock *B : *H.Graph) {
    if (!B)
      continue;
    if (const Stmt *Loop = B->getLoopTarget(); Loop && !H.LoopBit.count(Loop)) {
      if (H.LoopBit.size() == 64)
        return &H;
      H.LoopBit.try_emplace(Loop, H.LoopBit.size());
    }
    for (unsigned I = 0; I < B->size(); ++I) {
      auto S = (*B)[I].getAs<CFGStmt>();
      if (!S)
        continue;
      const Stmt *St = S->getStmt();
      H.ElementAt.try_emplace(St, B, I);
      std::optional<SyncEvent> Event;
      if (const auto *CE = dyn_cast<CallExpr>(St))
        Event = classifySync(CE);
      else if (const auto *Asm = dyn_cast<GCCAsmStmt>(St))
        Event = classifyAsm(Asm);
      if (BarrierCalls.contains(St) ||
          (Event && (Event->isBarrier() || ordersWarp(Col, *Event, St)))) {
        H.Syncs.insert(St);
        Starts.push_back({B, I + 1});
      }
    }
  }
  for (auto [Block, Index] : Starts) {
    auto &Reached = H.Reached.emplace_back();
    bool Done = H.walk(
        Block, Index,
        [&](const Stmt *S, std::uint64_t Mask) {
          auto &Masks = Reached[S];
          if (!llvm::is_contained(Masks, Mask))
            Masks.push_back(Mask);
        },
        [](const CFGBlock *) { return true; });
    if (!Done)
      return &H;
  }
  H.Valid = true;
  return &H;
}

HelperWarpOrder HelperWarpOrders::order(const SharedAccess &A,
                                        const SharedAccess &B) {
  HelperWarpOrder Unknown;
  if (!A.Via || A.Via != B.Via)
    return Unknown;
  Helper *H = helperOf(A.Via->getDirectCallee());
  if (!H || !H->Valid)
    return Unknown;
  // The element that evaluates each access's lvalue.
  auto ElementOf = [&](const Stmt *S) -> const Stmt * {
    for (; S; S = H->Parents->getParent(S))
      if (H->ElementAt.count(S))
        return S;
    return nullptr;
  };
  const Stmt *EA = ElementOf(A.E), *EB = ElementOf(B.E);
  if (!EA || !EB)
    return Unknown;
  llvm::SmallVector<const Stmt *, 2> Loops;
  for (const Stmt *S = H->Parents->getParent(A.E); S;
       S = H->Parents->getParent(S))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S) &&
        H->LoopBit.count(S) && isInside(*H->Parents, B.E, S))
      Loops.push_back(S);
  HelperWarpOrder Order;
  Order.Unsynced = false;
  llvm::SmallVector<bool, 2> Agree(Loops.size(), true);
  for (const auto &Reached : H->Reached) {
    auto ItA = Reached.find(EA), ItB = Reached.find(EB);
    if (ItA == Reached.end() || ItB == Reached.end())
      continue;
    Order.Unsynced = true;
    for (unsigned L = 0; L < Loops.size(); ++L) {
      std::uint64_t Bit = std::uint64_t(1) << H->LoopBit.lookup(Loops[L]);
      // Both went round the loop as often as the other from this start.
      std::uint64_t First = ItA->second.front() & Bit;
      for (const auto *Masks : {&ItA->second, &ItB->second})
        for (std::uint64_t Mask : *Masks)
          if ((Mask & Bit) != First)
            Agree[L] = false;
    }
  }
  if (Order.Unsynced)
    for (unsigned L = 0; L < Loops.size(); ++L)
      if (Agree[L] && H->roundSynced(Loops[L]))
        Order.SameRound.push_back(Loops[L]);
  return Order;
}

} // namespace clang::cuda_tidy
