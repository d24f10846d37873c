//===--- OverlapSolver.cpp - Two accesses on one byte, by the solver ------===//
//
// See OverlapSolver.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/OverlapSolver.h"
#include "analysis/race/RowSplit.h"
#include "llvm/ADT/ScopeExit.h"

namespace clang::cuda_tidy {

namespace {

/// The resource limit of a row split's pre-query: the linear ones of the
/// corpora take under 130,000 units (ExactQuery.h's scale).
constexpr unsigned PreQueryLimit = 300000;

IterationRelation relationFor(int Relation) {
  switch (Relation) {
  case 0:
    return IterationRelation::Same;
  case 1:
    return IterationRelation::Next;
  case -1:
    return IterationRelation::Previous;
  case 3:
    return IterationRelation::BothFirst;
  case 6:
    return IterationRelation::FirstLast;
  case 7:
    return IterationRelation::FirstFirst;
  case 8:
    return IterationRelation::SecondLast;
  case 9:
    return IterationRelation::SecondFirst;
  default:
    return IterationRelation::Any;
  }
}

} // namespace

OverlapSolver::OverlapSolver(const KernelRaceContext &K, RaceWork &Work)
    : Col(K.Col), Sym(K.Sym), Options(K.Options), Work(Work) {}

void OverlapSolver::requireGuards(ExactQuery &Q, const SharedAccess &X,
                                  unsigned Thread) {
  for (const auto &[Guard, Polarity] : X.Guards) {
    llvm::SMTExprRef Holds = Q.holds(Guard, Thread);
    Q.require(Polarity ? Holds : Q.solver().mkNot(Holds));
  }
}

void OverlapSolver::requireScenario(ExactQuery &Q, const RaceScenario &S,
                                    llvm::ArrayRef<unsigned> Atoms, unsigned TA,
                                    unsigned TB) {
  for (unsigned I = 0; I < Atoms.size(); ++I)
    if (Sym.atoms()[Atoms[I]].isLoopCounter())
      Q.relate(Atoms[I], TA, TB, relationFor(S.Relation[I]));
  if (S.Skip) {
    llvm::SMTExprRef Holds = Q.holds(S.Skip->Condition, S.Skip->OnB ? TB : TA);
    Q.require(S.Skip->Polarity ? Holds : Q.solver().mkNot(Holds));
  }
}

void OverlapSolver::requireDistinct(ExactQuery &Q, const RaceScenario &S,
                                    const llvm::SMTExprRef &LinearA,
                                    const llvm::SMTExprRef &LinearB) {
  llvm::SMTSolver &Z = Q.solver();
  if (S.OtherBlock)
    return;
  Q.require(Z.mkNot(Z.mkEqual(LinearA, LinearB)));
  if (S.DifferentWarpsOnly)
    Q.require(Z.mkNot(Z.mkEqual(Z.mkBVLshr(LinearA, Q.constant(5)),
                                Z.mkBVLshr(LinearB, Q.constant(5)))));
}

/// Whether \p X, run by some thread of the block with the witness's unknown
/// values, touches bytes outside its variable: under an assumed shape that
/// says the shape is not the one the kernel is written for.
bool OverlapSolver::leavesVariable(const SharedAccess &X,
                                   const BlockShape &Shape,
                                   const RaceWitness &W, SolverPool &Solvers) {
  std::int64_t Size = Col.sizeOf(X.Var);
  ExactQuery Q(Sym, Options.QueryResourceLimit, &Solvers);
  Q.setShape(Shape);
  unsigned T = Q.addThread();
  requireGuards(Q, X, T);
  llvm::SMTExprRef Offset = Q.value(X.Offset, T);
  for (const auto &[Atom, Value] : W.Uniform)
    Q.require(Q.solver().mkEqual(Q.uniform(Atom), Q.constant(Value)));
  llvm::SMTExprRef Outside = Q.solver().mkBVSlt(Offset, Q.constant(0));
  if (Size >= 0)
    Outside = Q.solver().mkOr(
        Outside,
        Q.solver().mkBVSgt(Q.solver().mkBVAdd(Offset, Q.constant(X.Width)),
                           Q.constant(Size)));
  Q.require(Outside);
  bool MayLeave = Q.check() != false;
  Work.charge(Q);
  return MayLeave;
}

bool OverlapSolver::rowsApart(const SharedAccess &A, const SharedAccess &B,
                              const BlockShape &Shape, const RaceScenario &S,
                              llvm::ArrayRef<unsigned> Atoms,
                              SolverPool &Solvers) {
  // The full question of decideExactly is F = E /\ C, with E the threads,
  // guards, offsets and their bounds, alignment, loop relations and skip
  // condition, and C distinct threads (of two warps when asked),
  // overlapping offsets, the row lemma L and the stored values apart. This
  // pre-query asks P = the threads with their ranges, the guards, the loop
  // relations, the skip condition, distinct threads (two warps when asked)
  // and L' : L with each column X = Element - Y * W written as the sum of
  // Element's other summands (ExactQuery::rowLemma's FromRests), which is
  // the same 32-bit value in every assignment, since Element is that sum
  // plus Y * W term for term. Every constraint of P is then one of F (or
  // equivalent to one), and every side condition that encoding a term adds
  // (ranges of uniform atoms and launch relations, divisors, shift counts,
  // loop counters) comes from a subterm of F's terms, which F adds as
  // well. So every model of F is one of P: P unsatisfiable means F is, and
  // decideExactly would answer None. P has no offset and no product Y * W:
  // only the linear facts on rows and columns that decide a halo tile
  // (some 0.3 million resource units per question of postProcessGL's
  // cudaProcess against tens of thousands).
  // Nothing here relies on the lemma being true; that F may assume it is
  // rowLemma's argument.
  ExactQuery R(Sym, Options.QueryResourceLimit, &Solvers);
  llvm::scope_exit ChargeR([&] { Work.charge(R); });
  R.setShape(Shape);
  unsigned TA = R.addThread(), TB = R.addThread();
  llvm::SMTExprRef Lemma =
      R.rowLemma(A.Offset, TA, A.Width, B.Offset, TB, B.Width,
                 /*FromRests=*/true);
  if (!Lemma)
    return false;
  requireGuards(R, A, TA);
  requireGuards(R, B, TB);
  requireScenario(R, S, Atoms, TA, TB);
  llvm::SMTExprRef LinearA = R.linearThread(TA), LinearB = R.linearThread(TB);
  requireDistinct(R, S, LinearA, LinearB);
  R.require(Lemma);
  return R.check() == false;
}

bool OverlapSolver::rowSplitsApart(const SharedAccess &A, const SharedAccess &B,
                                   const BlockShape &Shape,
                                   const RaceScenario &S,
                                   llvm::ArrayRef<unsigned> Atoms) {
  RowSplits Splits = rowSplits(Sym, A.Offset, B.Offset, Shape);
  for (const RowSplit &Split : Splits.Splits) {
    // Solvers of its own, as rowsApart's without a launch relation: the
    // full question, when it must still be asked, runs in a context with
    // the history it had without the pre-query.
    // A linear question: one that runs long is given up for the full one.
    SolverPool PreQuery;
    ExactQuery R(Sym,
                 Options.QueryResourceLimit
                     ? std::min(Options.QueryResourceLimit, PreQueryLimit)
                     : PreQueryLimit,
                 &PreQuery);
    llvm::scope_exit ChargeR([&] { Work.charge(R); });
    R.setShape(Shape);
    unsigned TA = R.addThread(), TB = R.addThread();
    requireGuards(R, A, TA);
    requireGuards(R, B, TB);
    requireScenario(R, S, Atoms, TA, TB);
    requireDistinct(R, S, R.linearThread(TA), R.linearThread(TB));
    R.require(rowSplitLemma(R, Splits, Split, TA, A.Width, TB, B.Width));
    if (R.check() == false)
      return true;
  }
  return false;
}

RaceVerdict OverlapSolver::decideExactly(
    const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
    const RaceScenario &S, llvm::ArrayRef<unsigned> Atoms,
    const std::optional<std::pair<SymId, SymId>> &ValuesApart, RaceWitness &W) {
  std::int64_t Size = Col.sizeOf(A.Var);
  struct Terms {
    unsigned TA = 0, TB = 0;
    llvm::SMTExprRef LinearA, LinearB, OffsetA, OffsetB;
    llvm::SMTExprRef RowLemma = nullptr;
  };
  // Both accesses run, in bounds, in two threads in the scenario's
  // iterations.
  auto Encode = [&](ExactQuery &Q) {
    llvm::SMTSolver &Z = Q.solver();
    Terms T;
    Q.setShape(Shape);
    T.TA = Q.addThread();
    T.TB = Q.addThread();
    T.LinearA = Q.observe(Q.linearThread(T.TA));
    T.LinearB = Q.observe(Q.linearThread(T.TB));
    requireGuards(Q, A, T.TA);
    requireGuards(Q, B, T.TB);
    T.OffsetA = Q.observe(Q.value(A.Offset, T.TA));
    T.OffsetB = Q.observe(Q.value(B.Offset, T.TB));
    // With a launch relation, a row width (`tilew` = blockDim.x + 2 * r)
    // makes the offsets non-linear in the unknowns; the row lemma says
    // what the solver could not afford to find (ExactQuery::rowLemma:
    // 14 million resource units against 0.3 million on postProcessGL's
    // halo corners). It holds of every execution, but only relations have
    // needed it so far: without one the queries stay as they were. Collide
    // requires it with the overlap it presumes.
    if (!Shape.Relations.empty())
      T.RowLemma = Q.rowLemma(A.Offset, T.TA, A.Width, B.Offset, T.TB, B.Width);
    for (auto [Offset, Width] :
         {std::pair(T.OffsetA, A.Width), std::pair(T.OffsetB, B.Width)}) {
      Q.require(Z.mkBVSge(Offset, Q.constant(0)));
      if (Size >= 0)
        Q.require(
            Z.mkBVSle(Z.mkBVAdd(Offset, Q.constant(Width)), Q.constant(Size)));
    }
    // A misaligned access through a reinterpreted pointer faults: no
    // execution goes on past it (SharedAccess::Align).
    for (auto [X, Thread] : {std::pair(&A, T.TA), std::pair(&B, T.TB)})
      if (X->Align > 1)
        Q.require(Z.mkEqual(Z.mkBVAnd(Q.value(X->AlignedOffset, Thread),
                                      Q.constant(X->Align - 1)),
                            Q.constant(0)));
    requireScenario(Q, S, Atoms, T.TA, T.TB);
    return T;
  };
  // Two different threads (of two warps when the scenario says so) on
  // overlapping bytes.
  auto Collide = [&](ExactQuery &Q, const Terms &T) {
    llvm::SMTSolver &Z = Q.solver();
    requireDistinct(Q, S, T.LinearA, T.LinearB);
    Q.require(Z.mkBVSlt(T.OffsetA, Z.mkBVAdd(T.OffsetB, Q.constant(B.Width))));
    Q.require(Z.mkBVSlt(T.OffsetB, Z.mkBVAdd(T.OffsetA, Q.constant(A.Width))));
    if (T.RowLemma)
      Q.require(T.RowLemma);
    if (ValuesApart)
      Q.require(Z.mkNot(Z.mkEqual(Q.value(ValuesApart->first, T.TA),
                                  Q.value(ValuesApart->second, T.TB))));
  };

  // The solvers of this one decision (ExactQuery.h, SolverPool): its
  // questions reuse one Z3 context, and a context that served no other
  // decision makes the verdict and witness a function of the pair's own
  // questions, the same whatever the kernel or file asked before (a
  // pool per file, then per kernel, moved witnesses between the host and
  // device passes and flipped a verdict near the resource limit).
  SolverPool Solvers;
  // A pair the row lemma keeps apart needs no full question (rowsApart).
  // The lemma is part of the full question only with a launch relation.
  // Without one, rows of an unknown width (`s[tx * n + k]`, `k < n`) are
  // the same products of unknowns, and the pre-query spares the
  // multiplier circuits just as well; it then asks in solvers of its own,
  // so that the full question, when it must still be asked, runs in a
  // context with the history it had without the pre-query, and gives the
  // same verdict and witness.
  if (ExactQuery::hasRowLemma(Sym, A.Offset, A.Width, B.Offset, B.Width)) {
    SolverPool PreQuery;
    if (rowsApart(A, B, Shape, S, Atoms,
                  Shape.Relations.empty() ? PreQuery : Solvers))
      return RaceVerdict::None;
  }
  // Rows of an unknown width in any other form (RowSplit.h): a base
  // offset, a row index that is a sum, a width that is a multiple.
  if (rowSplitsApart(A, B, Shape, S, Atoms))
    return RaceVerdict::None;

  // Q goes back to the pool as soon as its answer is read, so that the
  // questions after it (leavesVariable, the samples) reuse its context
  // instead of making new ones: a context costs as much as a few queries.
  std::optional<ExactQuery> Held;
  Held.emplace(Sym, Options.QueryResourceLimit, &Solvers);
  ExactQuery &Q = *Held;
  auto ReleaseQ = [&] {
    if (Held) {
      Work.charge(*Held);
      Held.reset();
    }
  };
  llvm::scope_exit ChargeQ(ReleaseQ);
  Terms T = Encode(Q);
  Collide(Q, T);
  llvm::SmallVector<unsigned, 4> AtomsOfA, AtomsOfB;
  Sym.collectAtoms(A.Offset, AtomsOfA);
  Sym.collectAtoms(B.Offset, AtomsOfB);
  llvm::DenseMap<unsigned, llvm::SMTExprRef> CounterA, CounterB;
  // Parameters a launch relation gives in terms of the unknowns: their
  // values in the model are part of the witness.
  llvm::SmallVector<std::pair<unsigned, llvm::SMTExprRef>, 1> Related;
  for (unsigned Atom : Atoms) {
    const SymAtom &Info = Sym.atoms()[Atom];
    if (!Info.Var || Info.isLoopCounter() || !Shape.relation(Info.Var) ||
        boundValue(Atom, Shape))
      continue;
    llvm::SMTExprRef Term = Q.uniform(Atom);
    if (!llvm::is_contained(Q.genericUnknowns(), Atom))
      Related.push_back({Atom, Q.observe(Term)});
  }
  for (unsigned Atom : Atoms) {
    if (!Sym.atoms()[Atom].isLoopCounter())
      continue;
    if (llvm::is_contained(AtomsOfA, Atom))
      CounterA[Atom] = Q.observe(Q.counter(Atom, T.TA));
    if (llvm::is_contained(AtomsOfB, Atom))
      CounterB[Atom] = Q.observe(Q.counter(Atom, T.TB));
  }
  auto Answer = Q.decide([&] {
    W.ThreadA = Q.modelValue(T.LinearA);
    W.ThreadB = Q.modelValue(T.LinearB);
    W.Byte = std::max(Q.modelValue(T.OffsetA), Q.modelValue(T.OffsetB));
    W.LoopA.clear();
    W.LoopB.clear();
    W.Uniform.clear();
    for (unsigned Atom : Atoms) {
      if (CounterA.count(Atom))
        W.LoopA.push_back({Atom, Q.modelValue(CounterA[Atom])});
      if (CounterB.count(Atom))
        W.LoopB.push_back({Atom, Q.modelValue(CounterB[Atom])});
    }
    for (unsigned Atom : Q.genericUnknowns())
      W.Uniform.push_back({Atom, Q.modelValue(Q.uniform(Atom))});
    W.Related.clear();
    for (const auto &[Atom, Term] : Related)
      W.Related.push_back({Atom, Q.modelValue(Term)});
  });
  if (!Answer)
    return RaceVerdict::Skip;
  if (!Answer->Found)
    return RaceVerdict::None;
  llvm::SmallVector<unsigned, 4> Unknowns = Q.genericUnknowns();
  ReleaseQ(); // Q is not used past this point.
  if (Shape.Assumed && (leavesVariable(A, Shape, W, Solvers) ||
                        leavesVariable(B, Shape, W, Solvers)))
    return RaceVerdict::Skip;
  if (!Answer->Certain)
    return RaceVerdict::Possible;
  // Certain also means: at each representative value of the unknowns at
  // which both accesses run in bounds, they collide (a race only for n in
  // a window of the block's range is possible, not certain).
  if (Unknowns.empty())
    return RaceVerdict::Definite;
  // One incremental solver for all samples, each in a scope of its own:
  // a fresh solver per question cost most of the time of kernels with many
  // such pairs (GROMACS's foreign-lambda kernels), for the same answers.
  ExactQuery P(Sym, Options.QueryResourceLimit, &Solvers);
  llvm::scope_exit ChargeP([&] { Work.charge(P); });
  Terms PT = Encode(P);
  // Encoding a term can add range constraints, which must not go with a
  // popped scope: everything the scopes use is encoded first.
  for (unsigned Atom : Unknowns)
    P.uniform(Atom);
  if (ValuesApart) {
    P.value(ValuesApart->first, PT.TA);
    P.value(ValuesApart->second, PT.TB);
  }
  for (std::int64_t Sample : UniformSamples) {
    if (Sample < 2)
      continue;
    P.push();
    for (unsigned Atom : Unknowns)
      P.require(P.solver().mkEqual(P.uniform(Atom), P.constant(Sample)));
    P.push();
    Collide(P, PT);
    std::optional<bool> Races = P.check();
    P.pop();
    if (Races == false) {
      std::optional<bool> BothRun = P.check();
      if (BothRun != false)
        return RaceVerdict::Possible; // Both run, yet no collision.
    }
    P.pop();
    if (!Races)
      return RaceVerdict::Possible;
  }
  return RaceVerdict::Definite;
}

} // namespace clang::cuda_tidy
