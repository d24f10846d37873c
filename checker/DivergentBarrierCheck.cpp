//===--- DivergentBarrierCheck.cpp - cuda-tidy ----------------------------===//

#include "DivergentBarrierCheck.h"
#include "WitnessRecord.h"
#include "analysis/BarrierDivergence.h"
#include "analysis/WarpMaskDivergence.h"
#include "model/HostFacts.h"
#include "model/LaunchModel.h"
#include "support/SizeLimit.h"
#include "support/Timing.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include <variant>

using namespace clang::ast_matchers;
using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

/// Owns the analyses for one translation unit and turns their reports into
/// diagnostics.
class DivergentBarrierCheck::Reporter : public BarrierDivergenceHandler,
                                        public WarpMaskHandler {
public:
  Reporter(DivergentBarrierCheck &Check, ASTContext &Context,
           DependenceOptions Options, WarpMaskOptions MaskOptions)
      : Launches(Context), Check(Check), Context(Context), Options(Options),
        Dependence(Context, withLaneRules(Options)),
        Barriers(Dependence, *this), WarpMasks(Dependence, *this, MaskOptions) {
  }

  ASTContext &getContext() const { return Context; }
  /// The functions that may launch kernels: their launches tell the
  /// block's size.
  LaunchModel Launches;
  /// A kernel is analysed knowing lane-only values (ThreadDependence.h);
  /// when an answer relies on them, its reports wait for the end of the
  /// translation unit, where the launches tell whether its block's x extent
  /// is a multiple of 32. Warp collectives are decided at once: the lanes
  /// of one warp agree on a full-warp reduction whatever the block's shape.
  void analyze(const FunctionDecl *FD) {
    bool Kernel = FD->hasAttr<CUDAGlobalAttr>();
    std::vector<Report> Reports;
    Buffer = Kernel ? &Reports : nullptr;
    Slowest.time(FD, FD->getNameAsString(), [&] {
      Barriers.analyze(FD);
      // A kernel's warp collectives wait for the launches (flush): what
      // they establish about its parameters is assumed.
      if (!Kernel)
        WarpMasks.analyze(FD);
    });
    if (Kernel) {
      MaskKernels.push_back(FD);
      AnalysedKernels.push_back(FD);
    }
    Buffer = nullptr;
    if (!Kernel)
      return;
    const FunctionDependence *Deps = Dependence.analyze(FD);
    if (Deps && (Deps->usesLaneRule() || Deps->usesOneWarpRule())) {
      LaneKernels.push_back({FD, std::move(Reports)});
      return;
    }
    replay(Reports);
  }
  SlowestAnalysis Slowest;

  void handleDivergentBarrier(const DivergentBarrier &D) override {
    if (Buffer) {
      Buffer->push_back(D);
      return;
    }
    // Decided at the end of the translation unit, once every caller and
    // launch is known.
    Pending.push_back(D);
  }

  /// Whether the solver rules out every pair of threads of a block that
  /// could disagree on the guards leading to \p D, under the kernel's
  /// stated preconditions and what its launches establish (issue 22:
  /// divergence decided exactly; WarpMaskAnalysis::decideBarrier). The
  /// point it finds otherwise is kept for the witness record.
  bool ruledOut(const DivergentBarrier &D) {
    if (!D.Site || !D.Function)
      return false;
    std::vector<ParameterMultiple> Multiples;
    if (D.Function->hasAttr<CUDAGlobalAttr>())
      Multiples = launchedMultiples(Launches, D.Function, Context);
    DivergentWarpCollective Point;
    std::optional<bool> Found =
        WarpMasks.decideBarrier(D.Function, D.Site, Multiples, Point);
    if (Found && !*Found)
      return true;
    if (Found)
      BarrierPoints[D.Site] = std::move(Point);
    return false;
  }

  /// Reports what early returns cause, unless every call to the function is
  /// a kernel's last action: the threads that return then leave the kernel.
  void flush() {
    for (const FunctionDecl *Kernel : MaskKernels) {
      std::vector<ParameterMultiple> Multiples =
          launchedMultiples(Launches, Kernel, Context);
      Slowest.time(Kernel, Kernel->getNameAsString(),
                   [&] { WarpMasks.analyze(Kernel, Multiples); });
    }
    MaskKernels.clear();
    for (auto &[Kernel, Reports] : LaneKernels) {
      const FunctionDependence *Deps = Dependence.analyze(Kernel);
      bool Rows =
          !Deps->usesLaneRule() || Launches.launchesHaveWarpRows(Kernel);
      if (Rows && (!Deps->usesOneWarpRule() ||
                   launchesAreOneWarp(Launches, Kernel, Context))) {
        replay(Reports);
        continue;
      }
      // Not one warp: lane-only values alone, where the rows allow them.
      if (Rows && Deps->usesOneWarpRule()) {
        if (!LaneOnly) {
          LaneOnlyDependence = std::make_unique<ThreadDependenceAnalysis>(
              Context, withLaneRules(Options, /*OneWarp=*/false));
          LaneOnly = std::make_unique<BarrierDivergenceAnalysis>(
              *LaneOnlyDependence, *this);
        }
        std::vector<Report> Again;
        Buffer = &Again;
        LaneOnly->analyze(Kernel);
        Buffer = nullptr;
        const FunctionDependence *Lanes = LaneOnlyDependence->analyze(Kernel);
        if (!Lanes || !Lanes->usesLaneRule() ||
            Launches.launchesHaveWarpRows(Kernel)) {
          replay(Again);
          continue;
        }
      }
      // Not known to run in whole warps of one row, or as one warp: the
      // answer without the lane rules.
      if (!Plain) {
        PlainDependence =
            std::make_unique<ThreadDependenceAnalysis>(Context, Options);
        Plain = std::make_unique<BarrierDivergenceAnalysis>(*PlainDependence,
                                                            *this);
      }
      Plain->analyze(Kernel);
    }
    LaneKernels.clear();
    Launches.resolve();
    for (DivergentBarrier &D : Pending)
      if ((!D.ThroughEarlyReturn ||
           !Barriers.onlyCalledBeforeKernelExit(D.Function)) &&
          !ruledOut(D)) {
        // The solver's guard is the one threads were found to disagree on
        // (llm.c's row loop, where the dependence analysis names a lane
        // test that the kernel's precondition keeps uniform).
        auto Point = BarrierPoints.find(D.Site);
        if (Point != BarrierPoints.end() && Point->second.Condition &&
            !D.Parameter && !D.MatchedOnOtherArm && !D.AcrossBlocks) {
          D.Condition = Point->second.Condition;
          D.Kind = Point->second.Kind;
          D.Reason = Point->second.Reason;
        }
        report(D);
      }
    Pending.clear();
    for (const UnwrittenSharedRead &R : PendingReads)
      if (R.ExitDimension < 0 || !Launches.launchesBindExitBound(
                                     R.Function, R.ExitDimension,
                                     R.ExitBoundValue, R.ExitBoundParameter))
        report(R);
    PendingReads.clear();
    Slowest.report("cuda-divergent-barrier");
    reportOversizedBodies(Check, Dependence, "divergent barriers", Reported);
    if (!ToRecord.empty()) {
      Launches.resolve();
      for (const DivergentBarrier &D : ToRecord)
        recordWitness(D);
      ToRecord.clear();
    }
    if (!ToRecordLanes.empty()) {
      Launches.resolve();
      for (const DivergentWarpCollective &D : ToRecordLanes)
        recordLaneWitness(D);
      ToRecordLanes.clear();
    }
  }

  /// The block a barrier's reproducer launches \p Kernel with: a launch's,
  /// else what __launch_bounds__ allows, else 256 threads.
  BlockShape defaultBlock(const FunctionDecl *Kernel) {
    BlockShape Block;
    Block.Dim = {256, 1, 1};
    Block.Assumed = true;
    if (const auto *Bounds = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult Max;
      if (Bounds->getMaxThreads() &&
          Bounds->getMaxThreads()->EvaluateAsInt(Max, Context))
        Block.Dim[0] = Max.Val.getInt().getExtValue();
    }
    for (const KernelLaunch *L : Launches.launchesOf(Kernel))
      if (L->Shape)
        return *L->Shape;
    return Block;
  }

  /// A warp collective's witness as data: the kernel that reaches it,
  /// launched with the block, block index and values at which the solver
  /// found lanes of its mask away. The reproducer's lane check then asks,
  /// at the collective, which lanes of the mask are there.
  void recordLaneWitness(const DivergentWarpCollective &D) {
    WitnessRecord R;
    R.Check = "cuda-divergent-barrier";
    R.Where = D.Call->getBeginLoc();
    R.Kernel = kernelReaching(D.Function, AnalysedKernels);
    const CallExpr *Collective = D.Collective ? D.Collective : D.Call;
    R.Places = {D.Condition ? D.Condition->getBeginLoc() : SourceLocation(),
                Collective->getBeginLoc()};
    R.Expect["tool"] = "lanes";
    R.Expect["collective"] = D.Name;
    const SourceManager &SM = Context.getSourceManager();
    R.Expect["collective_line"] = static_cast<std::int64_t>(
        SM.getSpellingLineNumber(SM.getFileLoc(Collective->getBeginLoc())));
    if (refusedWithoutKernel(R, D.Function))
      return;
    R.Block = defaultBlock(R.Kernel);
    // The launch's block, when it gives one and the guard does not read
    // the block's extents (the lanes a guard sends away are then the same
    // in any block of whole warps): the kernel's own code may need it (a
    // shared tile of the launch's width). Otherwise the solver's.
    bool LaunchBlock = !R.Block.Assumed && !D.ReadsBlockDim &&
                       R.Block.Dim[0] % 32 == 0 && D.Block[0] % 32 == 0;
    if (!LaunchBlock && D.Block[0] > 0 && D.Block[1] > 0 && D.Block[2] > 0) {
      R.Block.Dim = D.Block;
      R.Block.Assumed = false;
    }
    addKernelValues(R, D.Values);
    addLaunchFacts(R, Launches, /*NeedsGrid=*/true);
    for (unsigned Dim = 0; Dim < 3; ++Dim)
      R.Grid[Dim] = std::max(R.Grid[Dim], D.BlockIndex[Dim] + 1);
    writeWitness(R, Context);
  }

  /// Writes \p R as refused when no kernel of the unit reaches \p Function;
  /// false when one does.
  bool refusedWithoutKernel(WitnessRecord &R, const FunctionDecl *Function) {
    if (R.Kernel)
      return false;
    R.CannotReproduce = "no kernel of this translation unit calls '" +
                        Function->getNameAsString() + "'";
    writeWitness(R, Context);
    return true;
  }

  /// Gives \p R the values of a solver's point that belong to its kernel's
  /// own parameters: a guard in a helper reads the helper's.
  static void addKernelValues(
      WitnessRecord &R,
      llvm::ArrayRef<std::pair<const ParmVarDecl *, std::int64_t>> Values) {
    for (const auto &[Param, Value] : Values)
      if (llvm::is_contained(R.Kernel->parameters(), Param))
        R.Values.push_back({Param, Value});
  }

  /// The barrier's witness as data, for a reproducer (WitnessRecord.h):
  /// the kernel that reaches it, launched as its launches are.
  void recordWitness(const DivergentBarrier &D) {
    WitnessRecord R;
    R.Check = "cuda-divergent-barrier";
    R.Where = D.Site->getBeginLoc();
    R.Kernel = kernelReaching(D.Function, AnalysedKernels);
    R.Places = {D.Condition ? D.Condition->getBeginLoc() : SourceLocation(),
                D.Barrier->getBeginLoc()};
    R.Expect["tool"] = "synccheck";
    R.Expect["scope"] = scopeName(D.Scope);
    R.Cooperative = D.Scope == BarrierScope::Grid;
    if (refusedWithoutKernel(R, D.Function))
      return;
    R.Block = defaultBlock(R.Kernel);
    // The solver's point: its block index and the kernel's values. Its
    // block is of any shape; the launch's (or __launch_bounds__') is kept,
    // which code written for one block size needs, and the values of a
    // split seldom depend on it.
    auto Point = BarrierPoints.find(D.Site);
    if (Point != BarrierPoints.end() && D.Scope == BarrierScope::Block &&
        !D.AcrossBlocks) {
      const DivergentWarpCollective &P = Point->second;
      // An assumed block gives way to the solver's, unless the kernel's
      // __launch_bounds__ named it.
      if (R.Block.Assumed && !R.Kernel->hasAttr<CUDALaunchBoundsAttr>() &&
          P.Block[0] > 0 && P.Block[1] > 0 && P.Block[2] > 0 &&
          P.Block[0] * P.Block[1] * P.Block[2] <= 1024)
        R.Block.Dim = P.Block;
      // A guard that reads the block's extents splits at the point's
      // values only in the point's block (`blockIdx.x * blockDim.x + t <
      // n`, wrapping-guard): with the launch's block kept, the launch's
      // values and grid are the witness instead.
      if (!P.ReadsBlockDim || R.Block.Dim == P.Block) {
        for (unsigned Dim = 0; Dim < 3; ++Dim)
          R.Grid[Dim] = std::max(R.Grid[Dim], P.Grid[Dim]);
        addKernelValues(R, P.Values);
        for (unsigned Dim = 0; Dim < 3; ++Dim)
          R.Grid[Dim] = std::max(R.Grid[Dim], P.BlockIndex[Dim] + 1);
      }
    }
    bool AcrossBlocks = D.AcrossBlocks || D.Scope != BarrierScope::Block;
    if (AcrossBlocks)
      R.Grid = {2, 1, 1};
    // The divergence names no block: it may need one past the first (`if
    // (blockIdx.x * blockDim.x + t < n)` splits only the block n falls
    // in), so the grid of the launch is kept when it is a constant.
    addLaunchFacts(R, Launches, /*NeedsGrid=*/true);
    writeWitness(R, Context);
  }

  /// A warning no GPU tool shows, recorded with why (WitnessRecord.h).
  void recordUnreproducible(const Stmt *Where, const FunctionDecl *Function,
                            std::string Why) {
    if (!witnessRecordsWanted())
      return;
    WitnessRecord R;
    R.Check = "cuda-divergent-barrier";
    R.Where = Where->getBeginLoc();
    R.Kernel = kernelReaching(Function, AnalysedKernels);
    R.CannotReproduce = std::move(Why);
    writeWitness(R, Context);
  }

  /// Decided at the end of the translation unit, once every launch is
  /// known: a launch whose block is exactly as large as the exit's bound
  /// lets no thread leave.
  void handleUnwrittenSharedRead(const UnwrittenSharedRead &R) override {
    if (Buffer) {
      Buffer->push_back(R);
      return;
    }
    PendingReads.push_back(R);
  }

  void report(const UnwrittenSharedRead &R) {
    Check.diag(R.Read->getBeginLoc(),
               "after the barrier every thread reads elements of '%0' that "
               "threads which left the kernel early may never have written")
        << R.Variable->getName() << R.Read->getSourceRange();
    if (R.ExitCondition)
      Check.diag(R.ExitCondition->getBeginLoc(),
                 "threads of a block may disagree on this condition, and the "
                 "threads on the side that leaves the kernel skip the write: "
                 "it depends on %0",
                 DiagnosticIDs::Note)
          << R.Reason << R.ExitCondition->getSourceRange();
    Check.diag(R.Write->getBeginLoc(),
               "each thread that stays writes only its own element of '%0' "
               "here",
               DiagnosticIDs::Note)
        << R.Variable->getName() << R.Write->getSourceRange();
    noteConfirmation(Check, "cuda-divergent-barrier", R.Read->getBeginLoc(),
                     Context.getSourceManager());
    recordUnreproducible(
        R.Read, R.Function,
        "no GPU tool reports a read of shared memory that no thread wrote "
        "(initcheck follows global memory only); only a wrong result shows "
        "it");
  }

  void
  handleDivergentWarpCollective(const DivergentWarpCollective &D) override {
    std::string Message =
        std::string(D.Callee ? "call to '%2' reaches warp collective '%0', "
                               "which"
                             : "warp collective '%0'") +
        " may be reached by only some lanes of its mask %1" +
        (D.Undecided ? "" : ": %3 may not reach it");
    {
      auto Warning = Check.diag(D.Call->getBeginLoc(), Message);
      Warning << D.Name << D.Mask
              << (D.Callee ? D.Callee->getNameAsString() : std::string());
      if (!D.Undecided)
        Warning << D.Lanes;
      Warning << D.Call->getSourceRange();
    }
    static const char *const What[] = {"condition", "loop condition",
                                       "switch condition"};
    std::string When = D.Undecided
                           ? std::string(", which the check cannot decide")
                       : D.When.empty() ? std::string()
                                        : " when " + D.When;
    Check.diag(D.Condition->getBeginLoc(),
               "lanes of a warp may disagree on this %0%1: it depends on %2",
               DiagnosticIDs::Note)
        << What[static_cast<int>(D.Kind)] << When << D.Reason
        << D.Condition->getSourceRange();
    if (D.Collective)
      Check.diag(D.Collective->getBeginLoc(),
                 "warp collective '%0' is reached here", DiagnosticIDs::Note)
          << D.Name << D.Collective->getSourceRange();
    noteConfirmation(Check, "cuda-divergent-barrier", D.Call->getBeginLoc(),
                     Context.getSourceManager());
    if (!witnessRecordsWanted())
      return;
    // No sanitizer reports a shuffle or vote that lanes of its mask miss,
    // nor synccheck a __syncwarp (../shared/GPU-FACTS.md): the
    // reproducer's lane check asks the mask itself (tool "lanes").
    ToRecordLanes.push_back(D);
  }

  void report(const DivergentBarrier &D) {
    llvm::StringRef Scope = scopeName(D.Scope);
    if (D.Callee)
      Check.diag(D.Site->getBeginLoc(),
                 "call to '%0' reaches barrier '%1', which may be reached by "
                 "only some threads of the %2")
          << D.Callee->getNameAsString() << D.BarrierName << Scope
          << D.Site->getSourceRange();
    else
      Check.diag(D.Site->getBeginLoc(),
                 "barrier '%0' may be reached by only some threads of the %1")
          << D.BarrierName << Scope << D.Site->getSourceRange();
    // Who may disagree: threads of one block, or blocks of the cluster or
    // grid the barrier waits for.
    std::string Disagreeing = D.AcrossBlocks
                                  ? ("blocks of a " + Scope).str()
                                  : std::string("threads of a block");
    if (D.AcrossBlocks && D.Scope == BarrierScope::Grid)
      Disagreeing = "blocks of the grid";

    static const char *const What[] = {"condition", "loop condition",
                                       "switch condition"};
    if (D.Parameter) {
      Check.diag(D.Condition->getBeginLoc(),
                 "whether '%0' reaches the barrier depends on this %1, which "
                 "depends on parameter '%2'",
                 DiagnosticIDs::Note)
          << D.Callee->getNameAsString() << What[static_cast<int>(D.Kind)]
          << D.Parameter->getName() << D.Condition->getSourceRange();
      if (D.Argument)
        Check.diag(D.Argument->getBeginLoc(),
                   "the argument for '%0' differs between %1: it depends on "
                   "%2",
                   DiagnosticIDs::Note)
            << D.Parameter->getName() << (D.AcrossBlocks ? "blocks" : "threads")
            << D.Reason << D.Argument->getSourceRange();
    } else if (D.Condition) {
      Check.diag(D.Condition->getBeginLoc(),
                 "%0 may disagree on this %1: it depends on %2",
                 DiagnosticIDs::Note)
          << Disagreeing << What[static_cast<int>(D.Kind)] << D.Reason
          << D.Condition->getSourceRange();
      if (D.MatchedOnOtherArm)
        Check.diag(D.Condition->getBeginLoc(),
                   "each side of this condition reaches '%0' as often as the "
                   "other, but at a different call: a block barrier must be "
                   "executed by all threads of the block at the same "
                   "instruction, even when the sides split the block between "
                   "whole warps",
                   DiagnosticIDs::Note)
            << D.BarrierName << D.Condition->getSourceRange();
      // The values at which the solver found two threads on either side.
      auto Point = BarrierPoints.find(D.Site);
      if (Point != BarrierPoints.end() &&
          Point->second.Condition == D.Condition &&
          !Point->second.When.empty())
        Check.diag(D.Condition->getBeginLoc(),
                   "for example, threads of one block disagree on it when "
                   "%0",
                   DiagnosticIDs::Note)
            << Point->second.When << D.Condition->getSourceRange();
    }
    if (D.Callee)
      Check.diag(D.Barrier->getBeginLoc(), "barrier '%0' is reached here",
                 DiagnosticIDs::Note)
          << D.BarrierName << D.Barrier->getSourceRange();
    noteConfirmation(Check, "cuda-divergent-barrier", D.Site->getBeginLoc(),
                     Context.getSourceManager());
    if (witnessRecordsWanted())
      ToRecord.push_back(D);
  }

private:
  using Report = std::variant<DivergentBarrier, UnwrittenSharedRead>;
  static DependenceOptions withLaneRules(DependenceOptions Options,
                                         bool OneWarp = true) {
    Options.LaneRules = true;
    Options.OneWarpRule = OneWarp;
    return Options;
  }
  void replay(const std::vector<Report> &Reports) {
    for (const Report &R : Reports) {
      if (const auto *D = std::get_if<DivergentBarrier>(&R))
        handleDivergentBarrier(*D);
      else
        handleUnwrittenSharedRead(std::get<UnwrittenSharedRead>(R));
    }
  }

  DivergentBarrierCheck &Check;
  ASTContext &Context;
  DependenceOptions Options;
  ThreadDependenceAnalysis Dependence;
  BarrierDivergenceAnalysis Barriers;
  WarpMaskAnalysis WarpMasks;
  /// Where a kernel's reports go while it is analysed.
  std::vector<Report> *Buffer = nullptr;
  /// Kernels whose answers rely on lane-only values, with their reports.
  std::vector<std::pair<const FunctionDecl *, std::vector<Report>>> LaneKernels;
  /// Without lane-only values, for kernels whose launches do not allow
  /// them; made when first needed.
  std::unique_ptr<ThreadDependenceAnalysis> PlainDependence;
  std::unique_ptr<BarrierDivergenceAnalysis> Plain;
  /// With lane-only values but not the one-warp rule, for kernels launched
  /// in whole warps of one row but not as one warp.
  std::unique_ptr<ThreadDependenceAnalysis> LaneOnlyDependence;
  std::unique_ptr<BarrierDivergenceAnalysis> LaneOnly;
  std::vector<DivergentBarrier> Pending;
  /// Kernels whose warp collectives are decided at the end of the unit.
  std::vector<const FunctionDecl *> MaskKernels;
  std::vector<UnwrittenSharedRead> PendingReads;
  /// The kernels analysed, and the warnings whose witnesses are written at
  /// the end of the unit, when the launches are resolved.
  std::vector<const FunctionDecl *> AnalysedKernels;
  std::vector<DivergentBarrier> ToRecord;
  /// The solver's point of each barrier it found two threads disagree at.
  llvm::DenseMap<const Stmt *, DivergentWarpCollective> BarrierPoints;
  std::vector<DivergentWarpCollective> ToRecordLanes;
  size_t Reported = 0;
};

DivergentBarrierCheck::DivergentBarrierCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context), ExitedThreadsHoldBarriers(Options.get(
                                         "ExitedThreadsHoldBarriers", false)),
      UnknownCallsAreThreadDependent(
          Options.get("UnknownCallsAreThreadDependent", false)),
      MaxBlocks(Options.get("MaxBlocks", DefaultMaxBlocks)),
      ReportUndecidedWarpMasks(Options.get("ReportUndecidedWarpMasks", false)) {
}

DivergentBarrierCheck::~DivergentBarrierCheck() = default;

void DivergentBarrierCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ExitedThreadsHoldBarriers", ExitedThreadsHoldBarriers);
  Options.store(Opts, "MaxBlocks", MaxBlocks);
  Options.store(Opts, "ReportUndecidedWarpMasks", ReportUndecidedWarpMasks);
  Options.store(Opts, "UnknownCallsAreThreadDependent",
                UnknownCallsAreThreadDependent);
}

void DivergentBarrierCheck::onStartOfTranslationUnit() { State.reset(); }

void DivergentBarrierCheck::onEndOfTranslationUnit() {
  if (State)
    State->flush();
  State.reset();
}

void DivergentBarrierCheck::registerMatchers(MatchFinder *Finder) {
  // Kernels and device functions with a body, outside system headers. Each
  // is analysed once; callees are followed through summaries from there.
  Finder->addMatcher(
      functionDecl(isDefinition(),
                   anyOf(hasAttr(attr::CUDAGlobal), hasAttr(attr::CUDADevice)),
                   unless(isExpansionInSystemHeader()))
          .bind("function"),
      this);
  // Functions that may launch kernels: their launches tell the block's size.
  LaunchModel::registerMatchers(Finder, this);
}

void DivergentBarrierCheck::check(const MatchFinder::MatchResult &Result) {
  const auto *FD = Result.Nodes.getNodeAs<FunctionDecl>("function");
  const auto *Launcher = Result.Nodes.getNodeAs<FunctionDecl>("host");
  const FunctionDecl *Matched = FD ? FD : Launcher;
  if (!Matched || Matched->isDependentContext() || Matched->isInvalidDecl())
    return;
  // Flow analyses on a broken AST only produce noise.
  if (Result.Context->getDiagnostics().hasUncompilableErrorOccurred())
    return;
  if (!State || &State->getContext() != Result.Context) {
    DependenceOptions Options;
    Options.ExitedThreadsHoldBarriers = ExitedThreadsHoldBarriers;
    Options.UnknownCallsAreThreadDependent = UnknownCallsAreThreadDependent;
    Options.MaxBlocks = MaxBlocks;
    WarpMaskOptions MaskOptions;
    MaskOptions.ReportUndecided = ReportUndecidedWarpMasks;
    State = std::make_unique<Reporter>(*this, *Result.Context, Options,
                                       MaskOptions);
  }
  if (Launcher)
    State->Launches.addFunction(Launcher);
  else
    State->analyze(FD);
}

} // namespace clang::tidy::cuda_tidy
