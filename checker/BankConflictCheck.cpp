//===--- BankConflictCheck.cpp - cuda-tidy --------------------------------===//

#include "BankConflictCheck.h"
#include "WitnessRecord.h"
#include "analysis/BankConflict.h"
#include "model/LaunchModel.h"
#include "support/SizeLimit.h"
#include "support/Timing.h"
#include "clang/AST/ASTContext.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/Lex/Lexer.h"

using namespace clang::ast_matchers;
using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

class BankConflictCheck::Collector : public BankConflictHandler {
public:
  Collector(BankConflictCheck &Check, ASTContext &Context,
            unsigned MinimumDegree, AssumedShapes Assumed)
      : Launches(Context), Check(Check), Context(Context),
        Dependence(Context, withBlockLimit(Check.MaxBlocks)), Assumed(Assumed),
        Banks(Dependence, *this, MinimumDegree, Assumed) {}

  ASTContext &getContext() const { return Context; }
  LaunchModel Launches;

  void analyze(const ProgramLaunches *Index) {
    Launches.resolve(Index);
    SlowestAnalysis Slowest;
    for (const FunctionDecl *Kernel : Launches.kernels())
      Slowest.time(Kernel, Kernel->getNameAsString(), [&] {
        Banks.analyzeKernel(Kernel,
                            Launches.shapesFor(Kernel, Dependence, Assumed));
      });
    Slowest.report("cuda-bank-conflict");
    reportOversizedBodies(Check, Dependence, "bank conflicts", Reported);
  }

  std::string AssumedText(const BankConflict &C) const {
    std::string Text =
        describeShapeOrigin(C.Shape, Launches.unevaluatedLaunchesOf(C.Kernel));
    if (C.AlsoFor.empty())
      return Text;
    Text.pop_back();
    for (const BlockShape &Other : C.AlsoFor)
      Text += "; also " + Other.str();
    return Text + ")";
  }

  void handleBankConflict(const BankConflict &C) override {
    const char *Verb = C.Kind == AccessKind::Read    ? "reading"
                       : C.Kind == AccessKind::Write ? "writing"
                                                     : "updating";
    const Stmt *Where = C.Via ? static_cast<const Stmt *>(C.Via)
                              : static_cast<const Stmt *>(C.Access);
    std::string Cause;
    if (C.LaneStrideWords)
      Cause = "consecutive lanes are " + std::to_string(*C.LaneStrideWords) +
              (*C.LaneStrideWords == 1 ? " word" : " words") + " apart";
    else
      Cause = "lanes " + std::to_string(C.LaneA) + " and " +
              std::to_string(C.LaneB) + " both use bank " +
              std::to_string(C.WordA % 32) + " (words " +
              std::to_string(C.WordA) + " and " + std::to_string(C.WordB) + ")";
    std::string Name = C.Variable->getName().str();
    Check.diag(Where->getBeginLoc(), "%0-way bank conflict %1 '%2': %3")
        << C.Degree << Verb << Name << Cause << Where->getSourceRange();
    if (C.Via)
      Check.diag(C.Access->getBeginLoc(), "the access is here, inside '%0'",
                 DiagnosticIDs::Note)
          << C.Via->getDirectCallee()->getName() << C.Access->getSourceRange();

    char Predicted[128];
    std::snprintf(Predicted, sizeof(Predicted), "%.1f", C.Wavefronts);
    std::string Shape = C.Shape.str();
    Check.diag(Where->getBeginLoc(),
               "predicted %0 wavefronts per request where %1 would do, with "
               "blockDim %2%3",
               DiagnosticIDs::Note)
        << Predicted << C.Ideal << Shape << AssumedText(C);
    if (!C.GenericValues.empty()) {
      std::string Values, Sample;
      for (const auto &[Name, Value] : C.GenericValues) {
        Values += (Values.empty() ? "'" : ", '") + Name + "'";
        Sample += (Sample.empty() ? "'" : ", '") + Name + "' is " +
                  std::to_string(Value);
      }
      Check.diag(Where->getBeginLoc(),
                 "the degree holds for every value of %0 from 2 to 32768 "
                 "that keeps the access in shared memory (the solver's "
                 "answer); the numbers are where %1",
                 DiagnosticIDs::Note)
          << Values << Sample;
    }
    if (C.IssuedWidth)
      Check.diag(Where->getBeginLoc(),
                 C.UnrolledLoop ? "the compiler unrolls the loop and issues "
                                  "%0 iterations as one %1-byte access per "
                                  "lane"
                                : "the compiler issues %0 neighbouring "
                                  "accesses as one %1-byte access per lane",
                 DiagnosticIDs::Note)
          << C.MergedAccesses << static_cast<unsigned>(C.IssuedWidth);

    SourceLocation Declared = C.Variable->getLocation();
    if (const Expr *Inner = C.PadInnerDimension) {
      // Pad the inner dimension: `[32]` becomes `[32 + 1]`, or `[33]` for a
      // literal. Only where the size is spelled in the declaration's file.
      const SourceManager &SM = Context.getSourceManager();
      CharSourceRange Range = CharSourceRange::getTokenRange(
          SM.getExpansionRange(Inner->getSourceRange()).getAsRange());
      StringRef Text = Lexer::getSourceText(Range, SM, Context.getLangOpts());
      unsigned Value = 0;
      std::string Replacement = !Text.getAsInteger(10, Value)
                                    ? std::to_string(Value + 1)
                                    : (Text + " + 1").str();
      Check.diag(Declared,
                 "'%0' is declared here; padding each row by one element "
                 "makes its accesses conflict-free",
                 DiagnosticIDs::Note)
          << Name;
      // The fix-it goes on a note of its own: clangd turns a note that
      // carries fix-its into a code action and drops it from the related
      // information, and clang-tidy applies it only under --fix-notes, so a
      // memory layout never changes without being asked for.
      if (!Text.empty() && !Declared.isMacroID())
        Check.diag(Range.getBegin(), "pad each row of '%0' by one element",
                   DiagnosticIDs::Note)
            << Name << FixItHint::CreateReplacement(Range, Replacement);
    } else if (C.SuggestPadding &&
               C.Variable->getType()->isIncompleteArrayType()) {
      // A pool: its layout is the indexing, whatever it stands for.
      Check.diag(Declared,
                 "'%0' is declared here; index it so that consecutive lanes "
                 "use different banks: pad each row of a tile by one "
                 "element, swizzle, or address sequentially",
                 DiagnosticIDs::Note)
          << Name;
    } else if (C.SuggestPadding) {
      Check.diag(Declared,
                 "'%0' is declared here; pad each row by one element, or "
                 "swizzle the column index with the row (for example "
                 "'col ^ row')",
                 DiagnosticIDs::Note)
          << Name;
    } else {
      Check.diag(Declared, "'%0' is declared here", DiagnosticIDs::Note)
          << Name;
    }
    // Last, as they point away from the kernel.
    noteUnevaluatedLaunches(Check, Launches, C.Shape, C.Kernel);
    noteConfirmation(Check, "cuda-bank-conflict", Where->getBeginLoc(),
                     Context.getSourceManager());
    if (witnessRecordsWanted())
      recordWitness(C, Where);
  }

  /// The conflict's witness as data, for a reproducer (WitnessRecord.h):
  /// the shape, the solver's sample values, and the wavefronts predicted.
  void recordWitness(const BankConflict &C, const Stmt *Where) {
    WitnessRecord R;
    R.Check = "cuda-bank-conflict";
    R.Where = Where->getBeginLoc();
    R.Kernel = C.Kernel;
    R.Block = C.Shape;
    R.Places = {C.Access->getBeginLoc()};
    for (const auto &[Name, Value] : C.GenericValues)
      for (const ParmVarDecl *Param : C.Kernel->parameters())
        if (Param->getName() == Name)
          R.Values.push_back({Param, Value});
    R.Expect["tool"] = "ncu";
    R.Expect["op"] = C.Kind == AccessKind::Write ? "st" : "ld";
    R.Expect["ideal"] = static_cast<std::int64_t>(C.Ideal);
    R.Expect["wavefronts"] = C.Wavefronts;
    R.Expect["degree"] = static_cast<std::int64_t>(C.Degree);
    addLaunchFacts(R, Launches, /*NeedsGrid=*/false);
    writeWitness(R, Context);
  }

private:
  BankConflictCheck &Check;
  ASTContext &Context;
  ThreadDependenceAnalysis Dependence;
  size_t Reported = 0;
  AssumedShapes Assumed;
  BankConflictAnalysis Banks;
};

BankConflictCheck::BankConflictCheck(StringRef Name, ClangTidyContext *Context)
    : ClangTidyCheck(Name, Context),
      MinimumDegree(Options.get("MinimumDegree", 4U)),
      MaxBlocks(Options.get("MaxBlocks", DefaultMaxBlocks)),
      AssumedBlockSizes(Options, "256", "16,16;32,8;32,32", "8,8,4"),
      LaunchIndex(Options) {}

BankConflictCheck::~BankConflictCheck() = default;

void BankConflictCheck::storeOptions(ClangTidyOptions::OptionMap &Opts) {
  Options.store(Opts, "MinimumDegree", MinimumDegree);
  Options.store(Opts, "MaxBlocks", MaxBlocks);
  AssumedBlockSizes.store(Options, Opts);
  LaunchIndex.store(Options, Opts);
}

void BankConflictCheck::registerMatchers(MatchFinder *Finder) {
  LaunchModel::registerMatchers(Finder, this);
}

void BankConflictCheck::check(const MatchFinder::MatchResult &Result) {
  if (!State || &State->getContext() != Result.Context) {
    AssumedShapes Assumed =
        AssumedBlockSizes.shapes([&](StringRef Option, StringRef Value) {
          configurationDiag("invalid block size '%0' for option '%1'; using "
                            "the default")
              << Value << Option;
        });
    State = std::make_unique<Collector>(*this, *Result.Context, MinimumDegree,
                                        std::move(Assumed));
  }
  State->Launches.collect(Result);
}

void BankConflictCheck::onEndOfTranslationUnit() {
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
