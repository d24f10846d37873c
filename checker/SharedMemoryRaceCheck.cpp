//===--- SharedMemoryRaceCheck.cpp - cuda-tidy ----------------------------===//

#include "SharedMemoryRaceCheck.h"
#include "WitnessRecord.h"
#include "analysis/race/SharedMemoryRace.h"
#include "model/LaunchModel.h"
#include "support/SizeLimit.h"
#include "support/Timing.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang::ast_matchers;
using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

/// Collects kernels and launches during the match phase; analyses at the end
/// of the translation unit, when every launch has been seen.
class SharedMemoryRaceCheck::Collector : public SharedRaceHandler {
public:
  Collector(SharedMemoryRaceCheck &Check, ASTContext &Context,
            RaceOptions Options)
      : Launches(Context), Check(Check), Context(Context),
        Dependence(Context, withBlockLimit(Check.MaxBlocks)),
        Assumed(Options.Assumed), Races(Dependence, *this, Options) {}

  ASTContext &getContext() const { return Context; }
  LaunchModel Launches;

  void analyze(const ProgramLaunches *Index) {
    Launches.resolve(Index);
    SlowestAnalysis Slowest;
    for (const FunctionDecl *Kernel : Launches.kernels())
      Slowest.time(Kernel, Kernel->getNameAsString(), [&] {
        Races.analyzeKernel(Kernel,
                            Launches.shapesFor(Kernel, Dependence, Assumed),
                            Launches.relationsOf(Kernel));
      });
    Slowest.report("cuda-shared-memory-race");
    reportOversizedBodies(Check, Dependence, "shared-memory races", Reported);
  }

  void handleRace(const SharedRace &Race) override {
    static const char *const Orders[] = {"read after write", "write after read",
                                         "write after write"};
    auto Noun = [](AccessKind K) {
      switch (K) {
      case AccessKind::Read:
        return "read";
      case AccessKind::Write:
        return "write";
      case AccessKind::ReadWrite:
        return "update";
      case AccessKind::Atomic:
        return "atomic update";
      }
      return "access";
    };
    // One report per kernel and variable for the warp-synchronous idiom:
    // the unrolled steps all fall together, and so does their fix.
    if (Race.WarpSynchronous &&
        !WarpSynchronousReported.insert({Race.Kernel, Race.Variable}).second)
      return;
    // A helper run as a piece of its kernel repeats the pairs the kernel's
    // own analysis found at the call (what the helper does before its first
    // barrier or after its last): those are told once, at the call.
    if (Race.CalledFrom && (ReportedPairs.count({Race.First, Race.Second}) ||
                            ReportedPairs.count({Race.Second, Race.First})))
      return;
    ReportedPairs.insert({Race.First, Race.Second});
    std::string Name = Race.Variable->getName().str();
    // Warn where the kernel makes the access: at the call when the access
    // is inside a __device__ function.
    const Stmt *Where = Race.SecondVia
                            ? static_cast<const Stmt *>(Race.SecondVia)
                            : Race.Second;
    if (Race.WarpSynchronous)
      Check.diag(Where->getBeginLoc(),
                 "%0warp-synchronous %1 on shared '%2' relies on the lanes of "
                 "a warp running in lockstep, which sm_70 and later do not "
                 "guarantee")
          << (Race.Possible ? "possible " : "") << Orders[Race.Order] << Name
          << Where->getSourceRange();
    else {
      // The fix goes on the warning itself, so that -fix applies it.
      FixItHint Fix;
      if (const Stmt *Before = Race.InsertBarrierBefore) {
        SourceLocation Loc = Before->getBeginLoc();
        StringRef Indent =
            Lexer::getIndentationForLine(Loc, Context.getSourceManager());
        Fix = FixItHint::CreateInsertion(Loc,
                                         ("__syncthreads();\n" + Indent).str());
      }
      Check.diag(Where->getBeginLoc(),
                 "%0%1 race on shared '%2': no barrier orders this %3 after "
                 "another thread's %4")
          << (Race.Possible ? "possible " : "") << Orders[Race.Order] << Name
          << Noun(Race.SecondKind) << Noun(Race.FirstKind)
          << Where->getSourceRange() << Fix;
    }
    if (Race.SecondVia)
      Check.diag(Race.Second->getBeginLoc(), "the %0 is made here, inside '%1'",
                 DiagnosticIDs::Note)
          << Noun(Race.SecondKind)
          << Race.SecondVia->getDirectCallee()->getName()
          << Race.Second->getSourceRange();
    if (Race.FirstVia && Race.FirstVia != Race.SecondVia)
      Check.diag(Race.FirstVia->getBeginLoc(),
                 "the other thread's %0 is "
                 "made by this call",
                 DiagnosticIDs::Note)
          << Noun(Race.FirstKind) << Race.FirstVia->getSourceRange();
    Check.diag(Race.First->getBeginLoc(), "the other thread's %0 is here",
               DiagnosticIDs::Note)
        << Noun(Race.FirstKind) << Race.First->getSourceRange();
    Check.diag(Where->getBeginLoc(), "for example, %0, with blockDim %1%2",
               DiagnosticIDs::Note)
        << Race.Witness << Race.Shape.str()
        << describeShapeOrigin(Race.Shape,
                               Launches.unevaluatedLaunchesOf(Race.Kernel));
    if (Race.CompletedForWaiters)
      Check.diag(Race.First->getBeginLoc(),
                 "the asynchronous copy is in flight until %0 completes; a "
                 "thread sees it once its own wait on that phase returns",
                 DiagnosticIDs::Note)
          << Race.FirstCompletedBy;
    else if (!Race.FirstCompletedBy.empty())
      Check.diag(Race.First->getBeginLoc(),
                 "the asynchronous copy is in flight until %0 completes it; "
                 "only a barrier after that orders it for the other threads",
                 DiagnosticIDs::Note)
          << Race.FirstCompletedBy;
    if (Race.ReusedTempStorage)
      Check.diag(Where->getBeginLoc(),
                 "a CUB block primitive's TempStorage needs a barrier before "
                 "it is used again",
                 DiagnosticIDs::Note);
    if (Race.OtherBlock) {
      Check.diag(Where->getBeginLoc(),
                 "the threads are of two blocks of the cluster: only a "
                 "cluster barrier ('cluster.sync()') orders them, "
                 "'__syncthreads()' orders one block's threads",
                 DiagnosticIDs::Note);
    } else if (Race.WarpSynchronous) {
      Check.diag(Where->getBeginLoc(),
                 "order the lanes with '__syncwarp()' between the accesses",
                 DiagnosticIDs::Note);
    } else if (const Stmt *Before = Race.InsertBarrierBefore) {
      Check.diag(Before->getBeginLoc(),
                 "a barrier is missing before this statement",
                 DiagnosticIDs::Note);
    }
    if (Race.CalledFrom)
      Check.diag(
          Race.CalledFrom->getBeginLoc(),
          "'%0' is analysed as this call runs it, with its arguments and "
          "by every thread of the block",
          DiagnosticIDs::Note)
          << Race.Kernel->getName() << Race.CalledFrom->getSourceRange();
    // Last, as they point away from the kernel.
    noteUnevaluatedLaunches(Check, Launches, Race.Shape, Race.Kernel);
    noteConfirmation(Check, "cuda-shared-memory-race", Where->getBeginLoc(),
                     Context.getSourceManager());
    if (witnessRecordsWanted())
      recordWitness(Race, Where);
  }

  /// The race's witness as data, for a reproducer (WitnessRecord.h).
  void recordWitness(const SharedRace &Race, const Stmt *Where) {
    WitnessRecord R;
    R.Check = "cuda-shared-memory-race";
    R.Where = Where->getBeginLoc();
    R.Kernel = Race.CalledFrom ? enclosingFunction(Race.CalledFrom, Context)
                               : Race.Kernel;
    R.Block = Race.Shape;
    R.Places = {Race.First->getBeginLoc(), Race.Second->getBeginLoc()};
    // threadIdx of each linear id, x fastest, in the witness's shape.
    if (Race.FirstThread >= 0 && Race.SecondThread >= 0)
      for (std::int64_t Linear : {Race.FirstThread, Race.SecondThread})
        R.Threads.push_back({Linear % Race.Shape.Dim[0],
                             Linear / Race.Shape.Dim[0] % Race.Shape.Dim[1],
                             Linear / (Race.Shape.Dim[0] * Race.Shape.Dim[1])});
    R.Expect["tool"] = "racecheck";
    // Witness values of the kernel's own locals the run leaves to it.
    llvm::SmallVector<std::string, 2> KernelValues;
    for (const SharedRace::WitnessValue &V : Race.Values) {
      llvm::StringRef Name = V.Name;
      if (!V.Var && Name.consume_front("blockIdx.") && !Name.empty() &&
          Name[0] >= 'x' && Name[0] <= 'z') {
        std::int64_t &Extent = R.Grid[Name[0] - 'x'];
        Extent = std::max(Extent, V.Number + 1);
        continue;
      }
      const auto *Param = dyn_cast_or_null<ParmVarDecl>(V.Var);
      if (Param && R.Kernel &&
          Param->getDeclContext() == static_cast<const DeclContext *>(R.Kernel))
        R.Values.push_back({Param, V.Number});
      else if (!Param && !Race.Possible && V.Var && V.Var->isLocalVarDecl())
        // A certain race holds for generic values of the unknowns, not
        // only the witness's: a local the kernel computes (a stage
        // counter that its loop advances) takes its own values as the
        // kernel runs, and the run shows whether one of them races.
        KernelValues.push_back(V.Name + " = " + std::to_string(V.Number));
      else if (!Param && R.CannotReproduce.empty())
        R.CannotReproduce = "the witness needs '" + V.Name +
                            "' = " + std::to_string(V.Number) +
                            ", which the kernel computes or reads from "
                            "memory: a launch cannot set it";
    }
    if (!KernelValues.empty())
      R.Expect["kernel-values"] = llvm::join(KernelValues, ", ");
    for (const InputFill &Fill : Race.InputFills)
      R.Fills.push_back({Fill.Param, Fill.Value});
    if (!Race.NeedsData.empty() && Race.InputFills.empty())
      R.CannotReproduce = "the race needs input data with " + Race.NeedsData +
                          ", which deterministic buffers do not hold";
    if (!R.Kernel)
      R.CannotReproduce = "no kernel of this translation unit runs it";
    addLaunchFacts(R, Launches, /*NeedsGrid=*/false);
    writeWitness(R, Context);
  }

  void handleOwnerMayExit(const OwnerMayExit &Finding) override {
    // Once per place, whatever the instance.
    if (!OwnerExitReported.insert(Finding.Access->getExprLoc().getRawEncoding())
             .second)
      return;
    Check.diag(Finding.Access->getExprLoc(),
               "shared '%0' of another block of the cluster is %select{read|"
               "written|updated|atomically updated}1 here, and that block may "
               "have exited by then: no cluster barrier follows this access "
               "before the kernel ends")
        << Finding.Variable->getName() << static_cast<int>(Finding.Kind)
        << Finding.Access->getSourceRange();
    Check.diag(Finding.Access->getExprLoc(),
               "a block's shared memory ends with the block; call "
               "'cluster.sync()' after the last access of another block's "
               "shared memory so that no block of the cluster exits before",
               DiagnosticIDs::Note);
  }

  void handleIncomplete(const FunctionDecl *Kernel,
                        IncompleteReason Reason) override {
    Check.diag(Kernel->getLocation(),
               "kernel '%0' was not fully analysed for shared-memory races: "
               "its analysis passed the budget of %1 work units; raise the "
               "check's 'WorkBudget' option to analyse it fully")
        << Kernel->getName() << Check.WorkBudget;
  }

private:
  SharedMemoryRaceCheck &Check;
  ASTContext &Context;
  llvm::DenseSet<std::pair<const FunctionDecl *, const VarDecl *>>
      WarpSynchronousReported;
  /// The pairs of accesses told so far (first, second).
  llvm::DenseSet<std::pair<const Expr *, const Expr *>> ReportedPairs;
  llvm::DenseSet<unsigned> OwnerExitReported;
  ThreadDependenceAnalysis Dependence;
  size_t Reported = 0;
  AssumedShapes Assumed;
  SharedMemoryRaceAnalysis Races;
};

SharedMemoryRaceCheck::SharedMemoryRaceCheck(StringRef Name,
                                             ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      AssumedBlockSizes(Options, "256", "16,16", "8,8,4"), LaunchIndex(Options),
      ReportPossibleRaces(Options.get("ReportPossibleRaces", false)),
      WorkBudget(Options.get("WorkBudget", DefaultWorkBudget)),
      MaxBlocks(Options.get("MaxBlocks", DefaultMaxBlocks)) {}

SharedMemoryRaceCheck::~SharedMemoryRaceCheck() = default;

void SharedMemoryRaceCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  AssumedBlockSizes.store(Options, Opts);
  LaunchIndex.store(Options, Opts);
  Options.store(Opts, "ReportPossibleRaces", ReportPossibleRaces);
  Options.store(Opts, "WorkBudget", WorkBudget);
  Options.store(Opts, "MaxBlocks", MaxBlocks);
}

void SharedMemoryRaceCheck::registerMatchers(MatchFinder *Finder) {
  LaunchModel::registerMatchers(Finder, this);
}

void SharedMemoryRaceCheck::check(const MatchFinder::MatchResult &Result) {
  if (!State || &State->getContext() != Result.Context) {
    RaceOptions Options;
    Options.ReportPossibleRaces = ReportPossibleRaces;
    Options.WorkBudget = WorkBudget;
    Options.Assumed =
        AssumedBlockSizes.shapes([&](StringRef Option, StringRef Value) {
          configurationDiag("invalid block size '%0' for option '%1'; using "
                            "the default")
              << Value << Option;
        });
    State = std::make_unique<Collector>(*this, *Result.Context, Options);
  }
  State->Launches.collect(Result);
}

void SharedMemoryRaceCheck::onEndOfTranslationUnit() {
  if (State && !LaunchIndex.writeDir().empty()) {
    // The pre-pass: record the launches, analyse nothing.
    if (!State->Launches.writeIndex(LaunchIndex.writeDir()))
      configurationDiag("cannot write the launch index in '%0'")
          << LaunchIndex.writeDir();
  } else if (State) {
    State->analyze(LaunchIndex.index());
  }
  State.reset();
}

} // namespace clang::tidy::cuda_tidy
