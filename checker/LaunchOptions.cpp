//===--- LaunchOptions.cpp - Check options about launches -----------------===//

#include "LaunchOptions.h"
#include "llvm/Support/Process.h"

using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

namespace {

std::optional<BlockShape> parseBlockShape(llvm::StringRef Text) {
  BlockShape Shape;
  Shape.Assumed = true;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  for (unsigned I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, Shape.Dim[I]) || Shape.Dim[I] <= 0)
      return std::nullopt;
  if (Shape.threads() > 1024)
    return std::nullopt;
  return Shape;
}

const char *const AssumedOptionNames[] = {
    "AssumedBlockSize", "AssumedBlockSize2D", "AssumedBlockSize3D"};

std::string optionOrEnvironment(ClangTidyCheck::OptionsView &Options,
                                llvm::StringRef Name, const char *Variable) {
  if (auto Value = Options.getLocalOrGlobal(Name))
    return Value->str();
  return llvm::sys::Process::GetEnv(Variable).value_or("");
}

} // namespace

std::optional<std::vector<BlockShape>> parseBlockShapes(llvm::StringRef Text) {
  std::vector<BlockShape> Shapes;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    auto Shape = parseBlockShape(Part);
    if (!Shape)
      return std::nullopt;
    Shapes.push_back(*Shape);
  }
  if (Shapes.empty())
    return std::nullopt;
  return Shapes;
}

AssumedBlockSizeOptions::AssumedBlockSizeOptions(
    ClangTidyCheck::OptionsView &Options, llvm::StringRef Default1D,
    llvm::StringRef Default2D, llvm::StringRef Default3D)
    : Defaults{Default1D.str(), Default2D.str(), Default3D.str()} {
  for (unsigned I = 0; I < 3; ++I)
    Texts[I] = Options.get(AssumedOptionNames[I], Defaults[I]);
}

void AssumedBlockSizeOptions::store(ClangTidyCheck::OptionsView &Options,
                                    ClangTidyOptions::OptionMap &Opts) const {
  for (unsigned I = 0; I < 3; ++I)
    Options.store(Opts, AssumedOptionNames[I], Texts[I]);
}

AssumedShapes AssumedBlockSizeOptions::shapes(
    llvm::function_ref<void(llvm::StringRef, llvm::StringRef)> Invalid) const {
  AssumedShapes Shapes;
  for (unsigned I = 0; I < 3; ++I) {
    auto Parsed = parseBlockShapes(Texts[I]);
    if (!Parsed) {
      Invalid(AssumedOptionNames[I], Texts[I]);
      Parsed = parseBlockShapes(Defaults[I]);
    }
    Shapes[I] = *Parsed;
  }
  return Shapes;
}

LaunchIndexOptions::LaunchIndexOptions(ClangTidyCheck::OptionsView &Options)
    : ReadDir(optionOrEnvironment(Options, "LaunchIndex",
                                  "CUDA_TIDY_LAUNCH_INDEX")),
      WriteDir(optionOrEnvironment(Options, "WriteLaunchIndex",
                                   "CUDA_TIDY_WRITE_LAUNCH_INDEX")),
      ConfiguredRead(Options.getLocalOrGlobal("LaunchIndex", "")),
      ConfiguredWrite(Options.getLocalOrGlobal("WriteLaunchIndex", "")) {}

void LaunchIndexOptions::store(ClangTidyCheck::OptionsView &Options,
                               ClangTidyOptions::OptionMap &Opts) const {
  // What the configuration says, not the environment's fallback: cuda-tidy
  // passes a new temporary directory in every run, and `--dump-config`,
  // which the result cache hashes, would then differ from run to run.
  Options.store(Opts, "LaunchIndex", ConfiguredRead);
  Options.store(Opts, "WriteLaunchIndex", ConfiguredWrite);
}

const ProgramLaunches *LaunchIndexOptions::index() const {
  return ReadDir.empty() ? nullptr : ProgramLaunches::load(ReadDir);
}

void noteUnevaluatedLaunches(ClangTidyCheck &Check,
                             const clang::cuda_tidy::LaunchModel &Launches,
                             const clang::cuda_tidy::BlockShape &Shape,
                             const FunctionDecl *Kernel) {
  using clang::cuda_tidy::KernelLaunch;
  using clang::cuda_tidy::LaunchRoute;
  if (!Shape.Assumed)
    return;
  unsigned Noted = 0;
  for (const KernelLaunch *L : Launches.unevaluatedLaunchesOf(Kernel)) {
    if (!L->Call || Noted == 3)
      continue;
    ++Noted;
    if (L->Route == LaunchRoute::Helper)
      Check.diag(L->HelperCall->getBeginLoc(),
                 "the block of the launch of '%0' through this call is not a "
                 "constant: %1",
                 DiagnosticIDs::Note)
          << Kernel->getNameAsString() << L->Unresolved;
    else
      Check.diag(L->Call->getBeginLoc(),
                 "the block of this launch of '%0' is not a constant: %1",
                 DiagnosticIDs::Note)
          << Kernel->getNameAsString() << L->Unresolved;
  }
}

} // namespace clang::tidy::cuda_tidy
