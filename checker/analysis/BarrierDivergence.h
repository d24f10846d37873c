//===--- BarrierDivergence.h - Barriers under divergent control -*- C++ -*-===//
//
// Decides which barriers some of the threads that must meet at them may
// reach while others do not. A barrier site (a barrier call, or a call to a
// function that reaches one) is divergent when a branch that decides whether
// it runs has a condition that may differ between those threads, in the
// function itself or, through a parameter, in a callee whose argument may
// differ at the call. For a barrier of the block that means a
// thread-dependent condition; for one of a cluster or of the grid, also a
// condition that may differ between blocks (see ThreadDependence.h).
// Reports go to a handler; nothing here prints.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_BARRIERDIVERGENCE_H
#define CUDA_TIDY_ANALYSIS_BARRIERDIVERGENCE_H

#include "analysis/dependence/ThreadDependence.h"
#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <optional>

namespace clang::cuda_tidy {

/// How the deciding branch is written, for the wording of notes.
enum class ConditionKind { Branch, Loop, Switch };

/// One divergent barrier site.
struct DivergentBarrier {
  const FunctionDecl *Function = nullptr;
  /// The call the warning is about: the barrier itself, or a call to a
  /// function that reaches one.
  const CallExpr *Site = nullptr;
  /// The function called at Site when Site is not itself a barrier.
  const FunctionDecl *Callee = nullptr;
  /// The barrier (inside Callee, or deeper, when Callee is set).
  const CallExpr *Barrier = nullptr;
  std::string BarrierName;
  /// Which threads must all reach Barrier.
  BarrierScope Scope = BarrierScope::Block;
  /// The condition (or argument) is uniform in each block but may differ
  /// between blocks; Reason then names what makes blocks differ.
  bool AcrossBlocks = false;
  /// The thread-dependent condition that decides whether Site runs. When
  /// Parameter is set, the condition is inside the callee and depends on
  /// that parameter.
  const Expr *Condition = nullptr;
  ConditionKind Kind = ConditionKind::Branch;
  /// Why the condition (or the argument) is thread-dependent.
  std::string Reason;
  /// Set when the deciding condition is in a callee and depends on a
  /// parameter whose argument at Site is thread-dependent.
  const ParmVarDecl *Parameter = nullptr;
  const Expr *Argument = nullptr;
  /// The deciding branch has two arms that each reach the same number of
  /// block barriers, direct calls, before they join (`if (c) { ...;
  /// __syncthreads(); } else { __syncthreads(); }`): every thread arrives at
  /// barrier 0 equally often, but at different instructions, which a block
  /// barrier does not allow (see matchedBarrierArms). Said in a note, since
  /// it is the obvious objection to the warning.
  bool MatchedOnOtherArm = false;
  /// The threads that miss the barrier are those that return early from
  /// Function, a __device__ function: a fault only if they then do more
  /// than leave the kernel (see onlyCalledBeforeKernelExit).
  bool ThroughEarlyReturn = false;
};

/// A read after a barrier that the threads which stayed make of a shared
/// element that only threads which left the kernel early would have
/// written. The early exit itself is correct on sm_70 and later (the barrier
/// is not divergent); what is wrong is the read. Decided syntactically for
/// one shape: every thread writes its own element (the index depends on the
/// thread) before the barrier, and after it reads elements at indices that
/// are the same in every thread (a loop over the array), so each thread
/// reads the elements of the threads that left.
struct UnwrittenSharedRead {
  const FunctionDecl *Function = nullptr;
  const VarDecl *Variable = nullptr;
  const Expr *Read = nullptr;
  const Expr *Write = nullptr;
  /// The thread-dependent condition under which threads leave, and why it
  /// is thread-dependent.
  const Expr *ExitCondition = nullptr;
  std::string Reason;
  const CallExpr *Barrier = nullptr;
  /// When the exit condition is `threadIdx.<ExitDimension> >= bound` (through
  /// constant locals), the bound: a constant of the instantiation or a
  /// parameter of the kernel. A launch whose block has exactly that many
  /// threads in that dimension lets no thread leave, and the read is then no
  /// fault; whether every launch does is the caller's to decide.
  int ExitDimension = -1;
  std::optional<std::int64_t> ExitBoundValue;
  const ParmVarDecl *ExitBoundParameter = nullptr;
};

class BarrierDivergenceHandler {
public:
  virtual ~BarrierDivergenceHandler();
  virtual void handleDivergentBarrier(const DivergentBarrier &D) = 0;
  virtual void handleUnwrittenSharedRead(const UnwrittenSharedRead &R) = 0;
};

class BarrierDivergenceAnalysis {
public:
  BarrierDivergenceAnalysis(ThreadDependenceAnalysis &Dependence,
                            BarrierDivergenceHandler &Handler)
      : Dependence(Dependence), Handler(Handler) {}

  /// Reports the divergent barrier sites of \p FD, once per function.
  void analyze(const FunctionDecl *FD);

  /// Whether every call to \p FD seen so far is the last thing a kernel
  /// does (and there is at least one): threads that return early from it
  /// then leave the kernel, which on sm_70 and later holds no barrier up.
  bool onlyCalledBeforeKernelExit(const FunctionDecl *FD) const;

private:
  /// How a function's barriers depend on its parameters, for its callers.
  struct ParameterCondition {
    const Expr *Condition = nullptr;
    ConditionKind Kind = ConditionKind::Branch;
    const CallExpr *Barrier = nullptr;
    std::string BarrierName;
    BarrierScope Scope = BarrierScope::Block;
    const ParmVarDecl *Parameter = nullptr;
  };
  struct Summary {
    /// Bits (parameters, object) on which some barrier's execution depends.
    DepSet Conditions = 0;
    /// A representative condition for each bit.
    llvm::DenseMap<unsigned, ParameterCondition> ByBit;
  };

  const Summary *summarize(const FunctionDecl *FD);
  /// Reports the reads of UnwrittenSharedRead around \p Site, a barrier of
  /// a kernel that early exits were forgiven.
  void findUnwrittenReads(const FunctionDependence &Deps,
                          const BarrierSite &Site);

  ThreadDependenceAnalysis &Dependence;
  BarrierDivergenceHandler &Handler;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<Summary>> Summaries;
  /// For each callee: whether each call to it is a kernel's last action.
  llvm::DenseMap<const FunctionDecl *, llvm::SmallVector<bool, 2>> CallTails;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_BARRIERDIVERGENCE_H
