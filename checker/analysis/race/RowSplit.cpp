//===--- RowSplit.cpp - Offsets split into rows of an unknown width -------===//
//
// See RowSplit.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/RowSplit.h"
#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/STLExtras.h"
#include <numeric>

namespace clang::cuda_tidy {

namespace {

/// Polynomials past these sizes are not worth a pre-query: the full
/// question decides them, as before. With coefficients under 2^24, a
/// linear form of 48 leaves of 32 bits stays within 64 bits.
constexpr std::int64_t CoefficientLimit = std::int64_t(1) << 24;
constexpr std::size_t MonomialLimit = 48;
constexpr std::size_t DegreeLimit = 4;
constexpr std::int64_t MaxFactor = std::int64_t(1) << 16;

bool addChecked(std::int64_t A, std::int64_t B, std::int64_t &Out) {
  return !__builtin_add_overflow(A, B, &Out) && Out > -CoefficientLimit &&
         Out < CoefficientLimit;
}

bool mulChecked(std::int64_t A, std::int64_t B, std::int64_t &Out) {
  return !__builtin_mul_overflow(A, B, &Out) && Out > -CoefficientLimit &&
         Out < CoefficientLimit;
}

/// Adds \p Coefficient * \p Monomial to \p P; false on overflow.
bool addTerm(LeafPolynomial &P, const llvm::SmallVector<unsigned, 3> &Monomial,
             std::int64_t Coefficient) {
  std::int64_t &Slot = P[Monomial];
  if (!addChecked(Slot, Coefficient, Slot))
    return false;
  if (Slot == 0)
    P.erase(Monomial);
  return true;
}

/// Reads symbolic expressions as polynomials over their leaves.
class PolynomialReader {
public:
  PolynomialReader(const SymbolicTranslator &Sym, const BlockShape &Shape,
                   std::vector<SymId> &Leaves)
      : Sym(Sym), Shape(Shape), Leaves(Leaves) {}

  std::optional<LeafPolynomial> read(SymId Id, unsigned Depth = 0) {
    if (Id < 0 || Depth > 32)
      return std::nullopt;
    const SymNode &N = Sym.node(Id);
    switch (N.K) {
    case SymNode::Const:
      return constant(N.Value);
    case SymNode::BlockDim:
      return constant(Shape.Dim[N.Value]);
    case SymNode::Thread:
      return single(leaf({int(SymNode::Thread), N.Value}, Id));
    case SymNode::Atom:
      if (std::optional<std::int64_t> Bound =
              boundValue(Sym, unsigned(N.Value), Shape))
        return constant(*Bound);
      return single(leaf({int(SymNode::Atom), N.Value}, Id));
    case SymNode::Unknown:
      return std::nullopt;
    case SymNode::Add:
    case SymNode::Sub: {
      auto L = read(N.A, Depth + 1), R = read(N.B, Depth + 1);
      if (!L || !R)
        return std::nullopt;
      for (const auto &[Monomial, C] : *R)
        if (!addTerm(*L, Monomial, N.K == SymNode::Sub ? -C : C))
          return std::nullopt;
      return limited(std::move(*L));
    }
    case SymNode::Neg: {
      auto L = read(N.A, Depth + 1);
      if (!L)
        return std::nullopt;
      for (auto &[Monomial, C] : *L)
        C = -C;
      return L;
    }
    case SymNode::Mul: {
      auto L = read(N.A, Depth + 1), R = read(N.B, Depth + 1);
      if (!L || !R)
        return std::nullopt;
      LeafPolynomial Product;
      for (const auto &[ML, CL] : *L)
        for (const auto &[MR, CR] : *R) {
          llvm::SmallVector<unsigned, 3> Monomial(ML);
          Monomial.append(MR.begin(), MR.end());
          llvm::sort(Monomial);
          std::int64_t C;
          if (Monomial.size() > DegreeLimit || !mulChecked(CL, CR, C) ||
              !addTerm(Product, Monomial, C))
            return std::nullopt;
        }
      return limited(std::move(Product));
    }
    case SymNode::Shl: {
      auto L = read(N.A, Depth + 1);
      const SymNode &S = Sym.node(N.B);
      if (!L || S.K != SymNode::Const || S.Value < 0 || S.Value > 30)
        return std::nullopt;
      for (auto &[Monomial, C] : *L)
        if (!mulChecked(C, std::int64_t(1) << S.Value, C))
          return std::nullopt;
      return L;
    }
    default:
      // Any other node is a leaf of its own, encoded as the full question
      // encodes it.
      return single(leaf({-1, Id}, Id));
    }
  }

private:
  static LeafPolynomial constant(std::int64_t V) {
    LeafPolynomial P;
    if (V != 0)
      P[{}] = V;
    return P;
  }
  static LeafPolynomial single(unsigned Leaf) {
    LeafPolynomial P;
    P[{Leaf}] = 1;
    return P;
  }
  static std::optional<LeafPolynomial> limited(LeafPolynomial P) {
    if (P.size() > MonomialLimit)
      return std::nullopt;
    return P;
  }
  unsigned leaf(std::pair<int, std::int64_t> Key, SymId Id) {
    auto [It, New] = LeafOf.try_emplace(Key, unsigned(Leaves.size()));
    if (New)
      Leaves.push_back(Id);
    return It->second;
  }

  const SymbolicTranslator &Sym;
  const BlockShape &Shape;
  std::vector<SymId> &Leaves;
  std::map<std::pair<int, std::int64_t>, unsigned> LeafOf;
};

bool isLinear(const LeafPolynomial &P) {
  return llvm::all_of(P,
                      [](const auto &Term) { return Term.first.size() <= 1; });
}

/// Splits \p P by leaf \p W0 and factor \p G into Q (the monomials holding
/// W0 once, divided by G * W0) and R (the others); false when a monomial
/// holds W0 twice.
bool splitBy(const LeafPolynomial &P, unsigned W0, std::int64_t G,
             LeafPolynomial &Q, LeafPolynomial &R) {
  for (const auto &[Monomial, C] : P) {
    auto Count = llvm::count(Monomial, W0);
    if (Count > 1)
      return false;
    if (Count == 0) {
      R[Monomial] = C;
      continue;
    }
    llvm::SmallVector<unsigned, 3> Rest(Monomial);
    Rest.erase(llvm::find(Rest, W0));
    Q[Rest] = C / G;
  }
  return true;
}

} // namespace

RowSplits rowSplits(const SymbolicTranslator &Sym, SymId A, SymId B,
                    const BlockShape &Shape) {
  RowSplits Out;
  PolynomialReader Reader(Sym, Shape, Out.Leaves);
  std::optional<LeafPolynomial> PA = Reader.read(A), PB = Reader.read(B);
  if (!PA || !PB)
    return Out;
  // The row widths to try: uniform unknowns of the products.
  llvm::SmallVector<unsigned, 4> Candidates;
  for (const LeafPolynomial *P : {&*PA, &*PB})
    for (const auto &[Monomial, C] : *P) {
      if (Monomial.size() < 2)
        continue;
      for (unsigned Leaf : Monomial) {
        const SymNode &N = Sym.node(Out.Leaves[Leaf]);
        if (N.K != SymNode::Atom)
          continue;
        const SymAtom &Info = Sym.atoms()[N.Value];
        if (!Info.isLoopCounter() && !Info.isBlockIndex() &&
            !llvm::is_contained(Candidates, Leaf))
          Candidates.push_back(Leaf);
      }
    }
  // Each leaf's bound: a thread index its extent, a uniform atom the
  // encoding's range, any other the lemma's premise.
  Out.Bounded.assign(Out.Leaves.size(), false);
  std::vector<std::int64_t> Bound(Out.Leaves.size(), RowSplits::LeafLimit);
  for (unsigned L = 0; L < Out.Leaves.size(); ++L) {
    const SymNode &N = Sym.node(Out.Leaves[L]);
    if (N.K == SymNode::Thread)
      Bound[L] = Shape.Dim[N.Value];
    else if (N.K == SymNode::Atom && !Sym.atoms()[N.Value].isLoopCounter())
      Bound[L] = ExactQuery::UniformRange;
    else
      Out.Bounded[L] = true;
  }
  auto Largest = [&](const LeafPolynomial &P) {
    std::int64_t Sum = 0;
    for (const auto &[Monomial, C] : P) {
      std::int64_t Term = C < 0 ? -C : C;
      for (unsigned L : Monomial)
        Term *= Bound[L];
      Sum += Term;
    }
    return Sum;
  };
  for (unsigned W0 : Candidates) {
    std::int64_t G = 0;
    for (const LeafPolynomial *P : {&*PA, &*PB})
      for (const auto &[Monomial, C] : *P)
        if (llvm::is_contained(Monomial, W0))
          G = std::gcd(G, C < 0 ? -C : C);
    if (G <= 0 || G > MaxFactor)
      continue;
    RowSplit Split;
    Split.WidthLeaf = W0;
    Split.Factor = G;
    if (!splitBy(*PA, W0, G, Split.QA, Split.RA) ||
        !splitBy(*PB, W0, G, Split.QB, Split.RB))
      continue;
    // Linear, and within 32 bits while the leaves are in their bounds.
    const std::int64_t Exact = std::int64_t(1) << 30;
    if (isLinear(Split.QA) && isLinear(Split.RA) && isLinear(Split.QB) &&
        isLinear(Split.RB) && G * ExactQuery::UniformRange < Exact &&
        llvm::all_of(
            std::initializer_list<const LeafPolynomial *>{&Split.QA, &Split.RA,
                                                          &Split.QB, &Split.RB},
            [&](const LeafPolynomial *P) { return Largest(*P) < Exact; }))
      Out.Splits.push_back(std::move(Split));
  }
  return Out;
}

llvm::SMTExprRef rowSplitLemma(ExactQuery &Q, const RowSplits &Splits,
                               const RowSplit &Split, unsigned TA,
                               std::int64_t WidthA, unsigned TB,
                               std::int64_t WidthB) {
  llvm::SMTSolver &Z = Q.solver();
  // Q, R and W in 32 bits are their exact values while every leaf lies in
  // its bound (rowSplits checked that the forms cannot wrap then): the
  // uniform atoms and threads are so encoded; the others' bounds are
  // premises.
  llvm::SMTExprRef Premise =
      Z.mkBVSge(Q.value(Splits.Leaves[Split.WidthLeaf], TA), Q.constant(1));
  auto Encode = [&](const LeafPolynomial &P, unsigned Thread) {
    llvm::SMTExprRef Sum = Q.constant(0);
    for (const auto &[Monomial, C] : P) {
      llvm::SMTExprRef Term = Q.constant(C);
      for (unsigned L : Monomial) {
        llvm::SMTExprRef Leaf = Q.value(Splits.Leaves[L], Thread);
        if (Splits.Bounded[L])
          Premise = Z.mkAnd(
              Premise,
              Z.mkAnd(Z.mkBVSge(Leaf, Q.constant(-RowSplits::LeafLimit)),
                      Z.mkBVSle(Leaf, Q.constant(RowSplits::LeafLimit))));
        Term = Z.mkBVMul(Term, Leaf);
      }
      Sum = Z.mkBVAdd(Sum, Term);
    }
    return Sum;
  };
  llvm::SMTExprRef W = Z.mkBVMul(Q.constant(Split.Factor),
                                 Q.value(Splits.Leaves[Split.WidthLeaf], TA));
  llvm::SMTExprRef QA = Encode(Split.QA, TA), RA = Encode(Split.RA, TA);
  llvm::SMTExprRef QB = Encode(Split.QB, TB), RB = Encode(Split.RB, TB);
  llvm::SMTExprRef Zero = Q.constant(0);
  llvm::SMTExprRef EndA = Z.mkBVAdd(RA, Q.constant(WidthA)),
                   EndB = Z.mkBVAdd(RB, Q.constant(WidthB));
  llvm::SMTExprRef First = Z.mkAnd(Z.mkBVSle(EndA, W), Z.mkBVSge(RB, Zero));
  llvm::SMTExprRef Second = Z.mkAnd(Z.mkBVSle(EndB, W), Z.mkBVSge(RA, Zero));
  auto Implies = [&](const llvm::SMTExprRef &P, const llvm::SMTExprRef &C) {
    return Z.mkOr(Z.mkNot(P), C);
  };
  llvm::SMTExprRef Conclusion =
      Z.mkAnd(Z.mkAnd(Implies(First, Z.mkBVSge(QA, QB)),
                      Implies(Second, Z.mkBVSge(QB, QA))),
              Implies(Z.mkEqual(QA, QB),
                      Z.mkAnd(Z.mkBVSlt(RA, EndB), Z.mkBVSlt(RB, EndA))));
  return Implies(Premise, Conclusion);
}

} // namespace clang::cuda_tidy
