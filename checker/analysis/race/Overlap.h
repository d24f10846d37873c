//===--- Overlap.h - Whether two accesses can touch one byte ----*- C++ -*-===//
//
// The race analysis's second stage (SharedMemoryRace.h, steps 3 and 4):
// given two accesses and a scenario in which they are in flight together
// (RaceConcurrency), whether two different threads of the block touch a
// common byte, with a witness. Concrete questions of modest size are
// enumerated over the block; the rest go to the solver (OverlapSolver.h).
// Answers are shared by the kernels of a translation unit (AnswerCache).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_OVERLAP_H
#define CUDA_TIDY_ANALYSIS_RACE_OVERLAP_H

#include "analysis/race/OverlapSolver.h"
#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/ArrayRef.h"
#include <map>
#include <optional>
#include <string>
#include <utility>

namespace clang::cuda_tidy {

/// Answers per pair of index shapes (ExactQuery::portableKey) and scenario,
/// shared by the kernels of a translation unit: template and macro
/// instances of one kernel (GROMACS's 23 foreign-lambda kernels, ggml's
/// per-type kernels) ask the same questions. The witnesses name atoms by
/// their position in the key, not by the asking kernel's atom ids.
struct SharedMemoryRaceAnalysis::AnswerCache {
  std::map<std::string, std::pair<RaceVerdict, RaceWitness>> Entries;
};

/// Decides whether two accesses of a kernel can touch a common byte in two
/// threads of a block, in a scenario.
class OverlapDecision {
public:
  OverlapDecision(const KernelRaceContext &K, RaceWork &Work,
                  SharedMemoryRaceAnalysis::AnswerCache &Shared);

  /// decide(), with its answer kept for every pair of the translation unit
  /// whose key is equal. With \p ValuesStored (the values \p A and \p B
  /// store, when both have a symbolic form) a collision is asked again
  /// with the values apart: two writes of one value are no race.
  RaceVerdict
  cachedDecide(const SharedAccess &A, const SharedAccess &B,
               const BlockShape &Shape, const RaceScenario &S,
               llvm::ArrayRef<unsigned> Atoms,
               const std::optional<std::pair<SymId, SymId>> &ValuesStored,
               RaceWitness &W);
  /// Whether two different threads of the block (of two warps when \p S
  /// says so), running \p A and \p B in \p S's iterations, touch a common
  /// byte, with \p W the witness: enumerated over every thread and every
  /// listed value of the loop counters of \p Atoms when every leaf is
  /// known once the block shape is fixed, else asked of the solver.
  RaceVerdict decide(const SharedAccess &A, const SharedAccess &B,
                     const BlockShape &Shape, const RaceScenario &S,
                     llvm::ArrayRef<unsigned> Atoms, RaceWitness &W);

private:
  /// Whether no two threads of the block (of two warps when \p S says so)
  /// can touch a common byte through \p A's and \p B's offsets at all,
  /// whatever their guards, bounds, loop relations and the scenario's skip
  /// condition: a cheap test before decideExactly, whose None it implies.
  /// The offsets may use only the atoms of \p Bound and the listed loop
  /// counters of \p Listed; false (undecided) otherwise.
  bool offsetsApart(
      const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
      const RaceScenario &S,
      llvm::ArrayRef<std::pair<unsigned, std::int64_t>> Bound,
      llvm::ArrayRef<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>> Listed);
  std::optional<std::int64_t> boundValue(unsigned Atom,
                                         const BlockShape &Shape) const {
    return cuda_tidy::boundValue(Sym, Atom, Shape);
  }

  SharedAccessCollector &Col;
  SymbolicTranslator &Sym;
  RaceWork &Work;
  SharedMemoryRaceAnalysis::AnswerCache &Shared;
  OverlapSolver Solver;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_OVERLAP_H
