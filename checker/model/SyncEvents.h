//===--- SyncEvents.h - What each CUDA call means for ordering --*- C++ -*-===//
//
// The event vocabulary of the CUDA model: one classification of every call
// (and of the barrier instructions of inline asm) into a typed event, which
// every analysis reads instead of matching names of its own. An event says
// what the call is (its kind, the threads it concerns, its mask, count,
// stage, storage and data operands) and, separately, what the analyses make
// of it today (isBarrier, ordersWarp, the result facts, Modelled,
// AtomicTarget). The second part is the one place to change when an analysis
// learns a kind: the classification stays.
//
// The kinds, their spellings, and what the analyses make of each today:
//
//   Barrier        every thread of Scope waits for all the others:
//                  `__syncthreads`, `__syncthreads_and/_or/_count`,
//                  `__barrier_sync(id)` and the NVVM builtins under them,
//                  `thread_block::sync`, `cg::sync(block)`, and as wider
//                  barriers `cluster_group::sync` (Scope Cluster) and
//                  `grid_group::sync` (Scope Grid). A barrier, through
//                  isBarrier. Also `cuda::barrier`'s arrive_and_wait
//                  (Storage: the barrier) and the named barriers with a
//                  thread count (`__nvvm_barrier_sync_cnt(id, n)`, asm
//                  `bar.sync id, n`: BarrierId, ThreadCount): no barrier
//                  every thread must reach (isBarrier: the init call's
//                  count, or the named count, says which do), but an order
//                  of accesses (accessOrder).
//   BarrierArrive  the first half of a split barrier: `__cluster_barrier_
//                  arrive(_relaxed)`, a group's barrier_arrive, `cuda::
//                  barrier::arrive`, asm `bar.arrive id, n`. accessOrder:
//                  Arrive.
//   BarrierWait    the second half: `__cluster_barrier_wait` and a group's
//                  barrier_wait are read as full barriers of their Scope by
//                  isBarrier, as if the arrive were there; `cuda::barrier::
//                  wait` is not. accessOrder: Wait (what a thread did before
//                  its Arrive is ordered before what the others do after
//                  their Wait).
//   WarpSync       `__syncwarp(mask)` (Mask). Orders the lanes.
//   TileSync       a tile's or another group's sync(): `tile.sync()`,
//                  `cg::sync(tile)`, with TileSize when the tile is static.
//                  Orders the lanes, as a warp sync.
//   AsyncCopy      an asynchronous copy issued (Destination, Source, Size):
//   AsyncCommit    per thread `__pipeline_memcpy_async`, `__pipeline_
//   AsyncWait      commit`, `__pipeline_wait_prior(N)` (Stage), `cuda::
//                  memcpy_async` with a pipeline or a barrier (Storage),
//                  `cuda::pipeline`'s producer_commit and consumer_wait,
//                  `cuda::pipeline_consumer_wait_prior<N>`; per group (Group)
//                  `cg::memcpy_async`, `cg::wait`, `cg::wait_prior<N>`. All
//                  modelled: the race analysis reads a copy as a write in
//                  flight until a wait of its track (copyTrack) completes
//                  it, and the commits and waits through accessOrder. A
//                  wait on a group ends in the group's sync: `cg::wait(
//                  block)` is a barrier, `cg::wait(tile)` orders the lanes.
//   Collective     a group's collective, on temporary storage where it has
//                  some: CUB's block primitives (`cub::BlockReduce(temp).
//                  Sum(x)`: Storage the TempStorage, Scope Block) are
//                  modelled by their contract (a thread-dependent result; a
//                  use of the storage that needs a barrier before the next
//                  one), not their bodies; `cg::reduce`, `cg::inclusive_
//                  scan`, `cg::exclusive_scan` (Group, Value) order the
//                  lanes and have thread-dependent results.
//   Shuffle        `__shfl*_sync` (Mask, Value, Lane, Width) and a group's
//   Vote           shfl*; `__ballot_sync`, `__all_sync`, `__any_sync`,
//   Match          `__uni_sync` and a group's ballot/any/all; `__match_*_
//   WarpReduce     sync` and a group's match_*; `__reduce_*_sync`. All order
//                  the lanes and have thread-dependent results. Only the
//                  `_sync` spellings synchronise: the old maskless ones
//                  (`__shfl`, `__ballot`) and the NVVM builtins whose names
//                  do not end in `_sync` are Other.
//   ActiveMask     `__activemask()`: a thread-dependent result, no order.
//   AtomicUpdate   atomics (`atomicAdd`, `__atomic*`, `__nvvm_atom*`,
//                  `__nv_atomic*`, cuda::atomic and atomic_ref members): a
//                  thread-dependent result. The shared-memory accesses read
//                  AtomicTarget, by spelling (see there).
//   Fence          `__threadfence*`: modelled, orders nothing the analyses
//                  use.
//   DeviceLaunch   a kernel launched from device code: modelled, so that no
//                  analysis follows it as a call (its blocks have shared
//                  memory of their own; none of it runs in this thread).
//   Other          another modelled call, known for its result: thread-
//                  dependent (clocks, lane and thread ids, a group's
//                  thread_rank), the same in the whole block (a group's
//                  size) or differing between the blocks of a cluster or
//                  between clusters (a block's rank); Query says what a
//                  group's member query asks. Events of other kinds carry
//                  result facts too (`__syncthreads_or`, the shuffles).
//   None           everything else, user functions first: not modelled.
//
// Everything is matched by name, namespace and class, never by builtin ID
// (CudaModel.h says why). A call that is not modelled is what it always was:
// the analyses follow its body where they follow calls, and its result is
// unknown. No analysis matches a function's name of its own: what a call
// means for ordering, every one reads here.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_SYNCEVENTS_H
#define CUDA_TIDY_MODEL_SYNCEVENTS_H

#include "model/CudaModel.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang::cuda_tidy {

enum class SyncKind {
  None,
  Barrier,
  BarrierArrive,
  BarrierWait,
  WarpSync,
  TileSync,
  AsyncCopy,
  AsyncCommit,
  AsyncWait,
  Collective,
  Shuffle,
  Vote,
  Match,
  WarpReduce,
  ActiveMask,
  AtomicUpdate,
  Fence,
  DeviceLaunch,
  Other,
};

/// Which lane a shuffle reads: the one given, one below or above by a
/// delta, or the one a lane mask flips to.
enum class ShuffleMode { Index, Up, Down, Xor };

/// What a vote answers: whether all, any or each lane's predicate holds, or
/// whether the predicate is the same in every lane; Other for a name of the
/// warp families ending in `_sync` that is none of these.
enum class VoteMode { All, Any, Ballot, Uniform, Other };

/// What a collective computes.
enum class CollectiveOp { Reduce, Scan, Other };

/// What a member query of a cooperative group asks.
enum class GroupQuery {
  None,
  ThreadIndex,
  DimThreads,
  ThreadRank,
  MetaGroupRank
};

/// An operand of an event: the expression written, or, where the spelling
/// fixes it instead (a template argument, a literal in asm, the barrier 0
/// of `__syncthreads`), its value.
struct SyncOperand {
  const Expr *E = nullptr;
  std::optional<std::uint64_t> Constant;

  bool present() const { return E || Constant; }
  /// The value, when it is fixed or \p E folds to a constant (zero-extended
  /// from its type's width).
  std::optional<std::uint64_t> value(const ASTContext &Context) const;
};

/// Which completion mechanism an asynchronous copy is tracked by, and so
/// which waits complete it: the pipeline primitives (`__pipeline_*`, and
/// cooperative groups' copies and waits, which are written over them), a
/// `cuda::barrier`'s phase, or a `cuda::pipeline`'s stages.
enum class AsyncTrack { Primitives, Barrier, Pipeline };

/// What an event does to the order of one thread's shared-memory accesses
/// against the other threads', as the race analysis reads it (SyncEvent::
/// accessOrder; the kinds above say which event is which).
struct AccessOrder {
  /// Every access before it, in every thread of the block, happens before
  /// every access after it: a block barrier, `cuda::barrier::arrive_and_
  /// wait`, a named barrier (read so whatever its thread count, which can
  /// only hide a race between threads it does not count, never invent one),
  /// a cooperative-groups wait on the block.
  bool Barrier = false;
  /// The first half of a split barrier: this thread's accesses before it
  /// happen before the other threads' accesses after their Wait.
  bool Arrive = false;
  bool Wait = false;
  /// Closes a batch of this thread's asynchronous copies (`__pipeline_
  /// commit`, a cooperative-groups copy, `cuda::pipeline::producer_commit`).
  bool Commit = false;
  /// Completes this thread's asynchronous copies of Track but those of the
  /// Completes most recent batches; -1 when it completes none.
  int Completes = -1;
  AsyncTrack Track = AsyncTrack::Primitives;

  bool ordersAnything() const {
    return Barrier || Arrive || Wait || Commit || Completes >= 0;
  }
};

/// What a call means, in the vocabulary above.
struct SyncEvent {
  SyncKind Kind = SyncKind::None;
  /// The threads the event concerns when they are a block, a cluster or the
  /// grid: a barrier's, a split barrier's, a CUB block primitive's, the
  /// thread_scope of a libcu++ barrier or pipeline, and those of the group a
  /// cooperative-groups member call is made on.
  std::optional<BarrierScope> Scope;
  /// How a diagnostic names the callee ("__syncthreads",
  /// "thread_block::sync"); the function's name for unmodelled free
  /// functions, empty for other unmodelled calls.
  std::string Name;
  /// The callee is part of an API modelled here; its body, if any, must not
  /// be analysed (cooperative groups' internals, for example).
  bool Modelled = false;

  /// The lanes that take part (`__syncwarp`, shuffles, votes, matches, warp
  /// reductions). A group's member calls have none: the group is the mask.
  SyncOperand Mask;
  /// The value a shuffle moves, a vote tests, a reduction, scan or match
  /// combines, or the predicate of `__syncthreads_or`.
  const Expr *Value = nullptr;
  /// The lane a shuffle reads (source lane, delta or lane mask), and the
  /// width of the segments it shuffles within.
  const Expr *Lane = nullptr;
  SyncOperand Width;
  ShuffleMode Shuffle = ShuffleMode::Index;
  VoteMode Vote = VoteMode::All;
  CollectiveOp Collective = CollectiveOp::Other;
  /// The cooperative group a per-group event runs on (the object of a
  /// member call, the group argument of a free function).
  const Expr *Group = nullptr;
  /// The size of the static tile a group event runs on (the first template
  /// argument of the group's class), whatever its value.
  std::optional<std::uint64_t> TileSize;
  /// A hardware barrier's number, and the threads a named barrier waits for.
  SyncOperand BarrierId;
  SyncOperand ThreadCount;
  /// How many committed batches of asynchronous copies may still be in
  /// flight after a wait (`__pipeline_wait_prior(N)`, `cg::wait_prior<N>`;
  /// 0 for `cg::wait`).
  SyncOperand Stage;
  /// The object the event works through: a CUB primitive's TempStorage, the
  /// pipeline or barrier of `cuda::memcpy_async`, a `cuda::barrier` or
  /// `cuda::pipeline`, the object of a `cuda::atomic` member.
  const Expr *Storage = nullptr;
  /// What an asynchronous copy writes, from where and how much (bytes, or
  /// elements for the counted forms); the pointer a free-function atomic
  /// updates.
  const Expr *Destination = nullptr;
  const Expr *Source = nullptr;
  const Expr *Size = nullptr;
  /// Storage is an mbarrier: a 64-bit word in shared memory (its address in
  /// `cuda::ptx` calls and inline PTX), not a `cuda::barrier` object.
  bool OnMbarrier = false;
  /// The bytes of an inline-PTX `cp.async`, a literal of the instruction;
  /// its Destination is then the 32-bit shared address operand.
  std::optional<std::uint64_t> AsmBytes;

  /// A CUB block primitive whose algorithms all hold a block barrier
  /// inside (BlockReduce, BlockScan, BlockExchange, BlockRadixSort and the
  /// rest; not BlockLoad and BlockStore, whose direct, striped and
  /// vectorised algorithms sync nothing). CUB does not document it; every
  /// algorithm of these classes has one (`CTA_SYNC()`), with one warp's
  /// blocks as the exception, where no other warp is there to race.
  bool HoldsBlockBarrier = false;
  /// The result may differ between threads of one block.
  bool ThreadDependentResult = false;
  /// The result is the same in every thread of the block whatever the
  /// arguments are (`__syncthreads_or`, a block's size).
  bool UniformResult = false;
  /// The result may differ between blocks of one cluster (a block's rank in
  /// the grid or the cluster, `__syncthreads_or`), or between clusters
  /// (a cluster's rank). Either may hold with UniformResult.
  bool BlockDependentResult = false;
  bool ClusterDependentResult = false;
  /// For a cooperative group's member query (thread_index(), thread_rank()
  /// and the like), what it asks; with Scope and TileSize, of what group.
  GroupQuery Query = GroupQuery::None;

  /// The pointer the shared-memory accesses record as an atomic update: the
  /// first argument, when a pointer, of any function spelled `atomic...` or
  /// `__atomic...` (user functions so spelled too; `__nvvm_atom*` and
  /// `__nv_atomic*` are not read so).
  const Expr *AtomicTarget = nullptr;
  /// Whether AtomicTarget holds where the call sits in a helper the kernel
  /// calls: only for the `atomic...` spelling; a helper's `__atomic...`
  /// calls have never been read as atomic updates.
  bool AtomicInHelpers = false;

  /// Whether the analyses read the event as a barrier that every thread of
  /// Scope must reach (see the kinds above).
  /// A vote that reduces over the lanes (`__all_sync`, `__any_sync`,
  /// `__ballot_sync`) or a `__reduce_*_sync`: every lane of the mask gets
  /// the same result.
  bool isLaneReduction() const {
    return Kind == SyncKind::WarpReduce ||
           (Kind == SyncKind::Vote &&
            (Vote == VoteMode::All || Vote == VoteMode::Any ||
             Vote == VoteMode::Ballot));
  }
  /// A cooperative-groups `reduce` over a group.
  bool isGroupReduce() const {
    return Kind == SyncKind::Collective && Collective == CollectiveOp::Reduce &&
           Group;
  }
  bool isBarrier() const;
  /// Whether the analyses read the event as ordering the lanes of a warp
  /// (or of a tile of one).
  bool ordersWarp() const;
  /// What the race analysis reads the event as, in the order of accesses.
  AccessOrder accessOrder(const ASTContext &Context) const;
  /// For an asynchronous copy, the wait that completes it.
  AsyncTrack copyTrack() const;
};

/// Classifies \p CE. Calls to user functions come back of kind None,
/// unmodelled.
SyncEvent classifySync(const CallExpr *CE);

/// Classifies an inline asm statement that is one barrier instruction
/// (`bar.sync 1, 128;`, `barrier.cluster.wait;`) or one per-thread
/// asynchronous copy instruction (`cp.async.ca.shared.global [%0], [%1],
/// 4;`, `cp.async.commit_group;`, `cp.async.wait_group 0;`); kind None for
/// any other.
/// The race analysis reads its accessOrder (named barriers, `bar.arrive`);
/// the other analyses treat asm as asm.
SyncEvent classifyAsm(const GCCAsmStmt *Asm);

/// The one event a wrapper performs: the asm statement or modelled call
/// (Site) of a helper whose body does nothing else that orders accesses.
struct WrappedEvent {
  SyncEvent Event;
  const Stmt *Site = nullptr;
};

/// When \p Definition wraps one asynchronous copy, commit, wait, named or
/// split barrier operation (ggml's `cp_async_cg_16<preload>`, flashinfer's
/// `cp_async::commit_group()`, CUTLASS's `ClusterBarrier::wait`): its body,
/// with the arms of `if`s whose conditions fold in this instance pruned
/// (`if (preload == 256)`), holds exactly one such asm statement or call,
/// under no other condition and in no loop, and no block barrier. Its
/// operands are the wrapper's expressions (its parameters, its locals).
/// Calls of user functions inside are not followed.
std::optional<WrappedEvent> wrappedEvent(const FunctionDecl *Definition,
                                         const ASTContext &Context);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_SYNCEVENTS_H
