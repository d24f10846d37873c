//===--- SharedMemoryRace.h - Unordered shared-memory accesses --*- C++ -*-===//
//
// Finds pairs of accesses to the same __shared__ element by two different
// threads of a block, at least one a write, that no barrier orders.
//
// ## How
// 1. Accesses. Every read, write, read-modify-write and atomic on shared
//    memory in a kernel: static arrays, scalars and structs, `extern
//    __shared__` pools (all one object), and pointers carved from them
//    (`&s[i]`, `pool + n`, casts, a `SharedMemory<T>` style accessor whose
//    body returns the pool). Each gets its byte offset and the
//    thread-dependent conditions that guard it, both as symbolic
//    expressions (SymbolicIndex.h).
// 2. Barrier intervals. A forward dataflow over the CFG computes, for each
//    access, the barriers (and the kernel entry) from which it is reached
//    without passing another block barrier, and whether the way there
//    crosses a loop's back edge. Two accesses can run concurrently in two
//    threads when they share such a start: that covers straight-line code,
//    both sides of a branch, and the loop-carried case (this iteration's
//    read against the next iteration's write). The same is computed with
//    warp-level synchronisation (`__syncwarp`, tile syncs, `_sync` shuffles
//    and votes) as starts too: two accesses separated only by those can
//    race only between threads of different warps. A uniform branch over
//    loop counters with a block barrier on one side is decided per
//    iteration: when closing its other edge cuts every way round its loop
//    from one access to the other (a second walk), the way exists only in
//    iterations where the condition picks that edge, and the condition
//    joins the question (step 3) for the first access's iteration.
// 3. Threads. Candidate pairs are only those that can be in flight
//    together (same barrier interval, the two sides of a divergence, one
//    inlined call), found from sparse reach sets: linear in the kernel.
//    For each, when every leaf is known once the block shape is fixed, the
//    offsets and guards are evaluated for every thread of the block and
//    every listed value of the loop counters involved (the same iteration,
//    adjacent iterations, or any two when no barrier keeps the threads in
//    step). Otherwise (unknown uniform values, unlisted loops, or too many
//    points) the question goes to the SMT core (ExactQuery.h), which also
//    defines "certain" (generic values of the unknowns) against
//    "possible" (reported only when asked). Answers are cached per pair
//    of index shapes, for all kernels of the translation unit (instances
//    of one template or macro kernel ask the same questions); a
//    per-kernel work budget (counted, not timed, so
//    that the output is the same on any machine) ends in one
//    handleIncomplete() rather than silence.
// 4. Values. Two writes of one value are no race: when both store values
//    with a symbolic form, a collision is confirmed only if the solver finds
//    colliding threads whose stored values differ.
// 5. Data. An atomic whose index is data reduced into the array
//    (`counts[in[i] % 64]`) may hit any element of the range. Against a
//    plain access it is enumerated over the block: certain when some
//    thread's atomic meets another thread's access for every element of
//    the range (a for-all over the data the solver's existential queries
//    do not state), possible when it meets one for some element.
//
// The block shape comes from launches in the same translation unit, else
// from __launch_bounds__, else from an assumption (stated in the report).
// Under an assumption, a pair whose accesses leave the variable for some
// thread is dropped: the assumed shape is not the one the kernel is for.
//
// ## Stages
// Each question has a class and a file of its own, in this folder, as
// clang's ThreadSafety keeps translation, fixpoint and handler apart; what
// passes between them (the kernel's context, the work budget RaceWork, a
// scenario, a verdict, a witness) is in RaceCommon.h.
// - Translation: SharedAccessCollector (../SharedAccesses.h), step 1: the
//   accesses, their offsets and guards as terms, and the sync points.
// - Which accesses may run at the same time: RaceConcurrency
//   (Concurrency.h), step 2 and the candidate pairs of step 3. It owns the
//   reach sets, the divergences and the barrier branches, and answers, for
//   a pair, the scenarios (RaceScenario: the loops' iterations, the order,
//   whether only threads of two warps meet, a barrier branch's condition)
//   in which both are in flight.
// - Whether two of them can touch the same bytes, in a scenario:
//   OverlapDecision (Overlap.h) keeps the answers (AnswerCache) and
//   enumerates the block; OverlapSolver (OverlapSolver.h) encodes the
//   question for the solver (steps 3 and 4). DataIndexedDecision
//   (DataIndexed.h) decides atomics at a data index (step 5). Facts they
//   take as given: StoredValues (StoredValues.h), what two stores write
//   (step 4), and WarpUniformity (WarpUniformity.h), values every lane of
//   a warp agrees on, which lanes of one warp store without racing.
// - How a finding is told: RaceReport (RaceReport.h), the witness in words,
//   the order of the two accesses and the barrier's certain place, to the
//   SharedRaceHandler; no other stage reports.
// The driver, KernelRaceFinder (SharedMemoryRace.cpp), takes every
// candidate pair under every block shape through them until the work
// budget, which the decisions charge, is spent.
//
// ## What the stages stand on
// - The event vocabulary (model/SyncEvents.h): what every call means for
//   ordering, classified once in the CUDA model. The collector's sync
//   points are its barriers and warp-ordering events (isBarrier,
//   ordersWarp); the warp-uniformity facts read its votes, lane reductions,
//   shuffles and group reductions. No stage matches a function's name.
//   Events the stages do not order by yet (asynchronous copies, the halves
//   of a split barrier, named barriers with a thread count, library
//   collectives on temporary storage) are classified there, not here, and
//   stay what they were: calls whose bodies are followed, or unknowns.
// - The launch model (model/LaunchModel.h): the block shapes a kernel is
//   analysed with (its launches by every route the model resolves, the
//   launch index's, else the shapes its own code allows, else the assumed
//   ones), the constant arguments and the relations between parameters and
//   the block, each launch resolved once and named in the notes by where it
//   came from; when a launch's block is no constant, the notes name that
//   launch and say why.
// - The thread-dependence analysis (analysis/dependence/ThreadDependence.h):
//   which values and branches differ between threads, for the guards and
//   the divergences.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_SHAREDMEMORYRACE_H
#define CUDA_TIDY_ANALYSIS_RACE_SHAREDMEMORYRACE_H

#include "analysis/SharedAccesses.h"
#include "analysis/dependence/ThreadDependence.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

/// The local variable that \p Loop, a butterfly reduction over the whole
/// warp (`for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff,
/// v, o);`, offsets 16..1, width 32, a step whose result does not depend on
/// the order of its operands), leaves the same in every lane; null when
/// \p Loop is not one. One of WarpUniformity's proofs (WarpUniformity.cpp),
/// declared here for the dependence analysis, which uses it too.
const VarDecl *butterflyReduction(const Stmt *Loop, const ASTContext &Ctx);

struct SharedRace {
  const FunctionDecl *Kernel = nullptr;
  const VarDecl *Variable = nullptr;
  /// The access reached first and the one reached second.
  const Expr *First = nullptr;
  const Expr *Second = nullptr;
  /// The call in the kernel through which First or Second is reached, when
  /// it is inside a __device__ function given a pointer into shared memory.
  const CallExpr *FirstVia = nullptr;
  const CallExpr *SecondVia = nullptr;
  AccessKind FirstKind = AccessKind::Write;
  AccessKind SecondKind = AccessKind::Read;
  enum Kind {
    ReadAfterWrite,
    WriteAfterRead,
    WriteAfterWrite
  } Order = ReadAfterWrite;
  /// Both accesses go through volatile and race only inside one warp: the
  /// legacy warp-synchronous idiom, which sm_70 and later do not support.
  bool WarpSynchronous = false;
  /// A witness exists only for some values of unknown uniform values, or
  /// (for an atomic at a data-dependent index) only for some data.
  bool Possible = false;
  /// "thread (1,0,0) writes 'tile[1]' and thread (0,0,0) reads it".
  std::string Witness;
  /// The witness's threads, by linear id in Shape: the one that makes the
  /// first access and the one that makes the second; -1 when unknown.
  std::int64_t FirstThread = -1, SecondThread = -1;
  /// The values the witness gives what is the same in every thread (the
  /// unknowns, the parameters launches fix, blockIdx), as data: what a
  /// reproducer launches with. Var is null for blockIdx and for values
  /// that are no variable.
  struct WitnessValue {
    const VarDecl *Var = nullptr;
    std::string Name;
    std::int64_t Number = 0;
  };
  llvm::SmallVector<WitnessValue, 2> Values;
  /// For a race at a data-dependent index that happens only for some data:
  /// what the data must hold ("'bins[t]' == 3"); empty otherwise.
  std::string NeedsData;
  /// When the data the witness needs is one value in all of a read-only
  /// parameter's memory: the fills that give it; a reproducer can fill its
  /// buffers so.
  llvm::SmallVector<InputFill, 1> InputFills;
  /// The block shape the witness is for, and whether it was assumed.
  BlockShape Shape;
  /// The statement before which a `__syncthreads();` certainly belongs, or
  /// null when its place is not certain.
  const Stmt *InsertBarrierBefore = nullptr;
  /// When First is an asynchronous copy in flight: what completes it
  /// ("'__pipeline_wait_prior' or 'cooperative_groups::wait'"); a barrier
  /// orders it for the other threads only after that.
  std::string FirstCompletedBy;
  /// The wait completes the copy for every thread that waits on the same
  /// barrier phase (a `cuda::barrier` or an mbarrier), not only for the
  /// thread that issued it.
  bool CompletedForWaiters = false;
  /// When both are uses of a CUB block primitive's TempStorage.
  bool ReusedTempStorage = false;
  /// The two threads are of two blocks of a cluster (one access reaches the
  /// other block's shared memory through map_shared_rank).
  bool OtherBlock = false;
  /// When Kernel is a helper analysed as a piece of a kernel: the kernel's
  /// call of it that gave the block shape and the arguments.
  const CallExpr *CalledFrom = nullptr;
};

/// An access of another block's shared memory (through map_shared_rank)
/// after which the thread may reach the end of the kernel with no cluster
/// barrier: the block that owns the memory may have exited by then, and
/// its shared memory with it.
struct OwnerMayExit {
  const FunctionDecl *Kernel = nullptr;
  const VarDecl *Variable = nullptr;
  const Expr *Access = nullptr;
  AccessKind Kind = AccessKind::Read;
};

/// Why a kernel was not fully analysed.
enum class IncompleteReason {
  /// Its race analysis passed RaceOptions::WorkBudget.
  WorkBudget
};

class SharedRaceHandler {
public:
  virtual ~SharedRaceHandler();
  virtual void handleRace(const SharedRace &Race) = 0;
  /// Called once for a kernel whose analysis stopped early: races in it may
  /// be missing, and the user must be told.
  virtual void handleIncomplete(const FunctionDecl *Kernel,
                                IncompleteReason Reason) {}
  virtual void handleOwnerMayExit(const OwnerMayExit &Finding) {}
};

/// RaceOptions::WorkBudget's default: about ten seconds of the slowest
/// kind of work on a 2-core VM, and above the enumeration's own cap of 40
/// million evaluations per kernel, so that no kernel the former 2-second
/// processor-time budget let finish is cut. GROMACS's foreign-lambda
/// kernels need 6.8 million, llm.c's layernorm and fused-residual kernels
/// 13-17 million; llm.c's attention_forward_kernel2 passes it.
constexpr unsigned DefaultWorkBudget = 50'000'000;

struct RaceOptions {
  /// Block shapes assumed for kernels with no launch in the translation
  /// unit and no __launch_bounds__, by the highest threadIdx dimension used.
  AssumedShapes Assumed = {{{BlockShape{{256, 1, 1}, true}},
                            {BlockShape{{16, 16, 1}, true}},
                            {BlockShape{{8, 8, 4}, true}}}};
  bool ReportPossibleRaces = false;
  /// Work one kernel's race analysis may do before it stops and says so
  /// (0: no limit). Counted, not timed, so that the output is the same on
  /// any machine and under any load: Z3's resource units of every solver
  /// query, QueryWork more per query for setting it up, and one unit per
  /// thread evaluated by the exact enumeration. About 6,000 units are a
  /// millisecond on the development machine.
  unsigned WorkBudget = DefaultWorkBudget;
  /// Z3 resource units one solver query may use before it gives up (about
  /// 300 ms of Z3 on the development machine; deterministic, unlike time).
  unsigned QueryResourceLimit = 2000000;
};

class SharedMemoryRaceAnalysis {
public:
  SharedMemoryRaceAnalysis(ThreadDependenceAnalysis &Dependence,
                           SharedRaceHandler &Handler, RaceOptions Options);
  ~SharedMemoryRaceAnalysis();

  /// Analyses \p Kernel for each of \p Shapes (the block shapes it is
  /// launched with; empty when unknown), with the launch relations
  /// \p Relations (BlockShape::Relations) on every shape, the assumed ones
  /// included.
  void analyzeKernel(const FunctionDecl *Kernel,
                     llvm::ArrayRef<BlockShape> Shapes,
                     llvm::ArrayRef<ArgumentRelation> Relations = {});

private:
  /// The race analysis of one body (a kernel's, or a helper's run as a
  /// piece of one), reporting to \p To.
  /// \p Bound: the body's parameters that point to the start of a shared
  /// variable (SharedAccessCollector::bindParameter).
  using ParameterBindings =
      llvm::ArrayRef<std::pair<const ParmVarDecl *, const VarDecl *>>;
  /// \p Values: the body's integer parameters and the caller's value of
  /// each (SharedAccessCollector::bindValue).
  using ParameterValues =
      llvm::ArrayRef<std::pair<const ParmVarDecl *, const Expr *>>;
  void analyzeBody(const FunctionDependence &Deps, SharedRaceHandler &To,
                   llvm::ArrayRef<BlockShape> Shapes,
                   llvm::ArrayRef<ArgumentRelation> Relations,
                   ParameterBindings Bound = {}, ParameterValues Values = {});
  /// The helpers \p Deps's kernel calls that have shared variables of their
  /// own and barriers, each analysed once with the kernel's shapes.
  void analyzeHelpers(const FunctionDependence &Deps,
                      llvm::ArrayRef<BlockShape> Shapes);

  ThreadDependenceAnalysis &Dependence;
  SharedRaceHandler &Handler;
  RaceOptions Options;
  llvm::SmallPtrSet<const FunctionDecl *, 4> HelpersDone;
  llvm::DenseMap<const FunctionDecl *, bool> HelperDeclaresShared;

public:
  /// Answers shared by the kernels analysed with this object.
  struct AnswerCache;

private:
  std::unique_ptr<AnswerCache> Answers;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_SHAREDMEMORYRACE_H
