//===--- ThreadDependence.h - Which values differ between threads -*- C++ -*-//
//
// # Thread dependence (divergence) analysis
//
// The question every cuda-tidy check asks first is: may this value, or this
// branch condition, differ between two threads of the same block? A barrier
// under such a branch may be reached by some threads and not others; a
// shared-memory index built from such a value names different elements in
// different threads. This file answers it for one function body at a time,
// over Clang's CFG, and summarises each function for its callers.
//
// ## Terms
// A *dependence set* (DepSet) is a small bit set. Bit `Thread` means "may
// differ between threads of one block", bit `Block` "may differ between
// blocks of one cluster" (so also between blocks of the grid), bit `Cluster`
// "may differ between clusters of the grid". A barrier of the block needs
// its deciding branches free of `Thread`; one of a cluster (`cluster.sync()`)
// free of `Thread` and `Block`; one of the grid (`grid.sync()`) free of all
// three: threads of one block that disagree split the grid as surely as
// blocks that disagree. The other bits are symbolic: bit
// `param(i)` means "depends on parameter i of the function being analysed",
// bit `Object` means "depends on the implicit object or a lambda's captures".
// A method's reads of single members of its object (`this->m`), and a
// lambda's reads of single captures, get bits of their own
// (`objectMember(slot)`, eight per function; past them, `Object`): a call
// instantiates each with that member of the object it is called on, so a
// condition on `this->stages` is not blamed on the thread's own `offset`.
// Constructors' member initialisers and `this->m = v` are summarised per
// member too, so that a local object built from `threadIdx.x` keeps its
// other members uniform.
// Symbolic bits let a `__device__` function be analysed once and its summary
// instantiated at each call with the dependence sets of the arguments: the
// way calls are followed without giving up and without re-analysing bodies.
//
// ## What is modelled
// - Sources: `threadIdx.*`, shuffles, votes, atomics, clocks, lane and warp
//   registers read by inline asm, cooperative-groups ranks (CudaModel.h).
// - Uniform in the block by construction: `blockIdx`, `blockDim`, `gridDim`,
//   constants, kernel parameters, template arguments, `__syncthreads_or` and
//   friends. Of these, `blockIdx`, a block's or cluster's rank, `%ctaid`,
//   `%smid` and `__syncthreads_or` may differ between blocks (bit `Block`),
//   a cluster's index between clusters (bit `Cluster`).
// - Memory: a load is thread-dependent iff its address is. Shared and global
//   variables are memory, so `s[0]` or a `__shared__ bool` flag read after a
//   barrier is uniform; `s[threadIdx.x]` is not. Whether two threads race on
//   that memory is another check's business. A load from a `__shared__`
//   variable may differ between blocks: each block has its own copy.
// - Local variables (registers) are tracked flow-sensitively: assignments,
//   compound assignments, increments, declarations, references bound to
//   locals, members and elements of local aggregates, writes
//   through pointer and reference parameters (into the summary), inline asm
//   outputs. A pointer to a thread's own variable is taken to carry that
//   variable's dependence.
// - Control dependence: a value assigned in a block that is control
//   dependent, directly or transitively, on a thread-dependent branch is
//   thread-dependent after the join (threads disagree on whether the
//   assignment happened). The branch conditions themselves depend on the
//   values, so the dataflow and the condition sets are iterated together to
//   a fixpoint; both only grow, so this terminates.
// - Uniform trip counts: a `for` loop whose counter starts and ends with
//   the same thread-dependent term (`for (t = base + tid; t < end + tid;
//   t += C)`) runs equally often in every thread; its condition gets the
//   dependence of what is left once that term cancels.
// - Early exits: on sm_70 and later a thread that has left the kernel no
//   longer takes part in block and cluster barriers (a grid barrier is
//   software over global memory and waits for every block: exits are
//   divergence there). A kernel branch whose other side only
//   leaves the kernel through a `return`, reaches no barrier, and runs no
//   code that the remaining threads run, does not make the remaining threads
//   disagree (`if (i >= n) return;`). So is an `if` that is all a loop's
//   body does, on a condition with the same value in every iteration, when
//   only the way out follows the loop: the threads that skip it once skip
//   it every time, run only the loop's control, and leave when it ends.
//   A `return` from a `__device__` function goes back to its caller and
//   gets no such treatment.
//
// - Lane-only values (only with DependenceOptions::LaneRules, only in a
//   kernel's own body): in a block whose x extent is a multiple of 32 each
//   warp holds 32 consecutive x of one row, so lane = `threadIdx.x % 32`.
//   A value that depends on the thread only through its lane (bit `Lane`
//   without `Thread`) holds the same 32 values, lane for lane, in every
//   warp. Sources: `threadIdx.x % C` and `threadIdx.x & M` (C a power of
//   two up to 32, M below 32), also through a `const` local initialised
//   with `threadIdx.x`; pure arithmetic keeps the bit. A load from a
//   `__shared__` array of the kernel at a lane-only index is lane-only when
//   every path to it passes a block barrier after the last store to the
//   array and every path from it passes one before the next store (and the
//   array is used only by subscripts): all threads then read one and the
//   same memory. A full-warp reduction (`__all_sync`, `__any_sync`,
//   `__ballot_sync`, `__reduce_*_sync` with mask 0xffffffff, or a helper
//   that returns one of its parameter, or a xor butterfly over offsets
//   16..1: see warpReducedArgument) of a lane-only value is the same in
//   all lanes of a warp and, every warp reducing the same 32 values in the
//   same way, the same in every warp: uniform in the block. Anything else
//   (a call, another load, a shuffle, a condition) sees the bit as Thread.
//   Like the rest of the analysis this reasons about threads that run in
//   step at uniform branches (the induction every divergence analysis
//   makes); it also takes the full mask's promise that all 32 lanes take
//   part. The block shape is the caller's to check (usesLaneRule()).
//   In a block of one warp (at most 32 threads) every thread is a lane of
//   such a reduction, so its result is uniform in the block whatever the
//   reduced value; that too is the caller's to check (usesOneWarpRule()).
//
// ## What is approximated, and why
// - Writes through local pointer variables to other locals are not followed
//   (rare in kernels; following them needs a points-to analysis).
// - Calls with no body: the result depends on the arguments only, unless the
//   UnknownCallsAreThreadDependent option says otherwise. Recursion is
//   treated like a call with no body.
// - Parts of local aggregates: each member, and each element at a constant
//   index, of a local variable has its own dependence set once it is
//   written on its own (a store to it replaces its value), down to a fixed
//   depth; the variable as a whole holds the rest. A union's members are
//   one part, an element at a varying index or a store through a pointer
//   into the variable updates the whole variable weakly, and a read of the
//   whole reads every part. This is what keeps `p.y` uniform after `p.x =
//   threadIdx.x`: one set per variable would make it thread-dependent.
// - The analysis is may-analysis: "thread-dependent" means "may differ".
//   Uniform results are definite under the assumptions above.
//
// ## Cost
// Control dependence (post-dominance frontiers, built in one pass over the
// post-dominator tree) and reachability (one bit set per strongly connected
// component) are computed once per function; the dataflow's states hold only
// the variables that depend on something. The time is near-linear in the
// size of the body (bench/scaling.sh: flat per statement from 800 to 25,600
// statements); what grows faster is the transitive control dependence of
// deeply nested branches (a block D levels deep depends on D branches) and
// the reach sets' memory, one bit per pair of blocks, which is why bodies
// past DependenceOptions::MaxBlocks are declined and listed for the checks
// to report.
//
// The four checks ask the same questions of the same bodies, so the results
// of one translation unit are computed once and shared by every check whose
// options agree (ThreadDependenceAnalysis's store); each check still hears
// of the bodies past the size limit that its own questions met.
//
// ## Stages
// Each stage is a class and a file of its own in analysis/dependence/, and
// has unit tests of its own (test/unit/analysis):
// - The control facts (ControlFacts.h): what the CFG of a body says alone,
//   computed once per body: control dependence, reachability, immediate
//   post-dominators, early exits and loop guards, tail calls.
// - The uniformity proofs (UniformityProofs.h): what shows a value or a
//   branch the same in every thread where its plain dependence says it may
//   differ: uniform trip counts, loops that run at least once, branches
//   implied by their loop, and the lane rules (lane-only sources, settled
//   shared reads, full-warp reductions). The race check asks some of them.
// - The fixpoint, in three parts: the lattice (LocalState.h: what each
//   local may depend on, whole and part by part); the value model
//   (ExpressionDependence.h: what an expression depends on in a state,
//   which storage an lvalue designates, and the witnesses); and the
//   transfer of statements with the solver loop (DependenceFixpoint.h),
//   iterated with the control taint, which fills a FunctionDependence.
// - This file: the answers the checks read (FunctionDependence, DepSet, the
//   summaries and their instantiation, the options) and the store that
//   shares them (ThreadDependenceAnalysis), which runs the stages on a body
//   when it is first asked for, a callee when its summary is.
// SyntaxFacts.h holds the few facts read off the syntax that they share.
//
// The analysis never prints; it is queried, and the checks decide.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_THREADDEPENDENCE_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_THREADDEPENDENCE_H

#include "model/CudaModel.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace clang::cuda_tidy {

/// What a value may depend on; see the file comment.
using DepSet = std::uint64_t;

namespace dep {
inline constexpr DepSet Thread = 1;
inline constexpr DepSet Object = 2;
inline constexpr DepSet Block = 4;
inline constexpr DepSet Cluster = 8;
/// May differ between threads of one block, but only as a function of the
/// thread's lane (`threadIdx.x % 32` in a block whose x extent is a multiple
/// of 32); see "Lane-only values" in the file comment. Meaningful only
/// without Thread, which it yields to: a value with both may differ in any
/// way. It never leaves the function's own dataflow: conditions, variables,
/// call arguments and summaries see it as Thread.
inline constexpr DepSet Lane = 16;
/// The bits that say between which threads a value may differ; the rest
/// are symbolic (object, parameters).
inline constexpr DepSet Scopes = Thread | Block | Cluster | Lane;
inline constexpr unsigned FirstParamBit = 5;
inline constexpr unsigned ParamBits = 51;
/// Bits for members of the implicit object (or captures of a lambda) that
/// the function reads, in the order FunctionSummary::ObjectMembers lists
/// them; past the last, a member read is dep::Object.
inline constexpr unsigned FirstMemberBit = FirstParamBit + ParamBits;
inline constexpr unsigned MemberBits = 8;
/// The bits a branch must be free of for a barrier of \p Scope under it to
/// be reached by all the threads that wait at it.
inline DepSet divergentFor(BarrierScope Scope) {
  switch (Scope) {
  case BarrierScope::Block:
    return Thread;
  case BarrierScope::Cluster:
    return Thread | Block;
  case BarrierScope::Grid:
    return Thread | Block | Cluster;
  }
  return Scopes;
}
/// Parameters past the 51st share the last bit.
inline DepSet param(unsigned Index) {
  return DepSet(1) << (FirstParamBit +
                       (Index < ParamBits ? Index : ParamBits - 1));
}
inline DepSet objectMember(unsigned Slot) {
  return DepSet(1) << (FirstMemberBit + Slot);
}
} // namespace dep

/// The default for DependenceOptions::MaxBlocks, and for the checks'
/// 'MaxBlocks' option. The reach sets take one bit per pair of blocks (about
/// 50 MB at this size) and the rest is near-linear: a kernel of 3,200
/// repetitions of bench/scaling.sh's pattern (about 19,000 blocks, 25,600
/// statements) fits.
inline constexpr unsigned DefaultMaxBlocks = 20000;

struct DependenceOptions {
  /// Model GPUs before sm_70: a thread that has returned from the kernel
  /// still holds later barriers up, so early exits are divergence too.
  bool ExitedThreadsHoldBarriers = false;
  /// Treat the result of a call with no visible body as thread-dependent.
  bool UnknownCallsAreThreadDependent = false;
  /// In kernel bodies, know lane-only values (dep::Lane) and that a
  /// full-warp reduction of one is uniform in the block. That holds only
  /// when the block's x extent is a multiple of 32, which the analysis
  /// cannot see: a caller that sets this must check the launches of every
  /// kernel whose FunctionDependence::usesLaneRule() and, where they do not
  /// say so, analyse it again without.
  bool LaneRules = false;
  /// With LaneRules: that a full-warp reduction of any value is uniform in
  /// the block, which holds only when the block is one warp: the caller
  /// checks that of every kernel whose FunctionDependence::
  /// usesOneWarpRule().
  bool OneWarpRule = false;
  /// Bodies whose CFG has more blocks than this are not analysed; the
  /// analysis lists them (ThreadDependenceAnalysis::getOversizedBodies) so
  /// that the checks can say so.
  unsigned MaxBlocks = DefaultMaxBlocks;

  bool operator==(const DependenceOptions &Other) const {
    return ExitedThreadsHoldBarriers == Other.ExitedThreadsHoldBarriers &&
           UnknownCallsAreThreadDependent ==
               Other.UnknownCallsAreThreadDependent &&
           MaxBlocks == Other.MaxBlocks && LaneRules == Other.LaneRules &&
           OneWarpRule == Other.OneWarpRule;
  }
};

/// Why a value is thread-dependent, as a chain: the source (`'threadIdx.x'`)
/// and the variables it flowed through (`'tid'`, `'row'`). A witness for a
/// value that is uniform in the block but may differ between blocks names a
/// source of bit Block or Cluster (`'blockIdx.x'`); AcrossBlocks says so.
struct ThreadWitness {
  std::string Source;
  bool AcrossBlocks = false;
  llvm::SmallVector<const VarDecl *, 4> Via;
  /// The dependence reached a variable only because it was assigned under a
  /// thread-dependent branch: that branch is the better explanation.
  bool ViaControl = false;
  bool empty() const { return Source.empty(); }
  /// "'threadIdx.x' through 'tid' and 'row'".
  std::string render() const;
};

/// How a function looks to its callers.
struct FunctionSummary {
  DepSet Return = 0;
  /// For each parameter of pointer or reference type: what the function
  /// writes through it.
  llvm::SmallVector<DepSet, 4> PointeeWrites;
  DepSet ObjectWrites = 0;
  /// The members of the implicit object (for a lambda, the fields of its
  /// captures) whose reads have a bit of their own (dep::objectMember).
  llvm::SmallVector<const FieldDecl *, 4> ObjectMembers;
  /// What the function writes into single members of the object,
  /// ObjectWrites aside (constructors' member initialisers, `this->m = v`).
  llvm::SmallVector<std::pair<const FieldDecl *, DepSet>, 4> ObjectMemberWrites;
  /// A barrier the function may execute, directly or through a callee; null
  /// if none. The widest one when there are several.
  const CallExpr *Barrier = nullptr;
  std::string BarrierName;
  BarrierScope Scope = BarrierScope::Block;
  /// A warp-level sync (`__syncwarp()`, a tile's sync(), a `_sync` shuffle
  /// or vote) or a barrier the function may execute, directly or through a
  /// callee; null if none.
  const CallExpr *WarpSync = nullptr;
  /// Every path through the function from entry to return passes a warp
  /// sync or a barrier: a call to it orders the lanes of each warp, as a
  /// `__syncwarp()` in its place would.
  bool AlwaysSyncsWarp = false;
};

/// Instantiates a callee's dependence set at a call.
/// \p ObjectMemberDeps gives, by slot, the dependence of the members the
/// callee's summary lists in ObjectMembers; a member without one gets
/// \p ObjectDeps.
DepSet instantiate(DepSet Callee, llvm::ArrayRef<DepSet> ArgDeps,
                   DepSet ObjectDeps,
                   llvm::ArrayRef<DepSet> ObjectMemberDeps = {});

/// A call that is a block barrier or reaches one.
struct BarrierSite {
  const CallExpr *Call = nullptr;
  const CFGBlock *Block = nullptr;
  /// Null for a direct barrier; the function called otherwise.
  const FunctionDecl *Callee = nullptr;
  /// The barrier itself: Call for a direct one, a call inside Callee (or
  /// deeper) otherwise.
  const CallExpr *Barrier = nullptr;
  std::string BarrierName;
  BarrierScope Scope = BarrierScope::Block;
};

class ThreadDependenceAnalysis;
class ControlFacts;

/// The analysis results for one function body.
class FunctionDependence {
public:
  const FunctionDecl *getFunction() const { return Function; }
  bool isKernel() const { return Kernel; }
  const FunctionSummary &getSummary() const { return Summary; }
  llvm::ArrayRef<BarrierSite> getBarrierSites() const { return BarrierSites; }

  /// The dependence set of the terminator condition of \p B.
  DepSet getConditionDeps(const CFGBlock *B) const;
  /// Why the condition of \p B is thread-dependent or, when it is uniform in
  /// the block, why it may differ between blocks.
  const ThreadWitness &getConditionWitness(const CFGBlock *B) const;

  /// The blocks whose branch decides, directly or transitively, whether
  /// \p B runs and whose condition has a non-empty dependence set; for a
  /// barrier of \p Scope Block or Cluster, branches whose other side only
  /// leaves the kernel are left out (see the file comment). Nearest first.
  llvm::SmallVector<const CFGBlock *, 4>
  getDependentControl(const CFGBlock *B,
                      BarrierScope Scope = BarrierScope::Block) const;

  /// Every block \p B is control dependent on, transitively; nearest first.
  llvm::ArrayRef<const CFGBlock *> getControlClosure(const CFGBlock *B) const;
  /// The nearest block every path from \p B to the exit passes (the exit
  /// block when the paths meet nowhere earlier); null for a block that
  /// cannot reach the exit.
  const CFGBlock *getImmediatePostDominator(const CFGBlock *B) const;
  /// Whether \p To can be reached from \p From without passing \p Avoid.
  bool reaches(const CFGBlock *From, const CFGBlock *To,
               const CFGBlock *Avoid = nullptr) const;
  /// Whether the branch at \p C only decides whether threads leave the
  /// function early, as seen from \p B (see the file comment).
  bool isEarlyReturn(const CFGBlock *C, const CFGBlock *B) const;
  /// Whether nothing but leaving the function follows \p Call in \p B.
  bool isTailCall(const CallExpr *Call, const CFGBlock *B) const;
  /// What a local variable may depend on anywhere in the function.
  DepSet getVariableDeps(const VarDecl *VD) const;
  /// Whether some answer relies on the block's x extent being a multiple of
  /// 32 (DependenceOptions::LaneRules): a full-warp reduction of a
  /// lane-only value was taken as uniform.
  bool usesLaneRule() const { return UsedLaneRule; }
  /// Whether some answer relies on the block being one warp
  /// (DependenceOptions::LaneRules): a full-warp reduction of a
  /// thread-dependent value was taken as uniform, every thread of the block
  /// being one of its lanes.
  bool usesOneWarpRule() const { return UsedOneWarpRule; }
  const CFG &getCFG() const { return *Graph; }
  /// The block whose terminator is \p Terminator (a loop or a branch);
  /// null when none is. The map is built on the first call.
  const CFGBlock *getTerminatorBlock(const Stmt *Terminator) const;

  /// Dependence sets of a call's arguments and implicit object, as they were
  /// at the call.
  llvm::ArrayRef<DepSet> getArgumentDeps(const CallExpr *CE) const;
  DepSet getObjectDeps(const CallExpr *CE) const;
  /// By slot of the callee's ObjectMembers: the dependence of each of those
  /// members of the object at the call.
  llvm::ArrayRef<DepSet> getObjectMemberDeps(const CallExpr *CE) const;
  /// Why argument \p Index of \p CE is thread-dependent.
  ThreadWitness getArgumentWitness(const CallExpr *CE, unsigned Index) const;

  /// This helper's analysis as \p Caller's call \p CE runs it: every
  /// dependence on a parameter or on the object replaced by what the call
  /// passes (instantiate()), so that a condition on a parameter given
  /// `threadIdx.x` is thread-dependent. The CFG and the control facts are
  /// shared with this analysis, which must outlive the result.
  std::unique_ptr<FunctionDependence> atCall(const FunctionDependence &Caller,
                                             const CallExpr *CE) const;

  ~FunctionDependence();

private:
  friend class ThreadDependenceAnalysis;
  friend class DependenceFixpoint;
  friend class ExpressionDependence;
  FunctionDependence() = default;

  const FunctionDecl *Function = nullptr;
  bool Kernel = false;
  bool EarlyExitsAreBenign = false;
  bool UsedLaneRule = false;
  bool UsedOneWarpRule = false;
  CFG *Graph = nullptr;
  FunctionSummary Summary;
  llvm::SmallVector<BarrierSite, 4> BarrierSites;
  llvm::DenseMap<const CFGBlock *, DepSet> ConditionDeps;
  llvm::DenseMap<const VarDecl *, DepSet> VariableDeps;
  llvm::DenseMap<const CFGBlock *, ThreadWitness> ConditionWitnesses;
  struct CallRecord {
    llvm::SmallVector<DepSet, 4> Args;
    DepSet Object = 0;
    llvm::SmallVector<DepSet, 2> ObjectMembers;
    llvm::SmallVector<ThreadWitness, 1> ArgWitnesses;
  };
  llvm::DenseMap<const CallExpr *, CallRecord> Calls;
  std::shared_ptr<ControlFacts> Control;
  mutable std::optional<llvm::DenseMap<const Stmt *, const CFGBlock *>>
      TerminatorBlocks;
};

/// Analyses function bodies on demand and caches the results for one
/// translation unit.
///
/// The results live in a store shared by every ThreadDependenceAnalysis of
/// the same ASTContext and options: the four checks each hold one, and
/// without sharing each would build every CFG and run every fixpoint again
/// (about a third of the checks' time on cuda-samples). The store lives as
/// long as one of them does. What stays per object is the list of bodies
/// past the size limit, so that each check reports those its own questions
/// met, as if it had asked alone.
class ThreadDependenceAnalysis {
public:
  ThreadDependenceAnalysis(ASTContext &Context, DependenceOptions Options);
  ~ThreadDependenceAnalysis();

  /// The analysis of \p FD's body, or null if it has none, its CFG cannot be
  /// built, or it is being analysed further up the stack (recursion).
  const FunctionDependence *analyze(const FunctionDecl *FD);

  /// The summary of a callee, or null when it cannot be had (no body,
  /// recursion).
  const FunctionSummary *getSummary(const FunctionDecl *FD);

  const DependenceOptions &getOptions() const { return Options; }
  ASTContext &getContext() const { return Context; }

  /// A body that analyze() declined because its CFG has more than
  /// DependenceOptions::MaxBlocks blocks.
  struct OversizedBody {
    const FunctionDecl *Function = nullptr;
    unsigned Blocks = 0;
  };
  /// Every such body this object's questions met so far (directly, or as a
  /// callee of a body it asked for), in the order met, each once.
  llvm::ArrayRef<OversizedBody> getOversizedBodies() const {
    return OversizedBodies;
  }

  struct Store;

private:
  void noteOversized(const FunctionDecl *FD, unsigned Blocks);

  ASTContext &Context;
  DependenceOptions Options;
  std::shared_ptr<Store> Shared;
  llvm::SmallVector<OversizedBody, 1> OversizedBodies;
  llvm::SmallPtrSet<const FunctionDecl *, 1> OversizedSeen;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_THREADDEPENDENCE_H
