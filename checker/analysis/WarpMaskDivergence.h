//===--- WarpMaskDivergence.h - Masks naming lanes that leave ---*- C++ -*-===//
//
// Decides which warp collectives name, in their mask, lanes that may not
// reach them. `__shfl*_sync`, `__ballot_sync`, `__all_sync`, `__any_sync`,
// `__match_*_sync`, `__reduce_*_sync` and `__syncwarp(mask)` (the events of
// SyncEvents.h that order the warp and carry a Mask) are defined only when
// every lane of the mask executes a collective of that mask (on sm_70 and
// later not necessarily at the same instruction); a lane that has left, or
// is on the other side of a branch, makes the call hang or read undefined
// values. Exited lanes count here, unlike at a block barrier: a shuffle
// from an exited lane reads garbage.
//
// ## The question
// For a collective in block B of the CFG, every branch B is control
// dependent on is a guard with a side (the successor that leads to B).
// A guard whose condition may differ between threads (dep::Thread) and that
// every lane of a warp does not see alike (WarpUniformity) may split the
// warp. For each such guard G, nearest first, the solver (ExactQuery) is
// asked: are there two threads T1 and T2 of one warp such that T1 reaches
// the call (every guard, uniform ones included, on its side), the mask T1
// passes names T2's lane, and T2 is on the other side of G? A model names
// G as the condition that sends lanes away; the lanes are those of T1's
// warp that the mask names and G sends away, evaluated at the model's point.
// A guard whose other arm, before the arms join, reaches a collective of
// the same kind and constant mask splits nothing: the lanes meet there.
// Collectives under the same guards, on the same sides, with masks of one
// shape share one answer (an unrolled butterfly asks once).
//
// ## What is assumed
// - Warps are 32 consecutive threads of the block's linear order, and the
//   block's x extent is a multiple of 32 (the shape warp-level code is
//   written for, and the one the lane rules of ThreadDependence.h read):
//   `if (threadIdx.y < k)` and `if (threadIdx.x / 32 < k)` are then the
//   same in every lane. The extents are otherwise symbolic.
// - Unknowns (kernel parameters, uniform locals) get the certainty rule of
//   ExactQuery.h: lanes found only at isolated values, or only outside the
//   generic region, do not count. `if (i < n)` with `i = blockIdx.x *
//   blockDim.x + threadIdx.x` splits a warp for generic `n`; it does not when
//   `n` is a constant multiple of 32, when an enclosing guard (`if (n % 32
//   == 0)`) or a `__builtin_assume` in the function's body itself says so,
//   or when every launch of the kernel passes a multiple of 32 (a constant,
//   or a variable the launching function checks first: HostFacts.h).
// - A guard the translation cannot follow (a load at a thread-dependent
//   address, a call), a condition in a `__device__` function that reads one
//   of its parameters, a switch, and a mask that is not a constant or a
//   translatable expression of constants and thread indices (a mask from
//   `__activemask()` or from a ballot) are undecided: silent, unless
//   WarpMaskOptions::ReportUndecided (then only an undecided guard is
//   reported, never an undecided mask).
// - A call to a helper counts as the collective it reaches under no branch
//   whose condition depends on anything, when that collective's mask is a
//   constant (ggml's `warp_reduce_sum`: a butterfly over constant offsets
//   with the full mask). One level deep: a helper's helpers are not
//   followed.
// - Cooperative-groups members (`tile.shfl_down(...)`) carry no mask: their
//   group is the mask, and they are not asked about here.
//
// Reports go to a handler; nothing here prints.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_WARPMASKDIVERGENCE_H
#define CUDA_TIDY_ANALYSIS_WARPMASKDIVERGENCE_H

#include "analysis/BarrierDivergence.h"
#include "analysis/ExactQuery.h"
#include "analysis/dependence/ThreadDependence.h"
#include "model/HostFacts.h"
#include <array>
#include <cstdint>
#include <string>

namespace clang::cuda_tidy {

/// One warp collective whose mask names lanes that may not reach it.
struct DivergentWarpCollective {
  const FunctionDecl *Function = nullptr;
  /// The call the warning is about: the collective itself, or a call to a
  /// helper that reaches one.
  const CallExpr *Call = nullptr;
  /// The helper called at Call, and the collective in its body, when Call
  /// is not itself a collective.
  const FunctionDecl *Callee = nullptr;
  const CallExpr *Collective = nullptr;
  /// How the collective is named ("__shfl_down_sync").
  std::string Name;
  /// The mask, in hexadecimal when it is a constant, else as written.
  std::string Mask;
  /// The lanes the mask names that the condition sends away ("16-31"),
  /// at the point of When; empty when undecided.
  std::string Lanes;
  /// The values of the unknowns at which Lanes hold ("'n' is 2 and
  /// 'blockDim.x' is 32"); empty when the lanes hold in every warp.
  std::string When;
  /// The same point as data, for a reproducer: the block shape the lanes
  /// were found in, the block's index, and the values of the parameters
  /// the guard and the mask read. Block is all zeros when undecided.
  std::array<std::int64_t, 3> Block = {0, 0, 0};
  /// The guard (or the mask) reads blockDim: the point's values hold for
  /// its Block only, and a reproducer of another block shape must not
  /// take them.
  bool ReadsBlockDim = false;
  std::array<std::int64_t, 3> BlockIndex = {0, 0, 0};
  /// The grid's extents the point reads (0: not read).
  std::array<std::int64_t, 3> Grid = {0, 0, 0};
  llvm::SmallVector<std::pair<const ParmVarDecl *, std::int64_t>, 2> Values;
  /// The guard that sends the lanes away, and why it may differ.
  const Expr *Condition = nullptr;
  ConditionKind Kind = ConditionKind::Branch;
  std::string Reason;
  /// The guard could not be decided (WarpMaskOptions::ReportUndecided).
  bool Undecided = false;
};

class WarpMaskHandler {
public:
  virtual ~WarpMaskHandler();
  virtual void
  handleDivergentWarpCollective(const DivergentWarpCollective &D) = 0;
};

struct WarpMaskOptions {
  /// Report a collective under a guard that may differ between the lanes
  /// but that the solver cannot decide (see the file comment).
  bool ReportUndecided = false;
  /// Z3's resource limit for each question (ExactQuery.h).
  unsigned QueryResourceLimit = 2000000;
};

class WarpMaskAnalysis {
public:
  WarpMaskAnalysis(ThreadDependenceAnalysis &Dependence,
                   WarpMaskHandler &Handler, WarpMaskOptions Options = {})
      : Dependence(Dependence), Handler(Handler), Options(Options) {}

  /// Reports the collectives of \p FD's own body whose masks name lanes
  /// that may not reach them, and the calls to helpers that reach one.
  /// \p Multiples: what the launches establish about its parameters
  /// (HostFacts.h), assumed as `__builtin_assume`s in its body are.
  void analyze(const FunctionDecl *FD,
               llvm::ArrayRef<ParameterMultiple> Multiples = {});

  /// For a block barrier at \p Site in \p FD that the dependence analysis
  /// finds under thread-dependent control flow (issue 22: divergence
  /// decided exactly): whether the solver finds two threads of one block,
  /// of any shape, that disagree on a guard leading to it, under \p FD's
  /// stated preconditions and \p Multiples (true, with the point in
  /// \p Report's Block, BlockIndex, Values, When and Condition), or rules
  /// every such pair out (false); none when a guard cannot be decided (not
  /// translated, a helper's parameter, a loop the solver cannot follow).
  std::optional<bool> decideBarrier(const FunctionDecl *FD, const Stmt *Site,
                                    llvm::ArrayRef<ParameterMultiple> Multiples,
                                    DivergentWarpCollective &Report);

private:
  /// \p Call when it is a collective with a mask, the collective it always
  /// reaches when it calls a helper (unguardedCollective), else null.
  const CallExpr *collectiveOf(const CallExpr *Call);
  /// A collective with a constant mask that every call to \p FD reaches:
  /// one under no branch whose condition depends on anything (the
  /// butterfly's loop on constants, `if (width == 32)` on a template
  /// argument). Null if none.
  const CallExpr *unguardedCollective(const FunctionDecl *FD);

  ThreadDependenceAnalysis &Dependence;
  WarpMaskHandler &Handler;
  WarpMaskOptions Options;
  SolverPool Solvers;
  llvm::DenseMap<const FunctionDecl *, const CallExpr *> Unguarded;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_WARPMASKDIVERGENCE_H
