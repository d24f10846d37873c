//===--- Overlap.cpp - Whether two accesses can touch one byte ------------===//
//
// See Overlap.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/Overlap.h"
#include "analysis/race/ByteTouchers.h"
#include <cstdio>
#include <functional>

namespace clang::cuda_tidy {

namespace {

/// Thread-and-iteration points above which a concrete question goes to the
/// solver rather than being enumerated.
constexpr double EnumerationLimit = 1 << 18;

std::string boundArguments(const BlockShape &Shape) {
  std::string Text;
  for (const auto &[Param, Value] : Shape.Arguments)
    Text += "," + Param->getNameAsString() + "=" + std::to_string(Value);
  // Relations name their parameters, which are this kernel's: the key
  // names the kernel too, so that no other kernel shares the answer.
  for (const ArgumentRelation &R : Shape.Relations) {
    char Address[32];
    std::snprintf(Address, sizeof(Address), "%p",
                  static_cast<const void *>(R.Param));
    Text += "," + R.str() + "@" + Address;
  }
  return Text;
}

} // namespace

OverlapDecision::OverlapDecision(const KernelRaceContext &K, RaceWork &Work,
                                 SharedMemoryRaceAnalysis::AnswerCache &Shared)
    : Col(K.Col), Sym(K.Sym), Work(Work), Shared(Shared), Solver(K, Work) {}

RaceVerdict OverlapDecision::cachedDecide(
    const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
    const RaceScenario &S, llvm::ArrayRef<unsigned> Atoms,
    const std::optional<std::pair<SymId, SymId>> &ValuesStored,
    RaceWitness &W) {
  // Everything the answer depends on, in canonical text: two pairs of
  // accesses with equal keys get the same answer and witness. The
  // scenario's order and whether B is reached round a loop are not asked
  // (the iteration relations say what they mean for the loop counters):
  // two ways between one pair that differ only there are one question
  // (a quarter of the race check's solver time on llm.c's
  // fused_residual_forward_kernel6 went to asking it again).
  std::string Key = Shape.str() + (Shape.Assumed ? "a" : "") +
                    boundArguments(Shape) + std::to_string(Col.sizeOf(A.Var)) +
                    "|" + std::to_string(S.DifferentWarpsOnly) +
                    (S.OtherBlock ? "o" : "");
  for (int Relation : S.Relation)
    Key += "," + std::to_string(Relation);
  llvm::SmallVector<unsigned, 8> KeyAtoms;
  for (unsigned Atom : Atoms)
    Key += ";" + ExactQuery::portableAtomKey(Sym, Atom, KeyAtoms);
  if (S.Skip)
    Key += std::string(S.Skip->OnB ? "|b" : "|a") +
           (S.Skip->Polarity ? "+" : "-") +
           ExactQuery::portableAtomKey(Sym, S.Skip->Counter, KeyAtoms) + " " +
           ExactQuery::portableKey(Sym, S.Skip->Condition, KeyAtoms);
  for (const SharedAccess *X : {&A, &B}) {
    Key += "|" + std::to_string(X->Width) + " " +
           ExactQuery::portableKey(Sym, X->Offset, KeyAtoms);
    if (X->Align > 1)
      Key += " /" + std::to_string(X->Align) + " " +
             ExactQuery::portableKey(Sym, X->AlignedOffset, KeyAtoms);
    for (const auto &[Guard, Polarity] : X->Guards)
      Key += (Polarity ? " +" : " -") +
             ExactQuery::portableKey(Sym, Guard, KeyAtoms);
  }
  if (ValuesStored)
    Key += "|=" + ExactQuery::portableKey(Sym, ValuesStored->first, KeyAtoms) +
           " " + ExactQuery::portableKey(Sym, ValuesStored->second, KeyAtoms);
  // The witness's atoms, between this kernel's ids and positions in the key.
  auto Translate = [](RaceWitness &X,
                      llvm::function_ref<unsigned(unsigned)> Map) {
    for (auto &Entry : X.Related)
      Entry.first = Map(Entry.first);
    for (auto *Values : {&X.LoopA, &X.LoopB, &X.Uniform})
      for (auto &Entry : *Values)
        Entry.first = Map(Entry.first);
  };
  auto It = Shared.Entries.find(Key);
  if (It != Shared.Entries.end()) {
    W = It->second.second;
    Translate(W, [&](unsigned Position) { return KeyAtoms[Position]; });
    return It->second.first;
  }
  // Threads of two blocks may have one index, which the enumeration's
  // question (two different threads of a block) leaves out: the solver
  // answers alone.
  RaceVerdict V = S.OtherBlock ? Solver.decideExactly(A, B, Shape, S, Atoms,
                                                      std::nullopt, W)
                               : decide(A, B, Shape, S, Atoms, W);
  // Only a collision is worth asking again with the stored values apart:
  // most pairs never collide, and the enumeration says so fastest.
  if (ValuesStored &&
      (V == RaceVerdict::Definite || V == RaceVerdict::Possible))
    V = Solver.decideExactly(A, B, Shape, S, Atoms, ValuesStored, W);
  // Every atom of a witness is one the key describes; should one not be,
  // the answer is not shared.
  bool Portable = true;
  RaceWitness Stored = W;
  Translate(Stored, [&](unsigned Atom) {
    const auto *Found = llvm::find(KeyAtoms, Atom);
    Portable &= Found != KeyAtoms.end();
    return unsigned(Found - KeyAtoms.begin());
  });
  if (Portable)
    Shared.Entries[Key] = {V, Stored};
  return V;
}

RaceVerdict
OverlapDecision::decide(const SharedAccess &A, const SharedAccess &B,
                        const BlockShape &Shape, const RaceScenario &S,
                        llvm::ArrayRef<unsigned> Atoms, RaceWitness &W) {
  const auto &AllAtoms = Sym.atoms();
  llvm::SmallVector<unsigned, 4> AtomsOfA, AtomsOfB;
  Sym.collectAtoms(A.Offset, AtomsOfA);
  Sym.collectAtoms(B.Offset, AtomsOfB);
  SymEnv DimsOnly;
  for (unsigned D = 0; D < 3; ++D)
    DimsOnly.Dim[D] = Shape.Dim[D];

  // Listed loop counters are existential; everything else is sampled and
  // must race for every sample.
  struct Axis {
    unsigned Atom;
    std::vector<std::int64_t> Values;
    int Relation;
  };
  std::vector<Axis> Loops;
  std::vector<unsigned> Sampled;
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Bound;
  for (unsigned I = 0; I < Atoms.size(); ++I) {
    if (std::optional<std::int64_t> Value = boundValue(Atoms[I], Shape)) {
      Bound.push_back({Atoms[I], *Value});
      continue;
    }
    std::vector<std::int64_t> Values = AllAtoms[Atoms[I]].isLoopCounter()
                                           ? Sym.loopValues(Atoms[I], DimsOnly)
                                           : std::vector<std::int64_t>();
    if (!Values.empty())
      Loops.push_back({Atoms[I], std::move(Values), S.Relation[I]});
    else
      Sampled.push_back(Atoms[I]);
  }
  // Exact enumeration is the fast path for concrete questions of modest
  // size; everything else goes to the solver.
  double Points = double(Shape.threads());
  for (const Axis &Ax : Loops)
    Points *= Ax.Relation == 2 ? double(Ax.Values.size()) * Ax.Values.size()
                               : double(Ax.Values.size());
  if (!Sampled.empty() || Points > EnumerationLimit) {
    llvm::SmallVector<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>, 2>
        Listed;
    for (const Axis &Ax : Loops)
      Listed.push_back({Ax.Atom, Ax.Values});
    if (offsetsApart(A, B, Shape, S, Bound, Listed))
      return RaceVerdict::None;
    return Solver.decideExactly(A, B, Shape, S, Atoms, std::nullopt, W);
  }
  const unsigned SampleCombos = sampleCombinations(Sampled.size());

  std::vector<std::int64_t> AtomsA(AllAtoms.size(), 0),
      AtomsB(AllAtoms.size(), 0);
  for (const auto &[Atom, Value] : Bound)
    AtomsA[Atom] = AtomsB[Atom] = Value;
  const std::int64_t Threads = Shape.threads();
  unsigned Raced = 0;

  // Which threads touch which byte, for access A.
  ByteTouchers Touch(S.DifferentWarpsOnly);

  auto Executes = [&](const SharedAccess &X,
                      const SymEnv &Env) -> std::optional<bool> {
    for (const auto &[Guard, Polarity] : X.Guards) {
      auto V = Sym.evaluate(Guard, Env);
      if (!V)
        return std::nullopt;
      if ((*V != 0) != Polarity)
        return false;
    }
    return true;
  };
  auto EnvFor = [&](std::int64_t T, const std::vector<std::int64_t> &Atoms) {
    return SharedAccessCollector::envFor(T, Shape, Atoms.data());
  };
  std::int64_t Size = Col.sizeOf(A.Var);

  for (unsigned Combo = 0; Combo < SampleCombos; ++Combo) {
    assignSamples(Combo, Sampled, AtomsA);
    assignSamples(Combo, Sampled, AtomsB);
    // Loop combinations.
    std::vector<std::pair<unsigned, unsigned>> Picks; // Value index for A, B.
    std::function<bool(unsigned)> Loop = [&](unsigned L) -> bool {
      if (L == Loops.size()) {
        // Iterations in which the way between the accesses passes a
        // barrier are no witness (a condition that cannot be evaluated
        // rules nothing out).
        if (S.Skip) {
          auto V = Sym.evaluate(S.Skip->Condition,
                                EnvFor(0, S.Skip->OnB ? AtomsB : AtomsA));
          if (V && (*V != 0) != S.Skip->Polarity)
            return false;
        }
        // Evaluate.
        if (!Work.enumerate(2 * Threads))
          return false;
        Touch.clear();
        for (std::int64_t T = 0; T < Threads; ++T) {
          SymEnv Env = EnvFor(T, AtomsA);
          auto Runs = Executes(A, Env);
          if (!Runs)
            return false;
          if (!*Runs)
            continue;
          auto Addr = Sym.evaluate(A.Offset, Env);
          if (!Addr)
            return false;
          // Misaligned, the access faults and the kernel stops: these
          // values are no execution of a valid program.
          if (A.Align > 1) {
            auto Cast = Sym.evaluate(A.AlignedOffset, Env);
            if (!Cast || *Cast % A.Align != 0)
              return false;
          }
          if (*Addr < 0 || (Size >= 0 && *Addr + A.Width > Size)) {
            if (Shape.Assumed)
              return false;
            continue;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + A.Width; ++Byte)
            Touch.add(Byte, T);
        }
        for (std::int64_t T = 0; T < Threads; ++T) {
          SymEnv Env = EnvFor(T, AtomsB);
          auto Runs = Executes(B, Env);
          if (!Runs)
            return false;
          if (!*Runs)
            continue;
          auto Addr = Sym.evaluate(B.Offset, Env);
          if (!Addr)
            return false;
          // Misaligned, the access faults and the kernel stops: these
          // values are no execution of a valid program.
          if (B.Align > 1) {
            auto Cast = Sym.evaluate(B.AlignedOffset, Env);
            if (!Cast || *Cast % B.Align != 0)
              return false;
          }
          if (*Addr < 0 || (Size >= 0 && *Addr + B.Width > Size)) {
            if (Shape.Assumed)
              return false;
            continue;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + B.Width; ++Byte) {
            std::int64_t Other = Touch.other(Byte, T);
            if (Other < 0)
              continue;
            W.ThreadA = Other;
            W.ThreadB = T;
            W.Byte = Byte;
            W.LoopA.clear();
            W.LoopB.clear();
            for (const Axis &Ax : Loops) {
              if (llvm::is_contained(AtomsOfA, Ax.Atom))
                W.LoopA.push_back({Ax.Atom, AtomsA[Ax.Atom]});
              if (llvm::is_contained(AtomsOfB, Ax.Atom))
                W.LoopB.push_back({Ax.Atom, AtomsB[Ax.Atom]});
            }
            return true;
          }
        }
        return false;
      }
      const Axis &Ax = Loops[L];
      unsigned N = Ax.Values.size();
      for (unsigned I = 0; I < N; ++I) {
        for (unsigned J = 0; J < N; ++J) {
          unsigned Last = N - 1;
          bool Related;
          switch (Ax.Relation) {
          case 2:
            Related = true;
            break;
          case 3:
            Related = I == 0 && J == 0;
            break;
          case 6:
            Related = I == Last;
            break;
          case 7:
            Related = I == 0;
            break;
          case 8:
            Related = J == Last;
            break;
          case 9:
            Related = J == 0;
            break;
          default:
            Related = static_cast<int>(J) - static_cast<int>(I) == Ax.Relation;
          }
          if (!Related)
            continue;
          AtomsA[Ax.Atom] = Ax.Values[I];
          AtomsB[Ax.Atom] = Ax.Values[J];
          if (Loop(L + 1))
            return true;
        }
      }
      return false;
    };
    if (Loop(0))
      ++Raced;
    else if (Combo == 0 && Raced == 0 && SampleCombos == 1)
      return RaceVerdict::None;
  }
  if (Raced == 0)
    return RaceVerdict::None;
  return Raced == SampleCombos ? RaceVerdict::Definite : RaceVerdict::Possible;
}

bool OverlapDecision::offsetsApart(
    const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
    const RaceScenario &S,
    llvm::ArrayRef<std::pair<unsigned, std::int64_t>> Bound,
    llvm::ArrayRef<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>> Listed) {
  // decideExactly asks for a model of F: two distinct threads (of two warps
  // when asked) in the block, each access's guards, in-bounds offsets,
  // alignment, the loop relations and skip condition, and overlapping
  // bytes. Drop everything but the threads, their distinctness and the
  // overlap, and let every listed loop counter take any of its values in
  // each access independently: every model of F is a point of this
  // relaxation. The relaxation is enumerated, thread by thread, with
  // evaluate32, which gives a value only where no subterm leaves 32 bits;
  // there ExactQuery's 32-bit terms have the same values (its operators are
  // signed like evaluate's, a listed counter is a table of the same
  // values, a bound parameter the same constant), so a model of F would
  // show up here as two threads on a common byte. None found: F has no
  // model, and decideExactly would answer None after one to three solver
  // questions and a Z3 context (some 30 ms: cuda-samples' bitonic merge
  // guards `s_key[threadIdx.x]` and `s_key[255 - threadIdx.x]` by
  // `threadIdx.x < lenSrcA` and `< lenSrcB`, unknowns to the enumeration,
  // but 128 threads never meet on one element whatever the guards say).
  // Any subterm without a 32-bit value, or an atom that is neither bound
  // nor listed, leaves the question to the solver.
  struct Side {
    const SharedAccess *X;
    llvm::SmallVector<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>, 2>
        Axes;
    double Evaluations; // Threads times combinations of listed values.
  };
  const std::int64_t Threads = Shape.threads();
  auto Prepare = [&](const SharedAccess &X, Side &Out) {
    Out.X = &X;
    Out.Evaluations = double(Threads);
    llvm::SmallVector<unsigned, 4> Used;
    Sym.collectAtoms(X.Offset, Used);
    for (unsigned Atom : Used) {
      if (llvm::any_of(Bound, [&](const auto &B) { return B.first == Atom; }))
        continue;
      const auto *It =
          llvm::find_if(Listed, [&](const auto &L) { return L.first == Atom; });
      if (It == Listed.end())
        return false;
      Out.Axes.push_back(*It);
      Out.Evaluations *= double(It->second.size());
    }
    // Every byte visited counts against the enumeration limit.
    return Out.Evaluations * double(std::max<std::int64_t>(X.Width, 1)) <=
           EnumerationLimit;
  };
  Side SideA, SideB;
  if (Sym.isUnknown(A.Offset) || Sym.isUnknown(B.Offset) ||
      !Prepare(A, SideA) || !Prepare(B, SideB))
    return false;
  // One unit per thread evaluated, as decide's enumeration counts.
  std::uint64_t Cost = std::uint64_t(SideA.Evaluations + SideB.Evaluations);
  if (!Work.enumerate(Cost))
    return false;

  std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
  for (const auto &[Atom, Value] : Bound)
    Values[Atom] = Value;
  // Calls Visit(thread, offset) for every thread and every combination of
  // the side's listed values; false when an offset has no 32-bit value or
  // Visit says stop.
  auto ForEach =
      [&](const Side &Side,
          llvm::function_ref<bool(std::int64_t, std::int64_t)> Visit) {
        llvm::SmallVector<unsigned, 2> Pick(Side.Axes.size(), 0);
        while (true) {
          for (unsigned I = 0; I < Side.Axes.size(); ++I)
            Values[Side.Axes[I].first] = Side.Axes[I].second[Pick[I]];
          for (std::int64_t T = 0; T < Threads; ++T) {
            std::optional<std::int64_t> Offset = Sym.evaluate32(
                Side.X->Offset,
                SharedAccessCollector::envFor(T, Shape, Values.data()));
            if (!Offset || !Visit(T, *Offset))
              return false;
          }
          unsigned I = 0;
          while (I < Pick.size() && ++Pick[I] == Side.Axes[I].second.size())
            Pick[I++] = 0;
          if (I == Pick.size())
            return true;
        }
      };
  ByteTouchers Touch(S.DifferentWarpsOnly);
  if (!ForEach(SideA, [&](std::int64_t T, std::int64_t Offset) {
        for (std::int64_t Byte = Offset; Byte < Offset + A.Width; ++Byte)
          Touch.add(Byte, T);
        return true;
      }))
    return false;
  return ForEach(SideB, [&](std::int64_t T, std::int64_t Offset) {
    for (std::int64_t Byte = Offset; Byte < Offset + B.Width; ++Byte)
      if (Touch.other(Byte, T) >= 0)
        return false; // They may meet: a question for the solver.
    return true;
  });
}

} // namespace clang::cuda_tidy
