//===--- OverlapSolver.h - Two accesses on one byte, by the solver -*- C++ -*-//
//
// The SMT encoding of the race analysis's overlap question (Overlap.h): two
// threads of the block, in a scenario's iterations, running two accesses on
// a common byte, asked of the core in ExactQuery.h, which also defines
// "certain" against "possible".
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_OVERLAPSOLVER_H
#define CUDA_TIDY_ANALYSIS_RACE_OVERLAPSOLVER_H

#include "analysis/ExactQuery.h"
#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/ArrayRef.h"
#include <optional>
#include <utility>

namespace clang::cuda_tidy {

/// Asks the solver whether two threads of a block can touch a common byte
/// through two accesses: the questions too big for the enumeration, or over
/// values it cannot list.
class OverlapSolver {
public:
  OverlapSolver(const KernelRaceContext &K, RaceWork &Work);

  /// Whether two different threads of the block (of two warps when \p S
  /// says so), running \p A and \p B in bounds in \p S's iterations, touch
  /// a common byte, with \p W the witness; with \p ValuesApart (the values
  /// A and B store), only while they store different values. \p Atoms are
  /// the atoms the scenario relates. Every query is charged to the work.
  RaceVerdict
  decideExactly(const SharedAccess &A, const SharedAccess &B,
                const BlockShape &Shape, const RaceScenario &S,
                llvm::ArrayRef<unsigned> Atoms,
                const std::optional<std::pair<SymId, SymId>> &ValuesApart,
                RaceWitness &W);

private:
  /// Whether the row lemma alone, with the threads, guards and loop
  /// relations of the scenario but no offset, already keeps \p A and \p B
  /// apart: a cheap pre-query of decideExactly, whose None it implies.
  bool rowsApart(const SharedAccess &A, const SharedAccess &B,
                 const BlockShape &Shape, const RaceScenario &S,
                 llvm::ArrayRef<unsigned> Atoms, SolverPool &Solvers);
  /// Whether a split of both offsets into rows of one unknown width
  /// (RowSplit.h) keeps \p A and \p B apart, by a pre-query like
  /// rowsApart's with the split's lemma.
  bool rowSplitsApart(const SharedAccess &A, const SharedAccess &B,
                      const BlockShape &Shape, const RaceScenario &S,
                      llvm::ArrayRef<unsigned> Atoms);
  bool leavesVariable(const SharedAccess &X, const BlockShape &Shape,
                      const RaceWitness &W, SolverPool &Solvers);
  /// The constraints decideExactly, rowsApart and leavesVariable share, in
  /// the order each asserts them: \p X's guards hold in \p Thread; the
  /// scenario's loop relations and skip condition hold of threads \p TA
  /// and \p TB; the two threads differ (and lie in two warps when the
  /// scenario says so).
  void requireGuards(ExactQuery &Q, const SharedAccess &X, unsigned Thread);
  void requireScenario(ExactQuery &Q, const RaceScenario &S,
                       llvm::ArrayRef<unsigned> Atoms, unsigned TA,
                       unsigned TB);
  void requireDistinct(ExactQuery &Q, const RaceScenario &S,
                       const llvm::SMTExprRef &LinearA,
                       const llvm::SMTExprRef &LinearB);
  std::optional<std::int64_t> boundValue(unsigned Atom,
                                         const BlockShape &Shape) const {
    return cuda_tidy::boundValue(Sym, Atom, Shape);
  }

  SharedAccessCollector &Col;
  SymbolicTranslator &Sym;
  const RaceOptions &Options;
  RaceWork &Work;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_OVERLAPSOLVER_H
