//===--- Concurrency.cpp - Which shared accesses may run at once ----------===//
//
// See Concurrency.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/Concurrency.h"
#include "analysis/CalleeBodies.h"
#include "analysis/dependence/UniformityProofs.h"
#include "analysis/race/ClusterOrder.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"
#include <deque>

namespace clang::cuda_tidy {

namespace {

/// Whether every way round \p Loop from \p From to \p To (two statements
/// of its body, From in one iteration and To in the next) passes a block
/// barrier of \p Syncs that is a statement of the body itself: one after
/// From's statement or before To's. \p AnySync: a warp-level sync counts as
/// a barrier (for two lanes of one warp).
bool roundPassesBarrier(const ParentMap &Parents,
                        llvm::ArrayRef<SyncPoint> Syncs, const Stmt *Loop,
                        const Stmt *From, const Stmt *To, bool AnySync) {
  const Stmt *Body = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    Body = For->getBody();
  else if (const auto *While = dyn_cast<WhileStmt>(Loop))
    Body = While->getBody();
  else if (const auto *Do = dyn_cast<DoStmt>(Loop))
    Body = Do->getBody();
  const auto *Compound = dyn_cast_or_null<CompoundStmt>(Body);
  if (!Compound)
    return false;
  auto Position = [&](const Stmt *S) -> int {
    for (const Stmt *Cur = S; Cur; Cur = Parents.getParent(Cur))
      if (Parents.getParent(Cur) == Compound) {
        int I = 0;
        for (const Stmt *Child : Compound->body()) {
          if (Child == Cur)
            return I;
          ++I;
        }
      }
    return -1;
  };
  int FromAt = Position(From), ToAt = Position(To);
  if (FromAt < 0 || ToAt < 0)
    return false;
  for (const SyncPoint &Sync : Syncs) {
    if (!Sync.Block && !(AnySync && Sync.Warp))
      continue;
    int At = Position(Sync.Call);
    const Stmt *Statement = At < 0 ? nullptr : Compound->body_begin()[At];
    // Only a barrier that is the whole statement runs on every round.
    const auto *Call = Statement ? dyn_cast<Expr>(Statement) : nullptr;
    if (!Call || Call->IgnoreImplicit() != Sync.Call)
      continue;
    if (At > FromAt || At < ToAt)
      return true;
  }
  return false;
}

/// Whether \p S lies inside a loop of the function \p Parents maps.
bool insideLoop(const ParentMap &Parents, const Stmt *S) {
  for (S = Parents.getParent(S); S; S = Parents.getParent(S))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
      return true;
  return false;
}

/// For a barrier branch's condition over \p Atoms: the innermost loop whose
/// counter it reads and that counter, when the others are counters of
/// loops around it or uniform values. Over unknown uniform values alone the
/// branch may skip its barrier in every iteration: a loop counter says in
/// which it does, with those values beside it (`if (pass != npass - 1)
/// __syncthreads();`, skipped only in the last pass of `for (pass = 0; pass
/// < npass; ++pass)`).
std::pair<const Stmt *, unsigned>
innermostCounter(const SymbolicTranslator &Sym, llvm::ArrayRef<unsigned> Atoms,
                 const ParentMap &Parents) {
  std::pair<const Stmt *, unsigned> Found{nullptr, 0};
  if (llvm::any_of(Atoms, [&](unsigned Atom) {
        return Sym.atoms()[Atom].IterationNumber;
      }))
    return Found;
  for (unsigned Atom : Atoms) {
    const Stmt *Loop = Sym.atoms()[Atom].Loop;
    if (Sym.atoms()[Atom].isLoopCounter() &&
        llvm::all_of(Atoms, [&](unsigned Other) {
          return !Sym.atoms()[Other].isLoopCounter() ||
                 isInside(Parents, Loop, Sym.atoms()[Other].Loop);
        }))
      Found = {Loop, Atom};
  }
  return Found;
}

} // namespace

RaceConcurrency::RaceConcurrency(const KernelRaceContext &K,
                                 const SyncingLoopTests *Running)
    : Col(K.Col), Context(K.Context), Deps(K.Deps), Sym(K.Sym),
      Accesses(K.Accesses), Parents(K.Parents), HelperOrders(K.Col),
      ImpliedBranches(branchesImpliedByLoops(K.Kernel->getBody())) {
  // A loop every iteration of which passes a barrier leaves at its first
  // test only for some values of its condition (cudf's `while (numvals >
  // 0)` under `numvals > 0`): those of Running are taken to pass it, as
  // below.
  // A loop test has two predecessors, the block before the loop and the
  // one its back edge leaves from (marked with the loop as its target);
  // anything else (an increment that branches) is left alone.
  for (const CFGBlock *B : Deps.getCFG()) {
    const Stmt *Test = B->getTerminatorStmt();
    if (!isa_and_nonnull<ForStmt, WhileStmt>(Test) || B->pred_size() != 2)
      continue;
    const CFGBlock *First = *B->pred_begin(), *Second = *(B->pred_begin() + 1);
    if (First && First->getLoopTarget() == Test)
      std::swap(First, Second);
    if (First && Second && Second->getLoopTarget() == Test &&
        First->getLoopTarget() != Test &&
        (loopRunsAtLeastOnce(Test, Context) || (Running && Running->count(B))))
      FirstTestEntries[B] = First;
  }
  for (unsigned I = 0; I < Accesses.size(); ++I)
    AccessesAt[Accesses[I].Anchor].push_back(I);
  Reach.assign(Accesses.size(), ReachSet());
  WarpReach = Reach;
  Unreleased.assign(Accesses.size(), false);
  DivergencesOf.assign(Accesses.size(), {});
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    // What a helper does before its barrier reaches nothing past the call.
    if (Accesses[I].Segment == CallSegment::BeforeBarrier)
      continue;
    const SharedAccess *Copy = Accesses[I].isAsync() ? &Accesses[I] : nullptr;
    bool NotReleased = false;
    walk(Accesses[I].Block, Accesses[I].Index, false, Reach[I], {}, Copy,
         nullptr, &NotReleased);
    Unreleased[I] = NotReleased;
    walk(Accesses[I].Block, Accesses[I].Index, true, WarpReach[I], {}, Copy);
  }
  // Distributed shared memory: only when another block's is reached.
  if (llvm::any_of(Accesses, [](const SharedAccess &A) { return A.Remote; }))
    Cluster =
        std::make_unique<ClusterOrder>(Col, Accesses, AccessesAt, Sym, Parents);
  for (const CFGBlock *B : Deps.getCFG()) {
    // An `if`, not a loop's condition: leaving a loop is not skipping a
    // barrier in the iteration.
    if (B->succ_size() != 2 || (Deps.getConditionDeps(B) & dep::Thread) ||
        !isa_and_nonnull<IfStmt>(B->getTerminatorStmt()))
      continue;
    bool GuardsBarrier = llvm::any_of(B->succs(), [&](const CFGBlock *Succ) {
      return Succ && llvm::any_of(*Succ, [&](const CFGElement &Element) {
               auto CS = Element.getAs<CFGStmt>();
               const SyncPoint *Sync = CS ? Col.syncAt(CS->getStmt()) : nullptr;
               return Sync && Sync->Block;
             });
    });
    if (!GuardsBarrier)
      continue;
    const auto *Condition = dyn_cast<Expr>(B->getTerminatorCondition());
    if (!Condition)
      continue;
    BarrierBranch BB;
    BB.Branch = B;
    BB.Condition = Sym.translate(Condition);
    if (Sym.isUnknown(BB.Condition) || Sym.usesThread(BB.Condition))
      continue;
    llvm::SmallVector<unsigned, 2> ConditionAtoms;
    Sym.collectAtoms(BB.Condition, ConditionAtoms);
    std::tie(BB.Innermost, BB.Counter) =
        innermostCounter(Sym, ConditionAtoms, Parents);
    if (!BB.Innermost)
      continue;
    BarrierBranches.push_back(BB);
  }
  for (const CFGBlock *B : Deps.getCFG()) {
    if (B->succ_size() < 2 || !(Deps.getConditionDeps(B) & dep::Thread))
      continue;
    Divergence D;
    D.Branch = B;
    for (const CFGBlock *Succ : B->succs()) {
      D.Sides.emplace_back();
      D.WarpSides.emplace_back();
      D.WaitedSides.emplace_back();
      D.WaitedWarpSides.emplace_back();
      if (!Succ)
        continue;
      WaitPoints Waits, WarpWaits;
      walk(Succ, 0, false, D.Sides.back(), {}, nullptr, &Waits);
      walk(Succ, 0, true, D.WarpSides.back(), {}, nullptr, &WarpWaits);
      for (auto [Block, Index] : Waits)
        walk(Block, Index, false, D.WaitedSides.back());
      for (auto [Block, Index] : WarpWaits)
        walk(Block, Index, true, D.WaitedWarpSides.back());
    }
    for (const auto *Sides : {&D.Sides, &D.WaitedSides})
      for (const ReachSet &Side : *Sides)
        for (const auto &Entry : Side)
          if (!llvm::is_contained(DivergencesOf[Entry.first],
                                  Divergences.size()))
            DivergencesOf[Entry.first].push_back(Divergences.size());
    Divergences.push_back(std::move(D));
  }
}

RaceConcurrency::~RaceConcurrency() = default;

bool RaceConcurrency::mayOutliveOwner(unsigned I) const {
  return Cluster && Cluster->mayOutliveOwner(I);
}

std::set<std::pair<unsigned, unsigned>>
RaceConcurrency::candidatePairs() const {
  std::set<std::pair<unsigned, unsigned>> Candidates;
  auto Add = [&](unsigned I, unsigned J) {
    Candidates.insert({std::min(I, J), std::max(I, J)});
  };
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    Add(I, I);
    for (const auto &Entry : Reach[I])
      Add(I, Entry.first);
  }
  for (const Divergence &D : Divergences)
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = 0; SB < D.Sides.size(); ++SB) {
        if (SA == SB)
          continue;
        if (SA < SB)
          for (const auto &A : D.Sides[SA])
            for (const auto &B : D.Sides[SB])
              Add(A.first, B.first);
        for (const auto *Sides : {&D.Sides, &D.WaitedSides})
          for (const auto &A : (*Sides)[SA])
            for (const auto &B : D.WaitedSides[SB])
              Add(A.first, B.first);
      }
  for (const auto &Entry : AccessesAt)
    for (unsigned I : Entry.second)
      for (unsigned J : Entry.second)
        Add(I, J);
  if (Cluster)
    Cluster->addCandidates(Add);
  return Candidates;
}

PairConcurrency RaceConcurrency::concurrent(unsigned IA, unsigned IB) const {
  // Threads of two blocks: one access reached from the other with no
  // cluster barrier. They are in no warp together.
  if (crossBlock(IA, IB))
    return {Cluster && (Cluster->reach(IA, IB) || Cluster->reach(IB, IA)),
            false};
  // In flight together: one reached from the other with no block barrier,
  // or the two sides of a divergence; with only warp syncs between, only
  // threads of two warps.
  bool Concurrent = false, WarpConcurrent = false;
  for (auto [From, To] : {std::pair(IA, IB), std::pair(IB, IA)}) {
    Concurrent |= bits(Reach[From], To) != 0;
    WarpConcurrent |= bits(WarpReach[From], To) != 0;
  }
  for (unsigned DI : DivergencesOf[IA]) {
    if (!llvm::is_contained(DivergencesOf[IB], DI) ||
        (IA == IB && Accesses[IA].Means == AccessMeans::Collective))
      continue;
    const Divergence &D = Divergences[DI];
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = 0; SB < D.Sides.size(); ++SB)
        for (unsigned BitA = 1; SA != SB && BitA <= 2; ++BitA)
          for (unsigned BitB = 1; BitB <= 2; ++BitB)
            if (sidesInFlight(D, SA, SB, IA, IB, BitA, BitB, false)) {
              Concurrent = true;
              WarpConcurrent |=
                  sidesInFlight(D, SA, SB, IA, IB, BitA, BitB, true);
            }
  }
  return {Concurrent, WarpConcurrent};
}

bool RaceConcurrency::sidesInFlight(const Divergence &D, unsigned SA,
                                    unsigned SB, unsigned IA, unsigned IB,
                                    unsigned BitA, unsigned BitB,
                                    bool Warp) const {
  const std::vector<ReachSet> &Plain = Warp ? D.WarpSides : D.Sides;
  const std::vector<ReachSet> &Waited =
      Warp ? D.WaitedWarpSides : D.WaitedSides;
  // Against an access the other side makes after waiting: one made after
  // a wait as well, or one before any that this side never releases by
  // arriving at a barrier.
  auto AgainstWaited = [&](unsigned S, unsigned I) {
    return bits(Waited[S], I) | (Unreleased[I] ? bits(Plain[S], I) : 0);
  };
  return ((bits(Plain[SA], IA) & BitA) && (bits(Plain[SB], IB) & BitB)) ||
         ((AgainstWaited(SA, IA) & BitA) && (bits(Waited[SB], IB) & BitB)) ||
         ((bits(Waited[SA], IA) & BitA) && (AgainstWaited(SB, IB) & BitB));
}

void RaceConcurrency::walk(const CFGBlock *From, unsigned FromIndex,
                           bool StopAtWarpSync, ReachSet &Out,
                           ClosedEdge Closed, const SharedAccess *Copy,
                           WaitPoints *WaitStops, bool *Unreleased) const {
  // Breadth-first over (block, went round a loop, the order state below)
  // from just after element FromIndex of From, stopping at barriers.
  //
  // The order state: whether the way has passed the first half of a split
  // barrier (then its second half stops the walk: what a thread did before
  // arriving happens before what the others do after waiting; what it does
  // between the halves does not); and, for a walk from an asynchronous
  // copy, whether the copy is still in flight, and how many of its track's
  // batches have been committed since it was issued. In flight, a copy
  // crosses barriers: only after the wait that completes it does a barrier
  // order it against the other threads.
  llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> Seen;
  struct Item {
    const CFGBlock *Block;
    unsigned Index;
    bool Crossed;
    bool FirstTest;
    bool Moved; // Closed.Loop's counters may have changed.
    bool Arrived;
    bool InFlight;
    unsigned Commits;
  };
  // FirstTest: the block is the test of a loop of FirstTestEntries, reached
  // from outside the loop (not by its back edge), so the exit edge is not
  // taken: the path runs the body and meets the barriers in it. A walk that
  // starts in such a test may be past its first pass and leaves both ways.
  // A cooperative-groups copy has committed its batch when issued.
  unsigned FirstCommits = Copy && Copy->Means == AccessMeans::GroupCopy &&
                                  Copy->Track == AsyncTrack::Primitives
                              ? 1
                              : 0;
  constexpr unsigned MaxCommits = 9;
  std::deque<Item> Queue{{From, FromIndex, false, false, false, false,
                          Copy != nullptr, FirstCommits}};
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
      const SyncPoint *Sync = Col.syncAt(CS->getStmt());
      // Released: stopping here, this way has arrived at a barrier the
      // others can wait on (or its copy's phase is over).
      bool Stops = false, Released = false;
      if (Sync && Cur.InFlight) {
        const AccessOrder &Order = Sync->Order;
        if (Order.Commit && Order.Track == Copy->Track)
          Cur.Commits = std::min(Cur.Commits + 1, MaxCommits);
        // The barrier-tracked copies belong to the phase they were issued
        // in: its wait completes them, whatever was committed, and for
        // every thread that waits on the phase, not only for this one (the
        // phase ends only once the copies have landed), so the wait orders
        // the copy before what the waiters do next.
        if (Order.Completes >= 0 && Order.Track == Copy->Track &&
            (Copy->Track == AsyncTrack::Barrier ||
             Cur.Commits > static_cast<unsigned>(Order.Completes))) {
          Cur.InFlight = false;
          Stops = Released = Copy->Track == AsyncTrack::Barrier;
        }
      }
      if (Sync && !Cur.InFlight && !Stops) {
        if (WaitStops && (Sync->Named ||
                          (Sync->Order.Wait && !Sync->Block && !Cur.Arrived))) {
          // A side of a branch that waits at a named barrier, or on a
          // split barrier it has not arrived at: what follows is ordered
          // after what the other side released by arriving, and nothing
          // else (the caller walks on from here).
          WaitStops->push_back({Cur.Block, Index});
          Stops = true;
        } else {
          Stops = Sync->Block || (Sync->Order.Wait && Cur.Arrived) ||
                  (StopAtWarpSync && Sync->Warp);
          Released = Cur.Arrived || Sync->Named || Sync->Order.Arrive;
        }
        Cur.Arrived |= Sync->Order.Arrive;
      }
      // A call that holds a barrier: only the helper's accesses before its
      // first barrier are reached.
      auto At = AccessesAt.find(CS->getStmt());
      if (At != AccessesAt.end())
        for (unsigned I : At->second)
          if (!Stops || Accesses[I].Segment != CallSegment::AfterBarrier)
            Out[I] |= (Cur.Crossed ? 2 : 1) | (!Closed.Loop  ? 0
                                               : Cur.Moved   ? MovedBit
                                               : Cur.Crossed ? StayedBit
                                                             : 0);
      if (Stops) {
        if (Unreleased && !Released)
          *Unreleased = true;
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    if (Unreleased && Cur.Block->succ_empty() && !Cur.Arrived)
      *Unreleased = true;
    const Stmt *Round = Cur.Block->getLoopTarget();
    bool Crossed = Cur.Crossed || Round;
    bool Moved = Cur.Moved || (Round && (!Closed.Loop || Round == Closed.Loop ||
                                         !isInside(Round, Closed.Loop)));
    // The else edge of a branch that repeats its loop's condition is never
    // taken: it must not carry accesses past the barrier on the other edge.
    const auto *If = dyn_cast_or_null<IfStmt>(Cur.Block->getTerminatorStmt());
    bool OnlyThen = (If && ImpliedBranches.count(If)) || Cur.FirstTest;
    for (const CFGBlock *Succ : Cur.Block->succs()) {
      if (OnlyThen && Succ != *Cur.Block->succ_begin())
        break;
      if (!Succ ||
          (!Moved && Cur.Block == Closed.Branch && Succ == Closed.Succ))
        continue;
      bool FirstTest = FirstTestEntries.lookup(Succ) == Cur.Block;
      if (!Seen.insert({Succ, (Crossed ? 1u : 0u) | (FirstTest ? 2u : 0u) |
                                  (Moved ? 4u : 0u) | (Cur.Arrived ? 8u : 0u) |
                                  (Cur.InFlight ? 16u : 0u) |
                                  (Cur.Commits << 5)})
               .second)
        continue;
      Queue.push_back({Succ, 0, Crossed, FirstTest, Moved, Cur.Arrived,
                       Cur.InFlight, Cur.Commits});
    }
  }
}

const RaceConcurrency::ReachSet &
RaceConcurrency::skipWalk(const CFGBlock *From, unsigned FromIndex,
                          unsigned Branch, int ClosedSucc,
                          bool StopAtWarpSync) const {
  auto Key = std::make_tuple(From->getBlockID(), FromIndex, Branch, ClosedSucc,
                             StopAtWarpSync);
  auto It = SkipWalks.find(Key);
  if (It != SkipWalks.end())
    return It->second;
  const BarrierBranch &BB = BarrierBranches[Branch];
  ReachSet Out;
  if (ClosedSucc < 0)
    walk(From, FromIndex, StopAtWarpSync, Out,
         {nullptr, nullptr, BB.Innermost});
  else
    walk(From, FromIndex, StopAtWarpSync, Out,
         {BB.Branch, *(BB.Branch->succ_begin() + ClosedSucc), BB.Innermost});
  return SkipWalks.emplace(Key, std::move(Out)).first->second;
}

std::optional<RaceConcurrency::SkipCut>
RaceConcurrency::barrierSkip(const CFGBlock *From, unsigned FromIndex,
                             const Stmt *Anchor, unsigned To, bool OnB) const {
  // A cut: when, with one of a branch's edges closed, the walk no longer
  // reaches To after going round the branch's loop, every such way takes
  // that edge, in the anchor's iteration (no round of the loop yet).
  for (unsigned BI = 0; BI < BarrierBranches.size(); ++BI) {
    const BarrierBranch &BB = BarrierBranches[BI];
    const Stmt *Terminator = BB.Branch->getTerminatorStmt();
    if (!isInside(Anchor, BB.Innermost) || !isInside(Terminator, BB.Innermost))
      continue;
    const ReachSet &Open = skipWalk(From, FromIndex, BI, -1, false);
    if (!(bits(Open, To) & MovedBit))
      continue;
    bool Polarity = true; // The first successor is the true edge.
    int SuccIndex = 0;
    for (const CFGBlock *Succ : BB.Branch->succs()) {
      if (Succ && !(bits(skipWalk(From, FromIndex, BI, SuccIndex, false), To) &
                    MovedBit)) {
        SkipCut Cut;
        Cut.Skip = {BB.Condition, Polarity, BB.Counter, OnB};
        Cut.SameIterationToo = bits(Open, To) & StayedBit;
        Cut.WarpRound =
            bits(skipWalk(From, FromIndex, BI, -1, true), To) & MovedBit;
        return Cut;
      }
      Polarity = false;
      ++SuccIndex;
    }
  }
  return std::nullopt;
}

bool RaceConcurrency::leavesUnsynced(unsigned I) {
  auto [It, Inserted] = LeavesUnsynced.try_emplace(I, false);
  if (!Inserted)
    return It->second;
  const SharedAccess &X = Accesses[I];
  const CFGBlock *Exit = &Deps.getCFG().getExit();
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work{
      {X.Block, X.Index}};
  while (!Work.empty()) {
    auto [Block, From] = Work.pop_back_val();
    if (Block == Exit)
      return It->second = true;
    bool Stopped = false;
    unsigned Index = 0;
    for (const CFGElement &Element : *Block) {
      if (++Index <= From)
        continue;
      auto CS = Element.getAs<CFGStmt>();
      if (const SyncPoint *Sync = CS ? Col.syncAt(CS->getStmt()) : nullptr;
          Sync && Sync->meetsOthers()) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Succ : Block->succs())
      if (Succ && Seen.insert(Succ).second)
        Work.push_back({Succ, 0});
  }
  return false;
}

bool RaceConcurrency::loopHasBarrier(const Stmt *Loop, bool WarpToo) {
  auto [It, Inserted] =
      (WarpToo ? LoopWarpSyncs : LoopBarriers).try_emplace(Loop, false);
  if (Inserted)
    for (const SyncPoint &Sync : Col.syncPoints())
      if ((Sync.Block || (WarpToo && Sync.Warp)) && isInside(Sync.Call, Loop)) {
        It->second = true;
        break;
      }
  return It->second;
}

llvm::SmallVector<RaceConcurrency::Path, 6>
RaceConcurrency::paths(unsigned IA, unsigned IB) {
  const SharedAccess &A = Accesses[IA], &B = Accesses[IB];
  llvm::SmallVector<Path, 6> Paths;
  // Two accesses of one call: for the lanes of a warp in one run of it,
  // their order inside the helper.
  bool OneCallSite = IA != IB && A.Anchor == B.Anchor && A.Segment == B.Segment;
  bool OneCall = OneCallSite && A.Via && A.Via == B.Via;
  HelperWarpOrder InCall;
  bool CallInLoop = OneCall && insideLoop(Parents, A.Anchor);
  if (OneCall)
    InCall = HelperOrders.order(A, B);
  // Two threads in one block primitive share its storage as its contract
  // says; only a second use of the storage needs a barrier before it.
  if (IA == IB) {
    if (A.Means != AccessMeans::Collective)
      Paths.push_back({Self, 0, 0, nullptr, true});
  } else if (OneCallSite) { // Two accesses inside one inlined call.
    Path P{AThenB, 0, 0, nullptr, InCall.Unsynced};
    P.WarpSameRound = InCall.SameRound;
    Paths.push_back(std::move(P));
  }
  // A way round a loop through a barrier branch splits in two: round that
  // loop, where the branch's condition must skip the barrier, and round
  // inner loops only, in the same iteration of it.
  auto AddPath = [&](Path P, const CFGBlock *From, unsigned FromIndex,
                     const Stmt *Anchor, unsigned To, bool OnB) {
    std::optional<SkipCut> Cut =
        BarrierBranches.empty() ? std::nullopt
                                : barrierSkip(From, FromIndex, Anchor, To, OnB);
    if (!Cut) {
      Paths.push_back(P);
      return;
    }
    if (Cut->SameIterationToo) {
      Path Stay = P;
      Stay.SameIterationOf = Cut->Skip.Counter;
      Paths.push_back(Stay);
    }
    P.Skip = Cut->Skip;
    P.WarpRound = Cut->WarpRound;
    Paths.push_back(P);
  };
  for (unsigned Bit = 1; Bit <= 2; ++Bit) {
    if (bits(Reach[IA], IB) & Bit) {
      Path P{AThenB, 0, Bit - 1, nullptr, (bits(WarpReach[IA], IB) & Bit) != 0};
      if (Bit == 2)
        AddPath(P, A.Block, A.Index, A.E, IB, false);
      else
        Paths.push_back(P);
    }
    if (IA != IB && (bits(Reach[IB], IA) & Bit)) {
      Path P{BThenA, Bit - 1, 0, nullptr, (bits(WarpReach[IB], IA) & Bit) != 0};
      if (Bit == 2)
        AddPath(P, B.Block, B.Index, B.E, IA, true);
      else
        Paths.push_back(P);
    }
  }
  for (unsigned DI : DivergencesOf[IA]) {
    // Both sides of a branch reaching one block primitive meet in it.
    if (!llvm::is_contained(DivergencesOf[IB], DI) ||
        (IA == IB && A.Means == AccessMeans::Collective))
      continue;
    const Divergence &D = Divergences[DI];
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = 0; SB < D.Sides.size(); ++SB) {
        if (SA == SB)
          continue;
        for (unsigned BitA = 1; BitA <= 2; ++BitA)
          for (unsigned BitB = 1; BitB <= 2; ++BitB)
            if (sidesInFlight(D, SA, SB, IA, IB, BitA, BitB, false)) {
              // A warp sync on one side orders nothing for a lane that
              // reached its access with no sync on the other side and may
              // then leave the kernel unsynced (softmax_forward_kernel7's
              // `if (tid >= C) { maxvals[w] = -INFINITY; return; }` against
              // lane 0's store after the warp reduction).
              bool WarpA = (bits(D.WarpSides[SA], IA) |
                            bits(D.WaitedWarpSides[SA], IA)) &
                           BitA;
              bool WarpB = (bits(D.WarpSides[SB], IB) |
                            bits(D.WaitedWarpSides[SB], IB)) &
                           BitB;
              bool Unordered = (WarpA && leavesUnsynced(IA)) ||
                               (WarpB && leavesUnsynced(IB));
              Path P{Diverged, BitA - 1, BitB - 1, D.Branch,
                     sidesInFlight(D, SA, SB, IA, IB, BitA, BitB, true) ||
                         Unordered};
              // Both sides then run one call (in the same pass, or the call
              // is in no loop): the helper orders the lanes.
              if (OneCall && ((BitA == 1 && BitB == 1) || !CallInLoop)) {
                P.Warp = P.Warp && InCall.Unsynced;
                P.WarpSameRound = InCall.SameRound;
              }
              // An access reached without going round a loop is in the
              // divergence's iteration: the other's way is the one to cut.
              bool AnchorA = BitA == 1;
              const CFGBlock *Succ =
                  *(D.Branch->succ_begin() + (AnchorA ? SB : SA));
              if (BitA == BitB || !Succ)
                Paths.push_back(P);
              else
                AddPath(P, Succ, 0, AnchorA ? A.E : B.E, AnchorA ? IB : IA,
                        !AnchorA);
            }
      }
  }
  return Paths;
}

namespace {

/// The iteration relation for loop counter \p Atom that a helper's
/// placement gives (2 when none): an access placed at its call's first
/// (last) barrier interval is there only in the first (last) iteration of
/// the helper's loops that sync every iteration (SharedAccess::
/// FirstIterationOf), as a block reduction's halving loop, whose later
/// rounds each follow a barrier. Both in the last is not a relation the
/// questions know; A in the last keeps that question a superset.
int helperIterations(const SharedAccess &A, const SharedAccess &B,
                     unsigned Atom) {
  bool AFirst = llvm::is_contained(A.FirstIterationOf, Atom),
       BFirst = llvm::is_contained(B.FirstIterationOf, Atom),
       ALast = llvm::is_contained(A.LastIterationOf, Atom),
       BLast = llvm::is_contained(B.LastIterationOf, Atom);
  return AFirst && BFirst ? 3
         : AFirst         ? 7
         : BFirst         ? 9
         : ALast          ? 6
         : BLast          ? 8
                          : 2;
}

} // namespace

llvm::SmallVector<RaceScenario, 4>
RaceConcurrency::scenarios(unsigned IA, unsigned IB,
                           llvm::SmallVectorImpl<unsigned> &Atoms,
                           bool SameValueInWarp) {
  if (crossBlock(IA, IB))
    return Cluster ? Cluster->scenarios(IA, IB, Atoms)
                   : llvm::SmallVector<RaceScenario, 4>();
  const SharedAccess &A = Accesses[IA], &B = Accesses[IB];
  llvm::SmallVector<Path, 6> Paths = paths(IA, IB);
  if (Paths.empty())
    return {};

  llvm::SmallVector<RaceScenario, 4> Scenarios;
  // Going round a loop that does not hold both accesses says nothing about
  // their order.
  bool SharedLoop = false;
  for (const Stmt *Cur = Parents.getParent(A.E); Cur && !SharedLoop;
       Cur = Parents.getParent(Cur))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Cur) &&
        isInside(B.E, Cur))
      SharedLoop = true;
  if (!SharedLoop)
    for (Path &P : Paths)
      P.CrossA = P.CrossB = 0;

  // The conditions' loop counters take part in the question like the
  // accesses' own.
  for (const Path &P : Paths)
    if (P.Skip)
      Sym.collectAtoms(P.Skip->Condition, Atoms);

  // The iteration relation of loop counter \p Atom on path \p P. With
  // \p WarpLevel, for two lanes of one warp: a warp-level sync is a barrier
  // for them, so a loop each round of which passes one (a warp reduction's
  // halving loop that ends in `__syncwarp()`) keeps them in one round as a
  // block barrier keeps two threads; and a helper's loop no warp-sync-free
  // way round which joins the two accesses (P.WarpSameRound).
  auto RelationOf = [&](const Path &P, unsigned Atom, bool WarpLevel) {
    const SymAtom &Info = Sym.atoms()[Atom];
    int Relation = 2;
    if (WarpLevel && Info.isLoopCounter() &&
        llvm::is_contained(P.WarpSameRound, Info.Loop))
      return 0;
    if (Info.isLoopCounter() && loopHasBarrier(Info.Loop, WarpLevel)) {
      bool InA = isInside(A.E, Info.Loop), InB = isInside(B.E, Info.Loop);
      auto Passes = [&](const Expr *From, const Expr *To) {
        return roundPassesBarrier(Parents, Col.syncPoints(), Info.Loop, From,
                                  To, WarpLevel);
      };
      switch (P.Kind) {
      case Self:
        Relation = 0;
        break;
      case AThenB:
        // Going round a loop whose body holds a barrier as a plain
        // statement passes that barrier: a barrier-free way round is an
        // inner loop's, in the same iteration of this one.
        // Not for a copy in flight, which crosses barriers.
        Relation = InA && InB ? (P.CrossB && !A.isAsync() && Passes(A.E, B.E)
                                     ? 0
                                     : static_cast<int>(P.CrossB))
                   : InA      ? 6
                   : InB      ? 9
                              : 2;
        break;
      case BThenA:
        Relation = InA && InB ? (P.CrossA && !B.isAsync() && Passes(B.E, A.E)
                                     ? 0
                                     : -static_cast<int>(P.CrossA))
                   : InB      ? 8
                   : InA      ? 7
                              : 2;
        break;
      case Diverged: {
        bool InBranch = isInside(P.Branch->getTerminatorStmt(), Info.Loop);
        // Entered after the branch, a loop whose every round passes a
        // barrier of its body is in its first iteration on both sides:
        // the sides' walks stop at barriers. Having gone round another
        // loop on the way (a grid-strided loop before it) says nothing
        // about this one.
        if (InA && InB && InBranch)
          Relation = static_cast<int>(P.CrossB) - static_cast<int>(P.CrossA);
        else if (InA && InB &&
                 ((!P.CrossA && !P.CrossB) ||
                  (Passes(A.E, A.E) && Passes(B.E, B.E))))
          Relation = 3;
        // The same for one access in the loop and the other past it.
        else if (InA && !InB && !InBranch && (!P.CrossA || Passes(A.E, A.E)))
          Relation = 7;
        else if (InB && !InA && !InBranch && (!P.CrossB || Passes(B.E, B.E)))
          Relation = 9;
        break;
      }
      }
    }
    if (Relation == 2)
      Relation = helperIterations(A, B, Atom);
    if (static_cast<int>(Atom) == P.SameIterationOf)
      Relation = 0;
    return Relation;
  };

  for (const Path &P : Paths) {
    RaceScenario S;
    S.Skip = P.Skip;
    // Each path's own ways: one on which every way passes a warp-level
    // sync orders the lanes of a warp. Round the branch's loop, a warp
    // sync on the barrier-free side does.
    S.DifferentWarpsOnly =
        !P.Warp || SameValueInWarp || (P.Skip && !P.WarpRound);
    S.Order = P.Kind == AThenB ? 1
              : P.Kind == BThenA
                  ? -1
                  : static_cast<int>(P.CrossB) - static_cast<int>(P.CrossA);
    S.LaterIteration = P.Kind == AThenB   ? P.CrossB
                       : P.Kind == BThenA ? P.CrossA
                                          : P.CrossA != P.CrossB;
    for (unsigned Atom : Atoms)
      S.Relation.push_back(RelationOf(P, Atom, false));
    // The branch's condition is stated for the next or previous iteration
    // only.
    if (S.Skip) {
      int Relation =
          S.Relation[llvm::find(Atoms, S.Skip->Counter) - Atoms.begin()];
      if (Relation != 1 && Relation != -1) {
        S.Skip.reset();
        S.DifferentWarpsOnly = !P.Warp || SameValueInWarp;
      }
    }
    // Two lanes of one warp on a warp-sync-free way: the scenario splits
    // in two when warp syncs relate the iterations more tightly than block
    // barriers do: threads of two warps as above, any two threads with the
    // warp-level relations.
    llvm::SmallVector<RaceScenario, 2> Split{S};
    if (!S.DifferentWarpsOnly && !S.Skip) {
      RaceScenario Lanes = S;
      Lanes.Relation.clear();
      for (unsigned Atom : Atoms)
        Lanes.Relation.push_back(RelationOf(P, Atom, true));
      if (Lanes.Relation != S.Relation) {
        Split[0].DifferentWarpsOnly = true;
        Split.push_back(Lanes);
      }
    }
    for (const RaceScenario &One : Split) {
      bool Seen = false;
      for (const RaceScenario &Other : Scenarios)
        if (Other.Relation == One.Relation && Other.Order == One.Order &&
            Other.LaterIteration == One.LaterIteration &&
            Other.DifferentWarpsOnly == One.DifferentWarpsOnly &&
            Other.Skip == One.Skip)
          Seen = true;
      if (!Seen)
        Scenarios.push_back(One);
    }
  }
  return Scenarios;
}

} // namespace clang::cuda_tidy
