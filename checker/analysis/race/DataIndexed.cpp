//===--- DataIndexed.cpp - Atomics at an index the data picks -------------===//
//
// See DataIndexed.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/DataIndexed.h"
#include "analysis/race/ByteTouchers.h"
#include "llvm/ADT/BitVector.h"

namespace clang::cuda_tidy {

DataIndexedDecision::DataIndexedDecision(const KernelRaceContext &K,
                                         RaceConcurrency &Concurrency)
    : Col(K.Col), Context(K.Context), Sym(K.Sym), Concurrency(Concurrency) {}

std::optional<DataIndex>
DataIndexedDecision::dataIndex(const SharedAccess &Atomic) const {
  // `&V[E % M]` or `&V[E & (M - 1)]` on a one-dimensional shared array V,
  // with E unsigned for `%`: whatever E holds, the index is in [0, M).
  const auto *AddrOf = dyn_cast<UnaryOperator>(Atomic.E->IgnoreParenImpCasts());
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return std::nullopt;
  const auto *Subscript =
      dyn_cast<ArraySubscriptExpr>(AddrOf->getSubExpr()->IgnoreParens());
  const auto *Array =
      Atomic.Var ? Context.getAsConstantArrayType(Atomic.Var->getType())
                 : nullptr;
  if (!Subscript || !Array || Array->getElementType()->isArrayType())
    return std::nullopt;
  const auto *Base =
      dyn_cast<DeclRefExpr>(Subscript->getBase()->IgnoreParenImpCasts());
  if (!Base || Base->getDecl() != Atomic.Var)
    return std::nullopt;
  const auto *Reduce =
      dyn_cast<BinaryOperator>(Subscript->getIdx()->IgnoreParenImpCasts());
  Expr::EvalResult Modulus;
  if (!Reduce || Reduce->getRHS()->isValueDependent() ||
      !Reduce->getRHS()->EvaluateAsInt(Modulus, Context))
    return std::nullopt;
  std::int64_t M = Modulus.Val.getInt().getExtValue();
  std::int64_t Values = 0;
  if (Reduce->getOpcode() == BO_Rem && M > 0 &&
      Reduce->getType()->isUnsignedIntegerType())
    Values = M;
  else if (Reduce->getOpcode() == BO_And && M >= 0 && ((M + 1) & M) == 0)
    Values = M + 1;
  std::int64_t Length = Array->getSize().getSExtValue();
  // Data that could leave the array is a bounds question first.
  if (Values <= 0 || Values > Length || Values > 4096)
    return std::nullopt;
  DataIndex Index;
  Index.Index = Reduce;
  Index.Values = Values;
  Index.ElementBytes =
      Context.getTypeSizeInChars(Array->getElementType()).getQuantity();
  return Index;
}

RaceVerdict DataIndexedDecision::decide(const SharedAccess &Plain,
                                        const SharedAccess &Atomic,
                                        const DataIndex &Index,
                                        const BlockShape &Shape,
                                        bool DifferentWarpsOnly,
                                        DataWitness &W) {
  // Enumerated, not asked of the solver: "some thread's atomic collides
  // with another thread's access whatever the data" is a for-all over the
  // data between two exists (the thread, the other thread), which the
  // quantifier-free core does not state. The block is concrete; unknown
  // uniform values take the representative samples (>= 2) together, as in
  // the third condition of "certain" (ExactQuery.h); blockIdx is block 0.
  SymEnv DimsOnly;
  for (unsigned D = 0; D < 3; ++D)
    DimsOnly.Dim[D] = Shape.Dim[D];
  std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
  // Loop counters take every value: with no barrier in their loop, any
  // iteration of one thread meets any iteration of another, so the two
  // accesses' loops are enumerated apart.
  constexpr std::int64_t MaxIterations = 64;
  using LoopValues =
      std::vector<std::pair<unsigned, std::vector<std::int64_t>>>;
  llvm::SmallVector<unsigned, 2> Uniform;
  auto Gather = [&](const SharedAccess &X, bool WithOffset, LoopValues &Loops,
                    std::uint64_t &Combinations) {
    llvm::SmallVector<unsigned, 4> Atoms;
    if (WithOffset)
      Sym.collectAtoms(X.Offset, Atoms);
    for (const auto &Guard : X.Guards)
      Sym.collectAtoms(Guard.first, Atoms);
    Combinations = 1;
    for (unsigned Atom : Atoms) {
      const SymAtom &Info = Sym.atoms()[Atom];
      if (Info.isBlockIndex())
        continue; // Block 0: some block runs the code.
      if (std::optional<std::int64_t> Value = boundValue(Atom, Shape)) {
        Values[Atom] = *Value;
        continue;
      }
      if (!Info.isLoopCounter()) {
        if (!llvm::is_contained(Uniform, Atom))
          Uniform.push_back(Atom);
        continue;
      }
      if (loopHasBarrier(Info.Loop))
        return false;
      std::vector<std::int64_t> Values;
      if (Info.IterationNumber)
        for (std::int64_t K = 0; K < MaxIterations; ++K)
          Values.push_back(K);
      else
        Values = Sym.loopValues(Atom, DimsOnly);
      if (Values.empty())
        return false;
      Combinations *= Values.size();
      Loops.push_back({Atom, std::move(Values)});
    }
    return true;
  };
  LoopValues PlainLoops, AtomicLoops;
  std::uint64_t PlainCombinations = 1, AtomicCombinations = 1;
  if (!Gather(Plain, true, PlainLoops, PlainCombinations) ||
      !Gather(Atomic, false, AtomicLoops, AtomicCombinations))
    return RaceVerdict::Skip;
  const std::int64_t Threads = Shape.threads();
  if ((PlainCombinations + AtomicCombinations) * Threads > (1u << 20) ||
      Threads * Index.Values > (1u << 20))
    return RaceVerdict::Skip;
  std::int64_t Size = Col.sizeOf(Plain.Var);
  llvm::SmallVector<std::int64_t, 4> Samples;
  if (Uniform.empty())
    Samples.push_back(0);
  else
    for (std::int64_t Sample : UniformSamples)
      if (Sample >= 2)
        Samples.push_back(Sample);

  unsigned Relevant = 0, Certain = 0;
  bool Collides = false;
  for (unsigned Atom = 0; Atom < Sym.atoms().size(); ++Atom)
    if (std::optional<std::int64_t> Value = boundValue(Atom, Shape))
      Values[Atom] = *Value;
  for (std::int64_t Sample : Samples) {
    for (unsigned Atom : Uniform)
      Values[Atom] = Sample;
    // Up to two threads (of two warps when that is required) per byte the
    // plain access touches, and the threads that run the atomic.
    ByteTouchers Touch(DifferentWarpsOnly);
    llvm::BitVector Runs(Threads);
    bool Undecided = false, LeavesVariable = false;
    auto Executes = [&](const SharedAccess &X, const SymEnv &Env) {
      for (const auto &[Guard, Polarity] : X.Guards) {
        std::optional<std::int64_t> V = Sym.evaluate(Guard, Env);
        if (!V) {
          Undecided = true;
          return false;
        }
        if ((*V != 0) != Polarity)
          return false;
      }
      return true;
    };
    // Runs \p Visit for every thread at every combination of \p Loops.
    auto ForEachPoint =
        [&](const LoopValues &Loops, std::uint64_t Combinations,
            llvm::function_ref<void(std::int64_t, const SymEnv &)> Visit) {
          for (std::uint64_t Combo = 0; Combo < Combinations && !Undecided;
               ++Combo) {
            std::uint64_t Rest = Combo;
            for (const auto &[Atom, List] : Loops) {
              Values[Atom] = List[Rest % List.size()];
              Rest /= List.size();
            }
            for (std::int64_t T = 0; T < Threads && !Undecided; ++T)
              Visit(T, SharedAccessCollector::envFor(T, Shape, Values.data()));
          }
        };
    ForEachPoint(AtomicLoops, AtomicCombinations,
                 [&](std::int64_t T, const SymEnv &Env) {
                   if (!Runs[T] && Executes(Atomic, Env))
                     Runs.set(T);
                 });
    ForEachPoint(
        PlainLoops, PlainCombinations, [&](std::int64_t T, const SymEnv &Env) {
          if (!Executes(Plain, Env))
            return;
          std::optional<std::int64_t> Addr = Sym.evaluate(Plain.Offset, Env);
          if (!Addr) {
            Undecided = true;
            return;
          }
          if (*Addr < 0 || (Size >= 0 && *Addr + Plain.Width > Size)) {
            LeavesVariable = true;
            return;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + Plain.Width; ++Byte)
            Touch.add(Byte, T);
        });
    // Under an assumed shape, an access that leaves its variable says the
    // shape is not the one the kernel is written for.
    if (LeavesVariable && Shape.Assumed)
      return RaceVerdict::Skip;
    if (Undecided)
      return RaceVerdict::Skip;
    if (Runs.none() || Touch.empty())
      continue; // Not both run at this sample.
    ++Relevant;
    // Another thread than B touching element V, if any.
    auto OtherToucher = [&](std::int64_t B,
                            std::int64_t V) -> std::optional<std::int64_t> {
      for (std::int64_t Byte = V * Index.ElementBytes;
           Byte < V * Index.ElementBytes + Atomic.Width; ++Byte)
        if (std::int64_t Other = Touch.other(Byte, B); Other >= 0)
          return Other;
      return std::nullopt;
    };
    // The witness: the first collision found, replaced by the first thread
    // whose atomic collides whatever the data.
    auto Record = [&](std::int64_t B, std::int64_t V, std::int64_t Other) {
      W.Writer = Other;
      W.Atomic = B;
      W.Element = V;
      W.Uniform.clear();
      for (unsigned Atom : Uniform)
        W.Uniform.push_back({Atom, Sample});
    };
    bool CertainHere = false;
    for (std::int64_t B = 0; B < Threads && !CertainHere; ++B) {
      if (!Runs[B])
        continue;
      bool Everywhere = true;
      std::optional<std::pair<std::int64_t, std::int64_t>> FirstHit;
      for (std::int64_t V = 0; V < Index.Values; ++V) {
        std::optional<std::int64_t> Other = OtherToucher(B, V);
        if (!Other)
          Everywhere = false;
        else if (!FirstHit)
          FirstHit = {V, *Other};
      }
      if (!FirstHit)
        continue;
      CertainHere = Everywhere;
      if (!Collides || (CertainHere && Certain == 0))
        Record(B, FirstHit->first, FirstHit->second);
      Collides = true;
    }
    Certain += CertainHere;
  }
  if (!Collides)
    return RaceVerdict::None;
  return Certain == Relevant ? RaceVerdict::Definite : RaceVerdict::Possible;
}

} // namespace clang::cuda_tidy
