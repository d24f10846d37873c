//===--- CudaTidyMain.cpp - the cuda-tidy command -------------------------===//
//
// Runs clang-tidy with the cuda module loaded and with the flags that make
// current CUDA toolkits parse under Clang 22:
//
//  * `-Xclang -target-sdk-version=12.9` when the toolkit is newer than 12.9.
//    Clang's driver gives the device pass no SDK version, so Sema falls back
//    to the pre-9.2 launch API and every `<<<...>>>` fails with "use of
//    undeclared identifier cudaConfigureCall". 12.9 is the newest version
//    Clang 22 knows; its launch API is the one CUDA 13 uses.
//  * `-isystem <cuda>/include/cccl` when it exists: CUDA 13 moved thrust, cub
//    and libcu++ there, and cooperative_groups.h needs it.
//  * `-Wno-unknown-cuda-version`: the "newer than supported" warning says
//    nothing about the user's code.
//  * `-include <prefix>/share/cuda-tidy/cuda_tidy_nvcc_compat.h`: what
//    nvcc's headers give that Clang's do not (host twins of min/max, the
//    host math and time headers, cache-hinted loads and stores); see the
//    header.
//
// Unless --checks or a configuration that names Checks is given, only the
// cuda-* checks run (Config.h).
//
// For CI: a compile database made for nvcc (`-p DIR`) is rewritten into
// Clang's spelling first (NvccDatabase.h), and the launches of its files are
// collected before the run (LaunchIndex.h). With no files, `-p DIR` analyses
// every CUDA file of the database, on `-j N` workers; `--sarif=FILE` also
// writes the findings as SARIF 2.1.0, `--diff=FILE` keeps those on changed
// lines, `--baseline=FILE` drops known ones and `--write-baseline=FILE`
// records them (Gate.h). The exit status is clang-tidy's: non-zero on
// errors, and on warnings with `--warnings-as-errors='cuda-*'`; 2 when
// cuda-tidy cannot run or its input is bad.
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "CudaToolchain.h"
#include "Gate.h"
#include "LaunchIndex.h"
#include "LegacyCuda.h"
#include "NvccDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace {

std::string findPlugin(const char *Argv0) {
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_TIDY_PLUGIN"))
    return *Env;
  std::string Exe =
      sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findPlugin));
  SmallString<256> Path(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Path, "lib", "CudaTidyModule.so");
  return std::string(Path);
}

std::string findClangTidy() {
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("CUDA_TIDY_CLANG_TIDY"))
    return *Env;
  return CUDA_TIDY_CLANG_TIDY;
}

/// A CUDA_PATH or CUDA_HOME naming no folder, which is a mistake to report
/// rather than pass over for /usr/local/cuda.
std::optional<std::string> misdirectedCudaVariable() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Env = sys::Process::GetEnv(Var))
      if (!Env->empty() && !sys::fs::is_directory(*Env))
        return std::string(Var) + " is '" + *Env + "', which is not a folder";
  return std::nullopt;
}

bool hasOption(ArrayRef<std::string> Args, StringRef Name) {
  for (const std::string &Arg : Args) {
    if (Arg == "--")
      break;
    StringRef A(Arg);
    if (A.consume_front("--") || A.consume_front("-"))
      if (A == Name || A.starts_with((Name + "=").str()))
        return true;
  }
  return false;
}

} // namespace

namespace {

/// Removes `--Name=VALUE` from \p Args (before any `--`, after which the
/// words are the compiler's) and returns VALUE.
std::optional<std::string> takeOption(std::vector<std::string> &Args,
                                      StringRef Name) {
  std::optional<std::string> Value;
  auto CompilerArgs = llvm::find(Args, "--");
  auto Kept =
      std::remove_if(Args.begin(), CompilerArgs, [&](const std::string &Arg) {
        StringRef A(Arg);
        if (!A.consume_front(("--" + Name + "=").str()))
          return false;
        Value = A.str();
        return true;
      });
  Args.erase(Kept, CompilerArgs);
  return Value;
}

/// Removes `-j N`, `-jN` and `--jobs=N` from \p Args; the last N, 0 when
/// absent, or an error for a value that is not a positive number.
Expected<unsigned> takeJobs(std::vector<std::string> &Args) {
  unsigned Jobs = 0;
  std::vector<std::string> Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "--") {
      Kept.insert(Kept.end(), Args.begin() + I, Args.end());
      break;
    }
    StringRef Value;
    if ((A == "-j" || A == "--jobs" || A == "-jobs") && I + 1 < Args.size())
      Value = Args[++I];
    else if (!A.consume_front("--jobs=") && !A.consume_front("-j")) {
      Kept.push_back(Args[I]);
      continue;
    } else
      Value = A;
    if (Value.getAsInteger(10, Jobs) || Jobs == 0)
      return createStringError("-j needs a positive number of workers, not '" +
                               Value.str() + "'");
  }
  Args = std::move(Kept);
  return Jobs;
}

/// Whether the user chose the checks: --checks, or a --config or
/// --config-file that names Checks.
bool userChoosesChecks(ArrayRef<std::string> Args) {
  if (hasOption(Args, "checks"))
    return true;
  for (const std::string &Arg : Args) {
    StringRef A(Arg);
    if (A == "--")
      break;
    A = A.ltrim('-');
    if (A.consume_front("config=") && cuda_tidy::configNamesChecks(A))
      return true;
    if (A.consume_front("config-file=")) {
      auto Buffer = MemoryBuffer::getFile(A);
      // An unreadable file is clang-tidy's to report; leave the checks alone.
      if (!Buffer || cuda_tidy::configNamesChecks((*Buffer)->getBuffer()))
        return true;
    }
  }
  return false;
}

/// The index of the value of `-p DIR` (or `-p=DIR`, `--p=DIR`) in \p Args,
/// and whether it shares its word with the flag.
std::optional<std::pair<size_t, bool>>
findDatabaseDir(const std::vector<std::string> &Args) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "--")
      break;
    if ((A == "-p" || A == "--p") && I + 1 < Args.size())
      return std::make_pair(I + 1, false);
    if (A.starts_with("-p=") || A.starts_with("--p="))
      return std::make_pair(I, true);
  }
  return std::nullopt;
}

/// Without -p and without `--`, clang-tidy looks for a compile database
/// from the folder of the first source file. Names that folder with -p, so
/// that the database found from there is read like one given with -p.
void makeDatabaseSearchExplicit(std::vector<std::string> &Args) {
  if (findDatabaseDir(Args) || llvm::is_contained(Args, "--"))
    return;
  for (const std::string &Arg : Args) {
    if (StringRef(Arg).starts_with("-") || !sys::fs::is_regular_file(Arg))
      continue;
    SmallString<256> Folder(Arg);
    sys::fs::make_absolute(Folder);
    sys::path::remove_filename(Folder);
    Args.insert(Args.begin(), {"-p", std::string(Folder)});
    return;
  }
}

} // namespace

int main(int Argc, const char **Argv) {
  std::vector<std::string> UserArgs(Argv + 1, Argv + Argc);
  bool ShowCommand = false;
  llvm::erase_if(UserArgs, [&](const std::string &Arg) {
    if (Arg != "--cuda-tidy-show-command")
      return false;
    ShowCommand = true;
    return true;
  });
  cuda_tidy::GateOptions Gate;
  Gate.Sarif = takeOption(UserArgs, "sarif");
  Gate.Baseline = takeOption(UserArgs, "baseline");
  Gate.WriteBaseline = takeOption(UserArgs, "write-baseline");
  Gate.Diff = takeOption(UserArgs, "diff");
  std::optional<std::string> UserCuda = takeOption(UserArgs, "cuda-path");
  Expected<unsigned> Jobs = takeJobs(UserArgs);
  if (!Jobs) {
    errs() << "cuda-tidy: error: " << toString(Jobs.takeError()) << "\n";
    return 2;
  }
  Gate.Jobs = std::max(1u, *Jobs);

  std::string Plugin = findPlugin(Argv[0]);
  if (!sys::fs::exists(Plugin)) {
    errs() << "cuda-tidy: error: the plugin is not at '" << Plugin
           << "'; set CUDA_TIDY_PLUGIN to its path\n";
    return 2;
  }
  std::string ClangTidy = findClangTidy();
  if (!sys::fs::can_execute(ClangTidy)) {
    errs() << "cuda-tidy: error: cannot run clang-tidy at '" << ClangTidy
           << "'; set CUDA_TIDY_CLANG_TIDY to its path\n";
    return 2;
  }

  if (std::optional<std::string> Problem = misdirectedCudaVariable()) {
    errs() << "cuda-tidy: error: " << *Problem << "\n";
    return 2;
  }

  // An nvcc compile database, or one with flags that would run or write
  // something: rewrite it into a temporary directory.
  SmallString<128> TranslatedDir;
  makeDatabaseSearchExplicit(UserArgs);
  if (auto Found = findDatabaseDir(UserArgs)) {
    auto [Index, Joined] = *Found;
    std::string Dir = Joined
                          ? StringRef(UserArgs[Index]).split('=').second.str()
                          : UserArgs[Index];
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("cuda-tidy-db", TranslatedDir)) {
      errs() << "cuda-tidy: error: cannot make a temporary directory: "
             << EC.message() << "\n";
      return 2;
    }
    Expected<bool> Translated =
        cuda_tidy::translateDatabase(Dir, TranslatedDir);
    if (!Translated) {
      errs() << "cuda-tidy: error: " << toString(Translated.takeError())
             << "\n";
      sys::fs::remove_directories(TranslatedDir);
      return 2;
    }
    if (*Translated)
      UserArgs[Index] = Joined ? "-p=" + TranslatedDir.str().str()
                               : TranslatedDir.str().str();
    else {
      sys::fs::remove_directories(TranslatedDir);
      TranslatedDir.clear();
    }
  }

  std::vector<std::string> Args = {ClangTidy, "--load=" + Plugin};
  bool Help = hasOption(UserArgs, "help") || hasOption(UserArgs, "version");
  if (!Help && !userChoosesChecks(UserArgs))
    Args.push_back("--checks=-*,cuda-*");

  // A toolkit the user or the database names wins (LegacyCuda.h).
  std::optional<std::string> DatabaseDir;
  if (auto Found = findDatabaseDir(UserArgs))
    DatabaseDir =
        Found->second
            ? StringRef(UserArgs[Found->first]).split('=').second.str()
            : UserArgs[Found->first];
  std::optional<std::string> NamedCuda =
      UserCuda ? UserCuda : cuda_tidy::namedToolkit(UserArgs, DatabaseDir);
  std::string Cuda = NamedCuda ? *NamedCuda : cuda_tidy::findCuda();
  Gate.NoteRemovedApis = cuda_tidy::readCudaVersion(Cuda) >= 13000;
  if (!Cuda.empty() && !Help) {
    std::string Exe = sys::fs::getMainExecutable(
        Argv[0], reinterpret_cast<void *>(&findPlugin));
    for (const std::string &Flag :
         cuda_tidy::cudaToolchainFlags(Cuda, cuda_tidy::findCompatHeader(Exe)))
      Args.push_back("--extra-arg=" + Flag);
    // clang-tidy takes one overlay; one the user names wins.
    if (!hasOption(UserArgs, "vfsoverlay"))
      if (std::string Overlay = cuda_tidy::toolkitOverlay(Cuda);
          !Overlay.empty())
        Args.push_back("--vfsoverlay=" + Overlay);
  }
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());
  // A command after `--` that names no GPU architecture compiles for the
  // toolkit's default, as nvcc would (a database's nvcc commands get it in
  // their translation, NvccDatabase.h).
  if (auto DoubleDash = llvm::find(Args, "--");
      DoubleDash != Args.end() && !Cuda.empty() && !Help &&
      !cuda_tidy::namesGpuArch(
          ArrayRef<std::string>(Args).drop_front(DoubleDash - Args.begin()))) {
    std::string Arch = cuda_tidy::defaultGpuArch(Cuda);
    if (!Arch.empty())
      Args.push_back("--cuda-gpu-arch=" + Arch);
  }

  auto CleanUp = [&] {
    if (!TranslatedDir.empty())
      sys::fs::remove_directories(TranslatedDir);
  };
  if (ShowCommand) {
    for (const std::string &Arg : Args)
      outs() << Arg << " ";
    outs() << "\n";
    CleanUp();
    return 0;
  }

  cuda_tidy::SplitCommand Split =
      cuda_tidy::splitCommand(ArrayRef<std::string>(Args).drop_front());
  // Every launch in the database first, so that each kernel is analysed
  // with the shapes it is launched with in any file (LaunchIndex.h).
  cuda_tidy::LaunchIndex Launches(
      Args, Help ? "" : Split.DatabaseDir.value_or(""), Split.Files);
  bool UseGate = Gate.Sarif || Gate.Baseline || Gate.WriteBaseline ||
                 Gate.Diff || *Jobs ||
                 (Split.DatabaseDir && Split.Files.empty() && !Help);
  // Clang reads configuration files from the folder its command line names
  // as the compiler; the compile database names it, and is only read.
  ::setenv("CLANG_NO_DEFAULT_CONFIG", "1", /*overwrite=*/1);
  int Status;
  if (UseGate) {
    Status = cuda_tidy::runGate(ClangTidy, Split, Gate);
  } else {
    if (Gate.NoteRemovedApis && !Help)
      for (const std::string &File : Split.Files)
        cuda_tidy::noteRemovedApis(File);
    std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
    std::string Error;
    Status = sys::ExecuteAndWait(ClangTidy, ArgRefs, /*Env=*/std::nullopt, {},
                                 0, 0, &Error);
    if (Status == -2)
      // A crash of Clang itself (its stack dump is above), never a verdict.
      errs() << "cuda-tidy: error: clang-tidy crashed: " << Error << "\n";
    else if (Status < 0)
      errs() << "cuda-tidy: error: " << Error << "\n";
    if (Status < 0)
      Status = 2;
  }
  CleanUp();
  return Status;
}
