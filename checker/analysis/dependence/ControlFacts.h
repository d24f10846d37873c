//===--- ControlFacts.h - Control dependence, reachability, exits -*- C++ -*-//
//
// The control facts of one function body, the first stage of the dependence
// analysis (ThreadDependence.h): which branches decide whether a block runs,
// which blocks reach which, where threads may leave the function quietly,
// and what follows a call. They read the CFG and the syntax only; no
// dependence set enters them, so they are computed once per body and the
// fixpoint (DependenceFixpoint.h) asks them in every round.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_CONTROLFACTS_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_CONTROLFACTS_H

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <utility>
#include <vector>

namespace clang::cuda_tidy {

/// Control dependence and reachability for one CFG, each computed once for
/// the whole function so that the cost stays near-linear in its size.
///
/// Control dependence: clang's ControlDependencyCalculator runs the iterated
/// dominance frontier calculator once per queried block, and each run walks
/// the post-dominator subtree of that block: in straight-line code every
/// block post-dominates everything before it, so asking for every block
/// costs the square of the body. Here the post-dominance frontier of every
/// block is built bottom-up over the post-dominator tree in one pass (a
/// block's frontier is its own predecessors and its children's frontiers,
/// filtered by tree level), in the order the calculator would find them;
/// the transitive closure of a block then replays the calculator's priority
/// queue over those lists, so the closures, nearest first, are exactly the
/// calculator's.
///
/// Reachability: the strongly connected components of the CFG in reverse
/// topological order (Tarjan), with one bit set per component: the blocks it
/// reaches. Queries that must avoid a block ("reached from X without passing
/// through C"), which CFGReverseBlockReachabilityAnalysis does not offer,
/// are answered from those sets when the avoided block is out of reach, and
/// by a search cached per pair otherwise.
///
/// The CFG is expected with the destructors of locals where their scopes
/// end (CFG::BuildOptions::AddImplicitDtors): code a thread runs on its way
/// out (see isEarlyExit and isTailCall).
class ControlFacts {
public:
  /// \p Body is the function's body, where the loops that a guard wraps are
  /// found (see isEarlyExit).
  ControlFacts(CFG *Graph, const Stmt *Body);

  /// The blocks \p B is control dependent on, transitively; nearest first:
  /// the iterated post-dominance frontier of \p B, without \p B, in the
  /// order of llvm::IDFCalculator (deepest tree level first).
  const llvm::SmallVector<const CFGBlock *, 4> &closure(const CFGBlock *B);

  /// The nearest block every path from \p B to the exit passes (the exit
  /// block when the paths meet nowhere earlier); null for a block that
  /// cannot reach the exit.
  const CFGBlock *immediatePostDominator(const CFGBlock *B);

  /// Whether \p To can be reached from \p From without passing \p Avoid.
  bool reaches(const CFGBlock *From, const CFGBlock *To,
               const CFGBlock *Avoid = nullptr);

  /// True if the branch at \p C splits threads into those that go on towards
  /// \p X and those that leave the kernel through a private exit path; see
  /// "Early exits" in the file comment of ThreadDependence.h.
  bool isEarlyExit(const CFGBlock *C, const CFGBlock *X);

  /// Whether nothing but leaving \p Function follows \p Call in \p B.
  bool isTailCall(const CallExpr *Call, const CFGBlock *B,
                  const FunctionDecl *Function) const;

  /// Records that \p B waits at a barrier, directly or through a callee: a
  /// way out through it is no quiet exit. The fixpoint marks every such
  /// block before it asks isEarlyExit.
  void markBarrierBlock(const CFGBlock *B);

private:
  /// The post-dominance frontier of every block, each in the order in which
  /// llvm::IDFCalculator emits it: a depth-first walk of the block's
  /// post-dominator subtree (the block, then its children last to first),
  /// listing at each node the predecessors no deeper in the tree than the
  /// block. A child's list already holds its subtree's predecessors no deeper
  /// than the child, so each list is built from the children's lists;
  /// a predecessor rises through the tree only as far as it stays in the
  /// frontier, so the total work is the size of the frontiers.
  void computeFrontiers();

  /// Tarjan's algorithm, iterative (bodies may be deep), then the reach sets
  /// in the order the components complete: every successor component first.
  void computeComponents();

  /// The blocks \p From reaches, itself included.
  const llvm::BitVector &reach(const CFGBlock *From);

  /// Whether \p B lies on a cycle of the CFG.
  bool onCycle(const CFGBlock *B);

  /// The blocks \p From reaches without passing through \p Avoid.
  llvm::BitVector reachableFrom(const CFGBlock *From, const CFGBlock *Avoid);

  /// Whether \p To can be reached from \p From without passing \p Avoid.
  bool reachesAvoiding(const CFGBlock *From, const CFGBlock *To,
                       const CFGBlock *Avoid);

  /// Whether the statements of \p B can be seen by other threads: they name
  /// a `__shared__` variable, call a function that is not modelled (it may
  /// touch shared memory or wait), or run inline asm. A destructor that runs
  /// code is such a call.
  bool isObservable(const CFGBlock *B);

  /// Whether \p R, on a path out of the function, makes that path more than
  /// a quiet exit: it waits at a barrier, cannot reach the exit, touches
  /// what other threads see, or lies on a loop.
  bool isNoisy(const CFGBlock *R);

  /// True if every path from \p S leaves the function, reaches no barrier
  /// and touches nothing another thread can see on the way, and runs no
  /// loop: the threads that take it are gone, quietly and soon. A path may
  /// leave through a `return` or by falling off the end of the body: on the
  /// CFG the two are the same edge into the exit block. Computed for every
  /// component at once, successors first.
  bool isExitRegion(const CFGBlock *S);

  /// Records the loops whose body is declarations with pure initialisers
  /// followed by one `if` without `else`: `for (...) { int i = ...; if (i <
  /// n) { ... } }`.
  void findGuardedLoops(const Stmt *S);

  /// True if the branch at \p C is an `if` that is all its loop does (see
  /// findGuardedLoops), on a condition with the same value in every
  /// iteration, \p X lies inside it, and the loop is followed by a quiet way
  /// out: the threads that skip it once skip it every time, run only the
  /// loop's own control, which touches nothing other threads see, and leave.
  bool isLoopGuardExit(const CFGBlock *C, const CFGBlock *X);

  CFG *Graph;
  CFGPostDomTree PostDom;
  std::vector<const CFGBlock *> Blocks; // By block ID.
  /// The post-dominance frontier of each block (its direct control
  /// dependences), by block ID.
  std::vector<llvm::SmallVector<const CFGBlock *, 2>> Frontier;
  /// Strongly connected components, built on the first reachability query:
  /// the component of each block (by block ID), and per component the
  /// blocks it reaches, itself included.
  std::vector<unsigned> ComponentOf;
  std::vector<llvm::BitVector> ComponentReach;
  /// Per component: whether a block it reaches disqualifies it as a quiet
  /// way out of the function (see isExitRegion); built on first use.
  llvm::BitVector ReachesNoisyBlock;
  bool ExitRegionsKnown = false;
  llvm::DenseMap<std::pair<const CFGBlock *, const CFGBlock *>, llvm::BitVector>
      ReachAvoiding;
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<const CFGBlock *, 4>>
      Closure;
  llvm::DenseMap<std::pair<const CFGBlock *, const CFGBlock *>, bool> EarlyExit;
  llvm::DenseMap<const CFGBlock *, bool> Observable;
  /// By block ID (markBarrierBlock).
  llvm::BitVector BarrierBlocks;
  /// The function's body, where the loops that a guard wraps are found.
  const Stmt *Body = nullptr;
  /// Each `if` that is all a loop's body does (see findGuardedLoops), with
  /// its loop; built on first use.
  llvm::DenseMap<const IfStmt *, const Stmt *> GuardedLoops;
  bool GuardedLoopsKnown = false;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_CONTROLFACTS_H
