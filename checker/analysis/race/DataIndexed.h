//===--- DataIndexed.h - Atomics at an index the data picks ------*- C++
//-*-===//
//
// The race analysis's decision for an atomic whose index is data reduced
// into the array (SharedMemoryRace.h, step 5): `counts[in[i] % 64]` may hit
// any element of the range, so against a plain access of another thread it
// is enumerated over the block and every element the data can select.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_DATAINDEXED_H
#define CUDA_TIDY_ANALYSIS_RACE_DATAINDEXED_H

#include "analysis/race/Concurrency.h"
#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>

namespace clang::cuda_tidy {

/// An atomic whose index is data reduced into a range
/// (`atomicAdd(&counts[in[i] % 64], 1u)`): the index expression, how many
/// values it takes (0 .. Values - 1) and the element size.
struct DataIndex {
  const Expr *Index = nullptr;
  std::int64_t Values = 0;
  std::int64_t ElementBytes = 0;
};
/// The witness of a data-indexed race: the thread of the plain access
/// (Writer, though it may read), the other thread, whose atomic meets it
/// (Atomic), the element, and the values of the unknowns it needs.
struct DataWitness {
  std::int64_t Writer = 0, Atomic = 0, Element = 0;
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Uniform;
};

/// Decides whether a plain access and an atomic at a data index can touch
/// one element in two threads of a block.
class DataIndexedDecision {
public:
  DataIndexedDecision(const KernelRaceContext &K, RaceConcurrency &Concurrency);

  /// The index of \p Atomic when it is data reduced into a range of its
  /// array; none otherwise.
  std::optional<DataIndex> dataIndex(const SharedAccess &Atomic) const;
  /// Whether some thread's \p Atomic at \p Index meets another thread's
  /// \p Plain (of another warp when \p DifferentWarpsOnly): certain when
  /// it does for every element the data can select, possible when for
  /// some, with \p W the witness.
  RaceVerdict decide(const SharedAccess &Plain, const SharedAccess &Atomic,
                     const DataIndex &Index, const BlockShape &Shape,
                     bool DifferentWarpsOnly, DataWitness &W);

private:
  std::optional<std::int64_t> boundValue(unsigned Atom,
                                         const BlockShape &Shape) const {
    return cuda_tidy::boundValue(Sym, Atom, Shape);
  }
  bool loopHasBarrier(const Stmt *Loop) {
    return Concurrency.loopHasBarrier(Loop);
  }

  SharedAccessCollector &Col;
  ASTContext &Context;
  SymbolicTranslator &Sym;
  RaceConcurrency &Concurrency;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_DATAINDEXED_H
