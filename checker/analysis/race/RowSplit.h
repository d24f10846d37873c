//===--- RowSplit.h - Offsets split into rows of an unknown width -*- C++ -*-//
//
// A tile of an unknown width in shared memory, `s[(base + t) * d + x]` with
// `0 <= x < d`, gives the race analysis's solver products of unknowns
// (`t * d`, `y * d`) that its bit-vector arithmetic refutes only through
// multiplier circuits: llm.c's attention_forward_kernel2 asked eighteen
// such questions up to the resource limit (16 of its 21 s) and was left
// "not fully analysed". ExactQuery::rowLemma covers one syntactic form (a
// single product `Y * W` and no base offset); this is the general one.
//
// Each byte offset is read as a polynomial in its leaves (threadIdx,
// uniform atoms, loop counters, and any other node as an opaque leaf),
// with blockDim and the parameters the launches give as constants put in.
// For a uniform unknown W0 of a product and g the greatest common divisor
// of the coefficients of the monomials holding it, the row width is
// W = g * W0, and each offset is P = W * Q + R with R free of W0. Two
// accesses of w_A and w_B bytes that overlap satisfy, for W >= 1:
//   R_A + w_A <= W and R_B >= 0  imply  Q_A >= Q_B;
//   R_B + w_B <= W and R_A >= 0  imply  Q_B >= Q_A;
//   Q_A = Q_B implies R_A < R_B + w_B and R_B < R_A + w_A (one row: the
//   columns overlap).
// (The first from P_B < P_A + w_A <= W * (Q_A + 1) and P_B >= W * Q_B; the
// last because P_A - P_B = R_A - R_B in one row.) Q, R and W are encoded
// in 32 bits, and are their exact values: a split is kept only when its
// forms cannot pass 2^30 while every leaf lies in its bound (a thread
// index below its extent, a uniform atom in the encoding's range, any
// other leaf in [-2^20, 2^20], a premise); P is the integer W * Q + R,
// which in a real access lies in the block's shared memory, as
// ExactQuery::rowLemma argues, so that its 32-bit value is that integer. The
// lemma holds of every execution. When Q and R are linear, these are linear
// facts, and a pre-query of the threads, guards and loop relations with them
// and without the offsets decides the pair at a few thousand resource units.
// Every racing execution is a model of it (its other constraints are the full
// question's), so when it is unsatisfiable the pair does not race.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_ROWSPLIT_H
#define CUDA_TIDY_ANALYSIS_RACE_ROWSPLIT_H

#include "analysis/ExactQuery.h"
#include "analysis/SharedAccesses.h"
#include "analysis/SymbolicIndex.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

namespace clang::cuda_tidy {

/// A polynomial over the leaves of symbolic expressions: each monomial is a
/// sorted list of leaf numbers (indexes into RowSplits::Leaves) with its
/// coefficient.
using LeafPolynomial = std::map<llvm::SmallVector<unsigned, 3>, std::int64_t>;

/// Two offsets split by the same row width.
struct RowSplit {
  /// The width's atom leaf and factor: W = Factor * leaf.
  unsigned WidthLeaf = 0;
  std::int64_t Factor = 1;
  LeafPolynomial QA, RA, QB, RB;
};

/// The splits two byte offsets admit, and the leaves they are written in.
struct RowSplits {
  /// The bound of a leaf whose encoding does not bound it (a loop counter,
  /// a leaf of another node), which the lemma takes as a premise.
  static constexpr std::int64_t LeafLimit = std::int64_t(1) << 20;
  /// A node of each leaf, which encodes it (ExactQuery::value).
  std::vector<SymId> Leaves;
  /// Whether each leaf's bound is the lemma's premise.
  std::vector<bool> Bounded;
  std::vector<RowSplit> Splits;
};

/// The splits of offsets \p A and \p B under \p Shape (its blockDim and
/// the parameters its launches give, as constants): one per uniform
/// unknown of a product of either, with every row and column linear.
/// Empty when the offsets are linear or cannot be read as polynomials.
RowSplits rowSplits(const SymbolicTranslator &Sym, SymId A, SymId B,
                    const BlockShape &Shape);

/// The lemma of \p Split (see the file comment) for accesses of \p WidthA
/// bytes in thread \p TA and \p WidthB bytes in \p TB: premises imply the
/// row order, and one row the column overlap. Encodes only the
/// leaves, never the offsets.
llvm::SMTExprRef rowSplitLemma(ExactQuery &Q, const RowSplits &Splits,
                               const RowSplit &Split, unsigned TA,
                               std::int64_t WidthA, unsigned TB,
                               std::int64_t WidthB);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_ROWSPLIT_H
