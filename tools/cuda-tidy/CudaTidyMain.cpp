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
// records them (Gate.h); `--shard=K/N` analyses one part of the database
// (Shard.h), `--merge-sarif`/`--merge-baseline` combine the parts' files,
// and `--cache-dir=DIR` replays the runs of unchanged units
// (ResultCache.h). The exit status is clang-tidy's: non-zero on errors, and
// on warnings with `--warnings-as-errors='cuda-*'`; 2 when cuda-tidy cannot
// run or its input is bad.
//
// cuda-tidy's own options are llvm::cl options of one category, so that
// `--help` lists them as clang-tidy lists its own, before clang-tidy's
// help; every other word goes to clang-tidy unchanged.
//
//===----------------------------------------------------------------------===//

#include "Config.h"
#include "CudaToolchain.h"
#include "Gate.h"
#include "LaunchIndex.h"
#include "LegacyCuda.h"
#include "Merge.h"
#include "NvccDatabase.h"
#include "ResultCache.h"
#include "Shard.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
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

cl::OptionCategory CudaTidyCategory("cuda-tidy options");

const char Overview[] =
    "clang-tidy with the cuda-* checks loaded and the flags that current CUDA "
    "toolkits need under Clang 22. The options below are cuda-tidy's; every "
    "other word goes to clang-tidy, whose options follow.\n";

cl::opt<std::string>
    BaselineFile("baseline", cl::value_desc("file"), cl::cat(CudaTidyCategory),
                 cl::desc("Drop the findings that this baseline (written by\n"
                          "--write-baseline) knows, matched by check, file,\n"
                          "function and message, not by line; report the\n"
                          "entries that no longer occur."));
cl::opt<std::string> WriteBaselineFile(
    "write-baseline", cl::value_desc("file"), cl::cat(CudaTidyCategory),
    cl::desc("Record the findings as a baseline (JSON), to commit\n"
             "and give to --baseline."));
cl::opt<std::string>
    DiffFile("diff", cl::value_desc("file"), cl::cat(CudaTidyCategory),
             cl::desc("Analyse only the files this unified diff changes\n"
                      "('-' reads standard input; all the database's\n"
                      "files when it changes a header) and keep the\n"
                      "findings on its changed lines."));
cl::opt<std::string>
    SarifFile("sarif", cl::value_desc("file"), cl::cat(CudaTidyCategory),
              cl::desc("Also write the findings as SARIF 2.1.0, for code\n"
                       "scanning."));
cl::opt<std::string>
    JobsText("j", cl::value_desc("n"), cl::Prefix, cl::cat(CudaTidyCategory),
             cl::desc("Run N clang-tidy processes at a time, one per file\n"
                      "(-p DIR with no files analyses every CUDA file of\n"
                      "the database)."));
cl::alias JobsAlias("jobs", cl::aliasopt(JobsText), cl::desc("Alias for -j"));
cl::opt<std::string>
    ShardText("shard", cl::value_desc("k/n"), cl::cat(CudaTidyCategory),
              cl::desc("Analyse the K-th of N parts of the files: a file is\n"
                       "in part 1 + (xxh3_64 of its path relative to the\n"
                       "current directory) mod N. Combine the parts' files\n"
                       "with --merge-sarif and --merge-baseline."));
cl::opt<std::string>
    CacheDir("cache-dir", cl::value_desc("dir"), cl::cat(CudaTidyCategory),
             cl::desc("Keep each file's results in DIR and replay them\n"
                      "while the file, its headers, flags, check options\n"
                      "and cuda-tidy are unchanged (default:\n"
                      "$CUDA_TIDY_CACHE_DIR; none when unset). Clear it\n"
                      "with rm -rf DIR."));
cl::opt<std::string>
    MergeSarif("merge-sarif", cl::value_desc("out"), cl::cat(CudaTidyCategory),
               cl::desc("Write to OUT one SARIF log of the findings of the\n"
                        "SARIF files named after it (the parts of a sharded\n"
                        "run), deduplicated, then exit."));
cl::opt<std::string>
    MergeBaseline("merge-baseline", cl::value_desc("out"),
                  cl::cat(CudaTidyCategory),
                  cl::desc("Write to OUT one baseline of the baselines named\n"
                           "after it, then exit."));
cl::opt<std::string>
    CudaPath("cuda-path", cl::value_desc("dir"), cl::cat(CudaTidyCategory),
             cl::desc("The CUDA toolkit (default: the database's nvcc's,\n"
                      "$CUDA_PATH, $CUDA_HOME, /usr/local/cuda)."));
cl::opt<std::string> ReproDir(
    "repro-dir", cl::value_desc("dir"), cl::cat(CudaTidyCategory),
    cl::desc("Write a reproducer for each finding in DIR/<check>-<file>-\n"
             "<line>-<column>/: repro.cu launches the kernel that\n"
             "warned as its witness says, build.sh builds it with\n"
             "nvcc, run.sh runs it under the tool that shows the\n"
             "fault (exit 0: shown, 1: not, 2: could not run), and\n"
             "finding.json; run them with cuda-tidy-confirm."));
cl::opt<std::string> ConfirmationsFile(
    "confirmations", cl::value_desc("file"), cl::cat(CudaTidyCategory),
    cl::desc("Note under each finding what its reproducer showed, from\n"
             "the confirmations.json cuda-tidy-confirm wrote (also in\n"
             "SARIF, as the result property 'confirmation')."));
cl::opt<bool>
    ShowCommand("cuda-tidy-show-command", cl::cat(CudaTidyCategory),
                cl::desc("Print the clang-tidy command cuda-tidy would run,\n"
                         "then exit."));

/// Whether \p Arg (before any `--`) asks for help or the version.
bool isInformationRequest(StringRef Arg, bool &Version) {
  StringRef Name = Arg;
  if (!Name.consume_front("-"))
    return false;
  Name.consume_front("-");
  Version = Name == "version";
  return Version || Name == "help" || Name == "h" || Name.starts_with("help-");
}

/// Moves cuda-tidy's own options from \p Args (before any `--`, after
/// which the words are the compiler's) to the returned list, each with its
/// value when that is the next word.
std::vector<std::string> takeOwnOptions(std::vector<std::string> &Args) {
  auto &Registered = cl::getRegisteredOptions();
  auto Own = [&](StringRef Name) -> cl::Option * {
    auto Found = Registered.find(Name);
    if (Found != Registered.end() &&
        is_contained(Found->second->Categories, &CudaTidyCategory))
      return Found->second;
    if (Found != Registered.end() && Found->second == &JobsAlias)
      return &JobsAlias;
    return nullptr;
  };
  std::vector<std::string> Taken, Kept;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "--") {
      Kept.insert(Kept.end(), Args.begin() + I, Args.end());
      break;
    }
    StringRef Name = A;
    if (!Name.consume_front("-") || Name.empty()) {
      Kept.push_back(Args[I]);
      continue;
    }
    Name.consume_front("-");
    auto [Flag, Value] = Name.split('=');
    cl::Option *Option = Own(Flag);
    // -jN: -j is the one option whose value may follow without '='.
    bool Joined = Name.contains('=');
    if (!Option && Flag.size() > 1 && Own(Flag.take_front(1)) == &JobsText) {
      Option = &JobsText;
      Joined = true;
    }
    if (!Option) {
      Kept.push_back(Args[I]);
      continue;
    }
    Taken.push_back(Args[I]);
    if (!Joined && Option->getValueExpectedFlag() == cl::ValueRequired &&
        I + 1 < Args.size())
      Taken.push_back(Args[++I]);
  }
  Args = std::move(Kept);
  return Taken;
}

/// Parses cuda-tidy's options \p Own; false after reporting an error.
bool parseOwnOptions(const std::vector<std::string> &Own) {
  std::vector<const char *> Argv = {"cuda-tidy"};
  for (const std::string &Arg : Own)
    Argv.push_back(Arg.c_str());
  std::string Problems;
  raw_string_ostream Errors(Problems);
  if (cl::ParseCommandLineOptions(Argv.size(), Argv.data(), Overview, &Errors))
    return true;
  errs() << Problems;
  return false;
}

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

std::string findClang() {
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_TIDY_CLANG"))
    return *Env;
  return CUDA_TIDY_CLANG;
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

/// The number of workers -j names; 0 when absent, or an error for a value
/// that is not a positive number.
Expected<unsigned> jobs() {
  unsigned Jobs = 0;
  if (JobsText.getNumOccurrences() &&
      (StringRef(JobsText).getAsInteger(10, Jobs) || Jobs == 0))
    return createStringError("-j needs a positive number of workers, not '" +
                             JobsText + "'");
  return Jobs;
}

std::optional<std::string> given(const cl::opt<std::string> &Option) {
  if (!Option.getNumOccurrences())
    return std::nullopt;
  return Option.getValue();
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
  bool Version = false, Information = false;
  for (const std::string &Arg : UserArgs) {
    if (Arg == "--")
      break;
    Information |= isInformationRequest(Arg, Version);
  }
  cl::HideUnrelatedOptions(CudaTidyCategory);
  if (!parseOwnOptions(takeOwnOptions(UserArgs)))
    return 2;
  if (MergeSarif.getNumOccurrences() || MergeBaseline.getNumOccurrences()) {
    if (MergeSarif.getNumOccurrences() && MergeBaseline.getNumOccurrences()) {
      errs() << "cuda-tidy: error: --merge-sarif and --merge-baseline are "
                "separate runs\n";
      return 2;
    }
    Error Merged = MergeSarif.getNumOccurrences()
                       ? cuda_tidy::mergeSarifFiles(MergeSarif, UserArgs)
                       : cuda_tidy::mergeBaselineFiles(MergeBaseline, UserArgs);
    if (!Merged)
      return 0;
    errs() << "cuda-tidy: error: " << toString(std::move(Merged)) << "\n";
    return 2;
  }
  cuda_tidy::GateOptions Gate;
  Gate.Sarif = given(SarifFile);
  Gate.Baseline = given(BaselineFile);
  Gate.WriteBaseline = given(WriteBaselineFile);
  Gate.Diff = given(DiffFile);
  Gate.ReproDir = given(ReproDir);
  Gate.Confirmations = given(ConfirmationsFile);
  std::optional<std::string> UserCuda = given(CudaPath);
  Expected<unsigned> Jobs = jobs();
  if (!Jobs) {
    errs() << "cuda-tidy: error: " << toString(Jobs.takeError()) << "\n";
    return 2;
  }
  Gate.Jobs = std::max(1u, *Jobs);
  if (ShardText.getNumOccurrences()) {
    Expected<cuda_tidy::Shard> Part = cuda_tidy::Shard::parse(ShardText);
    if (!Part) {
      errs() << "cuda-tidy: error: " << toString(Part.takeError()) << "\n";
      return 2;
    }
    Gate.Part = *Part;
  }
  std::optional<std::string> Cache = given(CacheDir);
  if (!Cache)
    Cache = sys::Process::GetEnv("CUDA_TIDY_CACHE_DIR");
  if (Cache && Cache->empty())
    Cache.reset();

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

  if (Information) {
    // cuda-tidy's own help or version first, then clang-tidy's.
    if (Version)
      outs() << "cuda-tidy version " << CUDA_TIDY_VERSION << "\n";
    else
      cl::PrintHelpMessage(/*Hidden=*/false, /*Categorized=*/true);
    outs().flush();
    std::vector<std::string> Words = {ClangTidy, "--load=" + Plugin};
    Words.insert(Words.end(), UserArgs.begin(), UserArgs.end());
    std::vector<StringRef> Args(Words.begin(), Words.end());
    std::string Error;
    int Status =
        sys::ExecuteAndWait(ClangTidy, Args, std::nullopt, {}, 0, 0, &Error);
    if (Status < 0)
      errs() << "cuda-tidy: error: " << Error << "\n";
    return Status < 0 ? 2 : Status;
  }

  if (std::optional<std::string> Problem = misdirectedCudaVariable()) {
    errs() << "cuda-tidy: error: " << *Problem << "\n";
    return 2;
  }

  // An nvcc compile database, or one with flags that would run or write
  // something: rewrite it into a temporary directory.
  SmallString<128> TranslatedDir;
  makeDatabaseSearchExplicit(UserArgs);
  std::optional<std::string> UserDatabaseDir;
  if (auto Found = findDatabaseDir(UserArgs)) {
    auto [Index, Joined] = *Found;
    std::string Dir = Joined
                          ? StringRef(UserArgs[Index]).split('=').second.str()
                          : UserArgs[Index];
    UserDatabaseDir = Dir;
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
  if (!userChoosesChecks(UserArgs))
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
  if (!Cuda.empty()) {
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
      DoubleDash != Args.end() && !Cuda.empty() &&
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
  bool UseGate = Gate.Sarif || Gate.Baseline || Gate.WriteBaseline ||
                 Gate.Diff || *Jobs ||
                 (Split.DatabaseDir && Split.Files.empty()) || Gate.Part ||
                 Cache || Gate.ReproDir || Gate.Confirmations;
  if (Gate.ReproDir) {
    std::vector<std::string> ClangArgs(Split.AfterFiles.begin(),
                                       Split.AfterFiles.end());
    Gate.ReproBuildOf = [UserDatabaseDir, Cuda, ClangArgs](StringRef File) {
      return cuda_tidy::reproBuildFor(File, UserDatabaseDir, Cuda, ClangArgs);
    };
  }
  // Clang reads configuration files from the folder its command line names
  // as the compiler; the compile database names it, and is only read.
  ::setenv("CLANG_NO_DEFAULT_CONFIG", "1", /*overwrite=*/1);
  std::unique_ptr<cuda_tidy::ResultCache> Results;
  if (Cache) {
    auto Opened = cuda_tidy::ResultCache::open(*Cache, ClangTidy, Plugin,
                                               findClang(), Split);
    if (!Opened) {
      errs() << "cuda-tidy: error: " << toString(Opened.takeError()) << "\n";
      CleanUp();
      return 2;
    }
    Results = std::move(*Opened);
    Gate.Cache = Results.get();
  }
  // Every launch in the database first, so that each kernel is analysed
  // with the shapes it is launched with in any file (LaunchIndex.h).
  cuda_tidy::LaunchIndex Launches(Args, Split.DatabaseDir.value_or(""),
                                  Split.Files, Gate.Jobs, Results.get());
  if (Results && !Launches.directory().empty()) {
    Results->readLaunchIndex(Launches.directory());
    errs() << "cuda-tidy: result cache '" << Results->directory()
           << "': launch pre-pass replayed " << Launches.replayed() << " of "
           << Launches.files() << (Launches.files() == 1 ? " file" : " files")
           << "\n";
  }
  int Status;
  if (UseGate) {
    Status = cuda_tidy::runGate(ClangTidy, Split, Gate);
  } else {
    if (Gate.NoteRemovedApis)
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
