//===--- NvccDatabase.cpp - nvcc compile commands for clang-tidy ----------===//

#include "NvccDatabase.h"
#include "CudaToolchain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>

using namespace llvm;

namespace cuda_tidy {

namespace {

/// nvcc flags that take the next word as their value, and mean nothing for
/// analysis.
const StringSet<> DroppedWithValue = {"-ccbin",
                                      "--compiler-bindir",
                                      "-Xptxas",
                                      "--ptxas-options",
                                      "-Xlinker",
                                      "--linker-options",
                                      "-Xnvlink",
                                      "--nvlink-options",
                                      "-Xcudafe",
                                      "-Xarchive",
                                      "--archive-options",
                                      "--threads",
                                      "-t",
                                      "-maxrregcount",
                                      "--maxrregcount",
                                      "--diag-suppress",
                                      "-diag-suppress",
                                      "--split-compile",
                                      "-time",
                                      "-cudart",
                                      "--cudart",
                                      "-Werror",
                                      "--Werror",
                                      "-rdc",
                                      "--relocatable-device-code",
                                      "--resource-usage-file",
                                      "-Xfatbin",
                                      "--fatbin-options",
                                      "--output-directory",
                                      "-odir"};

/// nvcc flags with no value that mean nothing for analysis.
const StringSet<> Dropped = {"-G",
                             "--device-debug",
                             "-lineinfo",
                             "--generate-line-info",
                             "--use_fast_math",
                             "-use_fast_math",
                             "--expt-relaxed-constexpr",
                             "-expt-relaxed-constexpr",
                             "--expt-extended-lambda",
                             "-expt-extended-lambda",
                             "--extended-lambda",
                             "-extended-lambda",
                             "--keep",
                             "-keep",
                             "--resource-usage",
                             "-res-usage",
                             "--forward-unknown-to-host-compiler",
                             "-forward-unknown-to-host-compiler",
                             "--forward-unknown-to-host-linker",
                             "--display-error-number",
                             "--no-display-error-number",
                             "-src-in-ptx",
                             "--restrict",
                             "-restrict",
                             "-dlto",
                             "-dlink",
                             "--use-local-env",
                             "-Wno-deprecated-gpu-targets",
                             "--Wno-deprecated-gpu-targets",
                             "-Wno-deprecated-declarations",
                             "--allow-unsupported-compiler",
                             "-allow-unsupported-compiler",
                             "--static-global-template-stub=true",
                             "--static-global-template-stub=false"};

/// Flags passed on as they are, with their value in the next word.
const StringSet<> KeptWithValue = {"-I",       "-isystem", "-D",        "-U",
                                   "-include", "-o",       "-MF",       "-MT",
                                   "-MQ",      "-iquote",  "-idirafter"};

/// "compute_90a" and "sm_90a" both give "sm_90a"; "native" or "all" none.
std::optional<std::string> smOf(StringRef Arch) {
  Arch = Arch.trim();
  if (Arch.consume_front("compute_") || Arch.consume_front("sm_") ||
      Arch.consume_front("lto_"))
    return ("sm_" + Arch).str();
  return std::nullopt;
}

/// The sm_ of a -gencode value: "arch=compute_90,code=[sm_90,compute_90]".
std::optional<std::string> smOfGencode(StringRef Value) {
  std::optional<std::string> FromArch;
  SmallVector<StringRef, 4> Parts;
  Value.split(Parts, ',');
  for (StringRef Part : Parts) {
    Part = Part.trim().trim("[]\"'");
    if (Part.consume_front("code="))
      Part = Part.trim("[]\"'");
    else if (Part.consume_front("arch=")) {
      FromArch = smOf(Part);
      continue;
    }
    if (Part.starts_with("sm_"))
      return smOf(Part);
  }
  return FromArch;
}

/// Whether a host-compiler flag from -Xcompiler means something to Clang.
bool keepHostFlag(StringRef Flag) {
  return Flag.starts_with("-D") || Flag.starts_with("-U") ||
         Flag.starts_with("-I") || Flag.starts_with("-std=") ||
         Flag.starts_with("-f") || Flag.starts_with("-W") ||
         Flag.starts_with("-m") || Flag == "-pthread";
}

class Translator {
public:
  explicit Translator(StringRef Directory) : Directory(Directory) {}

  void translate(ArrayRef<std::string> Args, unsigned Depth = 0);
  /// The translated arguments; \p DefaultArch stands for an architecture
  /// the command does not name (none when empty).
  std::vector<std::string> finish(StringRef DefaultArch) {
    if (Arch)
      Out.push_back("--cuda-gpu-arch=" + *Arch);
    else if (!DefaultArch.empty())
      Out.push_back("--cuda-gpu-arch=" + DefaultArch.str());
    return std::move(Out);
  }

private:
  /// The value of `--flag=value` or of `--flag value`.
  std::optional<std::string> valueOf(StringRef Arg, StringRef Flag,
                                     ArrayRef<std::string> Args, size_t &I) {
    if (Arg == Flag)
      return I + 1 < Args.size() ? std::optional<std::string>(Args[++I])
                                 : std::nullopt;
    if (Arg.consume_front(Flag) && Arg.consume_front("="))
      return Arg.str();
    return std::nullopt;
  }
  void setArch(std::optional<std::string> Sm) {
    if (!Arch && Sm)
      Arch = std::move(Sm);
  }
  void readOptionsFile(StringRef File, unsigned Depth);

  StringRef Directory;
  std::vector<std::string> Out;
  std::optional<std::string> Arch;
  BumpPtrAllocator Allocator;
};

void Translator::readOptionsFile(StringRef File, unsigned Depth) {
  SmallString<256> Path(File);
  if (!sys::path::is_absolute(Path)) {
    Path = Directory;
    sys::path::append(Path, File);
  }
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer || Depth > 4)
    return;
  StringSaver Saver(Allocator);
  SmallVector<const char *, 32> Words;
  cl::TokenizeGNUCommandLine((*Buffer)->getBuffer(), Saver, Words);
  std::vector<std::string> Args(Words.begin(), Words.end());
  translate(Args, Depth + 1);
}

void Translator::translate(ArrayRef<std::string> Args, unsigned Depth) {
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef Arg = Args[I];
    if (auto V = valueOf(Arg, "-x", Args, I)) {
      Out.push_back("-x");
      Out.push_back(*V == "cu" ? "cuda" : *V);
      continue;
    }
    if (auto V = valueOf(Arg, "-arch", Args, I)) {
      setArch(smOf(*V));
      continue;
    }
    if (auto V = valueOf(Arg, "--gpu-architecture", Args, I)) {
      setArch(smOf(*V));
      continue;
    }
    if (auto V = valueOf(Arg, "-code", Args, I)) {
      setArch(smOf(StringRef(*V).split(',').first));
      continue;
    }
    if (auto V = valueOf(Arg, "--gpu-code", Args, I)) {
      setArch(smOf(StringRef(*V).split(',').first));
      continue;
    }
    if (auto V = valueOf(Arg, "-gencode", Args, I)) {
      setArch(smOfGencode(*V));
      continue;
    }
    if (auto V = valueOf(Arg, "--generate-code", Args, I)) {
      setArch(smOfGencode(*V));
      continue;
    }
    std::optional<std::string> Host = valueOf(Arg, "-Xcompiler", Args, I);
    if (!Host)
      Host = valueOf(Arg, "--compiler-options", Args, I);
    if (Host) {
      SmallVector<StringRef, 4> Flags;
      StringRef(*Host).split(Flags, ',', -1, /*KeepEmpty=*/false);
      for (StringRef Flag : Flags)
        if (keepHostFlag(Flag.trim()))
          Out.push_back(Flag.trim().str());
      continue;
    }
    std::optional<std::string> File = valueOf(Arg, "--options-file", Args, I);
    if (!File)
      File = valueOf(Arg, "-optf", Args, I);
    if (File) {
      readOptionsFile(*File, Depth);
      continue;
    }
    if (Arg == "-rdc=true" || Arg == "--relocatable-device-code=true" ||
        ((Arg == "-rdc" || Arg == "--relocatable-device-code") &&
         I + 1 < Args.size() && Args[I + 1] == "true")) {
      if (!Arg.contains('='))
        ++I;
      Out.push_back("-fgpu-rdc");
      continue;
    }
    if (Arg == "-dc" || Arg == "--device-c" || Arg == "-dw" ||
        Arg == "--device-w") {
      Out.push_back("-fgpu-rdc");
      Out.push_back("-c");
      continue;
    }
    if (auto V = valueOf(Arg, "--default-stream", Args, I)) {
      if (*V == "per-thread")
        Out.push_back("-fgpu-default-stream=per-thread");
      continue;
    }
    if (auto V = valueOf(Arg, "--std", Args, I)) {
      Out.push_back("-std=" + *V);
      continue;
    }
    if (DroppedWithValue.contains(Arg)) {
      ++I;
      continue;
    }
    if (Dropped.contains(Arg) || Arg.starts_with("--ptxas-options=") ||
        Arg.starts_with("-maxrregcount=") ||
        Arg.starts_with("--maxrregcount=") ||
        Arg.starts_with("--diag-suppress=") ||
        Arg.starts_with("-diag-suppress=") || Arg.starts_with("-ftz=") ||
        Arg.starts_with("-prec-div=") || Arg.starts_with("-prec-sqrt=") ||
        Arg.starts_with("-fmad=") || Arg.starts_with("--ftz=") ||
        Arg.starts_with("--prec-div=") || Arg.starts_with("--prec-sqrt=") ||
        Arg.starts_with("--fmad=") || Arg.starts_with("-Xcudafe=") ||
        Arg.starts_with("--threads=") || Arg.starts_with("-ccbin=") ||
        Arg.starts_with("--compiler-bindir=") || Arg.starts_with("--Werror=") ||
        Arg.starts_with("-Werror=all-") || Arg.starts_with("-cudart=") ||
        Arg.starts_with("--cudart="))
      continue;
    if (KeptWithValue.contains(Arg)) {
      Out.push_back(Arg.str());
      if (I + 1 < Args.size())
        Out.push_back(Args[++I]);
      continue;
    }
    // Files, and the flags GCC and Clang share.
    if (!Arg.starts_with("-") || Arg.starts_with("-I") ||
        Arg.starts_with("-D") || Arg.starts_with("-U") ||
        Arg.starts_with("-isystem") || Arg.starts_with("-std=") ||
        Arg.starts_with("-O") || Arg.starts_with("-g") ||
        Arg.starts_with("-W") || Arg.starts_with("-f") ||
        Arg.starts_with("-m") || Arg == "-c" || Arg == "-MD" || Arg == "-MMD" ||
        Arg == "-pthread")
      Out.push_back(Arg.str());
    // Anything else is an nvcc flag Clang would reject: left out.
  }
}

/// Whether a `native` GPU architecture is asked for: the driver runs a
/// probe program to resolve it.
bool asksForNativeArch(StringRef Arg) {
  for (StringRef Flag : {"--offload-arch=", "-offload-arch=",
                         "--cuda-gpu-arch=", "--no-offload-arch="})
    if (Arg.consume_front(Flag))
      return Arg.contains("native");
  return false;
}

/// Flags that name a program for the driver to run, a file for it to write,
/// or options it passes on unchecked; see withoutUnsafeFlags.
bool isUnsafeFlag(StringRef Arg) {
  static constexpr StringLiteral Prefixes[] = {"-Wp,",
                                               "-Wa,",
                                               "-Wl,",
                                               "--serialize-diagnostics",
                                               "-serialize-diagnostics",
                                               "-fmodules",
                                               "-fmodule-",
                                               "-fcxx-modules",
                                               "-fimplicit-module",
                                               "-fbuild-session",
                                               "-fplugin",
                                               "-fpass-plugin",
                                               "-save-temps",
                                               "--save-temps",
                                               "-ftime-trace",
                                               "-fcrash-diagnostics",
                                               "-gen-reproducer",
                                               "-fproc-stat-report",
                                               "--config",
                                               "-ccc-",
                                               "-B",
                                               "--prefix",
                                               "--nvptx-arch-tool",
                                               "--amdgpu-arch-tool",
                                               "--driver-mode",
                                               "-mllvm=",
                                               "-Xclang="};
  return asksForNativeArch(Arg) || llvm::any_of(Prefixes, [&](StringRef P) {
           return Arg.starts_with(P);
         });
}

/// Flags whose value is the next word, passed on to a tool unchecked.
bool isUnsafeFlagWithValue(StringRef Arg) {
  // -Xclang, -Xarch_device, -Xpreprocessor, -Xopenmp-target=<triple>...
  return (Arg.starts_with("-X") && !Arg.starts_with("-Xclang=")) ||
         Arg == "-mllvm" || Arg == "--serialize-diagnostics" ||
         Arg == "-serialize-diagnostics" || Arg == "-B" || Arg == "--prefix" ||
         Arg == "--config" || Arg == "-ccc-install-dir" ||
         Arg == "--driver-mode";
}

std::vector<std::string> argumentsOf(const json::Object &Entry) {
  std::vector<std::string> Args;
  if (const json::Array *List = Entry.getArray("arguments")) {
    for (const json::Value &V : *List)
      if (auto S = V.getAsString())
        Args.push_back(S->str());
    return Args;
  }
  if (auto Command = Entry.getString("command")) {
    BumpPtrAllocator Allocator;
    StringSaver Saver(Allocator);
    SmallVector<const char *, 32> Words;
    cl::TokenizeGNUCommandLine(*Command, Saver, Words);
    Args.assign(Words.begin(), Words.end());
  }
  return Args;
}

} // namespace

bool isNvcc(StringRef Compiler) {
  StringRef Name = sys::path::filename(Compiler);
  return Name == "nvcc" || Name == "nvcc.exe";
}

std::vector<std::string> withoutUnsafeFlags(ArrayRef<std::string> Args,
                                            StringRef Directory) {
  if (Args.empty())
    return {};
  BumpPtrAllocator Allocator;
  StringSaver Saver(Allocator);
  SmallVector<const char *, 64> Words;
  for (const std::string &Arg : Args.drop_front())
    Words.push_back(Saver.save(Arg).data());
  // A response file that cannot be read stays as it is, and clang-tidy then
  // reports it as a missing input: reading it here hides nothing.
  cl::ExpansionContext Expander(Allocator, cl::TokenizeGNUCommandLine);
  Expander.setCurrentDir(Directory);
  consumeError(Expander.expandResponseFiles(Words));

  std::vector<std::string> Out = {sys::path::filename(Args.front()).str()};
  for (size_t I = 0; I < Words.size(); ++I) {
    StringRef Arg = Words[I];
    if (isUnsafeFlagWithValue(Arg)) {
      ++I;
      continue;
    }
    if (!isUnsafeFlag(Arg))
      Out.push_back(Arg.str());
  }
  return Out;
}

std::vector<std::string> translateNvccCommand(ArrayRef<std::string> Args,
                                              StringRef Directory,
                                              StringRef FallbackCuda) {
  Translator T(Directory);
  std::vector<std::string> Out = {"clang++"};
  // The toolkit the project builds with is the one its nvcc belongs to
  // (<toolkit>/bin/nvcc): an older one still declares the APIs CUDA 13
  // removed.
  std::string Cuda;
  if (!Args.empty()) {
    SmallString<256> Toolkit(
        sys::path::parent_path(sys::path::parent_path(Args.front())));
    SmallString<256> Header(Toolkit);
    sys::path::append(Header, "include", "cuda.h");
    if (sys::path::is_absolute(Toolkit) && sys::fs::exists(Header)) {
      Cuda = Toolkit.str().str();
      Out.push_back("--cuda-path=" + Cuda);
    }
  }
  if (Args.size() > 1)
    T.translate(Args.drop_front());
  // nvcc with no architecture compiles for its toolkit's default; so does
  // the translated command (Clang's own default, sm_52, is gone from CUDA
  // 13).
  std::vector<std::string> Rest =
      T.finish(defaultGpuArch(Cuda.empty() ? FallbackCuda : StringRef(Cuda)));
  Out.insert(Out.end(), Rest.begin(), Rest.end());
  return Out;
}

namespace {

/// compile_flags.txt: one flag a line, for every file (as Clang reads it).
Expected<bool> translateFlagsFile(StringRef Path, StringRef OutDir) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError("cannot read '" + Path.str() +
                             "': " + Buffer.getError().message());
  SmallVector<StringRef, 32> Lines;
  (*Buffer)->getBuffer().split(Lines, '\n', -1, /*KeepEmpty=*/false);
  std::vector<std::string> Args = {"clang++"};
  for (StringRef Line : Lines)
    if (!Line.trim().empty())
      Args.push_back(Line.trim().str());
  std::vector<std::string> Kept =
      withoutUnsafeFlags(Args, sys::path::parent_path(Path));
  if (Kept == Args)
    return false;
  SmallString<256> OutPath(OutDir);
  sys::path::append(OutPath, "compile_flags.txt");
  std::error_code EC;
  raw_fd_ostream Stream(OutPath, EC);
  if (EC)
    return createStringError("cannot write '" + OutPath.str().str() +
                             "': " + EC.message());
  for (const std::string &Arg : ArrayRef<std::string>(Kept).drop_front())
    Stream << Arg << "\n";
  return true;
}

} // namespace

Expected<bool> translateDatabase(StringRef Dir, StringRef OutDir) {
  if (!sys::fs::is_directory(Dir))
    return createStringError("'" + Dir.str() +
                             "' (the -p directory) is not a directory");
  // clang-tidy looks in the directory, then in each parent.
  SmallString<256> Search(Dir);
  sys::fs::make_absolute(Search);
  SmallString<256> Path;
  for (StringRef At = Search; !At.empty(); At = sys::path::parent_path(At)) {
    Path = At;
    sys::path::append(Path, "compile_commands.json");
    if (sys::fs::exists(Path))
      break;
    Path = At;
    sys::path::append(Path, "compile_flags.txt");
    if (sys::fs::exists(Path))
      return translateFlagsFile(Path, OutDir);
    Path.clear();
  }
  if (Path.empty())
    return false; // clang-tidy itself says that there is no database.
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError("cannot read '" + Path.str().str() +
                             "': " + Buffer.getError().message());
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return createStringError(
        "'" + Path.str().str() +
        "' is not a JSON compile database: " + toString(Parsed.takeError()));
  const json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return createStringError("'" + Path.str().str() +
                             "' is not a JSON array of compile commands");
  bool Changed = false;
  json::Array Translated;
  // The toolkit of an nvcc that is not at <toolkit>/bin/nvcc: the one
  // cuda-tidy analyses against.
  std::string Cuda = findCuda();
  for (const json::Value &Value : *Entries) {
    const json::Object *Entry = Value.getAsObject();
    if (!Entry)
      return createStringError("'" + Path.str().str() +
                               "' holds an entry that is not an object");
    json::Object Copy = *Entry;
    std::vector<std::string> Args = argumentsOf(*Entry);
    StringRef Directory = Entry->getString("directory").value_or(Dir);
    std::vector<std::string> NewArgs =
        !Args.empty() && isNvcc(Args.front())
            ? translateNvccCommand(Args, Directory, Cuda)
            : Args;
    NewArgs = withoutUnsafeFlags(NewArgs, Directory);
    if (NewArgs != Args) {
      Changed = true;
      Copy.erase("command");
      json::Array Arguments;
      for (const std::string &Arg : NewArgs)
        Arguments.push_back(Arg);
      Copy["arguments"] = std::move(Arguments);
    }
    Translated.push_back(std::move(Copy));
  }
  if (!Changed)
    return false;
  SmallString<256> OutPath(OutDir);
  sys::path::append(OutPath, "compile_commands.json");
  std::error_code EC;
  raw_fd_ostream Stream(OutPath, EC);
  if (EC)
    return createStringError("cannot write '" + OutPath.str().str() +
                             "': " + EC.message());
  Stream << formatv("{0:2}", json::Value(std::move(Translated)));
  return true;
}

} // namespace cuda_tidy
