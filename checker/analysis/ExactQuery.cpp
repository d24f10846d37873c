//===--- ExactQuery.cpp - Existence questions decided by an SMT solver ----===//
//
// See ExactQuery.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/ExactQuery.h"
#include "llvm/ADT/APSInt.h"
#include <tuple>

namespace clang::cuda_tidy {

namespace {

/// 32 bits: twice as fast as 64 on non-linear terms (`t * stride`), and
/// wide enough for shared-memory offsets with the limits below.
constexpr unsigned Width = 32;
/// Uniform atoms stay in [-UniformLimit, UniformLimit]: a product of one of
/// them with a thread index or another one cannot wrap 32 bits.
constexpr std::int64_t UniformLimit = ExactQuery::UniformRange;
constexpr std::int64_t BlockIndexLimit = (1 << 16) - 1;
constexpr std::int64_t IterationLimit = 1 << 15;
constexpr std::int64_t GenericLow = 2;
constexpr std::int64_t SmallHigh = 64;
// Only for a query that the resource limit somehow fails to stop: a
// deterministic limit is what bounds queries (see the essay).
constexpr unsigned SafetyTimeoutMs = 20000;

} // namespace

std::pair<llvm::SMTSolverRef, unsigned> SolverPool::take() {
  if (Free.empty())
    return {llvm::CreateZ3Solver(), 0};
  auto Taken = std::move(Free.back());
  Free.pop_back();
  // reset() drops assertions and scopes; parameters are set again by the
  // query. Done here rather than in give(): a reset costs about 2 ms, and
  // most solvers given back are never taken again (the pool of a decision
  // ends with it).
  Taken.first->reset();
  return Taken;
}

void SolverPool::give(llvm::SMTSolverRef Solver, unsigned Uses) {
  if (Uses >= MaxUses)
    return;
  Free.push_back({std::move(Solver), Uses});
}

ExactQuery::ExactQuery(const SymbolicTranslator &Sym, unsigned ResourceLimit,
                       SolverPool *Pool)
    : Sym(Sym), Pool(Pool) {
  if (Pool)
    std::tie(Solver, Uses) = Pool->take();
  else
    Solver = llvm::CreateZ3Solver();
  // Z3's resource limit is counted from the start of each check(), so a
  // reused context gets the same limit per query.
  Solver->setUnsignedParam("rlimit", ResourceLimit);
  Solver->setUnsignedParam("timeout", SafetyTimeoutMs);
  Sort = Solver->getBitvectorSort(Width);
  // A fresh context starts its count with this query, as before pools.
  if (Uses > 0)
    ResourceBase = Solver->getStatistics()->getUnsigned("rlimit count");
}

ExactQuery::~ExactQuery() {
  if (!Pool)
    return;
  // The terms this query holds keep references into the context; they
  // are released after this body, while the pool keeps the context alive.
  Pool->give(std::move(Solver), Uses + 1);
}

llvm::SMTExprRef ExactQuery::constant(std::int64_t V) {
  return Solver->mkBitvector(llvm::APSInt::get(V), Width);
}

llvm::SMTExprRef ExactQuery::fresh(const std::string &Name) {
  return Solver->mkSymbol((Name + "#" + std::to_string(Names++)).c_str(), Sort);
}

llvm::SMTExprRef ExactQuery::inRange(const llvm::SMTExprRef &V,
                                     std::int64_t Low, std::int64_t High) {
  return Solver->mkAnd(Solver->mkBVSge(V, constant(Low)),
                       Solver->mkBVSle(V, constant(High)));
}

void ExactQuery::require(const llvm::SMTExprRef &Constraint) {
  Solver->addConstraint(Constraint);
}

void ExactQuery::setShape(const BlockShape &S) {
  Concrete = true;
  Shape = S;
  for (unsigned D = 0; D < 3; ++D)
    Dims[D] = constant(S.Dim[D]);
}

void ExactQuery::setSymbolicShape() {
  Concrete = false;
  for (unsigned D = 0; D < 3; ++D) {
    Dims[D] = fresh(std::string("blockDim.") + char('x' + D));
    require(inRange(Dims[D], 1, 1024));
  }
  require(Solver->mkBVSle(
      Solver->mkBVMul(Dims[0], Solver->mkBVMul(Dims[1], Dims[2])),
      constant(1024)));
}

llvm::SMTExprRef ExactQuery::blockDim(unsigned Dim) { return Dims[Dim]; }

unsigned ExactQuery::addThread() {
  unsigned Id = Threads.size();
  std::array<llvm::SMTExprRef, 3> Tid;
  for (unsigned D = 0; D < 3; ++D) {
    Tid[D] = fresh("t" + std::to_string(Id) + "." + char('x' + D));
    require(Solver->mkBVSge(Tid[D], constant(0)));
    require(Solver->mkBVSlt(Tid[D], Dims[D]));
  }
  Threads.push_back(Tid);
  return Id;
}

unsigned ExactQuery::addThread(std::int64_t Linear) {
  unsigned Id = Threads.size();
  std::array<llvm::SMTExprRef, 3> Tid;
  for (unsigned D = 0; D < 3; ++D) {
    Tid[D] = constant(Linear % Shape.Dim[D]);
    Linear /= Shape.Dim[D];
  }
  Threads.push_back(Tid);
  return Id;
}

llvm::SMTExprRef ExactQuery::linearThread(unsigned Thread) {
  const auto &Tid = Threads[Thread];
  return Solver->mkBVAdd(
      Tid[0],
      Solver->mkBVMul(
          Dims[0], Solver->mkBVAdd(Tid[1], Solver->mkBVMul(Dims[1], Tid[2]))));
}

llvm::SMTExprRef ExactQuery::boolToBV(const llvm::SMTExprRef &B) {
  return Solver->mkIte(B, constant(1), constant(0));
}

llvm::SMTExprRef ExactQuery::nonZero(const llvm::SMTExprRef &V) {
  return Solver->mkNot(Solver->mkEqual(V, constant(0)));
}

llvm::SMTExprRef ExactQuery::compare(SymNode::Kind K, const llvm::SMTExprRef &A,
                                     const llvm::SMTExprRef &B) {
  switch (K) {
  case SymNode::Lt:
    return Solver->mkBVSlt(A, B);
  case SymNode::Le:
    return Solver->mkBVSle(A, B);
  case SymNode::Gt:
    return Solver->mkBVSgt(A, B);
  case SymNode::Ge:
    return Solver->mkBVSge(A, B);
  case SymNode::Eq:
    return Solver->mkEqual(A, B);
  default:
    return Solver->mkNot(Solver->mkEqual(A, B));
  }
}

llvm::SMTExprRef ExactQuery::step(SymNode::Kind Op, const llvm::SMTExprRef &V,
                                  const llvm::SMTExprRef &Step) {
  switch (Op) {
  case SymNode::Add:
    return Solver->mkBVAdd(V, Step);
  case SymNode::Sub:
    return Solver->mkBVSub(V, Step);
  case SymNode::Mul:
    return Solver->mkBVMul(V, Step);
  case SymNode::Div:
    return Solver->mkBVSDiv(V, Step);
  case SymNode::Shl:
    return Solver->mkBVShl(V, Step);
  default:
    return Solver->mkBVAshr(V, Step);
  }
}

llvm::SMTExprRef ExactQuery::uniform(unsigned Atom) {
  auto It = Uniforms.find(Atom);
  if (It != Uniforms.end())
    return It->second;
  const SymAtom &Info = Sym.atoms()[Atom];
  // A kernel parameter every launch of the shape passes as one constant is
  // that constant, not an unknown of the question.
  if (std::optional<std::int64_t> Bound =
          Info.Var && Concrete ? Shape.argument(Info.Var) : std::nullopt) {
    llvm::SMTExprRef V = constant(*Bound);
    Uniforms[Atom] = V;
    return V;
  }
  // A parameter every launch passes as a form of blockDim and other
  // parameters (`tilew` = blockDim.x + 2 * r) is that form of their terms,
  // not an unknown of its own: moving `r` moves `tilew` with it, in the
  // witness and in the test that a point is not isolated.
  if (llvm::SMTExprRef V = related(Atom)) {
    Uniforms[Atom] = V;
    return V;
  }
  llvm::SMTExprRef V = fresh(Info.Name);
  if (Info.isBlockIndex())
    require(inRange(V, 0, BlockIndexLimit));
  else
    require(inRange(V, -UniformLimit, UniformLimit));
  Uniforms[Atom] = V;
  UniformOrder.push_back(Atom);
  return V;
}

llvm::SMTExprRef ExactQuery::related(unsigned Atom) {
  const SymAtom &Info = Sym.atoms()[Atom];
  const ArgumentRelation *R = Info.Var && Concrete && !Info.isLoopCounter()
                                  ? Shape.relation(Info.Var)
                                  : nullptr;
  if (!R || !R->holdsIn(Sym))
    return nullptr;
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Terms;
  for (const auto &[Other, C] : R->Terms) {
    std::optional<unsigned> OtherAtom = Sym.atomOf(Other);
    if (!OtherAtom || Sym.atoms()[*OtherAtom].isLoopCounter())
      return nullptr;
    Terms.push_back({*OtherAtom, C});
  }
  // The launch computes the form modulo 2^32, as these terms do.
  llvm::SMTExprRef V = constant(R->Constant);
  for (unsigned D = 0; D < 3; ++D)
    if (R->Dim[D] != 0)
      V = Solver->mkBVAdd(V, Solver->mkBVMul(constant(R->Dim[D]), Dims[D]));
  for (const auto &[OtherAtom, C] : Terms)
    V = Solver->mkBVAdd(V, Solver->mkBVMul(constant(C), uniform(OtherAtom)));
  // The range of every uniform atom: its products cannot wrap.
  require(inRange(V, -UniformLimit, UniformLimit));
  return V;
}

llvm::SmallVector<unsigned, 4> ExactQuery::genericUnknowns() const {
  llvm::SmallVector<unsigned, 4> Out;
  for (unsigned Atom : UniformOrder)
    if (!Sym.atoms()[Atom].isBlockIndex())
      Out.push_back(Atom);
  return Out;
}

void ExactQuery::restrictUnknowns(std::int64_t Low, std::int64_t High) {
  for (unsigned Atom : genericUnknowns())
    require(inRange(uniform(Atom), Low, High));
}

llvm::SMTExprRef ExactQuery::loopCounter(unsigned Atom, unsigned Thread) {
  auto Key = std::make_pair(Atom, Thread);
  auto It = Loops.find(Key);
  if (It != Loops.end())
    return It->second.Counter;
  const SymAtom &Info = Sym.atoms()[Atom];
  LoopInstance L;
  std::string Base = Info.Name + "@" + std::to_string(Thread);
  // Listed values first: exact for the shape, whatever the step.
  std::vector<std::int64_t> Values;
  if (Concrete) {
    SymEnv Dims;
    for (unsigned D = 0; D < 3; ++D)
      Dims.Dim[D] = Shape.Dim[D];
    Values = Sym.loopValues(Atom, Dims);
  }
  if (!Values.empty()) {
    L.Count = Values.size();
    L.Iteration = fresh(Base + ".k");
    require(inRange(L.Iteration, 0, L.Count - 1));
    llvm::SMTExprRef Table = constant(Values.back());
    for (std::size_t I = Values.size() - 1; I-- > 0;)
      Table = Solver->mkIte(Solver->mkEqual(L.Iteration, constant(I)),
                            constant(Values[I]), Table);
    L.Counter = Table;
  } else if (Info.IterationNumber) {
    // The atom is the iteration number itself; the loop condition, which
    // depends on the thread, is among the guards of the accesses.
    L.Iteration = fresh(Base + ".k");
    require(inRange(L.Iteration, 0, IterationLimit));
    L.Counter = L.Iteration;
  } else if ((Info.StepOp == SymNode::Add || Info.StepOp == SymNode::Sub) &&
             !Sym.isUnknown(Info.Init) && !Sym.isUnknown(Info.Step) &&
             !Sym.isUnknown(Info.Bound)) {
    L.Iteration = fresh(Base + ".k");
    require(inRange(L.Iteration, 0, IterationLimit));
    L.Counter = step(Info.StepOp, value(Info.Init, Thread),
                     Solver->mkBVMul(L.Iteration, value(Info.Step, Thread)));
    require(compare(Info.Compare, L.Counter, value(Info.Bound, Thread)));
  } else {
    L.Counter = fresh(Base);
    require(inRange(L.Counter, -UniformLimit, UniformLimit));
    if (!Sym.isUnknown(Info.Bound))
      require(compare(Info.Compare, L.Counter, value(Info.Bound, Thread)));
    Approximate = true;
  }
  Loops[Key] = L;
  return L.Counter;
}

llvm::SMTExprRef ExactQuery::iteration(unsigned Atom, unsigned Thread) {
  loopCounter(Atom, Thread);
  return Loops[{Atom, Thread}].Iteration;
}

void ExactQuery::relate(unsigned Atom, unsigned First, unsigned Second,
                        IterationRelation Relation) {
  if (Relation == IterationRelation::Any)
    return;
  llvm::SMTExprRef CA = loopCounter(Atom, First),
                   CB = loopCounter(Atom, Second);
  const LoopInstance &A = Loops[{Atom, First}], &B = Loops[{Atom, Second}];
  if (!A.Iteration || !B.Iteration) {
    // Only the same iteration can be said without iteration numbers.
    if (Relation == IterationRelation::Same)
      require(Solver->mkEqual(CA, CB));
    else
      Approximate = true;
    return;
  }
  const SymAtom &Info = Sym.atoms()[Atom];
  auto Last = [&](const LoopInstance &L, unsigned Thread) {
    if (L.Count > 0)
      return Solver->mkEqual(L.Iteration, constant(L.Count - 1));
    if (Info.IterationNumber || Sym.isUnknown(Info.Bound)) {
      Approximate = true;
      return Solver->mkBoolean(true);
    }
    return Solver->mkNot(compare(
        Info.Compare, step(Info.StepOp, L.Counter, value(Info.Step, Thread)),
        value(Info.Bound, Thread)));
  };
  llvm::SMTExprRef Zero = constant(0), One = constant(1);
  switch (Relation) {
  case IterationRelation::Any:
    break;
  case IterationRelation::Same:
    require(Solver->mkEqual(A.Iteration, B.Iteration));
    break;
  case IterationRelation::Next:
    require(Solver->mkEqual(B.Iteration, Solver->mkBVAdd(A.Iteration, One)));
    break;
  case IterationRelation::Previous:
    require(Solver->mkEqual(A.Iteration, Solver->mkBVAdd(B.Iteration, One)));
    break;
  case IterationRelation::BothFirst:
    require(Solver->mkEqual(A.Iteration, Zero));
    require(Solver->mkEqual(B.Iteration, Zero));
    break;
  case IterationRelation::FirstLast:
    require(Last(A, First));
    break;
  case IterationRelation::FirstFirst:
    require(Solver->mkEqual(A.Iteration, Zero));
    break;
  case IterationRelation::SecondLast:
    require(Last(B, Second));
    break;
  case IterationRelation::SecondFirst:
    require(Solver->mkEqual(B.Iteration, Zero));
    break;
  }
}

llvm::SMTExprRef ExactQuery::holds(SymId Id, unsigned Thread) {
  return nonZero(value(Id, Thread));
}

llvm::SMTExprRef ExactQuery::value(SymId Id, unsigned Thread) {
  auto Key = std::make_pair(Id, Thread);
  auto It = Memo.find(Key);
  if (It != Memo.end())
    return It->second;
  llvm::SMTExprRef R = encode(Id, Thread);
  Memo[Key] = R;
  return R;
}

llvm::SMTExprRef ExactQuery::encode(SymId Id, unsigned Thread) {
  const SymNode &N = Sym.node(Id);
  switch (N.K) {
  case SymNode::Const:
    return constant(N.Value);
  case SymNode::Thread:
    return Threads[Thread][N.Value];
  case SymNode::BlockDim:
    return Dims[N.Value];
  case SymNode::Atom:
    return Sym.atoms()[N.Value].isLoopCounter() ? loopCounter(N.Value, Thread)
                                                : uniform(N.Value);
  case SymNode::Unknown:
    // Callers check isUnknown first; a fresh term keeps the answer sound.
    Approximate = true;
    return fresh("unknown");
  case SymNode::Select:
    return Solver->mkIte(holds(N.A, Thread), value(N.B, Thread),
                         value(N.C, Thread));
  case SymNode::LAnd:
    return boolToBV(Solver->mkAnd(holds(N.A, Thread), holds(N.B, Thread)));
  case SymNode::LOr:
    return boolToBV(Solver->mkOr(holds(N.A, Thread), holds(N.B, Thread)));
  case SymNode::Not:
    return boolToBV(Solver->mkNot(holds(N.A, Thread)));
  case SymNode::Neg:
    return Solver->mkBVNeg(value(N.A, Thread));
  case SymNode::BitNot:
    return Solver->mkBVNot(value(N.A, Thread));
  default:
    break;
  }
  llvm::SMTExprRef X = value(N.A, Thread), Y = value(N.B, Thread);
  switch (N.K) {
  case SymNode::Add:
    return Solver->mkBVAdd(X, Y);
  case SymNode::Sub:
    return Solver->mkBVSub(X, Y);
  case SymNode::Mul:
    return Solver->mkBVMul(X, Y);
  case SymNode::Div:
    require(nonZero(Y));
    return Solver->mkBVSDiv(X, Y);
  case SymNode::Rem:
    require(nonZero(Y));
    return Solver->mkBVSRem(X, Y);
  case SymNode::Shl:
    require(inRange(Y, 0, 62));
    return Solver->mkBVShl(X, Y);
  case SymNode::Shr:
    require(inRange(Y, 0, 62));
    return Solver->mkBVAshr(X, Y);
  case SymNode::And:
    return Solver->mkBVAnd(X, Y);
  case SymNode::Or:
    return Solver->mkBVOr(X, Y);
  case SymNode::Xor:
    return Solver->mkBVXor(X, Y);
  case SymNode::Lt:
  case SymNode::Le:
  case SymNode::Gt:
  case SymNode::Ge:
  case SymNode::Eq:
  case SymNode::Ne:
    return boolToBV(compare(N.K, X, Y));
  case SymNode::Min:
    return Solver->mkIte(Solver->mkBVSlt(X, Y), X, Y);
  case SymNode::Max:
    return Solver->mkIte(Solver->mkBVSgt(X, Y), X, Y);
  default:
    Approximate = true;
    return fresh("unknown");
  }
}

namespace {

/// An offset `c * E + k` (c and k constants; c = 1 and k = 0 when there
/// is no such factor and term).
struct ElementOffset {
  SymId Element = -1;
  std::int64_t Size = 1, Field = 0;
};

ElementOffset elementOffset(const SymbolicTranslator &Sym, SymId Id) {
  ElementOffset Out;
  Out.Element = Id;
  const SymNode &N = Sym.node(Id);
  auto Constant = [&](SymId C) -> std::optional<std::int64_t> {
    if (C >= 0 && Sym.node(C).K == SymNode::Const)
      return Sym.node(C).Value;
    return std::nullopt;
  };
  if (N.K == SymNode::Add) {
    for (auto [Term, Other] : {std::pair(N.A, N.B), std::pair(N.B, N.A)})
      if (std::optional<std::int64_t> K = Constant(Term)) {
        ElementOffset Inner = elementOffset(Sym, Other);
        Inner.Field += *K;
        return Inner;
      }
    return Out;
  }
  if (N.K == SymNode::Mul) {
    for (auto [Factor, Other] : {std::pair(N.A, N.B), std::pair(N.B, N.A)})
      if (std::optional<std::int64_t> C = Constant(Factor); C && *C > 0) {
        Out.Element = Other;
        Out.Size = *C;
        return Out;
      }
    return Out;
  }
  if (N.K == SymNode::Shl)
    if (std::optional<std::int64_t> S = Constant(N.B); S && *S >= 0 && *S < 8) {
      Out.Element = N.A;
      Out.Size = std::int64_t(1) << *S;
    }
  return Out;
}

/// The row factor of \p Id, a sum of terms: a term `Y * W` (or `W * Y`)
/// with W a uniform atom that is not a loop counter, found through `+`
/// and `-`; Y's node, W's atom and whether Y is negated. Rest lists the
/// other summands met on the way to it, each with its sign, so that
/// Id == (Negated ? -Y : Y) * W + sum(Rest) modulo 2^32, term for term.
struct RowFactor {
  SymId Row = -1;
  unsigned Width = 0;
  bool Negated = false;
  llvm::SmallVector<std::pair<SymId, bool>, 4> Rest; // (summand, negated)
};

std::optional<RowFactor> rowFactor(const SymbolicTranslator &Sym, SymId Id,
                                   std::optional<unsigned> Want,
                                   bool Negated = false, unsigned Depth = 0) {
  if (Id < 0 || Depth > 8)
    return std::nullopt;
  const SymNode &N = Sym.node(Id);
  if (N.K == SymNode::Add || N.K == SymNode::Sub) {
    // Negated * (A +- B) = Negated * A +- Negated * B: the side that does
    // not hold the factor is a summand of the rest, with that sign.
    bool NegatedB = N.K == SymNode::Sub ? !Negated : Negated;
    if (auto F = rowFactor(Sym, N.A, Want, Negated, Depth + 1)) {
      F->Rest.push_back({N.B, NegatedB});
      return F;
    }
    if (auto F = rowFactor(Sym, N.B, Want, NegatedB, Depth + 1)) {
      F->Rest.push_back({N.A, Negated});
      return F;
    }
    return std::nullopt;
  }
  if (N.K != SymNode::Mul)
    return std::nullopt;
  for (auto [W, Y] : {std::pair(N.B, N.A), std::pair(N.A, N.B)}) {
    const SymNode &Factor = Sym.node(W);
    if (Factor.K != SymNode::Atom)
      continue;
    const SymAtom &Info = Sym.atoms()[Factor.Value];
    if (Info.isLoopCounter() || Info.isBlockIndex() ||
        (Want && *Want != unsigned(Factor.Value)))
      continue;
    return RowFactor{Y, unsigned(Factor.Value), Negated, {}};
  }
  return std::nullopt;
}

} // namespace

namespace {

/// The element offsets and row factors of two accesses the row lemma
/// speaks of; none when the offsets do not have its form.
struct RowPair {
  ElementOffset EA, EB;
  RowFactor RA, RB;
};

std::optional<RowPair> rowPair(const SymbolicTranslator &Sym, SymId A,
                               std::int64_t WidthA, SymId B,
                               std::int64_t WidthB) {
  ElementOffset EA = elementOffset(Sym, A), EB = elementOffset(Sym, B);
  // Each access stays inside one element of the same size.
  if (EA.Size != EB.Size || EA.Size > 16 || EA.Field < 0 || EB.Field < 0 ||
      EA.Field + WidthA > EA.Size || EB.Field + WidthB > EB.Size)
    return std::nullopt;
  std::optional<RowFactor> RA = rowFactor(Sym, EA.Element, std::nullopt);
  if (!RA)
    return std::nullopt;
  std::optional<RowFactor> RB = rowFactor(Sym, EB.Element, RA->Width);
  if (!RB)
    return std::nullopt;
  return RowPair{EA, EB, std::move(*RA), std::move(*RB)};
}

} // namespace

bool ExactQuery::hasRowLemma(const SymbolicTranslator &Sym, SymId A,
                             std::int64_t WidthA, SymId B,
                             std::int64_t WidthB) {
  return rowPair(Sym, A, WidthA, B, WidthB).has_value();
}

llvm::SMTExprRef ExactQuery::rowLemma(SymId A, unsigned TA, std::int64_t WidthA,
                                      SymId B, unsigned TB,
                                      std::int64_t WidthB, bool FromRests) {
  std::optional<RowPair> Pair = rowPair(Sym, A, WidthA, B, WidthB);
  if (!Pair)
    return nullptr;
  const ElementOffset &EA = Pair->EA, &EB = Pair->EB;
  const RowFactor *RA = &Pair->RA, *RB = &Pair->RB;
  llvm::SMTSolver &Z = *Solver;
  llvm::SMTExprRef W = uniform(RA->Width);
  auto Row = [&](const RowFactor &F, unsigned Thread) {
    llvm::SMTExprRef Y = value(F.Row, Thread);
    return F.Negated ? Z.mkBVNeg(Y) : Y;
  };
  llvm::SMTExprRef YA = Row(*RA, TA), YB = Row(*RB, TB);
  // X = Element - Y * W, or, for the pre-query, the other summands of
  // Element: the same value modulo 2^32 in every assignment (rowFactor),
  // without a multiplier circuit.
  auto Column = [&](const ElementOffset &E, const RowFactor &F,
                    const llvm::SMTExprRef &Y, unsigned Thread) {
    if (!FromRests)
      return Z.mkBVSub(value(E.Element, Thread), Z.mkBVMul(Y, W));
    llvm::SMTExprRef X = constant(0);
    for (const auto &[Summand, Negated] : F.Rest)
      X = Negated ? Z.mkBVSub(X, value(Summand, Thread))
                  : Z.mkBVAdd(X, value(Summand, Thread));
    return X;
  };
  llvm::SMTExprRef XA = Column(EA, *RA, YA, TA),
                   XB = Column(EB, *RB, YB, TB);
  // With W in [1, 2^15] and rows within 2^15 + 2^11, neither Y * W nor
  // Y * W + X wraps. c * E + k may in the terms, but not in an execution:
  // a real access's offset lies in the block's shared memory (at most
  // 228 KiB), so a model in which the 32-bit offsets wrap is none, and the
  // lemma may rule it out.
  const std::int64_t RowLimit = UniformLimit + (1 << 11);
  llvm::SMTExprRef Premises[] = {inRange(W, 1, UniformLimit),
                                 inRange(YA, -RowLimit, RowLimit),
                                 inRange(YB, -RowLimit, RowLimit),
                                 Z.mkBVSge(XA, constant(0)),
                                 Z.mkBVSlt(XA, W),
                                 Z.mkBVSge(XB, constant(0)),
                                 Z.mkBVSlt(XB, W)};
  llvm::SMTExprRef Premise = Z.mkBoolean(true);
  for (const llvm::SMTExprRef &P : Premises)
    Premise = Z.mkAnd(Premise, P);
  return Z.mkOr(Z.mkNot(Premise),
                Z.mkAnd(Z.mkEqual(YA, YB), Z.mkEqual(XA, XB)));
}

llvm::SMTExprRef ExactQuery::observe(const llvm::SMTExprRef &Term) {
  llvm::SMTExprRef Symbol = fresh("observed");
  require(Solver->mkEqual(Symbol, Term));
  return Symbol;
}

std::optional<bool> ExactQuery::check() { return Solver->check(); }

std::uint64_t ExactQuery::resourcesUsed() const {
  // Z3 adds its context's resource counter to every solver's statistics;
  // the context may have served earlier queries (SolverPool).
  return Solver->getStatistics()->getUnsigned("rlimit count") - ResourceBase;
}

std::int64_t ExactQuery::modelValue(const llvm::SMTExprRef &Term) {
  llvm::APSInt V(Width, /*isUnsigned=*/false);
  if (!Solver->getInterpretation(Term, V))
    return 0;
  return V.getExtValue();
}

std::optional<ExactQuery::Answer>
ExactQuery::decide(llvm::function_ref<void()> ReadModel) {
  llvm::SmallVector<unsigned, 4> Unknowns = genericUnknowns();
  // The generic region, small values first for a readable witness.
  std::optional<bool> Generic = false;
  for (std::int64_t High : {SmallHigh, UniformLimit}) {
    push();
    restrictUnknowns(GenericLow, High);
    Generic = check();
    if (Generic == true)
      break;
    pop();
    if (!Generic)
      return std::nullopt;
    if (Unknowns.empty())
      break; // The restriction was empty: the wide region says no more.
  }
  Answer Result;
  if (!*Generic) {
    if (Unknowns.empty())
      return Result;
    std::optional<bool> Anywhere = check();
    if (!Anywhere)
      return std::nullopt;
    if (*Anywhere)
      ReadModel();
    Result.Found = *Anywhere;
    return Result;
  }
  Result.Found = true;
  llvm::SmallVector<std::int64_t, 4> Point;
  for (unsigned Atom : Unknowns)
    Point.push_back(modelValue(uniform(Atom)));
  ReadModel();
  pop();
  // Not isolated: each unknown can move off the model's point alone.
  bool Certain = !Approximate;
  for (unsigned I = 0; I < Unknowns.size() && Certain; ++I) {
    push();
    restrictUnknowns(GenericLow, UniformLimit);
    for (unsigned J = 0; J < Unknowns.size(); ++J) {
      llvm::SMTExprRef Fixed =
          Solver->mkEqual(uniform(Unknowns[J]), constant(Point[J]));
      require(I == J ? Solver->mkNot(Fixed) : Fixed);
    }
    std::optional<bool> Moved = check();
    pop();
    if (!Moved)
      return std::nullopt;
    Certain = *Moved;
  }
  Result.Certain = Certain;
  return Result;
}

std::string ExactQuery::portableKey(const SymbolicTranslator &Sym, SymId Id,
                                    llvm::SmallVectorImpl<unsigned> &Atoms) {
  if (Id < 0)
    return "_";
  const SymNode &N = Sym.node(Id);
  std::string Key = "(" + std::to_string(N.K) + ":" +
                    (N.K == SymNode::Atom ? portableAtomKey(Sym, N.Value, Atoms)
                                          : std::to_string(N.Value));
  for (SymId Child : {N.A, N.B, N.C})
    if (Child >= 0)
      Key += " " + portableKey(Sym, Child, Atoms);
  return Key + ")";
}

std::string
ExactQuery::portableAtomKey(const SymbolicTranslator &Sym, unsigned Atom,
                            llvm::SmallVectorImpl<unsigned> &Atoms) {
  const auto *Seen = llvm::find(Atoms, Atom);
  std::string Key = "a" + std::to_string(Seen - Atoms.begin());
  if (Seen != Atoms.end())
    return Key;
  Atoms.push_back(Atom);
  const SymAtom &Info = Sym.atoms()[Atom];
  Key += "{" + Info.Name;
  if (Info.isLoopCounter())
    Key += " loop " + portableKey(Sym, Info.Init, Atoms) + " " +
           portableKey(Sym, Info.Bound, Atoms) + " " +
           portableKey(Sym, Info.Step, Atoms) + " " +
           std::to_string(Info.Compare) + " " + std::to_string(Info.StepOp) +
           (Info.IterationNumber ? " i" : "");
  return Key + "}";
}

std::string ExactQuery::shapeKey(const SymbolicTranslator &Sym, SymId Id) {
  if (Id < 0)
    return "_";
  const SymNode &N = Sym.node(Id);
  std::string Key = "(" + std::to_string(N.K) + ":" + std::to_string(N.Value);
  for (SymId Child : {N.A, N.B, N.C})
    if (Child >= 0)
      Key += " " + shapeKey(Sym, Child);
  return Key + ")";
}

} // namespace clang::cuda_tidy
