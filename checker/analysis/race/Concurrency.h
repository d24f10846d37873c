//===--- Concurrency.h - Which shared accesses may run at once --*- C++ -*-===//
//
// The race analysis's first stage (SharedMemoryRace.h, step 2): which
// accesses of a kernel two threads of a block may have in flight together,
// and in which iterations of their loops. It reads only the kernel's CFG,
// its synchronisation points and the accesses' places; what the accesses
// touch is the decisions' question (Overlap.h, DataIndexed.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_CONCURRENCY_H
#define CUDA_TIDY_ANALYSIS_RACE_CONCURRENCY_H

#include "analysis/CalleeBodies.h"
#include "analysis/race/HelperOrder.h"
#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

namespace clang::cuda_tidy {

class ClusterOrder;

/// Whether two accesses can be in flight together at all: with no block
/// barrier between them (Concurrent), and with no warp-level sync either
/// (WarpConcurrent; without it only threads of two warps can meet).
struct PairConcurrency {
  bool Concurrent = false;
  bool WarpConcurrent = false;
};

/// The barrier intervals of a kernel over its CFG: for each access, the
/// accesses reached from it without passing a block barrier (and without a
/// warp-level sync), the two sides of each thread-dependent branch, and the
/// uniform branches that skip a barrier in some iterations of their loop.
/// From these it answers which pairs may run at once and in what
/// scenarios (RaceScenario), which the decisions then ask about.
class RaceConcurrency {
public:
  /// Walks the CFG from every access and every divergence: linear in the
  /// kernel, as the reach sets are sparse.
  /// \p Running: loop tests (of syncingLoopTests) whose first test is
  /// taken as one that passes, so that the way that leaves such a loop
  /// before any iteration, which only some values of its condition take, is
  /// not; none: every way is taken.
  explicit RaceConcurrency(const KernelRaceContext &K,
                           const SyncingLoopTests *Running = nullptr);
  ~RaceConcurrency();

  /// The pairs of accesses (I <= J) that can be in flight together, in the
  /// order the quadratic loop over all pairs used to visit them: an access
  /// with itself, one reached from another, the two sides of a divergence,
  /// two accesses of one inlined call.
  std::set<std::pair<unsigned, unsigned>> candidatePairs() const;
  /// Whether accesses \p IA and \p IB are in flight together: one reached
  /// from the other with no block barrier, or the two sides of a
  /// divergence.
  PairConcurrency concurrent(unsigned IA, unsigned IB) const;
  /// The scenarios in which accesses \p IA and \p IB can run at once in two
  /// threads, each relating the iterations of every loop counter of
  /// \p Atoms (the atoms of the pair's offsets and guards, to which this
  /// adds those of the barrier branches' conditions it states); none when
  /// a barrier orders them. \p SameValueInWarp: the pair is one store of a
  /// value every lane of a warp agrees on, so only threads of two warps
  /// race.
  llvm::SmallVector<RaceScenario, 4>
  scenarios(unsigned IA, unsigned IB, llvm::SmallVectorImpl<unsigned> &Atoms,
            bool SameValueInWarp);
  /// Whether \p Loop holds a block barrier (or, \p WarpToo, a warp-level
  /// sync).
  bool loopHasBarrier(const Stmt *Loop, bool WarpToo = false);
  /// Whether one of \p IA and \p IB reaches another block's shared memory
  /// (SharedAccess::Remote) and the other is the owner's own access: a pair
  /// of threads of two blocks, which only cluster barriers order.
  bool crossBlock(unsigned IA, unsigned IB) const {
    return Accesses[IA].Remote != Accesses[IB].Remote;
  }
  /// For an access of another block's shared memory: whether the thread may
  /// reach the end of the kernel after it without a cluster barrier, so
  /// that the block owning the memory may have exited before it.
  bool mayOutliveOwner(unsigned I) const;

private:
  /// Accesses reached from a point, each with bit 1 (in the same pass of
  /// the enclosing loops) and bit 2 (after going round a loop). Sparse: an
  /// access reaches the few accesses of its barrier interval, so the sets
  /// stay linear in the kernel's size.
  using ReachSet = llvm::DenseMap<unsigned, std::uint8_t>;
  /// With a ClosedEdge's loop: reached after going round that loop (or one
  /// that is not inside it).
  static constexpr std::uint8_t MovedBit = 4;
  /// With a ClosedEdge's loop: reached after going round inner loops only.
  static constexpr std::uint8_t StayedBit = 8;
  static std::uint8_t bits(const ReachSet &Set, unsigned I) {
    auto It = Set.find(I);
    return It == Set.end() ? 0 : It->second;
  }
  /// A uniform branch one of whose successors holds a block barrier, on a
  /// condition over loop counters only (`if (dividedAt > warpSize / 2)
  /// __syncthreads(); else __syncwarp();` in a loop over `divideBy`):
  /// whether the barrier runs is decided per iteration.
  struct BarrierBranch {
    const CFGBlock *Branch = nullptr;
    SymId Condition = -1;
    /// The innermost loop whose counter the condition reads, and that
    /// counter: outer loops' counters keep their values round it.
    const Stmt *Innermost = nullptr;
    unsigned Counter = 0;
  };
  /// What barrierSkip() found on the ways to an access.
  struct SkipCut {
    BarrierSkip Skip;
    /// Some way goes round an inner loop only, in the same iteration of
    /// the loop of Skip.Counter.
    bool SameIterationToo = false;
    /// Some way round that loop passes no warp-level sync either.
    bool WarpRound = false;
  };
  /// An edge (a branch and one of its successors) a walk does not take
  /// while the counters of Loop keep their values: before going round Loop
  /// or a loop that is not inside it.
  /// (Members without initialisers: `= {}`, which zeroes them, is the
  /// default argument of walk() inside this class.)
  struct ClosedEdge {
    const CFGBlock *Branch, *Succ;
    const Stmt *Loop;
  };
  /// How two accesses can be in flight at once: the same statement in two
  /// threads, one reached from the other with no barrier between, or the
  /// two sides of a thread-dependent branch.
  enum PathKind { Self, AThenB, BThenA, Diverged };
  struct Path {
    PathKind Kind;
    unsigned CrossA = 0, CrossB = 0; // Went round a loop to get there.
    const CFGBlock *Branch = nullptr;
    bool Warp = false; // Also with no warp-level sync between.
    std::optional<BarrierSkip> Skip = {};
    bool WarpRound = false;
    /// The loop counter (atom) that stays in the same iteration.
    int SameIterationOf = -1;
    /// A helper's loops in whose same round two lanes of one warp make the
    /// two accesses of one call (helperWarpOrder).
    llvm::SmallVector<const Stmt *, 1> WarpSameRound = {};
  };

  /// The accesses reached from just after element \p FromIndex of \p From
  /// with no barrier between (see the .cpp for the order state it keeps);
  /// \p Copy: the asynchronous copy the walk starts at, if it does.
  /// \p WaitStops: for a side of a branch, where to stop and record the
  /// place: at a named barrier, or at a wait on a split barrier the way has
  /// not arrived at. \p Unreleased: set when some way reaches the end of
  /// the kernel, or stops at a barrier, without having arrived at one the
  /// other threads can wait on.
  using WaitPoints =
      llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 2>;
  void walk(const CFGBlock *From, unsigned FromIndex, bool StopAtWarpSync,
            ReachSet &Out, ClosedEdge Closed = {},
            const SharedAccess *Copy = nullptr, WaitPoints *WaitStops = nullptr,
            bool *Unreleased = nullptr) const;
  /// The barrier branches that every barrier-free way from element
  /// \p FromIndex of \p From to access \p To that goes round the
  /// branch's loop passes before it does, with the value that takes the
  /// barrier-free side, to hold in the iteration of \p Anchor (the access
  /// the way starts in: B's when \p OnB).
  std::optional<SkipCut> barrierSkip(const CFGBlock *From, unsigned FromIndex,
                                     const Stmt *Anchor, unsigned To,
                                     bool OnB) const;
  const ReachSet &skipWalk(const CFGBlock *From, unsigned FromIndex,
                           unsigned Branch, int ClosedSucc,
                           bool StopAtWarpSync) const;
  /// The ways accesses \p IA and \p IB are in flight at once.
  llvm::SmallVector<Path, 6> paths(unsigned IA, unsigned IB);
  /// Whether the thread that runs access \p I may leave the kernel after it
  /// without meeting a barrier or warp-level sync: nothing the other lanes
  /// sync on afterwards orders it then (the exited lane takes no part).
  bool leavesUnsynced(unsigned I);
  bool isInside(const Stmt *S, const Stmt *Outer) const {
    return cuda_tidy::isInside(Parents, S, Outer);
  }

  SharedAccessCollector &Col;
  ASTContext &Context;
  const FunctionDependence &Deps;
  SymbolicTranslator &Sym;
  const std::vector<SharedAccess> &Accesses;
  const ParentMap &Parents;
  HelperWarpOrders HelperOrders;
  /// Branches that repeat their loop's condition (branchesImpliedByLoops).
  llvm::SmallPtrSet<const IfStmt *, 4> ImpliedBranches;
  /// The tests of the `for` and `while` loops whose first test always
  /// passes (loopRunsAtLeastOnce), each with the one block that enters it
  /// from outside the loop: from there the path runs the body.
  llvm::DenseMap<const CFGBlock *, const CFGBlock *> FirstTestEntries;
  /// For each access, the accesses reached from it without a block barrier
  /// (bit 1: in the same pass of the enclosing loops; bit 2: after going
  /// round a loop), and the same without any warp-level sync either.
  std::vector<ReachSet> Reach, WarpReach;
  llvm::DenseMap<const Stmt *, bool> LoopBarriers, LoopWarpSyncs;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 1>> AccessesAt;
  /// Thread-dependent branches, and for each side the accesses reached from
  /// it without a block barrier (and without a warp sync), as in Reach.
  /// WaitedSides: what each side reaches after it waits at a named barrier
  /// or on a split barrier it did not arrive at (WaitStops), up to its next
  /// barrier. Such an access is ordered after what the other side did
  /// before arriving, not after what it does after arriving or never
  /// releases (Unreleased): the roles of a warp-specialised kernel.
  struct Divergence {
    const CFGBlock *Branch = nullptr;
    std::vector<ReachSet> Sides, WarpSides, WaitedSides, WaitedWarpSides;
  };
  /// Whether accesses \p IA on side \p SA and \p IB on side \p SB of \p D
  /// are in flight together with the round bits \p BitA and \p BitB (with
  /// no warp-level sync between either, when \p Warp).
  bool sidesInFlight(const Divergence &D, unsigned SA, unsigned SB, unsigned IA,
                     unsigned IB, unsigned BitA, unsigned BitB,
                     bool Warp) const;
  std::vector<Divergence> Divergences;
  /// For each access, whether the thread may go on from it to the end of
  /// the kernel or to a barrier without arriving at a barrier first.
  std::vector<bool> Unreleased;
  /// When the kernel reaches another block's shared memory: the order of
  /// two blocks' threads (ClusterOrder.h).
  std::unique_ptr<ClusterOrder> Cluster;
  std::vector<BarrierBranch> BarrierBranches;
  /// barrierSkip()'s walks depend on where they start and on the branch,
  /// not on the access they are asked about: kept per (start block, start
  /// index, branch, closed successor or none, stop at warp syncs), so a
  /// kernel with many pairs to one access walks each once.
  mutable std::map<std::tuple<unsigned, unsigned, unsigned, int, bool>,
                   ReachSet>
      SkipWalks;
  /// For each access, the divergences on some side of which it lies.
  std::vector<llvm::SmallVector<unsigned, 2>> DivergencesOf;
  llvm::DenseMap<unsigned, bool> LeavesUnsynced;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_CONCURRENCY_H
