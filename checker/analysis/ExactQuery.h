//===--- ExactQuery.h - Existence questions decided by an SMT solver -*- C++
//-*-//
//
// The race, bank-conflict and dynamic-bounds analyses ask questions of one
// form: "is there a pair of threads of the block, values of the unknowns and
// loop iterations such that both accesses run and touch the same bytes?".
// Enumerating threads and a few sample values cannot say "for every n >= 2",
// so this core hands such questions to Z3 through llvm/Support/SMTAPI.h.
// Debian's LLVM is built with Z3 and libLLVM links libz3: no new dependency.
// Concrete questions (every leaf known once the block shape is fixed) stay
// with the exact enumeration of the callers, which is faster for them.
//
// ## Encoding
// Every SymbolicIndex node becomes a 32-bit two's-complement bit-vector
// term, signed like SymbolicTranslator::evaluate. evaluate() computes in 64
// bits; the two agree wherever no intermediate value leaves 32 bits, which
// the ranges below guarantee for the products of two unknowns that index
// expressions contain (64 bits made non-linear queries twice as slow).
// Comparisons and logical operators yield 0 or 1; `/`, `%` and shifts add the
// side condition under which evaluate() is defined (a divisor that is not 0, a
// shift count in [0, 62]), so a model is always a point evaluate() can replay.
//  - A thread instance (addThread) has its own threadIdx.{x,y,z}, each in
//    [0, blockDim) of its dimension, and its own value of every loop
//    counter. Uniform atoms (kernel parameters, uniform locals, blockIdx,
//    globals) are one term shared by every instance.
//  - blockDim is the shape's constants, or, with a symbolic shape, three
//    terms in [1, 1024] whose product is at most 1024.
//  - A loop counter is tied to its loop: when its values can be listed for
//    the shape they are an if-then-else table indexed by an iteration
//    number k in [0, N); when it moves by a uniform additive step it is
//    Init + k * Step with k >= 0 and the loop condition holding; otherwise
//    only the loop condition is known and the answer is marked approximate.
//    Iteration relations between two instances (same, next, first, last)
//    are constraints on their k.
//  - Uniform atoms live in [-2^15, 2^15] (blockIdx in [0, 2^16)), so that
//    a product of two of them cannot wrap and invent a collision.
//  - A kernel parameter that every launch passes as one affine form of the
//    launched block and other parameters (BlockShape::Relations: `tilew` =
//    blockDim.x + 2 * r) is that form of their terms, in the same range,
//    and no unknown of its own. Its rows make offsets quadratic in `r`,
//    which the bit-vector solver refutes only at great cost; the race
//    analysis then adds the row lemma (rowLemma), which says it directly.
//
// ## "Certain": generic values of the unknowns
// A question is certain when it holds for generic values of the unknowns,
// not only at a degenerate point. Precisely, writing U for the generic
// unknowns (uniform atoms other than blockIdx, which is existential like a
// thread: some block does it):
//  1. a model exists with every u in U in the generic region [2, 2^15]
//     (away from 0, 1 and negative values, where strides vanish and ranges
//     are empty); small values ([2, 64]) are tried first, for a readable
//     witness;
//  2. the model's point is not isolated along any axis: for each u in U, a
//     model also exists with the other unknowns fixed at their model values
//     and u different from its model value (still in the region).
// Example: `if (i < n) s[i] = s[i + 1];` has a model at n = 2 and another at
// n = 3: certain. `s[t * stride]` against `s[0]` races only at stride = 0,
// outside the region: not certain. `if (n == 5)` around a race: the point
// n = 5 is isolated: not certain. What is not certain but has a model
// anywhere in [-2^15, 2^15] is "possible". The race analysis adds one
// condition, because a value of the unknowns can also make an access run
// out of the block's reach: 3. at each representative value of UniformSamples
// (>= 2, all unknowns at once) at which both accesses run in bounds, they
// collide. `if (t == 0) s[n] = ..; .. = s[t + 64];` races only for n in
// [65, 319]: possible; `s[n] = ..` by every thread: certain.
//
// ## Exact and approximate
// Exact (for the 64-bit semantics of evaluate): the arithmetic of the
// expression language, guards, block shape, listed loops and additive
// loops. Approximate, and reported through approximate(): loop counters
// with a symbolic bound and a multiplicative step (`s >>= 1` to n), and
// "last iteration" relations of loops whose end is not known; callers
// downgrade such answers to "possible".
//
// ## Cost model
// A query is a few hundred terms; Z3's bit-vector solver answers typical
// ones in 1-20 ms through SMTAPI's simple (incremental) solver, non-linear
// unsatisfiable ones up to the timeout. A decision costs 1-3 queries when no
// witness exists and up to 2 + |U| + 8 when one does. Each
// check() runs under a resource limit counted by Z3 itself ("rlimit"), not
// a timeout: the same query gets the same answer on a loaded or a slow
// machine, so the output is the same run after run (a wall-clock timeout
// made a sanitized, heavily loaded run drop two races). About 6,000 units
// are a millisecond of Z3 on the development machine; the largest query of
// the lit suite takes 0.55 million. An undecided query answers none. A
// generous wall-clock timeout stays as a safety net only, the one
// nondeterministic path: no query of the corpora comes near it. Callers
// keep a per-function work budget counted in the same units
// (resourcesUsed()); callers cache answers per pair of index shapes
// (ExactQuery::portableKey) so that a kernel of N copies of one pattern, or
// N template or macro instances of one kernel in a translation unit, costs
// N cache lookups, not N queries. Before its first question, the race
// analysis enumerates a pair whose offsets are concrete for the shape but
// whose guards read unknowns with the guards dropped
// (KernelRaceFinder::offsetsApart, evaluate32): offsets that never meet
// need no solver at all. A Z3 context costs 2-15 ms to make, as
// much as several queries, so the questions of one race decision
// reuse one context (SolverPool); no context serves two decisions, so that
// a verdict and its witness depend on the pair's own questions only.
// A row width given by a launch relation makes offsets quadratic (`(r +
// ty) * (bw + 2 * r) + r + tx`), and each question of a halo tile cost
// some 0.3 million units even with the row lemma, most of it bit-blasting
// the products. The race analysis therefore asks such a pair a pre-query
// first (KernelRaceFinder::rowsApart): the threads, guards, loop relations
// and skip condition, distinct threads, and the lemma with each column X
// written as the other summands of its offset (rowLemma's FromRests), but
// no offset and no bound on one. Its constraints are all among the full
// question's (X so written is Element - Y * W term for term), so when it
// is unsatisfiable so is the full question, and the pair is apart at some
// 30,000 units; when it is satisfiable the full question is asked as
// before, in the pre-query's context (both draw on the decision's own
// pool, so the witness still depends on that pair's questions only).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_EXACTQUERY_H
#define CUDA_TIDY_ANALYSIS_EXACTQUERY_H

#include "analysis/SharedAccesses.h"
#include "analysis/SymbolicIndex.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/SMTAPI.h"
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

/// Relations between the iterations two thread instances are in, for one
/// loop counter (the numbering SharedMemoryRace uses).
enum class IterationRelation {
  Any,       // Any two iterations.
  Same,      // The same iteration.
  Next,      // The second instance one iteration later.
  Previous,  // The second instance one iteration earlier.
  BothFirst, // Both in the first iteration.
  FirstLast, // The first instance in the last iteration.
  FirstFirst,
  SecondLast,
  SecondFirst
};

/// Z3 solvers kept for reuse by the queries of one decision (the race
/// check keeps one per pair question: the pre-query, the question, the
/// variable-bounds and sample questions that follow it). A fresh solver
/// means a fresh Z3 context, and making one cost a third of the race
/// check's time on a kernel of a dozen queries (cuda-samples'
/// bitonicMergeElementaryIntervalsKernel: 4 contexts, 51 of its 125 ms); a
/// query given back is reset, which clears its assertions and scopes but
/// keeps the context. Z3's models, and an answer near the resource limit,
/// depend on the context's history (term ids), so a pool must serve
/// questions that come in an order fixed by the one decision: with a pool
/// per file, then per kernel, a witness moved when another kernel or pair
/// asked other questions before it, and a verdict near the resource limit
/// (a lit test's true race) came and went with them.
///
/// LLVM's Z3 binding keeps every term a solver ever made alive until the
/// solver is destroyed (its expression cache), and reset() does not clear
/// it: a solver is therefore retired after MaxUses queries, which bounds
/// the memory a pooled context holds to that of MaxUses queries while
/// paying for a new context once per MaxUses.
class SolverPool {
public:
  static constexpr unsigned MaxUses = 64;
  SolverPool() = default;
  SolverPool(const SolverPool &) = delete;
  SolverPool &operator=(const SolverPool &) = delete;
  /// A solver with no assertions, and how many queries it has served.
  std::pair<llvm::SMTSolverRef, unsigned> take();
  void give(llvm::SMTSolverRef Solver, unsigned Uses);

private:
  std::vector<std::pair<llvm::SMTSolverRef, unsigned>> Free;
};

/// One solver session over the expressions of one SymbolicTranslator.
class ExactQuery {
public:
  /// Every uniform atom other than blockIdx lies in [-UniformRange,
  /// UniformRange] (see the encoding).
  static constexpr std::int64_t UniformRange = std::int64_t(1) << 15;
  /// \p ResourceLimit bounds each check() in Z3's deterministic resource
  /// units ("rlimit"; 0: none). With \p Pool, the solver comes from it
  /// and goes back to it when the query ends.
  ExactQuery(const SymbolicTranslator &Sym, unsigned ResourceLimit,
             SolverPool *Pool = nullptr);
  ~ExactQuery();
  ExactQuery(const ExactQuery &) = delete;
  ExactQuery &operator=(const ExactQuery &) = delete;

  /// Fixes blockDim to \p Shape. Call before anything else.
  void setShape(const BlockShape &Shape);
  /// Leaves blockDim symbolic: each dimension in [1, 1024], product <= 1024.
  void setSymbolicShape();

  /// A new thread instance of the block; its number.
  unsigned addThread();
  /// A thread instance fixed to the thread of linear id \p Linear of the
  /// concrete shape (setShape): constants, so that `t * W` stays linear in
  /// W for the solver.
  unsigned addThread(std::int64_t Linear);
  /// The value of \p Id in thread instance \p Thread (Id must not be
  /// Unknown: check SymbolicTranslator::isUnknown first).
  llvm::SMTExprRef value(SymId Id, unsigned Thread);
  /// Whether \p Id is non-zero in \p Thread.
  llvm::SMTExprRef holds(SymId Id, unsigned Thread);
  /// threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z).
  llvm::SMTExprRef linearThread(unsigned Thread);
  /// threadIdx.<\p Dim> (0 for x) of thread instance \p Thread.
  llvm::SMTExprRef threadIndex(unsigned Thread, unsigned Dim) const {
    return Threads[Thread][Dim];
  }
  llvm::SMTExprRef blockDim(unsigned Dim);
  llvm::SMTExprRef constant(std::int64_t V);
  /// The value of loop counter \p Atom in \p Thread (for a counter that
  /// starts at a thread-dependent value, its iteration number).
  llvm::SMTExprRef counter(unsigned Atom, unsigned Thread) {
    return loopCounter(Atom, Thread);
  }
  /// The iteration number of loop counter \p Atom in \p Thread (null when
  /// the loop has no iteration numbers: see approximate()).
  llvm::SMTExprRef iteration(unsigned Atom, unsigned Thread);
  void relate(unsigned Atom, unsigned First, unsigned Second,
              IterationRelation Relation);

  /// The row lemma of two accesses of \p WidthA and \p WidthB bytes at
  /// offsets \p A (in thread \p TA) and \p B (in \p TB) that both index
  /// rows of one uniform width W, `c * (Y * W + X) + k` with a constant
  /// element size c, 0 <= k and k + width <= c: when their bytes overlap and
  /// 0 <= X < W in both, Y and X are equal in both (two cells of a
  /// row-major tile meet only as one cell). Returned as "premises imply
  /// equal rows and columns", to be required only with the overlap (the
  /// race analysis's collision): true of every execution, it spares the
  /// solver refuting `(Y - Y') * W == X' - X` through multiplier circuits
  /// (a tile with halo rows, `tilew` = blockDim.x + 2 * r). Null when the
  /// offsets do not have that form. Call outside pushed scopes (it encodes
  /// terms). With \p FromRests, X is encoded as the sum of the other
  /// summands of the offset's element (X = Element - Y * W term for term,
  /// modulo 2^32) and the offsets themselves are not encoded: the form of
  /// a pre-query that omits them (see the cost model).
  llvm::SMTExprRef rowLemma(SymId A, unsigned TA, std::int64_t WidthA, SymId B,
                            unsigned TB, std::int64_t WidthB,
                            bool FromRests = false);
  /// Whether rowLemma applies to offsets \p A and \p B (its syntactic
  /// part: no term is encoded).
  static bool hasRowLemma(const SymbolicTranslator &Sym, SymId A,
                          std::int64_t WidthA, SymId B, std::int64_t WidthB);

  /// Adds a constraint to the current scope.
  void require(const llvm::SMTExprRef &Constraint);
  llvm::SMTSolver &solver() { return *Solver; }
  void push() { Solver->push(); }
  void pop() { Solver->pop(); }

  /// Uniform atoms whose value is an unknown of the question (not blockIdx,
  /// not loop counters) among those encoded so far.
  llvm::SmallVector<unsigned, 4> genericUnknowns() const;
  /// The term of uniform atom \p Atom (encoding it if needed).
  llvm::SMTExprRef uniform(unsigned Atom);
  /// Constrains every generic unknown to [Low, High].
  void restrictUnknowns(std::int64_t Low, std::int64_t High);

  /// Sat, unsat, or none when the solver gave up (resource limit).
  std::optional<bool> check();
  /// Z3 resource units all check()s of this query have used so far: the
  /// same number on any machine and under any load.
  std::uint64_t resourcesUsed() const;
  /// A symbol equal to \p Term, whose model value can be read (the solver
  /// gives models of symbols only). Call before check().
  llvm::SMTExprRef observe(const llvm::SMTExprRef &Term);
  /// The value of symbol \p Term (from observe, uniform, a thread
  /// component) in the last model.
  std::int64_t modelValue(const llvm::SMTExprRef &Term);

  /// Some encoded loop counter is known only through its loop condition.
  bool approximate() const { return Approximate; }

  /// Whether the certain-question of the design essay holds: call with the
  /// question's constraints in place. Returns none when the solver gave up;
  /// else whether any model exists (Found) and whether it is certain.
  /// \p ReadModel runs while the witness model is the solver's (the one in
  /// the generic region when there is one); read values with modelValue.
  /// Encode every term before: decide() works in pushed scopes.
  struct Answer {
    bool Found = false;
    bool Certain = false;
  };
  std::optional<Answer> decide(llvm::function_ref<void()> ReadModel);

  /// A canonical text for the tree of \p Id, for caching answers per pair
  /// of index shapes. Atoms are numbered by their first appearance in
  /// \p Atoms (appended to) and described there (name, loop: everything
  /// the encoding reads of them), not by the function's atom ids: equal
  /// texts mean equal expressions in any two functions, so that answers
  /// can be shared between kernels.
  /// A canonical text for the tree of \p Id within one function (atoms by
  /// id): equal texts mean equal expressions. The bank-conflict check keys
  /// its per-function answers with it; portableKey is the form that holds
  /// across functions.
  static std::string shapeKey(const SymbolicTranslator &Sym, SymId Id);
  static std::string portableKey(const SymbolicTranslator &Sym, SymId Id,
                                 llvm::SmallVectorImpl<unsigned> &Atoms);
  /// The same for atom \p Atom.
  static std::string portableAtomKey(const SymbolicTranslator &Sym,
                                     unsigned Atom,
                                     llvm::SmallVectorImpl<unsigned> &Atoms);

private:
  struct LoopInstance {
    // Null until set: relate() tells a counter without iteration numbers by
    // a null Iteration.
    llvm::SMTExprRef Counter = nullptr, Iteration = nullptr;
    std::int64_t Count = -1; // Listed values; -1 when not listed.
  };
  llvm::SMTExprRef encode(SymId Id, unsigned Thread);
  /// The term of a parameter the shape's launch relations give
  /// (BlockShape::Relations); null when none applies.
  llvm::SMTExprRef related(unsigned Atom);
  llvm::SMTExprRef loopCounter(unsigned Atom, unsigned Thread);
  llvm::SMTExprRef boolToBV(const llvm::SMTExprRef &B);
  llvm::SMTExprRef nonZero(const llvm::SMTExprRef &V);
  llvm::SMTExprRef compare(SymNode::Kind K, const llvm::SMTExprRef &A,
                           const llvm::SMTExprRef &B);
  llvm::SMTExprRef step(SymNode::Kind Op, const llvm::SMTExprRef &V,
                        const llvm::SMTExprRef &Step);
  llvm::SMTExprRef fresh(const std::string &Name);
  llvm::SMTExprRef inRange(const llvm::SMTExprRef &V, std::int64_t Low,
                           std::int64_t High);

  const SymbolicTranslator &Sym;
  SolverPool *Pool;
  llvm::SMTSolverRef Solver;
  unsigned Uses = 0; // Queries the solver served before this one.
  /// Z3's resource counter belongs to the context: its value when this
  /// query began.
  std::uint64_t ResourceBase = 0;
  llvm::SMTSortRef Sort;
  bool Concrete = true;
  BlockShape Shape;
  llvm::SMTExprRef Dims[3];
  std::vector<std::array<llvm::SMTExprRef, 3>> Threads;
  llvm::DenseMap<unsigned, llvm::SMTExprRef> Uniforms;
  llvm::SmallVector<unsigned, 4> UniformOrder;
  std::map<std::pair<unsigned, unsigned>, LoopInstance> Loops;
  std::map<std::pair<SymId, unsigned>, llvm::SMTExprRef> Memo;
  unsigned Names = 0;
  bool Approximate = false;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_EXACTQUERY_H
