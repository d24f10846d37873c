//===--- DynamicSharedBoundsCheck.cpp - cuda-tidy -------------------------===//

#include "DynamicSharedBoundsCheck.h"
#include "WitnessRecord.h"
#include "analysis/DynamicSharedBounds.h"
#include "model/LaunchModel.h"
#include "support/SizeLimit.h"
#include "support/Timing.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/MapVector.h"

using namespace clang::ast_matchers;
using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

/// Collects the functions that launch kernels while matching; decides at
/// the end of the translation unit, when every kernel body is known.
class DynamicSharedBoundsCheck::Collector : public DynamicSharedHandler {
public:
  Collector(DynamicSharedBoundsCheck &Check, ASTContext &Context,
            bool ReportPossible)
      : Launches(Context), Check(Check), Context(Context),
        Dependence(Context, withBlockLimit(Check.MaxBlocks)),
        Bounds(Dependence, *this, ReportPossible) {}

  ASTContext &getContext() const { return Context; }
  LaunchModel Launches;

  void analyze(const ProgramLaunches *Index) {
    Launches.resolve(Index);
    // Timed per kernel, all its launches together, as the other checks time
    // their functions (the first launch of a kernel also analyses its body).
    llvm::MapVector<const FunctionDecl *, double> PerKernel;
    for (const KernelLaunch *Launch : Launches.byteCountLaunches())
      PerKernel[Launch->Kernel] += SlowestAnalysis::measure(
          [&] { Bounds.analyze(*Launch, Launches.sharedSizeAttributes()); });
    SlowestAnalysis Slowest;
    for (const auto &[Kernel, Seconds] : PerKernel)
      Slowest.record(Kernel, Kernel ? Kernel->getNameAsString() : "launch",
                     Seconds);
    Slowest.report("cuda-dynamic-shared-bounds");
    reportOversizedBodies(Check, Dependence, "dynamic shared memory bounds",
                          Reported);
  }

  void handleProblem(const DynamicSharedProblem &P) override {
    report(P);
    if (const Stmt *Where = warningPlace(P))
      noteConfirmation(Check, "cuda-dynamic-shared-bounds",
                       Where->getBeginLoc(), Context.getSourceManager());
    if (witnessRecordsWanted())
      recordWitness(P);
  }

private:
  /// Where report() puts the warning.
  static const Stmt *warningPlace(const DynamicSharedProblem &P) {
    return P.Launch->HelperCall
               ? static_cast<const Stmt *>(P.Launch->HelperCall)
           : P.Launch->Call ? static_cast<const Stmt *>(P.Launch->Call)
                            : static_cast<const Stmt *>(P.Access);
  }

  /// The problem's witness as data, for a reproducer (WitnessRecord.h): the
  /// launch's block, bytes and arguments.
  void recordWitness(const DynamicSharedProblem &P) {
    const Stmt *Where = warningPlace(P);
    if (!Where)
      return;
    static const char *const Kinds[] = {"overflow", "no-bytes", "above-default",
                                        "above-target"};
    WitnessRecord R;
    R.Check = "cuda-dynamic-shared-bounds";
    R.Where = Where->getBeginLoc();
    R.Kernel = P.Launch->Kernel;
    R.Block = P.What == DynamicSharedProblem::Overflow || !P.Launch->Shape
                  ? P.Shape
                  : *P.Launch->Shape;
    if (P.Access)
      R.Places = {P.Access->getBeginLoc()};
    R.Expect["tool"] = P.What == DynamicSharedProblem::AboveDefault ||
                               P.What == DynamicSharedProblem::AboveTarget
                           ? "launch"
                           : "memcheck";
    R.Expect["problem"] = Kinds[P.What];
    addLaunchFacts(R, Launches, /*NeedsGrid=*/false);
    R.DynamicSharedBytes =
        P.What == DynamicSharedProblem::NoBytes ? 0 : P.Bytes;
    writeWitness(R, Context);
  }

  void report(const DynamicSharedProblem &P) {
    // A launch in another file: the warning goes on the kernel's access
    // and names the launch.
    // A launch inside a helper: the warning goes on the call that hands the
    // helper the kernel, and a note on the launch.
    const Stmt *Call = warningPlace(P);
    if (!Call)
      return;
    std::string Kernel = P.Launch->Kernel->getNameAsString();
    std::string Launched = "launch of '" + Kernel + "'";
    if (P.Launch->Route == LaunchRoute::OtherFile)
      Launched += " in " + P.Launch->From;
    switch (P.What) {
    case DynamicSharedProblem::NoBytes:
      Check.diag(Call->getBeginLoc(),
                 "%2 passes no dynamic shared memory, but '%0' uses '%1'")
          << Kernel << P.Pool->getName() << Launched << Call->getSourceRange();
      noteHelperLaunch(P);
      noteAccess(P, "'%0' is accessed here");
      return;
    case DynamicSharedProblem::AboveDefault:
      Check.diag(Call->getBeginLoc(),
                 "launch of '%0' asks for %1 bytes of dynamic shared memory, "
                 "more than the %2 a launch gets without "
                 "'cudaFuncAttributeMaxDynamicSharedMemorySize': the launch "
                 "fails")
          << Kernel << P.Bytes << P.Limit << Call->getSourceRange();
      noteHelperLaunch(P);
      Check.diag(Call->getBeginLoc(),
                 "call 'cudaFuncSetAttribute(%0, "
                 "cudaFuncAttributeMaxDynamicSharedMemorySize, %1)' before "
                 "the launch",
                 DiagnosticIDs::Note)
          << Kernel << P.Bytes;
      return;
    case DynamicSharedProblem::AboveTarget:
      Check.diag(Call->getBeginLoc(),
                 "launch of '%0' asks for %1 bytes of dynamic shared memory, "
                 "more than a block can have on %2 (%3 bytes)")
          << Kernel << P.Bytes << P.Target << P.Limit << Call->getSourceRange();
      noteHelperLaunch(P);
      return;
    case DynamicSharedProblem::Overflow:
      break;
    }
    if (P.Certain)
      Check.diag(Call->getBeginLoc(),
                 "%4 passes %1 bytes of dynamic shared memory, but '%0' "
                 "reaches %2 bytes of it%3")
          << Kernel << P.Bytes << P.Reach
          << (P.When.empty() ? std::string()
              : P.Solved
                  ? " (when " + P.When +
                        "; too few for every block extent of 2 "
                        "or more, by the solver)"
                  : " (when " + P.When + "; too few for every value tried)")
          << Launched << Call->getSourceRange();
    else
      Check.diag(Call->getBeginLoc(),
                 "%4 may pass too little dynamic shared memory: when %1, it "
                 "passes %2 bytes and '%0' reaches %3")
          << Kernel << P.When << P.Bytes << P.Reach << Launched
          << Call->getSourceRange();
    noteHelperLaunch(P);
    std::string Thread =
        SharedAccessCollector::describeThread(P.Thread, P.Shape);
    Check.diag(P.Access->getBeginLoc(),
               "thread %0 of a %1 block accesses bytes %2 to %3 of the pool "
               "here",
               DiagnosticIDs::Note)
        << Thread << P.Shape.str() << P.AccessBegin << (P.Reach - 1)
        << P.Access->getSourceRange();
    if (P.Via)
      Check.diag(P.Via->getBeginLoc(), "through this call", DiagnosticIDs::Note)
          << P.Via->getSourceRange();
    if (P.Carved && P.Carved->getInit())
      Check.diag(P.Carved->getLocation(), "'%0' is carved out of the pool here",
                 DiagnosticIDs::Note)
          << P.Carved->getName() << P.Carved->getInit()->getSourceRange();
  }

  void noteHelperLaunch(const DynamicSharedProblem &P) {
    if (P.Launch->Route != LaunchRoute::Helper)
      return;
    Check.diag(P.Launch->Call->getBeginLoc(),
               "'%0' is launched here, inside '%1'", DiagnosticIDs::Note)
        << P.Launch->Kernel->getNameAsString()
        << P.Launch->Caller->getNameAsString()
        << P.Launch->Call->getSourceRange();
  }

  void noteAccess(const DynamicSharedProblem &P, const char *Text) {
    if (!P.Access)
      return;
    Check.diag(P.Access->getBeginLoc(), Text, DiagnosticIDs::Note)
        << P.Pool->getName() << P.Access->getSourceRange();
  }

  DynamicSharedBoundsCheck &Check;
  ASTContext &Context;
  ThreadDependenceAnalysis Dependence;
  size_t Reported = 0;
  DynamicSharedBoundsAnalysis Bounds;
};

DynamicSharedBoundsCheck::DynamicSharedBoundsCheck(StringRef Name,
                                                   ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      ReportPossibleOverflows(Options.get("ReportPossibleOverflows", false)),
      MaxBlocks(Options.get("MaxBlocks", DefaultMaxBlocks)),
      LaunchIndex(Options) {}

DynamicSharedBoundsCheck::~DynamicSharedBoundsCheck() = default;

void DynamicSharedBoundsCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "ReportPossibleOverflows", ReportPossibleOverflows);
  Options.store(Opts, "MaxBlocks", MaxBlocks);
  LaunchIndex.store(Options, Opts);
}

void DynamicSharedBoundsCheck::registerMatchers(MatchFinder *Finder) {
  // Host code outside system headers, to find the launches in, and the
  // kernels, for their launches in other files.
  LaunchModel::registerMatchers(Finder, this);
}

void DynamicSharedBoundsCheck::check(const MatchFinder::MatchResult &Result) {
  if (!State || &State->getContext() != Result.Context)
    State = std::make_unique<Collector>(*this, *Result.Context,
                                        ReportPossibleOverflows);
  State->Launches.collect(Result);
}

void DynamicSharedBoundsCheck::onEndOfTranslationUnit() {
  // The launch index's pre-pass analyses nothing.
  if (State && LaunchIndex.writeDir().empty())
    State->analyze(LaunchIndex.index());
  State.reset();
}

} // namespace clang::tidy::cuda_tidy
