//===--- RaceReport.h - How a race is told ----------------------*- C++ -*-===//
//
// The race analysis's last stage, its handler side: a decided race becomes a
// SharedRace (SharedMemoryRace.h), with the witness in words, the order of
// its two accesses, and where a barrier certainly belongs, and goes to the
// SharedRaceHandler. Nothing before this stage prints or reports.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_RACEREPORT_H
#define CUDA_TIDY_ANALYSIS_RACE_RACEREPORT_H

#include "analysis/race/DataIndexed.h"
#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::cuda_tidy {

/// Tells a kernel's races to the handler, one per access.
class RaceReport {
public:
  RaceReport(const KernelRaceContext &K, SharedRaceHandler &Handler);

  /// Whether a race was told whose second access is \p X: a pair with it
  /// is not asked about again. With \p EvenPossible, a possible race counts
  /// too; without, only a certain one: a possible race told first (a way
  /// through a helper no values may take) does not hide a certain one.
  bool reported(const SharedAccess &X, bool EvenPossible = false) const {
    auto It = Reported.find(X.E);
    return It != Reported.end() && (EvenPossible || It->second);
  }
  /// Tells the race \p V between \p A and \p B (one access when
  /// \p SameAccess) in scenario \p S, with \p W its witness over \p Atoms.
  void reportPair(const SharedAccess &A, const SharedAccess &B, bool SameAccess,
                  const RaceScenario &S, const RaceWitness &W, RaceVerdict V,
                  const BlockShape &Shape, llvm::ArrayRef<unsigned> Atoms);
  /// Tells the race \p V between \p Plain and \p Atomic at \p Index, with
  /// \p W its witness; \p WarpConcurrent: the two meet with no warp-level
  /// sync between, too.
  void reportDataIndexed(const SharedAccess &Plain, const SharedAccess &Atomic,
                         const DataIndex &Index, const DataWitness &W,
                         RaceVerdict V, const BlockShape &Shape,
                         bool WarpConcurrent);

private:
  /// The statement before which a `__syncthreads();` certainly belongs
  /// between \p First and \p Second, or null (SharedRace::InsertBarrierBefore).
  const Stmt *certainBarrierPlace(const SharedAccess &First,
                                  const SharedAccess &Second);
  bool isBefore(const SharedAccess &A, const SharedAccess &B) const;
  /// The race between \p First and \p Second, in this order, under \p Shape:
  /// the fields both kinds of pair (plain and data-indexed) fill alike.
  SharedRace raceBetween(const SharedAccess &First, const SharedAccess &Second,
                         RaceVerdict V, const BlockShape &Shape) const;
  std::optional<std::int64_t> boundValue(unsigned Atom,
                                         const BlockShape &Shape) const {
    return cuda_tidy::boundValue(Sym, Atom, Shape);
  }

  SharedAccessCollector &Col;
  ASTContext &Context;
  const FunctionDependence &Deps;
  SymbolicTranslator &Sym;
  const FunctionDecl *Kernel;
  const ParentMap &Parents;
  SharedRaceHandler &Handler;
  /// Second accesses told, and whether the race told was certain.
  llvm::DenseMap<const Expr *, bool> Reported;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_RACEREPORT_H
