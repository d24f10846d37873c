//===--- SharedMemoryRace.cpp - Unordered shared-memory accesses ----------===//
//
// See SharedMemoryRace.h for the design. This file is the driver: for one
// kernel it asks the concurrency stage for the pairs and scenarios, the
// decisions whether a pair touches one byte, and the report to tell it.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/SharedMemoryRace.h"
#include "analysis/CalleeBodies.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "analysis/race/Concurrency.h"
#include "analysis/race/DataIndexed.h"
#include "analysis/race/Overlap.h"
#include "analysis/race/RaceCommon.h"
#include "analysis/race/RaceReport.h"
#include "analysis/race/StoredValues.h"
#include "analysis/race/WarpUniformity.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Lex/Lexer.h"

namespace clang::cuda_tidy {

SharedRaceHandler::~SharedRaceHandler() = default;

namespace {

/// What the input data must hold for a pair whose accesses are guarded by
/// tests of input data (SharedAccess::InputGuards).
struct InputNeed {
  bool Any = false; // Some access of the pair has such a guard.
  /// One test, needed with one value: filling the tested memory with one
  /// value gives it in every thread, so the witness holds for that data.
  /// Otherwise (two tests, or one test both ways) the tests may need
  /// values no data gives together, and the race is only possible.
  bool Fill = false;
  std::string Text; // "'work[t] > 0' holds"
  /// The constants to fill the tested memory with (inputFills); empty when
  /// the test's bound is no constant.
  llvm::SmallVector<InputFill, 1> Fills;
};

InputNeed inputNeed(const SharedAccess &A, const SharedAccess &B,
                    const FunctionDecl *Kernel, ASTContext &Context) {
  InputNeed Need;
  const Expr *Test = nullptr;
  bool Value = false;
  for (const SharedAccess *X : {&A, &B})
    for (const auto &[Cond, Holds] : X->InputGuards) {
      if (!Test) {
        Need.Any = Need.Fill = true;
        Test = Cond;
        Value = Holds;
        continue;
      }
      llvm::FoldingSetNodeID First, Other;
      Test->Profile(First, Context, /*Canonical=*/true);
      Cond->Profile(Other, Context, /*Canonical=*/true);
      if (First != Other || Holds != Value)
        Need.Fill = false;
    }
  if (Need.Fill && !inputFills(Test, Value, Kernel, Context, Need.Fills))
    Need.Fills.clear();
  if (Need.Fill)
    Need.Text = "'" +
                Lexer::getSourceText(
                    CharSourceRange::getTokenRange(Test->getSourceRange()),
                    Context.getSourceManager(), Context.getLangOpts())
                    .str() +
                "' " + (Value ? "holds" : "fails") + " in every thread";
  return Need;
}

/// The race analysis of one kernel: the stages, and the pairs and shapes it
/// takes them through.
class KernelRaceFinder {
public:
  KernelRaceFinder(SharedAccessCollector &Collector, SharedRaceHandler &Handler,
                   const RaceOptions &Options,
                   SharedMemoryRaceAnalysis::AnswerCache &Shared)
      : K(Collector, Options), Work(Options.WorkBudget), Concurrency(K),
        Uniformity(K.Context, K.Deps), Stores(K), Overlap(K, Work, Shared),
        DataIndexed(K, Concurrency), Report(K, Handler), Handler(Handler) {}

  void run(llvm::ArrayRef<BlockShape> Shapes,
           llvm::ArrayRef<ArgumentRelation> Relations);

private:
  void checkPair(unsigned IA, unsigned IB, const BlockShape &Shape);
  /// Whether no two threads meet on \p A and \p B in the union of
  /// \p Scenarios (one question for all of them).
  bool apartInEveryScenario(const SharedAccess &A, const SharedAccess &B,
                            const BlockShape &Shape,
                            llvm::ArrayRef<RaceScenario> Scenarios,
                            llvm::ArrayRef<unsigned> Atoms,
                            const StoreComparison &Stored);
  /// Judges a plain access against an atomic at a data index; false when
  /// the pair is not of that form.
  bool checkDataIndexedPair(unsigned IA, unsigned IB, const BlockShape &Shape);

  /// Whether \p IA and \p IB are in flight together only by a way that
  /// leaves a loop whose every iteration syncs at its first test
  /// (syncingLoopTests), and no such loop of the kernel is certainly
  /// skipped in a block of \p Shape: the race then needs some values of
  /// the loop's condition (cudf's `while (numvals > 0)`, called only under
  /// `numvals > 0`), and is possible only. A launch that passes a trip
  /// count of 0 makes it certain.
  enum class ZeroTrips { NotNeeded, Needed, Impossible };
  ZeroTrips needsZeroTrips(unsigned IA, unsigned IB, const BlockShape &Shape) {
    if (!SyncingLoops) {
      // The loops on a condition the threads agree on: a thread-dependent
      // one is the divergent-barrier check's.
      SyncingLoops = syncingLoopTests(K.Deps);
      for (const auto &[Test, BackEdges] : SyncingLoopTests(*SyncingLoops))
        if (K.Deps.getConditionDeps(Test) & dep::Thread)
          SyncingLoops->erase(Test);
      if (!SyncingLoops->empty())
        RunsSyncingLoops = std::make_unique<RaceConcurrency>(K, &*SyncingLoops);
    }
    if (!RunsSyncingLoops || RunsSyncingLoops->concurrent(IA, IB).Concurrent)
      return ZeroTrips::NotNeeded;
    bool AllRun = true;
    for (const auto &[Test, BackEdges] : *SyncingLoops) {
      std::optional<bool> Passes =
          firstTestPasses(Test->getTerminatorStmt(), Shape);
      if (Passes && !*Passes)
        return ZeroTrips::NotNeeded; // Certainly skipped: the way runs.
      AllRun &= Passes.value_or(false);
    }
    return AllRun ? ZeroTrips::Impossible : ZeroTrips::Needed;
  }
  /// Whether the way between \p A and \p B that makes their race may be
  /// one no values take: through a helper, a way that skips all its
  /// barriers (SharedAccess::SkipsHelperBarriers; not between two accesses
  /// of one call) or runs one of its syncing loops zero times
  /// (SharedAccess::ZeroTripHelperLoop); in the kernel, a syncing loop
  /// left at its first test (\p Trips). A certain race is then possible.
  static bool wayNeedsValues(const SharedAccess &A, const SharedAccess &B,
                             ZeroTrips Trips) {
    return ((A.SkipsHelperBarriers || B.SkipsHelperBarriers) &&
            !(A.Via && A.Via == B.Via)) ||
           A.ZeroTripHelperLoop || B.ZeroTripHelperLoop ||
           Trips == ZeroTrips::Needed;
  }
  /// The value of the first test of \p Loop in a block of \p Shape: its
  /// counters at their initial values, the kernel's parameters at the
  /// values its launches pass; none when some value is not known.
  std::optional<bool> firstTestPasses(const Stmt *Loop,
                                      const BlockShape &Shape) {
    const Expr *Cond = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Loop))
      Cond = For->getCond();
    else if (const auto *While = dyn_cast<WhileStmt>(Loop))
      Cond = While->getCond();
    if (!Cond)
      return std::nullopt;
    SymbolicTranslator &Sym = K.Sym;
    SymId C = Sym.translate(Cond);
    llvm::SmallVector<unsigned, 4> Atoms;
    Sym.collectAtoms(C, Atoms);
    std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
    SymEnv Env;
    for (int D = 0; D < 3; ++D)
      Env.Dim[D] = Shape.Dim[D];
    Env.Atoms = Values.data();
    // Parameters first: a counter's initial value may be one.
    for (unsigned Atom : Atoms) {
      const SymAtom &A = Sym.atoms()[Atom];
      if (A.isLoopCounter())
        continue;
      std::optional<std::int64_t> V =
          A.Var ? Shape.argument(A.Var) : std::nullopt;
      if (!V)
        return std::nullopt;
      Values[Atom] = *V;
    }
    for (unsigned Atom : Atoms) {
      const SymAtom &A = Sym.atoms()[Atom];
      if (!A.isLoopCounter())
        continue;
      std::optional<std::int64_t> Init = A.Loop == Loop && !A.IterationNumber
                                             ? Sym.evaluate(A.Init, Env)
                                             : std::nullopt;
      if (!Init)
        return std::nullopt;
      Values[Atom] = *Init;
    }
    std::optional<std::int64_t> Passes = Sym.evaluate(C, Env);
    if (!Passes)
      return std::nullopt;
    return *Passes != 0;
  }

  KernelRaceContext K;
  RaceWork Work;
  RaceConcurrency Concurrency;
  /// The uniform loops whose every iteration syncs, and the concurrency
  /// when they run (made on demand, and only when there are some).
  std::optional<SyncingLoopTests> SyncingLoops;
  std::unique_ptr<RaceConcurrency> RunsSyncingLoops;
  WarpUniformity Uniformity;
  StoredValues Stores;
  OverlapDecision Overlap;
  DataIndexedDecision DataIndexed;
  RaceReport Report;
  SharedRaceHandler &Handler;
};

bool KernelRaceFinder::checkDataIndexedPair(unsigned IA, unsigned IB,
                                            const BlockShape &Shape) {
  const SharedAccess &A = K.Accesses[IA], &B = K.Accesses[IB];
  const SymbolicTranslator &Sym = K.Sym;
  bool AtomicIsA = A.Kind == AccessKind::Atomic && Sym.isUnknown(A.Offset);
  const SharedAccess &Atomic = AtomicIsA ? A : B;
  const SharedAccess &Plain = AtomicIsA ? B : A;
  if (Atomic.Kind != AccessKind::Atomic || Plain.Kind == AccessKind::Atomic ||
      !Sym.isUnknown(Atomic.Offset) || Sym.isUnknown(Plain.Offset) ||
      Atomic.untranslatedGuard() || Plain.untranslatedGuard())
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
  if (V == RaceVerdict::Definite &&
      wayNeedsValues(A, B, needsZeroTrips(IA, IB, Shape)))
    V = RaceVerdict::Possible;
  if (V == RaceVerdict::None || V == RaceVerdict::Skip ||
      (V == RaceVerdict::Possible &&
       (!K.Options.ReportPossibleRaces || Report.reported(A, true) ||
        Report.reported(B, true))))
    return true;
  Report.reportDataIndexed(Plain, Atomic, *Index, W, V, Shape,
                           InFlight.WarpConcurrent);
  return true;
}

bool KernelRaceFinder::apartInEveryScenario(
    const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
    llvm::ArrayRef<RaceScenario> Scenarios, llvm::ArrayRef<unsigned> Atoms,
    const StoreComparison &Stored) {
  // The scenarios of one pair are one question under different
  // constraints: the loop counters' iterations (the same, the next, the
  // first...), threads of two warps, the condition under which a barrier
  // is skipped. Their union drops what they do not share; every
  // scenario's question adds constraints to it, so when no two threads
  // meet in the union they meet in none. Most pairs are apart, and on
  // llm.c's fused_residual_forward_kernel6 each of a pair's three or four
  // scenarios cost 0.2-0.6 s of offsets with products of unknowns; the
  // union costs one of them. A union that meets (or that the solver
  // cannot decide) says nothing, and the scenarios are asked one by one
  // as before, each in its own solvers, so verdicts and witnesses stay
  // theirs.
  RaceScenario Union = Scenarios.front();
  Union.Order = 0;
  Union.LaterIteration = false;
  for (const RaceScenario &S : Scenarios.drop_front()) {
    if (S.OtherBlock != Union.OtherBlock ||
        S.Relation.size() != Union.Relation.size())
      return false;
    for (unsigned I = 0; I < S.Relation.size(); ++I)
      if (S.Relation[I] != Union.Relation[I])
        Union.Relation[I] = 2; // Any two iterations.
    Union.DifferentWarpsOnly &= S.DifferentWarpsOnly;
    if (Union.Skip && !(S.Skip && *S.Skip == *Union.Skip))
      Union.Skip.reset();
  }
  RaceWitness W;
  return Overlap.cachedDecide(A, B, Shape, Union, Atoms, Stored.Values, W) ==
         RaceVerdict::None;
}

void KernelRaceFinder::checkPair(unsigned IA, unsigned IB,
                                 const BlockShape &Shape) {
  const SharedAccess &A = K.Accesses[IA], &B = K.Accesses[IB];
  SymbolicTranslator &Sym = K.Sym;
  if (A.Object != B.Object || (!A.writes() && !B.writes()))
    return;
  if (A.Kind == AccessKind::Atomic && B.Kind == AccessKind::Atomic)
    return;
  if (Report.reported(B) || Report.reported(A))
    return;
  if (checkDataIndexedPair(IA, IB, Shape))
    return;
  if (Sym.isUnknown(A.Offset) || Sym.isUnknown(B.Offset))
    return;
  if (A.UnknownGuard || B.UnknownGuard)
    return;
  InputNeed Input = inputNeed(A, B, K.Kernel, K.Context);
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
  if (Scenarios.size() > 1 &&
      apartInEveryScenario(A, B, Shape, Scenarios, Atoms, Stored))
    return;
  std::optional<ZeroTrips> Trips; // The same in every scenario.
  for (const RaceScenario &S : Scenarios) {
    if (Work.overBudget())
      return;
    RaceWitness W;
    RaceVerdict V =
        Overlap.cachedDecide(A, B, Shape, S, Atoms, Stored.Values, W);
    if (V == RaceVerdict::None || V == RaceVerdict::Skip)
      continue;
    // A race only a zero-trip way makes is none when the launch makes the
    // loop run.
    if (!Trips)
      Trips = needsZeroTrips(IA, IB, Shape);
    if (*Trips == ZeroTrips::Impossible)
      return;
    if (V == RaceVerdict::Definite &&
        (wayNeedsValues(A, B, *Trips) || (Input.Any && !Input.Fill)))
      V = RaceVerdict::Possible;
    if (V == RaceVerdict::Possible &&
        (!K.Options.ReportPossibleRaces || Report.reported(A, true) ||
         Report.reported(B, true)))
      continue;
    W.InputData = Input.Text;
    W.InputFills = Input.Fills;
    Report.reportPair(A, B, IA == IB, S, W, V, Shape, Atoms);
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
    Handler.handleIncomplete(K.Kernel, IncompleteReason::WorkBudget);
  for (unsigned I = 0; I < K.Accesses.size(); ++I)
    if (Concurrency.mayOutliveOwner(I)) {
      const SharedAccess &A = K.Accesses[I];
      Handler.handleOwnerMayExit({K.Kernel, A.Var, A.E, A.Kind});
    }
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
  analyzeBody(*Deps, Handler, Shapes, Relations);
  analyzeHelpers(*Deps, Shapes);
}

void SharedMemoryRaceAnalysis::analyzeBody(
    const FunctionDependence &Deps, SharedRaceHandler &To,
    llvm::ArrayRef<BlockShape> Shapes,
    llvm::ArrayRef<ArgumentRelation> Relations, ParameterBindings Bound,
    ParameterValues Values) {
  SharedAccessCollector Collector(Dependence, Deps);
  for (const auto &[Param, Shared] : Bound)
    Collector.bindParameter(Param, Shared);
  for (const auto &[Param, Value] : Values)
    Collector.bindValue(Param, Value);
  Collector.followZeroTripPaths(Options.ReportPossibleRaces);
  Collector.collect();
  // Without a write there is no race: the stages are not even built.
  if (llvm::none_of(Collector.accesses(),
                    [](const SharedAccess &A) { return A.writes(); }))
    return;
  KernelRaceFinder(Collector, To, Options, *Answers).run(Shapes, Relations);
}

namespace {

/// Whether \p E names no local variable or parameter (of the caller): it
/// means the same in the helper's frame.
bool freeOfLocals(const Stmt *E) {
  if (!E)
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      if (VD->hasLocalStorage())
        return false;
  if (isa<LambdaExpr>(E))
    return false;
  for (const Stmt *Child : E->children())
    if (!freeOfLocals(Child))
      return false;
  return true;
}

/// The argument \p Arg of a call in \p Caller as an expression free of the
/// caller's locals: itself, or the initialiser of the local it names when
/// nothing in the caller changes that local (`int t = threadIdx.x;`
/// passed as `t`); null otherwise.
const Expr *callerValue(const Expr *Arg,
                        llvm::function_ref<bool(const VarDecl *)> Mutated) {
  for (unsigned Depth = 0; Arg && Depth < 4; ++Depth) {
    Arg = Arg->IgnoreParenImpCasts();
    if (freeOfLocals(Arg))
      return Arg;
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
        !VD->getInit() || VD->getType()->isReferenceType() || Mutated(VD))
      return nullptr;
    Arg = VD->getInit();
  }
  return nullptr;
}

/// The `__shared__` variable whose start \p Arg, an argument of a call in
/// \p Caller, points to (or, when \p Reference, names): the variable
/// itself (an array decays to its start), its address, either cast to
/// another pointer type, or a local pointer of the caller set so once and
/// never changed (`state_s *const s = &state_g;`). Null otherwise.
const VarDecl *sharedStart(const Expr *Arg, bool Reference,
                           llvm::function_ref<bool(const VarDecl *)> Mutated) {
  for (unsigned Depth = 0; Arg && Depth < 4; ++Depth) {
    Arg = Arg->IgnoreParenCasts();
    bool AddressOf = false;
    if (const auto *UO = dyn_cast<UnaryOperator>(Arg);
        UO && UO->getOpcode() == UO_AddrOf && !Reference) {
      Arg = UO->getSubExpr()->IgnoreParens();
      AddressOf = true;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(Arg);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD)
      return nullptr;
    if (isSharedVariable(VD))
      return Reference || AddressOf || VD->getType()->isArrayType() ? VD
                                                                    : nullptr;
    if (AddressOf || Reference || isa<ParmVarDecl>(VD) ||
        !VD->hasLocalStorage() || !VD->getType()->isPointerType() ||
        !VD->getInit() || Mutated(VD))
      return nullptr;
    Arg = VD->getInit();
  }
  return nullptr;
}

/// Passes a helper's races on with the call they were analysed for.
class HelperRaces : public SharedRaceHandler {
public:
  HelperRaces(SharedRaceHandler &To, const CallExpr *Call)
      : To(To), Call(Call) {}
  void handleRace(const SharedRace &Race) override {
    SharedRace Copy = Race;
    Copy.CalledFrom = Call;
    To.handleRace(Copy);
  }
  void handleIncomplete(const FunctionDecl *F, IncompleteReason R) override {
    To.handleIncomplete(F, R);
  }

private:
  SharedRaceHandler &To;
  const CallExpr *Call;
};

} // namespace

void SharedMemoryRaceAnalysis::analyzeHelpers(
    const FunctionDependence &Deps, llvm::ArrayRef<BlockShape> Shapes) {
  // A helper that reaches a barrier runs, at a call every thread of the
  // block makes, as a piece of the kernel: its accesses between its own
  // barriers are paired as the kernel's are (issue 22, shape a). The
  // kernel's analysis sees only what the call may do before the helper's
  // first barrier and after its last (CalleeIntervals); this sees the
  // rest, on the helper's own shared variables and on those the call
  // passes it (a parameter given a `__shared__` array itself points to its
  // start). A parameter given a thread's own value has that value where
  // the caller's expression of it means the same in the helper
  // (`threadIdx.x`, or the `t` initialised with it), and is unknown
  // otherwise; what differs between threads is what the call makes differ
  // (FunctionDependence::atCall).
  // Whether the kernel changes a local after its initialisation: one
  // analyzer for the kernel (it remembers its answers), made only when a
  // helper is taken, since it matches over the whole body.
  std::optional<ExprMutationAnalyzer> Mutation;
  const Stmt *Body = Deps.getFunction()->getBody();
  auto Mutated = [&](const VarDecl *VD) {
    if (!Body)
      return true;
    if (!Mutation)
      Mutation.emplace(*Body, Deps.getFunction()->getASTContext());
    return Mutation->isMutated(VD);
  };
  for (const BarrierSite &Site : Deps.getBarrierSites()) {
    const FunctionDecl *Definition = nullptr;
    if (!Site.Callee || !Site.Callee->hasBody(Definition) || !Definition ||
        Definition->isDependentContext() || HelpersDone.count(Definition) ||
        isa<CXXOperatorCallExpr>(Site.Call))
      continue;
    // A helper that names no shared variable cannot be given one either
    // unless some pointer or reference parameter is.
    auto [Own, New] = HelperDeclaresShared.try_emplace(Definition, false);
    if (New)
      Own->second = declaresShared(Definition->getBody());
    bool MayBind =
        llvm::any_of(Definition->parameters(), [](const ParmVarDecl *P) {
          return P->getType()->isPointerType() ||
                 P->getType()->isReferenceType();
        });
    if (!Own->second && !MayBind)
      continue;
    llvm::ArrayRef<DepSet> ArgDeps = Deps.getArgumentDeps(Site.Call);
    unsigned Params =
        std::min(Definition->getNumParams(), Site.Call->getNumArgs());
    auto ThreadArg = [&](unsigned I) {
      return I < ArgDeps.size() && (ArgDeps[I] & dep::Thread);
    };
    llvm::SmallVector<std::pair<const ParmVarDecl *, const VarDecl *>, 2> Bound;
    for (unsigned I = 0; I < Params; ++I) {
      const ParmVarDecl *Param = Definition->getParamDecl(I);
      if (ThreadArg(I) || (!Param->getType()->isPointerType() &&
                           !Param->getType()->isReferenceType()))
        continue;
      if (const VarDecl *Shared =
              sharedStart(Site.Call->getArg(I),
                          Param->getType()->isReferenceType(), Mutated))
        Bound.push_back({Param, Shared});
    }
    if (Bound.empty() && !Own->second)
      continue;
    llvm::SmallVector<std::pair<const ParmVarDecl *, const Expr *>, 2> Values;
    for (unsigned I = 0; I < Params; ++I) {
      const ParmVarDecl *Param = Definition->getParamDecl(I);
      if (ThreadArg(I) && Param->getType()->isIntegralOrEnumerationType())
        if (const Expr *V = callerValue(Site.Call->getArg(I), Mutated))
          Values.push_back({Param, V});
    }
    const FunctionDependence *HelperDeps = Dependence.analyze(Definition);
    if (!HelperDeps)
      continue;
    HelpersDone.insert(Definition);
    HelperRaces To(Handler, Site.Call);
    std::unique_ptr<FunctionDependence> AtCall =
        HelperDeps->atCall(Deps, Site.Call);
    analyzeBody(*AtCall, To, Shapes, {}, Bound, Values);
  }
}

} // namespace clang::cuda_tidy
