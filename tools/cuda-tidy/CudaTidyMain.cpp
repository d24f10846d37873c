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
// Without --checks or --config, only the cuda-* checks run.
//
// For CI: a compile database made for nvcc (`-p DIR`) is rewritten into
// Clang's spelling first (NvccDatabase.h); `--sarif=FILE` also writes the
// diagnostics as SARIF 2.1.0 (Sarif.h). The exit status is clang-tidy's:
// non-zero on errors, and on warnings with `--warnings-as-errors='cuda-*'`.
//
//===----------------------------------------------------------------------===//

#include "NvccDatabase.h"
#include "Sarif.h"
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
#include <optional>
#include <string>
#include <vector>

using namespace llvm;

namespace {

/// The newest CUDA version Clang 22 supports, as CUDA_VERSION spells it.
constexpr unsigned NewestSupportedCuda = 12090;

std::string findPlugin(const char *Argv0) {
  if (std::optional<std::string> Env = sys::Process::GetEnv("CUDA_TIDY_PLUGIN"))
    return *Env;
  std::string Exe =
      sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findPlugin));
  SmallString<256> Path(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Path, "lib", "CudaTidyModule.so");
  return std::string(Path);
}

/// The nvcc compatibility header: <prefix>/share/cuda-tidy/, beside the
/// bin/ directory this command is in.
std::string findCompatHeader(const char *Argv0) {
  std::string Exe =
      sys::fs::getMainExecutable(Argv0, reinterpret_cast<void *>(&findPlugin));
  SmallString<256> Path(sys::path::parent_path(sys::path::parent_path(Exe)));
  sys::path::append(Path, "share", "cuda-tidy", "cuda_tidy_nvcc_compat.h");
  return std::string(Path);
}

std::string findClangTidy() {
  if (std::optional<std::string> Env =
          sys::Process::GetEnv("CUDA_TIDY_CLANG_TIDY"))
    return *Env;
  return CUDA_TIDY_CLANG_TIDY;
}

std::string findCuda() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Env = sys::Process::GetEnv(Var))
      if (sys::fs::is_directory(*Env))
        return *Env;
  return sys::fs::is_directory("/usr/local/cuda") ? "/usr/local/cuda" : "";
}

/// CUDA_VERSION from <cuda>/include/cuda.h, or 0.
unsigned readCudaVersion(StringRef Cuda) {
  SmallString<256> Header(Cuda);
  sys::path::append(Header, "include", "cuda.h");
  auto Buffer = MemoryBuffer::getFile(Header);
  if (!Buffer)
    return 0;
  StringRef Text = (*Buffer)->getBuffer();
  size_t Pos = Text.find("#define CUDA_VERSION ");
  if (Pos == StringRef::npos)
    return 0;
  unsigned Version = 0;
  Text.substr(Pos + strlen("#define CUDA_VERSION "))
      .ltrim()
      .consumeInteger(10, Version);
  return Version;
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

/// Removes `--Name=VALUE` from \p Args and returns VALUE.
std::optional<std::string> takeOption(std::vector<std::string> &Args,
                                      StringRef Name) {
  std::optional<std::string> Value;
  llvm::erase_if(Args, [&](const std::string &Arg) {
    StringRef A(Arg);
    if (!A.consume_front(("--" + Name + "=").str()))
      return false;
    Value = A.str();
    return true;
  });
  return Value;
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
  std::optional<std::string> SarifFile = takeOption(UserArgs, "sarif");

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

  // An nvcc compile database: rewrite it into a temporary directory.
  SmallString<128> TranslatedDir;
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
  if (!Help && !hasOption(UserArgs, "checks") &&
      !hasOption(UserArgs, "config") && !hasOption(UserArgs, "config-file"))
    Args.push_back("--checks=-*,cuda-*");

  std::string Cuda = findCuda();
  if (!Cuda.empty() && !Help) {
    auto Extra = [&](StringRef Flag) {
      Args.push_back(("--extra-arg=" + Flag).str());
    };
    Extra("--cuda-path=" + Cuda);
    if (readCudaVersion(Cuda) > NewestSupportedCuda) {
      Extra("-Xclang");
      Extra("-target-sdk-version=12.9");
    }
    SmallString<256> Cccl(Cuda);
    sys::path::append(Cccl, "include", "cccl");
    if (sys::fs::is_directory(Cccl))
      Extra("-isystem" + std::string(Cccl));
    Extra("-Wno-unknown-cuda-version");
    std::string Compat = findCompatHeader(Argv[0]);
    if (sys::fs::exists(Compat))
      Extra("-include" + Compat);
  }
  Args.insert(Args.end(), UserArgs.begin(), UserArgs.end());

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

  // For SARIF, capture clang-tidy's standard output, then pass it on.
  SmallString<128> Captured;
  std::optional<StringRef> Redirects[3] = {std::nullopt, std::nullopt,
                                           std::nullopt};
  if (SarifFile) {
    if (std::error_code EC =
            sys::fs::createTemporaryFile("cuda-tidy", "txt", Captured)) {
      errs() << "cuda-tidy: error: cannot make a temporary file: "
             << EC.message() << "\n";
      CleanUp();
      return 2;
    }
    Redirects[1] = StringRef(Captured);
  }
  std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
  std::string Error;
  int Status = sys::ExecuteAndWait(ClangTidy, ArgRefs, /*Env=*/std::nullopt,
                                   Redirects, 0, 0, &Error);
  CleanUp();
  if (Status < 0) {
    errs() << "cuda-tidy: error: " << Error << "\n";
    return 2;
  }
  if (SarifFile) {
    auto Output = MemoryBuffer::getFile(Captured);
    sys::fs::remove(Captured);
    if (!Output) {
      errs() << "cuda-tidy: error: cannot read clang-tidy's output\n";
      return 2;
    }
    outs() << (*Output)->getBuffer();
    std::error_code EC;
    raw_fd_ostream Sarif(*SarifFile, EC);
    if (EC) {
      errs() << "cuda-tidy: error: cannot write '" << *SarifFile
             << "': " << EC.message() << "\n";
      return 2;
    }
    Sarif << formatv("{0:2}",
                     cuda_tidy::diagnosticsToSarif((*Output)->getBuffer()))
          << "\n";
  }
  return Status;
}
