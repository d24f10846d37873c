//===--- CudaClangdMain.cpp - clangd with the cuda module linked in -------===//
//
// clangd cannot load clang-tidy plugins, so cuda-clangd is clangd 22 itself
// (Debian's libclangdMain.a, run through clangdMain()) with the `cuda` module
// linked in, plus what `cuda-tidy` adds so that CUDA 13 parses without the
// user teaching it any flag.
//
// How the flags reach clangd. Debian installs clangd's static libraries but
// not its headers, so the only stable interface is clangdMain(argc, argv):
// command-line flags and what clangd reads from files. Of clangd's ways to
// change compile commands, the config system is the one that applies to
// every command it uses: the fallback command for a file with no database
// (clangd has no flag for fallback flags; only an LSP client can send
// them), commands from compile_commands.json or compile_flags.txt found
// above the file, and commands pushed over LSP. So cuda-clangd writes a
// config fragment (`CompileFlags: Add:` with cudaToolchainFlags(), for
// .cu/.cuh files, and `Diagnostics: ClangTidy: Add: cuda-*`) into a private
// copy of the user config file, before the user's own
// ~/.config/clangd/config.yaml (unchanged, so the user's settings win), and
// points XDG_CONFIG_HOME at it for this process, which is where clangd looks
// for the user config on Linux. Project `.clangd` and `.clang-tidy` files
// still apply as in stock clangd, with one difference: clangd applies the
// user config after the project's, so a project's `ClangTidy: Remove:
// cuda-*` does not undo the default; `Diagnostics: Suppress:` does.
//
// An nvcc compile database needs more than added flags: its commands must
// be rewritten (NvccDatabase.h), which config cannot do. The database named
// by --compile-commands-dir, or else the first one clangd would find above
// the directory the editor starts us in (editors start the server in the
// workspace root), is rewritten into a temporary directory and clangd gets
// --compile-commands-dir pointing there, as cuda-tidy does with -p. A
// toolkit that database names (`--cuda-path`, or the toolkit of its nvcc) is
// the one the added flags use, as in cuda-tidy.
//
// Pass: clangd builds one compiler invocation per file and, for a .cu file,
// takes the first job of the driver, the device pass, as clang-tidy does.
// `CompileFlags: Add: [--cuda-host-only]` in a .clangd file picks the host
// pass instead.
//
// Options of our own, taken out before clangd sees the rest:
//   --no-cuda-default-checks   do not add cuda-* to the checks; only
//                              .clang-tidy and .clangd files choose them
//   --cuda-clangd-show-config  print the config fragment and exit
//
//===----------------------------------------------------------------------===//

#include "CudaToolchain.h"
#include "LegacyCuda.h"
#include "NvccDatabase.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Compiler.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace clang::clangd {
// ClangdMain.h is not installed; this is its declaration in clangd 22.
int clangdMain(int Argc, char *Argv[]);
} // namespace clang::clangd

namespace clang::tidy {
// Defined beside the module's registration (checker/CudaTidyModule.cpp).
extern volatile int CudaModuleAnchorSource;
} // namespace clang::tidy

using namespace llvm;

namespace {

// Referring to the anchor keeps the module's registration in the program, as
// ClangTidyForceLinker.h does for clang-tidy's own modules.
[[maybe_unused]] int CudaModuleAnchorDestination =
    clang::tidy::CudaModuleAnchorSource;

/// Removes \p Flag from \p Args and says whether it was there.
bool takeFlag(std::vector<std::string> &Args, StringRef Flag) {
  size_t Before = Args.size();
  llvm::erase_if(Args, [&](const std::string &Arg) {
    return Arg == "-" + Flag.str() || Arg == "--" + Flag.str();
  });
  return Args.size() != Before;
}

/// Where the value of `--compile-commands-dir DIR` (or `=DIR`, one dash or
/// two) is in \p Args, and whether it shares its word with the flag.
std::optional<std::pair<size_t, bool>>
findCompileCommandsDir(const std::vector<std::string> &Args) {
  for (size_t I = 1; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (!A.consume_front("--") && !A.consume_front("-"))
      continue;
    if (A == "compile-commands-dir" && I + 1 < Args.size())
      return std::make_pair(I + 1, false);
    if (A.starts_with("compile-commands-dir="))
      return std::make_pair(I, true);
  }
  return std::nullopt;
}

/// The directory whose compile_commands.json clangd would use for files
/// under \p Start: the nearest ancestor holding one, directly or in build/.
std::optional<std::string> findDatabaseAbove(StringRef Start) {
  for (StringRef Dir = Start; !Dir.empty(); Dir = sys::path::parent_path(Dir))
    for (StringRef Sub : {"", "build"}) {
      SmallString<256> Candidate(Dir);
      sys::path::append(Candidate, Sub);
      SmallString<256> File(Candidate);
      sys::path::append(File, "compile_commands.json");
      if (sys::fs::exists(File))
        return std::string(Candidate);
    }
  return std::nullopt;
}

/// The config fragment, as YAML documents. JSON is YAML, so llvm::json
/// writes it.
std::string configFragment(StringRef Cuda, StringRef Executable,
                           bool DefaultChecks) {
  std::string Text;
  raw_string_ostream OS(Text);
  if (!Cuda.empty()) {
    json::Array Flags;
    for (std::string &Flag : cuda_tidy::cudaToolchainFlags(
             Cuda, cuda_tidy::findCompatHeader(Executable)))
      Flags.push_back(std::move(Flag));
    if (std::string Overlay = cuda_tidy::toolkitOverlay(Cuda);
        !Overlay.empty()) {
      Flags.push_back("-ivfsoverlay");
      Flags.push_back(std::move(Overlay));
    }
    json::Object Fragment{
        {"If", json::Object{{"PathMatch", json::Array{".*\\.cu", ".*\\.cuh"}}}},
        {"CompileFlags", json::Object{{"Add", std::move(Flags)}}}};
    OS << "---\n" << json::Value(std::move(Fragment)) << "\n";
  }
  // clangd runs only the checks it has measured to be fast unless
  // FastCheckFilter says otherwise, and it has never measured ours. Loose
  // runs checks of unknown cost; bench/README.md measures what ours add.
  json::Object ClangTidy{{"FastCheckFilter", "Loose"}};
  if (DefaultChecks)
    ClangTidy["Add"] = json::Array{"cuda-*"};
  OS << "---\n"
     << json::Value(json::Object{
            {"Diagnostics", json::Object{{"ClangTidy", std::move(ClangTidy)}}}})
     << "\n";
  return Text;
}

/// The user's own clangd config file, as clangd would find it.
std::optional<std::string> userConfigFile() {
  SmallString<256> Path;
  if (!sys::path::user_config_directory(Path))
    return std::nullopt;
  sys::path::append(Path, "clangd", "config.yaml");
  return std::string(Path);
}

/// Removes a temporary directory when the program ends normally.
class TemporaryDirectory {
public:
  std::error_code create(StringRef Prefix) {
    return sys::fs::createUniqueDirectory(Prefix, Path);
  }
  ~TemporaryDirectory() {
    if (!Path.empty())
      sys::fs::remove_directories(Path);
  }
  StringRef path() const { return Path; }

private:
  SmallString<128> Path;
};

int fail(const Twine &Message) {
  errs() << "cuda-clangd: error: " << Message << "\n";
  return 2;
}

} // namespace

int main(int Argc, char **Argv) {
  std::vector<std::string> Args(Argv, Argv + Argc);
  bool DefaultChecks = !takeFlag(Args, "no-cuda-default-checks");
  bool ShowConfig = takeFlag(Args, "cuda-clangd-show-config");
  std::string Executable = sys::fs::getMainExecutable(
      Argv[0], reinterpret_cast<void *>(&configFragment));

  // An nvcc database: clangd reads its translation instead.
  auto DirArg = findCompileCommandsDir(Args);
  std::optional<std::string> DatabaseDir;
  if (DirArg) {
    auto [Index, Joined] = *DirArg;
    DatabaseDir =
        Joined ? StringRef(Args[Index]).split('=').second.str() : Args[Index];
  } else {
    SmallString<256> Cwd;
    if (!sys::fs::current_path(Cwd))
      DatabaseDir = findDatabaseAbove(Cwd);
  }
  TemporaryDirectory Translated;
  bool IsTranslated = false;
  if (DatabaseDir) {
    if (std::error_code EC = Translated.create("cuda-clangd-db"))
      return fail("cannot make a temporary directory: " + EC.message());
    Expected<bool> Done =
        cuda_tidy::translateDatabase(*DatabaseDir, Translated.path());
    if (!Done)
      return fail(toString(Done.takeError()));
    if (*Done) {
      IsTranslated = true;
      std::string Dir = Translated.path().str();
      if (!DirArg)
        Args.push_back("--compile-commands-dir=" + Dir);
      else if (DirArg->second)
        Args[DirArg->first] = "--compile-commands-dir=" + Dir;
      else
        Args[DirArg->first] = Dir;
    }
  }

  // The toolkit the database names wins, as in cuda-tidy (LegacyCuda.h):
  // flags added after a command's own --cuda-path would override it.
  std::optional<std::string> Cuda;
  if (DatabaseDir)
    Cuda = cuda_tidy::namedToolkit({}, IsTranslated ? Translated.path()
                                                    : StringRef(*DatabaseDir));
  std::string Fragment = configFragment(Cuda ? *Cuda : cuda_tidy::findCuda(),
                                        Executable, DefaultChecks);
  if (ShowConfig) {
    outs() << Fragment;
    return 0;
  }

  // The user config file clangd will read: ours, then the user's own.
  TemporaryDirectory ConfigHome;
  if (std::error_code EC = ConfigHome.create("cuda-clangd-config"))
    return fail("cannot make a temporary directory: " + EC.message());
  std::string UserConfig;
  if (std::optional<std::string> Own = userConfigFile())
    if (auto Buffer = MemoryBuffer::getFile(*Own))
      UserConfig = (*Buffer)->getBuffer().str();
  SmallString<256> ConfigFile(ConfigHome.path());
  sys::path::append(ConfigFile, "clangd");
  if (std::error_code EC = sys::fs::create_directories(ConfigFile))
    return fail("cannot make '" + ConfigFile + "': " + EC.message());
  sys::path::append(ConfigFile, "config.yaml");
  {
    std::error_code EC;
    raw_fd_ostream Out(ConfigFile, EC);
    if (EC)
      return fail("cannot write '" + ConfigFile + "': " + EC.message());
    // Later fragments win: the user's own settings override ours.
    Out << Fragment;
    StringRef Own = StringRef(UserConfig).trim();
    if (!Own.empty())
      Out << (Own.starts_with("---") ? "" : "---\n") << UserConfig;
  }
  setenv("XDG_CONFIG_HOME", std::string(ConfigHome.path()).c_str(),
         /*overwrite=*/1);

  // clangd looks for Clang's own headers (the CUDA wrappers among them)
  // beside its executable, which for a build tree is the wrong place: point it
  // at the resource directory of the Clang it was built with.
  if (llvm::none_of(
          Args, [](StringRef Arg) { return Arg.contains("-resource-dir"); }) &&
      sys::fs::is_directory(CUDA_CLANGD_RESOURCE_DIR))
    Args.push_back("--resource-dir=" CUDA_CLANGD_RESOURCE_DIR);

  std::vector<char *> ClangdArgv;
  for (std::string &Arg : Args)
    ClangdArgv.push_back(Arg.data());
  ClangdArgv.push_back(nullptr);
  return clang::clangd::clangdMain(static_cast<int>(Args.size()),
                                   ClangdArgv.data());
}
