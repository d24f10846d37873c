//===--- ClusterOrder.cpp - Two blocks' threads on one block's memory ----===//
//
// See ClusterOrder.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/ClusterOrder.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <deque>

namespace clang::cuda_tidy {

ClusterOrder::ClusterOrder(const SharedAccessCollector &Col,
                           const std::vector<SharedAccess> &Accesses,
                           const AccessIndex &AccessesAt,
                           SymbolicTranslator &Sym, const ParentMap &Parents)
    : Col(Col), Accesses(Accesses), AccessesAt(AccessesAt), Sym(Sym),
      Parents(Parents) {
  llvm::SmallPtrSet<const void *, 2> RemoteObjects;
  for (const SharedAccess &A : Accesses)
    if (A.Remote)
      RemoteObjects.insert(A.Object);
  Reach.assign(Accesses.size(), ReachSet());
  OutlivesOwner.assign(Accesses.size(), false);
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    if (!RemoteObjects.count(Accesses[I].Object))
      continue;
    bool ReachesEnd = false;
    walk(Accesses[I].Block, Accesses[I].Index, Reach[I], ReachesEnd);
    OutlivesOwner[I] = Accesses[I].Remote && ReachesEnd;
  }
}

std::uint8_t ClusterOrder::reach(unsigned From, unsigned To) const {
  auto It = Reach[From].find(To);
  return It == Reach[From].end() ? 0 : It->second;
}

void ClusterOrder::addCandidates(
    llvm::function_ref<void(unsigned, unsigned)> Add) const {
  for (unsigned I = 0; I < Reach.size(); ++I)
    for (const auto &Entry : Reach[I])
      if (Accesses[I].Remote != Accesses[Entry.first].Remote)
        Add(I, Entry.first);
}

llvm::SmallVector<RaceScenario, 4>
ClusterOrder::scenarios(unsigned IA, unsigned IB,
                        llvm::ArrayRef<unsigned> Atoms) const {
  const SharedAccess &A = Accesses[IA], &B = Accesses[IB];
  llvm::SmallVector<RaceScenario, 4> Scenarios;
  for (auto [From, To, Order] : {std::tuple(IA, IB, 1), std::tuple(IB, IA, -1)})
    for (std::uint8_t Bit = 1; Bit <= 2; ++Bit) {
      if (!(reach(From, To) & Bit))
        continue;
      RaceScenario S;
      S.OtherBlock = true;
      S.Order = Order;
      S.LaterIteration = Bit == 2;
      for (unsigned Atom : Atoms) {
        const SymAtom &Info = Sym.atoms()[Atom];
        S.Relation.push_back(Info.isLoopCounter() && !S.LaterIteration &&
                                     isInside(Parents, A.E, Info.Loop) &&
                                     isInside(Parents, B.E, Info.Loop)
                                 ? 0
                                 : 2);
      }
      Scenarios.push_back(S);
    }
  return Scenarios;
}

void ClusterOrder::walk(const CFGBlock *From, unsigned FromIndex, ReachSet &Out,
                        bool &ReachesEnd) const {
  // Breadth-first from just after element FromIndex of From, stopping only
  // at cluster barriers (a cluster's or the grid's sync, or the wait of a
  // split cluster barrier after its arrive): what one block's thread did
  // before one is ordered before what another block's threads do after it.
  llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> Seen;
  struct Item {
    const CFGBlock *Block;
    unsigned Index;
    bool Crossed, Arrived;
  };
  std::deque<Item> Queue{{From, FromIndex, false, false}};
  while (!Queue.empty()) {
    Item Cur = Queue.front();
    Queue.pop_front();
    bool Stopped = false;
    unsigned Index = 0;
    for (const CFGElement &Element : *Cur.Block) {
      if (++Index <= Cur.Index)
        continue;
      auto CS = Element.getAs<CFGStmt>();
      if (!CS)
        continue;
      if (const SyncPoint *Sync = Col.syncAt(CS->getStmt())) {
        if (Sync->Cluster || (Sync->ClusterWait && Cur.Arrived)) {
          Stopped = true;
          break;
        }
        Cur.Arrived |= Sync->ClusterArrive;
      }
      auto At = AccessesAt.find(CS->getStmt());
      if (At != AccessesAt.end())
        for (unsigned I : At->second)
          Out[I] |= Cur.Crossed ? 2 : 1;
    }
    if (Stopped)
      continue;
    if (Cur.Block->succ_empty())
      ReachesEnd = true;
    bool Crossed = Cur.Crossed || Cur.Block->getLoopTarget();
    for (const CFGBlock *Succ : Cur.Block->succs())
      if (Succ &&
          Seen.insert({Succ, (Crossed ? 1u : 0u) | (Cur.Arrived ? 2u : 0u)})
              .second)
        Queue.push_back({Succ, 0, Crossed, Cur.Arrived});
  }
}

} // namespace clang::cuda_tidy
