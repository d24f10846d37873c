//===--- SharedMemoryRace.cpp - Unordered shared-memory accesses ----------===//
//
// See SharedMemoryRace.h for the design. This file is the driver: for one
// kernel it asks the concurrency stage for the pairs and scenarios and the
// decisions whether a pair touches one byte, and tells what they find.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/SharedMemoryRace.h"
#include "analysis/race/Concurrency.h"
#include "analysis/race/DataIndexed.h"
#include "analysis/race/Overlap.h"
#include "analysis/race/RaceCommon.h"
#include "analysis/race/StoredValues.h"
#include "analysis/race/WarpUniformity.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::cuda_tidy {

SharedRaceHandler::~SharedRaceHandler() = default;

namespace {

/// The race analysis of one kernel: the stages, and the pairs and shapes it
/// takes them through.
class KernelRaceFinder {
public:
  KernelRaceFinder(SharedAccessCollector &Collector, SharedRaceHandler &Handler,
                   const RaceOptions &Options,
                   SharedMemoryRaceAnalysis::AnswerCache &Shared)
      : K(Collector, Options), Work(Options.WorkBudget), Concurrency(K),
        Uniformity(K.Context, K.Deps), Stores(K), Overlap(K, Work, Shared),
        DataIndexed(K, Concurrency), Col(K.Col), Context(K.Context),
        Deps(K.Deps), Sym(K.Sym), Kernel(K.Kernel), Parents(K.Parents),
        Handler(Handler) {}

  void run(llvm::ArrayRef<BlockShape> Shapes,
           llvm::ArrayRef<ArgumentRelation> Relations);

private:
  void checkPair(unsigned IA, unsigned IB, const BlockShape &Shape);
  /// Judges a plain access against an atomic at a data index; false when
  /// the pair is not of that form.
  bool checkDataIndexedPair(unsigned IA, unsigned IB, const BlockShape &Shape);
  /// Tells the race \p V between \p A and \p B (one access when
  /// \p SameAccess) in scenario \p S, with \p W its witness over \p Atoms.
  void reportPair(const SharedAccess &A, const SharedAccess &B, bool SameAccess,
                  const RaceScenario &S, const RaceWitness &W, RaceVerdict V,
                  const BlockShape &Shape, llvm::ArrayRef<unsigned> Atoms);
  /// Tells the race \p V between \p Plain and \p Atomic at \p Index, with
  /// \p W its witness; \p WarpConcurrent: the two meet with no warp-level
  /// sync between, too.
  void reportDataIndexed(const SharedAccess &Plain, const SharedAccess &Atomic,
                         const DataIndex &Index, const DataWitness &W,
                         RaceVerdict V, const BlockShape &Shape,
                         bool WarpConcurrent);
  /// The statement before which a `__syncthreads();` certainly belongs
  /// between \p First and \p Second, or null (SharedRace::InsertBarrierBefore).
  const Stmt *certainBarrierPlace(const SharedAccess &First,
                                  const SharedAccess &Second);
  bool isBefore(const SharedAccess &A, const SharedAccess &B) const;
  /// The race between \p First and \p Second, in this order, under \p Shape:
  /// the fields both kinds of pair (plain and data-indexed) fill alike.
  SharedRace raceBetween(const SharedAccess &First, const SharedAccess &Second,
                         RaceVerdict V, const BlockShape &Shape) const;
  std::optional<std::int64_t> boundValue(unsigned Atom,
                                         const BlockShape &Shape) const {
    return cuda_tidy::boundValue(Sym, Atom, Shape);
  }

  KernelRaceContext K;
  RaceWork Work;
  RaceConcurrency Concurrency;
  WarpUniformity Uniformity;
  StoredValues Stores;
  OverlapDecision Overlap;
  DataIndexedDecision DataIndexed;
  SharedAccessCollector &Col;
  ASTContext &Context;
  const FunctionDependence &Deps;
  SymbolicTranslator &Sym;
  const FunctionDecl *Kernel;
  const ParentMap &Parents;
  SharedRaceHandler &Handler;
  llvm::SmallPtrSet<const Expr *, 16> Reported;
};

bool KernelRaceFinder::isBefore(const SharedAccess &A,
                                const SharedAccess &B) const {
  return Context.getSourceManager().isBeforeInTranslationUnit(
      A.E->getBeginLoc(), B.E->getBeginLoc());
}

SharedRace KernelRaceFinder::raceBetween(const SharedAccess &First,
                                         const SharedAccess &Second,
                                         RaceVerdict V,
                                         const BlockShape &Shape) const {
  SharedRace Race;
  Race.Kernel = Kernel;
  Race.Variable = First.Var;
  Race.First = First.E;
  Race.Second = Second.E;
  Race.FirstVia = First.Via;
  Race.SecondVia = Second.Via;
  Race.FirstKind = First.Kind;
  Race.SecondKind = Second.Kind;
  Race.Order = !Second.writes()  ? SharedRace::ReadAfterWrite
               : !First.writes() ? SharedRace::WriteAfterRead
                                 : SharedRace::WriteAfterWrite;
  Race.Possible = V == RaceVerdict::Possible;
  Race.Shape = Shape;
  return Race;
}

const Stmt *KernelRaceFinder::certainBarrierPlace(const SharedAccess &First,
                                                  const SharedAccess &Second) {
  // Both accesses must sit in statements that are siblings in one compound
  // statement, the first before the second, under no thread-dependent
  // condition, outside macros: then `__syncthreads();` right before the
  // second statement is where it belongs.
  auto StatementOf =
      [&](const Stmt *S) -> std::pair<const Stmt *, const CompoundStmt *> {
    const Stmt *Cur = S;
    while (const Stmt *P = Parents.getParent(Cur)) {
      if (const auto *CS = dyn_cast<CompoundStmt>(P))
        return {Cur, CS};
      Cur = P;
    }
    return {nullptr, nullptr};
  };
  auto [S1, C1] = StatementOf(First.E);
  auto [S2, C2] = StatementOf(Second.E);
  if (!S1 || !S2 || C1 != C2 || S1 == S2)
    return nullptr;
  if (!Context.getSourceManager().isBeforeInTranslationUnit(S1->getBeginLoc(),
                                                            S2->getBeginLoc()))
    return nullptr;
  if (S2->getBeginLoc().isMacroID())
    return nullptr;
  for (const CFGBlock *C : Deps.getControlClosure(Second.Block))
    if (Deps.getConditionDeps(C) & dep::Thread)
      return nullptr;
  return S2;
}

void KernelRaceFinder::reportPair(const SharedAccess &A, const SharedAccess &B,
                                  bool SameAccess, const RaceScenario &S,
                                  const RaceWitness &W, RaceVerdict V,
                                  const BlockShape &Shape,
                                  llvm::ArrayRef<unsigned> Atoms) {
  // Which access comes second: the one in the later iteration, else the
  // later one in the source.
  bool BSecond = S.Order != 0 ? S.Order > 0 : (isBefore(A, B) || SameAccess);
  const SharedAccess &First = BSecond ? A : B;
  const SharedAccess &Second = BSecond ? B : A;
  std::int64_t FirstThread = BSecond ? W.ThreadA : W.ThreadB;
  std::int64_t SecondThread = BSecond ? W.ThreadB : W.ThreadA;

  SharedRace Race = raceBetween(First, Second, V, Shape);
  Race.WarpSynchronous =
      A.Volatile && B.Volatile && W.ThreadA / 32 == W.ThreadB / 32;
  auto Verb = [](AccessKind K) {
    switch (K) {
    case AccessKind::Read:
      return "reads";
    case AccessKind::Write:
      return "writes";
    case AccessKind::ReadWrite:
      return "updates";
    case AccessKind::Atomic:
      return "atomically updates";
    }
    return "accesses";
  };
  std::string Element = "'" + Col.describeElement(First.Var, W.Byte) + "'";
  auto Values =
      [&](const llvm::SmallVectorImpl<std::pair<unsigned, std::int64_t>>
              &Loop) {
        std::string Text;
        for (const auto &[Atom, Value] : Loop) {
          const SymAtom &Info = Sym.atoms()[Atom];
          Text += Text.empty() ? " (" : ", ";
          Text += Info.IterationNumber
                      ? "in iteration " + std::to_string(Value) +
                            " of the loop over '" + Info.Name + "'"
                      : "with '" + Info.Name + "' = " + std::to_string(Value);
        }
        return Text.empty() ? Text : Text + ")";
      };
  Race.Witness =
      "thread " + SharedAccessCollector::describeThread(FirstThread, Shape) +
      " " + Verb(First.Kind) + " " + Element +
      Values(BSecond ? W.LoopA : W.LoopB) + " and thread " +
      SharedAccessCollector::describeThread(SecondThread, Shape) + " " +
      Verb(Second.Kind) + " it" + Values(BSecond ? W.LoopB : W.LoopA);
  if (S.LaterIteration)
    Race.Witness += " one iteration of the enclosing loop later";
  for (const auto &[Atom, Value] : W.Uniform)
    Race.Witness += (&Atom == &W.Uniform.front().first ? ", when '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
  // The parameters launch relations fix, with the relation and where it
  // is read: "'tilew' = 20 (tilew = blockDim.x + 2 * r from the launch at
  // f.cu:40)".
  auto Relation = [&](unsigned Atom, std::int64_t Value) {
    const ArgumentRelation *R = Shape.relation(Sym.atoms()[Atom].Var);
    std::string Text =
        "'" + Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
    if (R)
      Text += " (" + R->str() + " from the launch" +
              (R->From.find(',') != std::string::npos ? "es" : "") + " at " +
              R->From + ")";
    return Text;
  };
  bool Leading = W.Uniform.empty();
  auto AddRelation = [&](unsigned Atom, std::int64_t Value) {
    Race.Witness += (Leading ? ", when " : ", ") + Relation(Atom, Value);
    Leading = false;
  };
  for (const auto &[Atom, Value] : W.Related)
    AddRelation(Atom, Value);
  std::string FromLaunch;
  for (unsigned Atom : Atoms) {
    const SymAtom &Info = Sym.atoms()[Atom];
    if (Info.Var && !Info.isLoopCounter() && !Shape.argument(Info.Var))
      if (std::optional<std::int64_t> Value = boundValue(Atom, Shape))
        AddRelation(Atom, *Value);
  }
  for (unsigned Atom : Atoms)
    if (std::optional<std::int64_t> Value =
            Sym.atoms()[Atom].Var && !Sym.atoms()[Atom].isLoopCounter()
                ? Shape.argument(Sym.atoms()[Atom].Var)
                : std::nullopt)
      FromLaunch += (FromLaunch.empty() ? ", with '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(*Value);
  if (!FromLaunch.empty())
    Race.Witness +=
        FromLaunch + " as the launch at " + Shape.ArgumentsFrom + " passes";
  if (!S.DifferentWarpsOnly && !Race.WarpSynchronous &&
      !llvm::is_contained(S.Relation, 2))
    Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
  Reported.insert(Second.E);
  Handler.handleRace(Race);
}

void KernelRaceFinder::reportDataIndexed(const SharedAccess &Plain,
                                         const SharedAccess &Atomic,
                                         const DataIndex &Index,
                                         const DataWitness &W, RaceVerdict V,
                                         const BlockShape &Shape,
                                         bool WarpConcurrent) {
  bool PlainFirst = isBefore(Plain, Atomic);
  const SharedAccess &First = PlainFirst ? Plain : Atomic;
  const SharedAccess &Second = PlainFirst ? Atomic : Plain;
  SharedRace Race = raceBetween(First, Second, V, Shape);
  Race.Variable = Plain.Var; // The array the element is described in.
  std::string Element =
      "'" + Col.describeElement(Plain.Var, W.Element * Index.ElementBytes) +
      "'";
  std::string Spelling =
      Lexer::getSourceText(
          CharSourceRange::getTokenRange(Index.Index->getSourceRange()),
          Context.getSourceManager(), Context.getLangOpts())
          .str();
  std::string AtomicThread =
      SharedAccessCollector::describeThread(W.Atomic, Shape);
  Race.Witness =
      "thread " + SharedAccessCollector::describeThread(W.Writer, Shape) +
      (Plain.writes() ? " writes " : " reads ") + Element + " and thread " +
      AtomicThread + "'s atomic hits it for data with '" + Spelling +
      "' == " + std::to_string(W.Element);
  if (V == RaceVerdict::Definite)
    Race.Witness += "; another thread touches every element '" + Spelling +
                    "' can select, so the race happens whatever the data";
  for (const auto &[Atom, Value] : W.Uniform)
    Race.Witness += (&Atom == &W.Uniform.front().first ? ", when '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
  if (WarpConcurrent && V == RaceVerdict::Definite)
    Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
  Reported.insert(Second.E);
  Handler.handleRace(Race);
}

bool KernelRaceFinder::checkDataIndexedPair(unsigned IA, unsigned IB,
                                            const BlockShape &Shape) {
  const SharedAccess &A = K.Accesses[IA], &B = K.Accesses[IB];
  bool AtomicIsA = A.Kind == AccessKind::Atomic && Sym.isUnknown(A.Offset);
  const SharedAccess &Atomic = AtomicIsA ? A : B;
  const SharedAccess &Plain = AtomicIsA ? B : A;
  if (Atomic.Kind != AccessKind::Atomic || Plain.Kind == AccessKind::Atomic ||
      !Sym.isUnknown(Atomic.Offset) || Sym.isUnknown(Plain.Offset) ||
      Atomic.UnknownGuard || Plain.UnknownGuard)
    return false;
  std::optional<DataIndex> Index = DataIndexed.dataIndex(Atomic);
  if (!Index)
    return false;
  PairConcurrency InFlight = Concurrency.concurrent(IA, IB);
  if (!InFlight.Concurrent || IA == IB)
    return true;
  DataWitness W;
  RaceVerdict V = DataIndexed.decide(Plain, Atomic, *Index, Shape,
                                     !InFlight.WarpConcurrent, W);
  if (V == RaceVerdict::None || V == RaceVerdict::Skip ||
      (V == RaceVerdict::Possible && !K.Options.ReportPossibleRaces))
    return true;
  reportDataIndexed(Plain, Atomic, *Index, W, V, Shape,
                    InFlight.WarpConcurrent);
  return true;
}

void KernelRaceFinder::checkPair(unsigned IA, unsigned IB,
                                 const BlockShape &Shape) {
  const SharedAccess &A = K.Accesses[IA], &B = K.Accesses[IB];
  if (A.Object != B.Object || (!A.writes() && !B.writes()))
    return;
  if (A.Kind == AccessKind::Atomic && B.Kind == AccessKind::Atomic)
    return;
  if (Reported.count(B.E) || Reported.count(A.E))
    return;
  if (checkDataIndexedPair(IA, IB, Shape))
    return;
  if (Sym.isUnknown(A.Offset) || Sym.isUnknown(B.Offset))
    return;
  if (A.UnknownGuard || B.UnknownGuard)
    return;
  // Lanes of one warp storing a value the warp agrees on (the result of a
  // warp reduction) leave the same bytes whatever their order: only threads
  // of different warps can race then (`s[warp] = warpSum;` with no lane
  // guard).
  bool SameValueInWarp = IA == IB && A.Kind == AccessKind::Write && A.Stored &&
                         Uniformity.isWarpUniform(A.Stored, A.Block, A.Index);
  StoreComparison Stored = Stores.compare(A, B, IA == IB);
  if (Stored.OneValue)
    return;

  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(A.Offset, Atoms);
  Sym.collectAtoms(B.Offset, Atoms);
  for (const SharedAccess *X : {&A, &B})
    for (const auto &Guard : X->Guards)
      Sym.collectAtoms(Guard.first, Atoms);

  llvm::SmallVector<RaceScenario, 4> Scenarios =
      Concurrency.scenarios(IA, IB, Atoms, SameValueInWarp);
  for (const RaceScenario &S : Scenarios) {
    if (Work.overBudget())
      return;
    RaceWitness W;
    RaceVerdict V =
        Overlap.cachedDecide(A, B, Shape, S, Atoms, Stored.Values, W);
    if (V == RaceVerdict::None || V == RaceVerdict::Skip)
      continue;
    if (V == RaceVerdict::Possible && !K.Options.ReportPossibleRaces)
      continue;
    reportPair(A, B, IA == IB, S, W, V, Shape, Atoms);
    return;
  }
}

void KernelRaceFinder::run(llvm::ArrayRef<BlockShape> Shapes,
                           llvm::ArrayRef<ArgumentRelation> Relations) {
  std::set<std::pair<unsigned, unsigned>> Candidates =
      Concurrency.candidatePairs();
  for (BlockShape Shape : K.Col.candidateShapes(Shapes, K.Options.Assumed)) {
    // Relations hold whatever the shape: assumed shapes get them too.
    if (Shape.Relations.empty())
      Shape.Relations.assign(Relations.begin(), Relations.end());
    for (const auto &[I, J] : Candidates) {
      if (Work.outOfBudget())
        break;
      checkPair(I, J, Shape);
    }
  }
  if (Work.outOfBudget())
    Handler.handleIncomplete(Kernel, IncompleteReason::WorkBudget);
}

} // namespace

SharedMemoryRaceAnalysis::SharedMemoryRaceAnalysis(
    ThreadDependenceAnalysis &Dependence, SharedRaceHandler &Handler,
    RaceOptions Options)
    : Dependence(Dependence), Handler(Handler), Options(Options),
      Answers(std::make_unique<AnswerCache>()) {}

SharedMemoryRaceAnalysis::~SharedMemoryRaceAnalysis() = default;

void SharedMemoryRaceAnalysis::analyzeKernel(
    const FunctionDecl *Kernel, llvm::ArrayRef<BlockShape> Shapes,
    llvm::ArrayRef<ArgumentRelation> Relations) {
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  // A body the dependence analysis declined for its size is in its
  // getOversizedBodies(), which the check reports.
  if (!Deps)
    return;
  SharedAccessCollector Collector(Dependence.getContext(), *Deps);
  Collector.collect();
  // Without a write there is no race: the stages are not even built.
  if (llvm::none_of(Collector.accesses(),
                    [](const SharedAccess &A) { return A.writes(); }))
    return;
  KernelRaceFinder(Collector, Handler, Options, *Answers)
      .run(Shapes, Relations);
}

} // namespace clang::cuda_tidy
