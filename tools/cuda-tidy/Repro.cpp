//===--- Repro.cpp - a reproducer for every finding -----------------------===//

#include "Repro.h"
#include "CudaToolchain.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace cuda_tidy {

namespace {

/// The checks that record witnesses (checker/WitnessRecord.h).
const StringSet<> WitnessChecks = {
    "cuda-shared-memory-race", "cuda-divergent-barrier",
    "cuda-dynamic-shared-bounds", "cuda-bank-conflict"};

/// Each pointer parameter's buffer when the kernel's reach is not known.
// 256 MiB: enough for llm.c's B * T * C float tensors at the default
// sizes (the number of threads launched), which 16 MiB was not.
constexpr std::int64_t DefaultBufferBytes = std::int64_t(1) << 28;
/// The dynamic shared bytes for a kernel with a pool whose launch is not
/// known: what a launch gets without raising the limit.
constexpr std::int64_t DefaultPoolBytes = 48 * 1024;

std::string realPath(StringRef File) {
  SmallString<256> Real;
  if (!sys::fs::real_path(File, Real))
    return std::string(Real);
  SmallString<256> Path(File);
  sys::fs::make_absolute(Path);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

/// A word of a shell script, quoted.
std::string shellQuote(StringRef Word) {
  if (!Word.empty() &&
      Word.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                             "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                             "0123456789_-+=./:,@%") == StringRef::npos)
    return Word.str();
  std::string Quoted = "'";
  for (char C : Word)
    Quoted += C == '\'' ? std::string("'\\''") : std::string(1, C);
  return Quoted + "'";
}

/// A C++ string literal.
std::string cppString(StringRef Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    if (C == '\n') {
      Out += "\\n";
      continue;
    }
    Out += C;
  }
  return Out + "\"";
}

std::array<std::int64_t, 3> dims(const json::Object &Record, StringRef Key) {
  std::array<std::int64_t, 3> D = {1, 1, 1};
  if (const json::Array *A = Record.getArray(Key))
    for (size_t I = 0; I < 3 && I < A->size(); ++I)
      D[I] = (*A)[I].getAsInteger().value_or(1);
  return D;
}

json::Array dimsJson(const std::array<std::int64_t, 3> &D) {
  return json::Array{D[0], D[1], D[2]};
}

std::string expectString(const json::Object &Record, StringRef Key) {
  if (const json::Object *Expect = Record.getObject("expect"))
    if (std::optional<StringRef> Value = Expect->getString(Key))
      return Value->str();
  return "";
}

/// The tool run.sh runs for \p Record, as finding.json names it.
std::string toolOf(const json::Object &Record) {
  std::string Tool = expectString(Record, "tool");
  if (Record.getString("check") == "cuda-divergent-barrier")
    return Tool == "lanes" ? "lanes" : "watchdog, synccheck, racecheck";
  return Tool.empty() ? "racecheck" : Tool;
}

bool writeFile(StringRef Path, StringRef Text, bool Executable = false) {
  std::error_code EC;
  {
    raw_fd_ostream Out(Path, EC);
    if (EC)
      return false;
    Out << Text;
  }
  if (Executable)
    sys::fs::setPermissions(Path, sys::fs::perms::all_read |
                                      sys::fs::perms::owner_write |
                                      sys::fs::perms::all_exe);
  return true;
}

/// Whether nvcc flag \p Flag (with its value \p Next) is one build.sh sets
/// itself or one that would make no program: the output, the
/// architecture, compile-only and dependency flags. \p TakesNext: it uses
/// the next word too.
bool droppedNvccFlag(StringRef Flag, bool &TakesNext) {
  TakesNext = false;
  for (StringRef Separate :
       {"-o", "--output-file", "-arch", "-code", "--gpu-architecture",
        "--gpu-code", "-gencode", "--generate-code", "-MF", "-MT", "-MQ",
        "--dependency-output", "-ccbin", "--compiler-bindir"})
    if (Flag == Separate) {
      TakesNext = true;
      return true;
    }
  for (StringRef Prefix :
       {"-o", "--output-file=", "-arch=", "-arch",
        "-code=", "--gpu-architecture=", "--gpu-code=", "-gencode=",
        "--generate-code=", "-MF", "-MT", "-MQ", "--dependency-output="})
    if (Flag.starts_with(Prefix))
      return true;
  return is_contained({"-c", "--compile", "-dc", "--device-c", "-M", "-MM",
                       "-MD", "-MMD", "-MP", "-E", "-rdc=true", "-rdc=false",
                       "--relocatable-device-code=true"},
                      Flag);
}

/// The include, define and standard flags of Clang arguments \p Args.
std::vector<std::string> portableFlags(ArrayRef<std::string> Args,
                                       std::string &Arch) {
  std::vector<std::string> Flags, After;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A = Args[I];
    if (A.consume_front("--cuda-gpu-arch=") ||
        A.consume_front("--offload-arch="))
      if (A.consume_front("sm_"))
        Arch = A.str();
    // nvcc knows neither -iquote nor -idirafter: a quoted include's folder
    // becomes -I, and one searched after the system's (cuda-samples'
    // Common/, which make-compile-db.py gives so) -I after every other,
    // which may shadow a system header of the same name, as nvcc's own
    // command for the samples does.
    for (StringRef Separate :
         {"-I", "-isystem", "-D", "-U", "-include", "-iquote", "-idirafter"})
      if (Args[I] == Separate && I + 1 < Args.size()) {
        if (Separate == "-iquote")
          Flags.push_back("-I");
        else if (Separate == "-idirafter")
          After.push_back("-I");
        else
          Flags.push_back(Args[I]);
        (Separate == "-idirafter" ? After : Flags).push_back(Args[++I]);
        A = "";
        break;
      }
    if (A.empty())
      continue;
    StringRef W = Args[I];
    if (W.consume_front("-iquote") && !W.empty()) {
      Flags.push_back("-I" + W.str());
      continue;
    }
    if (W.consume_front("-idirafter") && !W.empty()) {
      After.push_back("-I" + W.str());
      continue;
    }
    W = Args[I];
    if ((W.starts_with("-I") || W.starts_with("-D") || W.starts_with("-U") ||
         W.starts_with("-std=")) &&
        W.size() > 2)
      Flags.push_back(W.str());
  }
  llvm::append_range(Flags, After);
  return Flags;
}

/// The file a reproducer includes: the unit the record was made in (a
/// warning in a header is reproduced through it), else the finding's file.
std::string translationUnit(const Finding &F, const json::Object &Record) {
  return Record.getString("translation_unit").value_or(F.Where.File).str();
}

/// \p Target relative to the folder \p From (both absolute), so that a
/// reproducer folder and the sources it includes can move together (to a
/// GPU machine's checkout, say).
std::string relativePath(StringRef Target, StringRef From) {
  SmallVector<StringRef, 16> T(sys::path::begin(Target),
                               sys::path::end(Target));
  SmallVector<StringRef, 16> F(sys::path::begin(From), sys::path::end(From));
  size_t Common = 0;
  while (Common < T.size() && Common < F.size() && T[Common] == F[Common])
    ++Common;
  // Under different top-level folders: nothing moves them together.
  if (Common <= 1)
    return Target.str();
  SmallString<256> Relative;
  for (size_t I = Common; I < F.size(); ++I)
    sys::path::append(Relative, "..");
  for (size_t I = Common; I < T.size(); ++I)
    sys::path::append(Relative, T[I]);
  return Relative.empty() ? "." : std::string(Relative);
}

json::Array linesJson(ArrayRef<unsigned> Lines) {
  json::Array A;
  for (unsigned L : Lines)
    A.push_back(L);
  return A;
}

} // namespace

std::string findingKey(StringRef Check, StringRef File, unsigned Line,
                       unsigned Column) {
  return formatv("{0}|{1}|{2}|{3}", Check, realPath(File), Line, Column);
}

std::string findingKey(const Finding &F) {
  return findingKey(F.Check, F.Where.File, F.Where.Line, F.Where.Column);
}

std::string reproFolderName(const Finding &F) {
  return formatv("{0}-{1}-{2}-{3}", F.Check, sys::path::filename(F.Where.File),
                 F.Where.Line, F.Where.Column);
}

std::map<std::string, json::Object> parseWitnessRecords(StringRef Text) {
  std::map<std::string, json::Object> Records;
  SmallVector<StringRef, 16> Lines;
  Text.split(Lines, '\n', -1, /*KeepEmpty=*/false);
  for (StringRef Line : Lines) {
    Expected<json::Value> Parsed = json::parse(Line);
    if (!Parsed) {
      consumeError(Parsed.takeError());
      continue;
    }
    json::Object *Record = Parsed->getAsObject();
    if (!Record)
      continue;
    std::string Key = findingKey(Record->getString("check").value_or(""),
                                 Record->getString("file").value_or(""),
                                 Record->getInteger("line").value_or(0),
                                 Record->getInteger("column").value_or(0));
    Records.try_emplace(Key, std::move(*Record));
  }
  return Records;
}

ReproBuild reproBuildFor(StringRef File, std::optional<std::string> DatabaseDir,
                         StringRef Cuda, ArrayRef<std::string> ClangArgs) {
  ReproBuild Build;
  SmallString<256> Here;
  sys::fs::current_path(Here);
  Build.Directory = std::string(Here);
  Build.Nvcc = Cuda.empty() ? "nvcc" : (Cuda + "/bin/nvcc").str();
  std::string Arch;
  std::vector<std::string> Clang(ClangArgs.begin(), ClangArgs.end());
  if (DatabaseDir) {
    SmallString<256> Path(*DatabaseDir);
    sys::path::append(Path, "compile_commands.json");
    auto Text = MemoryBuffer::getFile(Path);
    Expected<json::Value> Parsed =
        Text ? json::parse((*Text)->getBuffer())
             : Expected<json::Value>(createStringError("unreadable"));
    std::string Wanted = realPath(File);
    const json::Array *Entries = Parsed ? Parsed->getAsArray() : nullptr;
    if (!Parsed)
      consumeError(Parsed.takeError());
    for (const json::Value &V : Entries ? *Entries : json::Array()) {
      const json::Object *Entry = V.getAsObject();
      if (!Entry)
        continue;
      StringRef Directory = Entry->getString("directory").value_or("");
      SmallString<256> Source(Entry->getString("file").value_or(""));
      if (!sys::path::is_absolute(Source))
        sys::path::make_absolute(Directory, Source);
      if (realPath(Source) != Wanted)
        continue;
      std::vector<std::string> Words;
      if (const json::Array *Arguments = Entry->getArray("arguments")) {
        for (const json::Value &A : *Arguments)
          Words.push_back(A.getAsString().value_or("").str());
      } else {
        BumpPtrAllocator Alloc;
        StringSaver Saver(Alloc);
        SmallVector<const char *, 32> Tokens;
        cl::TokenizeGNUCommandLine(Entry->getString("command").value_or(""),
                                   Saver, Tokens);
        for (const char *T : Tokens)
          Words.push_back(T);
      }
      if (Words.empty())
        break;
      Build.Directory = Directory.str();
      if (!sys::path::filename(Words[0]).contains("nvcc")) {
        Clang.assign(Words.begin() + 1, Words.end());
        break;
      }
      Build.Nvcc = Words[0];
      if (StringRef(Words[0]).contains('/') &&
          !sys::path::is_absolute(Words[0])) {
        SmallString<256> Nvcc(Words[0]);
        sys::path::make_absolute(Directory, Nvcc);
        Build.Nvcc = std::string(Nvcc);
      }
      for (size_t I = 1; I < Words.size(); ++I) {
        StringRef W = Words[I];
        if (W.consume_front("-arch=sm_") ||
            W.consume_front("--gpu-architecture=sm_"))
          Arch = W.str();
        bool TakesNext = false;
        if (droppedNvccFlag(Words[I], TakesNext)) {
          if (TakesNext && I + 1 < Words.size() &&
              (Words[I] == "-arch" || Words[I] == "--gpu-architecture"))
            if (StringRef(Words[I + 1]).starts_with("sm_"))
              Arch = StringRef(Words[I + 1]).drop_front(3).str();
          I += TakesNext;
          continue;
        }
        SmallString<256> Word(Words[I]);
        if (!Word.starts_with("-")) {
          if (!sys::path::is_absolute(Word))
            sys::path::make_absolute(Directory, Word);
          if (realPath(Word) == Wanted)
            continue;
        }
        Build.Flags.push_back(Words[I]);
      }
      Build.DefaultArch = Arch;
      if (Build.DefaultArch.empty())
        Build.DefaultArch = StringRef(defaultGpuArch(Cuda)).drop_front(3).str();
      return Build;
    }
  }
  Build.Flags = portableFlags(Clang, Arch);
  // A Clang command says nothing of the nvcc extensions the project's own
  // build turns on (ggml's CMake gives --extended-lambda); both only let
  // more code compile.
  Build.Flags.push_back("--extended-lambda");
  Build.Flags.push_back("--expt-relaxed-constexpr");
  Build.DefaultArch = Arch;
  if (Build.DefaultArch.empty())
    Build.DefaultArch = StringRef(defaultGpuArch(Cuda)).drop_front(3).str();
  return Build;
}

/// The lane check of a warp collective's reproducer (run.sh's "lanes"): no
/// sanitizer reports a shuffle or vote whose mask names lanes that have
/// exited or never reach it (racecheck and synccheck stay silent, and the
/// H200 returns 0 for an exited lane: ../shared/GPU-FACTS.md), so every warp
/// collective of the unit is wrapped, through a macro defined after the
/// headers that declare them, in a call that first asks with __ballot_sync
/// on the same mask which of its lanes are there. The lowest lane there
/// keeps, per source line, the mask, the lanes seen and how many warps
/// missed some; main prints them after the kernel.
const char LaneCheckPrelude[] =
    R"CU(// The lane check: which lanes of each warp collective's mask are there.
#include <cooperative_groups.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>

struct CudaTidyLaneFault {
  unsigned Line, Mask, Present, Warps;
};
__device__ CudaTidyLaneFault cudaTidyLaneFaults[8];

__device__ __forceinline__ void cudaTidyLanes(unsigned Line, unsigned Mask) {
  unsigned Present = __ballot_sync(Mask, 1);
  unsigned Lane;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(Lane));
  if (Present == Mask || Present == 0 || Lane != unsigned(__ffs(Present) - 1))
    return;
  for (int I = 0; I < 8; ++I) {
    unsigned Old = atomicCAS(&cudaTidyLaneFaults[I].Line, 0u, Line);
    if (Old == 0u || Old == Line) {
      if (Old == 0u) {
        cudaTidyLaneFaults[I].Mask = Mask;
        cudaTidyLaneFaults[I].Present = Present;
      }
      atomicAdd(&cudaTidyLaneFaults[I].Warps, 1u);
      return;
    }
  }
}

template <class T>
__device__ __forceinline__ T cudaTidyShfl(unsigned Line, unsigned Mask, T Var,
                                          int Lane, int Width = warpSize) {
  cudaTidyLanes(Line, Mask);
  return __shfl_sync(Mask, Var, Lane, Width);
}
template <class T>
__device__ __forceinline__ T cudaTidyShflUp(unsigned Line, unsigned Mask,
                                            T Var, unsigned Delta,
                                            int Width = warpSize) {
  cudaTidyLanes(Line, Mask);
  return __shfl_up_sync(Mask, Var, Delta, Width);
}
template <class T>
__device__ __forceinline__ T cudaTidyShflDown(unsigned Line, unsigned Mask,
                                              T Var, unsigned Delta,
                                              int Width = warpSize) {
  cudaTidyLanes(Line, Mask);
  return __shfl_down_sync(Mask, Var, Delta, Width);
}
template <class T>
__device__ __forceinline__ T cudaTidyShflXor(unsigned Line, unsigned Mask,
                                             T Var, int LaneMask,
                                             int Width = warpSize) {
  cudaTidyLanes(Line, Mask);
  return __shfl_xor_sync(Mask, Var, LaneMask, Width);
}
__device__ __forceinline__ unsigned cudaTidyBallot(unsigned Line,
                                                   unsigned Mask, int P) {
  cudaTidyLanes(Line, Mask);
  return __ballot_sync(Mask, P);
}
__device__ __forceinline__ int cudaTidyAny(unsigned Line, unsigned Mask,
                                           int P) {
  cudaTidyLanes(Line, Mask);
  return __any_sync(Mask, P);
}
__device__ __forceinline__ int cudaTidyAll(unsigned Line, unsigned Mask,
                                           int P) {
  cudaTidyLanes(Line, Mask);
  return __all_sync(Mask, P);
}
template <class T>
__device__ __forceinline__ unsigned cudaTidyMatchAny(unsigned Line,
                                                     unsigned Mask, T V) {
  cudaTidyLanes(Line, Mask);
  return __match_any_sync(Mask, V);
}
// `__syncwarp()` names the whole warp: the macro passes its arguments, none
// or the mask, through an overload (GNU's `, ##__VA_ARGS__` is not
// standard, and nvcc rejects it).
__device__ __forceinline__ unsigned cudaTidyMaskOf() { return 0xffffffffu; }
__device__ __forceinline__ unsigned cudaTidyMaskOf(unsigned Mask) {
  return Mask;
}
__device__ __forceinline__ void cudaTidySyncwarp(unsigned Line,
                                                 unsigned Mask) {
  cudaTidyLanes(Line, Mask);
  __syncwarp(Mask);
}
#if __CUDA_ARCH__ >= 800 || !defined(__CUDA_ARCH__)
template <class T>
__device__ __forceinline__ T cudaTidyReduceAdd(unsigned Line, unsigned Mask,
                                               T V) {
  cudaTidyLanes(Line, Mask);
  return __reduce_add_sync(Mask, V);
}
template <class T>
__device__ __forceinline__ T cudaTidyReduceMin(unsigned Line, unsigned Mask,
                                               T V) {
  cudaTidyLanes(Line, Mask);
  return __reduce_min_sync(Mask, V);
}
template <class T>
__device__ __forceinline__ T cudaTidyReduceMax(unsigned Line, unsigned Mask,
                                               T V) {
  cudaTidyLanes(Line, Mask);
  return __reduce_max_sync(Mask, V);
}
#define __reduce_add_sync(...) cudaTidyReduceAdd(__LINE__, __VA_ARGS__)
#define __reduce_min_sync(...) cudaTidyReduceMin(__LINE__, __VA_ARGS__)
#define __reduce_max_sync(...) cudaTidyReduceMax(__LINE__, __VA_ARGS__)
#endif
#define __shfl_sync(...) cudaTidyShfl(__LINE__, __VA_ARGS__)
#define __shfl_up_sync(...) cudaTidyShflUp(__LINE__, __VA_ARGS__)
#define __shfl_down_sync(...) cudaTidyShflDown(__LINE__, __VA_ARGS__)
#define __shfl_xor_sync(...) cudaTidyShflXor(__LINE__, __VA_ARGS__)
#define __ballot_sync(...) cudaTidyBallot(__LINE__, __VA_ARGS__)
#define __any_sync(...) cudaTidyAny(__LINE__, __VA_ARGS__)
#define __all_sync(...) cudaTidyAll(__LINE__, __VA_ARGS__)
#define __match_any_sync(...) cudaTidyMatchAny(__LINE__, __VA_ARGS__)
#define __syncwarp(...)                                                        \
  cudaTidySyncwarp(__LINE__, cudaTidyMaskOf(__VA_ARGS__))

)CU";

/// What main prints of the lane check after the kernel.
const char LaneCheckReport[] = R"CU(  CudaTidyLaneFault Faults[8];
  cudaTidyCheck(cudaMemcpyFromSymbol(Faults, cudaTidyLaneFaults, sizeof Faults),
                "reading the lane check");
  for (const CudaTidyLaneFault &Fault : Faults)
    if (Fault.Line)
      std::printf("cuda-tidy-lanes: line %u: in %u warp%s only %d of the %d "
                  "lanes of mask 0x%08x reached it (0x%08x)\n",
                  Fault.Line, Fault.Warps, Fault.Warps == 1 ? "" : "s",
                  __builtin_popcount(Fault.Present),
                  __builtin_popcount(Fault.Mask), Fault.Mask, Fault.Present);
)CU";

Expected<std::string> reproducerSource(const Finding &F,
                                       const json::Object &Record,
                                       StringRef Folder, json::Object &Facts) {
  if (std::optional<StringRef> Why = Record.getString("cannot_reproduce"))
    return createStringError(*Why);
  const json::Object *Kernel = Record.getObject("kernel");
  if (!Kernel)
    return createStringError("the witness names no kernel to launch");
  std::string Spelling = Kernel->getString("spelling").value_or("").str();
  std::string Name = Kernel->getString("name").value_or("").str();
  std::array<std::int64_t, 3> Block = dims(Record, "block");
  std::array<std::int64_t, 3> Grid = dims(Record, "grid");
  std::int64_t Threads =
      Block[0] * Block[1] * Block[2] * Grid[0] * Grid[1] * Grid[2];
  std::optional<std::int64_t> Bytes = Record.getInteger("dynamic_shared_bytes");
  Facts["dynamic_shared_bytes"] = Bytes.value_or(DefaultPoolBytes);
  Facts["dynamic_shared_bytes_from"] =
      Bytes ? "the launch"
            : "default: the kernel uses a pool whose launch "
              "is not known";
  bool AboveDefault = expectString(Record, "problem") == "above-default" ||
                      expectString(Record, "problem") == "above-target";
  bool Cooperative = Record.getBoolean("cooperative").value_or(false);
  bool Lanes = expectString(Record, "tool") == "lanes";

  std::string Declarations, Arguments, Buffers;
  bool DefaultInputs = false;
  json::Array Parameters;
  unsigned Index = 0;
  if (const json::Array *Params = Kernel->getArray("parameters"))
    for (const json::Value &V : *Params) {
      const json::Object *P = V.getAsObject();
      if (!P)
        continue;
      std::string PName = P->getString("name").value_or("").str();
      std::string Type = P->getString("type").value_or("int").str();
      StringRef Kind = P->getString("kind").value_or("other");
      json::Object Out{{"name", PName}, {"type", Type}, {"kind", Kind}};
      std::string Value;
      if (Kind == "pointer") {
        if (P->getBoolean("holds_pointers").value_or(false))
          return createStringError(
              "parameter '" + PName + "' (" + Type +
              ") points to pointers, which the kernel would chase through "
              "memory: a reproducer's buffers cannot give them");
        // Floating-point data gets values near 1 (the integer pattern
        // read as floats is all denormals, whose products vanish: a sum
        // the race writes would be 0 in every thread, and racecheck does
        // not report two writes of one value); other data small integers,
        // safe as indices.
        static const std::pair<StringRef, StringRef> Fills[] = {
            {"integer", "32-bit word i holds i % 251"},
            {"float", "element i holds 1 + (i % 251) / 256"},
            {"double", "element i holds 1 + (i % 251) / 256"},
            {"half", "element i holds 1 + (i % 251) / 1024"},
            {"bfloat16", "element i holds 1 + (i % 127) / 128"}};
        StringRef Fill = P->getString("fill").value_or("integer");
        unsigned FillIndex = 0;
        for (unsigned I = 0; I < std::size(Fills); ++I)
          if (Fills[I].first == Fill)
            FillIndex = I;
        Value = formatv("static_cast<Arg{0}>(buffer{0})", Index);
        Out["buffer_bytes"] = DefaultBufferBytes;
        if (std::optional<std::int64_t> One = P->getInteger("fill_value")) {
          // The input data the witness needs: every element one value.
          Buffers += formatv(
              "  void *buffer{0} = cudaTidyBufferOf<std::remove_cv_t<"
              "std::remove_pointer_t<{1}>>>({2}, {3}LL);\n",
              Index, Type, DefaultBufferBytes, *One);
          Out["buffer_fill"] =
              "every element holds " + std::to_string(*One) +
              ", the input data the witness needs";
          Out["fill_value"] = *One;
        } else {
          Buffers +=
              formatv("  void *buffer{0} = cudaTidyBuffer({1}, {2});\n",
                      Index, DefaultBufferBytes, FillIndex);
          Out["buffer_fill"] = Fills[FillIndex].second;
        }
        Out["value_from"] = "a device buffer of the default size, filled";
      } else if (Kind == "integer" || Kind == "bool") {
        std::optional<std::int64_t> Given = P->getInteger("value");
        std::int64_t N = Given.value_or(Kind == "bool" ? 1 : Threads);
        Value = formatv("static_cast<Arg{0}>({1}LL)", Index, N);
        Out["value"] = N;
        Out["value_from"] = Given ? "the witness or the launch"
                                  : "default: the number of threads launched";
        DefaultInputs |= !Given;
      } else if (Kind == "floating") {
        Value = formatv("static_cast<Arg{0}>(1)", Index);
        Out["value"] = 1;
        Out["value_from"] = "default";
        DefaultInputs = true;
      } else {
        Value = formatv("Arg{0}{{}", Index);
        Out["value_from"] = "default: zero-initialised";
        DefaultInputs = true;
      }
      Declarations += formatv("  using Arg{0} = {1};\n  Arg{0} arg{0} = {2};\n",
                              Index, Type, Value);
      Arguments += (Index ? ", arg" : "arg") + std::to_string(Index);
      Parameters.push_back(std::move(Out));
      ++Index;
    }
  Facts["parameters"] = std::move(Parameters);
  Facts["inputs"] = DefaultInputs ? "default" : "witness";
  Facts["buffer_fill"] = "each pointer parameter's buffer_fill: one value the "
                         "witness needs (fill_value), or 32-bit "
                         "word i holds i % 251, or floating-point element i "
                         "holds a value in [1, 2)";

  std::string Source;
  raw_string_ostream OS(Source);
  OS << "// A reproducer that cuda-tidy --repro-dir wrote for\n//   "
     << F.Where.File << ":" << F.Where.Line << ":" << F.Where.Column << ": "
     << F.Where.Message << " [" << F.Check << "]\n"
     << "// It launches '" << Spelling << "' as the witness says: block ("
     << Block[0] << "," << Block[1] << "," << Block[2] << "), grid (" << Grid[0]
     << "," << Grid[1] << "," << Grid[2]
     << "). finding.json lists every value and default.\n\n"
     << (Lanes ? LaneCheckPrelude : "")
     << "#define main cuda_tidy_original_main\n"
     << "#include "
     << cppString(relativePath(realPath(translationUnit(F, Record)),
                               realPath(Folder)))
     << "\n"
     << "#undef main\n\n"
     << "#include <cstdio>\n#include <cstdlib>\n#include <type_traits>\n"
     << "#include <vector>\n"
     << "#include <cuda_runtime.h>\n\n"
     << "static void cudaTidyCheck(cudaError_t Status, const char *What) {\n"
     << "  if (Status == cudaSuccess)\n    return;\n"
     << "  std::printf(\"cuda-tidy-repro: %s failed: %s\\n\", What,\n"
     << "              cudaGetErrorString(Status));\n"
     << "  std::exit(3);\n}\n\n"
     << "// Fills a buffer on the device: no shared memory, no barrier, so\n"
     << "// no tool reports it.\n"
     << "// Kind 0: 32-bit word i holds i % 251; 1: float element i holds\n"
     << "// 1 + (i % 251) / 256; 2: double, the same; 3: half bits 0x3c00 +\n"
     << "// i % 251; 4: bfloat16 bits 0x3f80 + i % 127.\n"
     << "__global__ void cudaTidyFill(void *Data, size_t Bytes, int Kind) {\n"
     << "  size_t Size = Kind == 2 ? 8 : Kind >= 3 ? 2 : 4;\n"
     << "  for (size_t I = blockIdx.x * size_t(blockDim.x) + threadIdx.x;\n"
     << "       I < Bytes / Size; I += size_t(gridDim.x) * blockDim.x) {\n"
     << "    if (Kind == 1)\n"
     << "      static_cast<float *>(Data)[I] = 1.0f + float(I % 251) / 256;\n"
     << "    else if (Kind == 2)\n"
     << "      static_cast<double *>(Data)[I] = 1.0 + double(I % 251) / 256;\n"
     << "    else if (Kind == 3)\n"
     << "      static_cast<unsigned short *>(Data)[I] =\n"
     << "          (unsigned short)(0x3c00 + I % 251);\n"
     << "    else if (Kind == 4)\n"
     << "      static_cast<unsigned short *>(Data)[I] =\n"
     << "          (unsigned short)(0x3f80 + I % 127);\n"
     << "    else\n"
     << "      static_cast<unsigned *>(Data)[I] = unsigned(I % 251);\n"
     << "  }\n}\n\n"
     << "// A device buffer filled as cudaTidyFill's Kind says.\n"
     << "static void *cudaTidyBuffer(size_t Bytes, int Kind) {\n"
     << "  void *Device = nullptr;\n"
     << "  cudaTidyCheck(cudaMalloc(&Device, Bytes), \"cudaMalloc\");\n"
     << "  cudaTidyFill<<<1024, 256>>>(Device, Bytes, Kind);\n"
     << "  cudaTidyCheck(cudaDeviceSynchronize(), \"filling a buffer\");\n"
     << "  return Device;\n}\n\n"
     << "// A device buffer whose every element holds Value: the input data\n"
     << "// a witness needs.\n"
     << "template <class T> static void *cudaTidyBufferOf(size_t Bytes,\n"
     << "                                                 long long Value) {\n"
     << "  std::vector<T> Host(Bytes / sizeof(T), T(Value));\n"
     << "  void *Device = nullptr;\n"
     << "  cudaTidyCheck(cudaMalloc(&Device, Bytes), \"cudaMalloc\");\n"
     << "  cudaTidyCheck(cudaMemcpy(Device, Host.data(), Host.size() * "
        "sizeof(T),\n"
     << "                           cudaMemcpyHostToDevice),\n"
     << "                \"filling a buffer\");\n"
     << "  return Device;\n}\n\n"
     << "int main() {\n"
     << "  cudaDeviceProp Device;\n"
     << "  cudaTidyCheck(cudaGetDeviceProperties(&Device, 0),\n"
     << "                \"cudaGetDeviceProperties\");\n"
     << "  std::printf(\"cuda-tidy-repro: device %s\\n\", Device.name);\n"
     << Buffers << Declarations
     << formatv("  dim3 Grid({0}, {1}, {2}), Block({3}, {4}, {5});\n", Grid[0],
                Grid[1], Grid[2], Block[0], Block[1], Block[2])
     << "  size_t Shared = " << Bytes.value_or(DefaultPoolBytes) << ";\n";
  std::string Entry = "reinterpret_cast<const void *>(&" + Spelling + ")";
  // The default pool shares the 48 KiB a launch may take without an
  // attribute with the kernel's static shared variables (threadFence-
  // Reduction's `amLast`): the launch fails with more.
  if (!Bytes)
    OS << "  cudaFuncAttributes Attributes;\n"
       << "  if (cudaFuncGetAttributes(&Attributes, " << Entry
       << ") == cudaSuccess &&\n"
       << "      Attributes.sharedSizeBytes < Shared)\n"
       << "    Shared -= Attributes.sharedSizeBytes;\n";
  if (!AboveDefault)
    OS << "  if (Shared > 48 * 1024)\n"
       << "    cudaTidyCheck(cudaFuncSetAttribute(" << Entry << ",\n"
       << "                      "
          "cudaFuncAttributeMaxDynamicSharedMemorySize, int(Shared)),\n"
       << "                  \"cudaFuncSetAttribute\");\n";
  if (Cooperative) {
    OS << "  void *Arguments[] = {";
    for (unsigned I = 0; I < Index; ++I)
      OS << (I ? ", " : "") << "&arg" << I;
    OS << (Index ? "" : "nullptr") << "};\n"
       << "  cudaError_t Launched = cudaLaunchCooperativeKernel(" << Entry
       << ", Grid, Block, Arguments, Shared, 0);\n";
  } else {
    OS << "  " << Spelling << "<<<Grid, Block, Shared>>>(" << Arguments
       << ");\n"
       << "  cudaError_t Launched = cudaGetLastError();\n";
  }
  OS << "  if (Launched != cudaSuccess) {\n"
     << "    std::printf(\"cuda-tidy-repro: launch failed: %s\\n\",\n"
     << "                cudaGetErrorString(Launched));\n"
     << "    return 3;\n  }\n"
     << "  cudaTidyCheck(cudaDeviceSynchronize(), \"the kernel\");\n"
     << (Lanes ? LaneCheckReport : "")
     << "  std::printf(\"cuda-tidy-repro: kernel finished\\n\");\n"
     << "  return 0;\n}\n";
  Facts["kernel"] = Spelling;
  Facts["kernel_name"] = Name;
  Facts["block"] = dimsJson(Block);
  Facts["grid"] = dimsJson(Grid);
  Facts["cooperative"] = Cooperative;
  return Source;
}

namespace {

const char RunPrologue[] = R"SH(here=$(cd "$(dirname "$0")" && pwd)
cd "$here" || exit 2
limit=${CUDA_TIDY_RUN_TIMEOUT:-120}
say() { echo "cuda-tidy-confirm: $1"; }
gpu_of() {
  g=$(sed -n 's/^cuda-tidy-repro: device //p' "$1" 2>/dev/null | head -n 1)
  [ -n "$g" ] || g=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n 1)
  echo "$g"
}
# outcome tool log [findings hazards lines detail]
report() {
  say "outcome=$1"; say "tool=$2"; say "gpu=$(gpu_of "$3")"
  [ -z "$4" ] || say "findings=$4"
  [ -z "$5" ] || say "hazards=$5"
  [ -z "$6" ] || say "lines=$6"
  [ -z "$7" ] || say "detail=$7"
}
could_not_run() { say "outcome=could-not-run"; say "detail=$1"; exit 2; }
find_tool() {
  for t in "$@"; do
    if command -v "$t" > /dev/null 2>&1; then command -v "$t"; return 0; fi
  done
  return 1
}
cuda_bin=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}/bin
[ -x ./repro ] || could_not_run "no ./repro: run build.sh first"
# tool pattern: 0 when the tool reports the fault, 1 when the kernel ran
# without it, 2 when it could not run. A race shows in some runs only (the
# threads' timing differs from run to run): the tool runs up to
# CUDA_TIDY_RUN_ATTEMPTS times (3) until it reports one.
sanitize() {
  cs=$(find_tool ${COMPUTE_SANITIZER:-} compute-sanitizer "$cuda_bin/compute-sanitizer") ||
    could_not_run "no compute-sanitizer (set COMPUTE_SANITIZER)"
  log=$1.log
  attempts=${CUDA_TIDY_RUN_ATTEMPTS:-3}
  attempt=1
  while :; do
    timeout --kill-after=10 "$limit" "$cs" --tool "$1" ./repro > "$log" 2>&1
    status=$?
    n=$(grep -cE "$2" "$log")
    if [ "$n" -gt 0 ]; then
      hazards=$(grep -oE '\[[0-9]+ hazards?\]' "$log" | tr -dc '0-9\n' | awk '{s += $1} END {print s + 0}')
      lines=$(grep -oE " in [^ ]*$source_name:[0-9]+" "$log" | sed 's/.*://' | sort -n | uniq | tr '\n' ' ' | sed 's/ $//')
      detail=""
      [ "$attempt" -eq 1 ] || detail="in run $attempt of $attempts"
      report confirmed "$1" "$log" "$n" "$hazards" "$lines" "$detail"
      return 0
    fi
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
      last_detail="$1 ran past ${limit}s with no finding"
      return 2
    fi
    if ! grep -q '^cuda-tidy-repro: kernel finished' "$log"; then
      last_detail="$1: exit $status: $(grep -v '^=========' "$log" | tail -n 1)"
      return 2
    fi
    [ "$attempt" -lt "$attempts" ] || break
    attempt=$((attempt + 1))
  done
  last_detail="$1 reported nothing in $attempts runs"
  [ "$attempts" -ne 1 ] || last_detail="$1 reported nothing"
  return 1
}
)SH";

std::string runScript(const Finding &F, const json::Object &Record,
                      const json::Object &Facts) {
  std::string Script =
      "#!/bin/sh\n# " + findingKey(F) + "\n# " + F.Where.Message + " [" +
      F.Check + "]\n" + "# Runs the reproducer under " + toolOf(Record) +
      ". Exit 0: the fault shows; 1: it does not; 2: it\n"
      "# could not run. The last lines, `cuda-tidy-confirm: "
      "key=value`, say what\n# was seen.\n" +
      "source_name=" + shellQuote(sys::path::filename(F.Where.File)) + "\n" +
      RunPrologue;
  std::string Tool = expectString(Record, "tool");
  const char SharedFault[] =
      "'^========= (Invalid __shared__ (read|write)|.*Out-of-range Shared)'";
  const char RaceFault[] =
      "'^========= (Error|Warning): Race reported|^========= Potential "
      "invalid __shared__ (read|write)'";
  const char BarrierFault[] =
      "'^========= Barrier error detected|^========= .*[Ss]ynchroni[sz]ation "
      "error'";
  auto NotReproduced = [](StringRef Tool, StringRef Log) {
    return ("report not-reproduced " + Tool + " " + Log +
            " \"\" \"\" \"\" \"$last_detail\"\nexit 1\n")
        .str();
  };
  if (Tool == "lanes") {
    std::int64_t Line = 0;
    if (const json::Object *Expect = Record.getObject("expect"))
      Line = Expect->getInteger("collective_line").value_or(0);
    Script += formatv(
        R"SH(# The lane check: each warp collective asked first, with __ballot_sync on
# its own mask, which lanes of the mask were there; the reproducer prints
# the lines where some were not. A collective that waits for the missing
# lanes hangs instead.
line={0}
timeout --kill-after=5 "$limit" ./repro > plain.log 2>&1
status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  report confirmed watchdog plain.log "" "" "" "hang: still running after $limit s"
  exit 0
fi
grep -q '^cuda-tidy-repro: kernel finished' plain.log ||
  could_not_run "exit $status: $(tail -n 1 plain.log)"
fault=$(sed -n "s/^cuda-tidy-lanes: line $line: //p" plain.log | head -n 1)
if [ -n "$fault" ]; then
  report confirmed lanes plain.log "" "" "$line" "$fault"
  exit 0
fi
others=$(sed -n 's/^cuda-tidy-lanes: line \([0-9]*\):.*/\1/p' plain.log | tr '\n' ' ' | sed 's/ $//')
last_detail="every lane of the mask reached the collective at line $line"
[ -z "$others" ] || last_detail="$last_detail (lanes were missing at line $others)"
)SH",
        Line);
    Script += NotReproduced("lanes", "plain.log");
    return Script;
  }
  if (F.Check == "cuda-divergent-barrier") {
    Script +=
        R"SH(# A barrier some threads miss hangs the block, or synccheck reports it,
# or racecheck shows the data it should have ordered.
timeout --kill-after=5 "${CUDA_TIDY_HANG_TIMEOUT:-10}" ./repro > plain.log 2>&1
status=$?
if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
  report confirmed watchdog plain.log "" "" "" "hang: still running after ${CUDA_TIDY_HANG_TIMEOUT:-10} s"
  exit 0
fi
grep -q '^cuda-tidy-repro: kernel finished' plain.log ||
  could_not_run "exit $status: $(tail -n 1 plain.log)"
)SH";
    Script += std::string("sanitize synccheck ") + BarrierFault +
              "\ncase $? in 0) exit 0 ;; 2) could_not_run \"$last_detail\" ;; "
              "esac\n";
    Script += std::string("sanitize racecheck ") + RaceFault +
              "\ncase $? in 0) exit 0 ;; 2) could_not_run \"$last_detail\" ;; "
              "esac\n";
    Script += "last_detail=\"no hang in ${CUDA_TIDY_HANG_TIMEOUT:-10} s; "
              "synccheck and racecheck reported nothing\"\n";
    Script += NotReproduced("watchdog,synccheck,racecheck", "plain.log");
    return Script;
  }
  if (Tool == "launch") {
    Script +=
        R"SH(# A launch that asks for more dynamic shared memory than it may fails.
timeout --kill-after=5 "$limit" ./repro > plain.log 2>&1
status=$?
failed=$(sed -n 's/^cuda-tidy-repro: launch failed: //p' plain.log | head -n 1)
if [ -n "$failed" ]; then
  report confirmed launch plain.log "" "" "" "the launch fails: $failed"
  exit 0
fi
grep -q '^cuda-tidy-repro: kernel finished' plain.log ||
  could_not_run "exit $status: $(tail -n 1 plain.log)"
last_detail="the launch succeeded"
)SH";
    Script += NotReproduced("launch", "plain.log");
    return Script;
  }
  if (Tool == "ncu") {
    std::string Op = expectString(Record, "op");
    double Ideal = 1, Predicted = 0;
    if (const json::Object *Expect = Record.getObject("expect")) {
      Ideal = Expect->getNumber("ideal").value_or(1);
      Predicted = Expect->getNumber("wavefronts").value_or(0);
    }
    Script += formatv(
        R"SH(# Nsight Compute's shared-memory counters: wavefronts per shared {0}
# instruction above {1} by more than 10 % are a bank conflict.
op={0}
ideal={1}
kernel={2}
ncu=$(find_tool ${{NCU:-} ncu "$cuda_bin/ncu") || could_not_run "no ncu (set NCU)"
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_$op.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum,smsp__sass_inst_executed_op_shared_$op.sum
timeout --kill-after=10 "$limit" "$ncu" --clock-control none --kernel-name "regex:^$kernel(\$|[(<])" --metrics "$metrics" --csv ./repro > ncu.log 2>&1
status=$?
[ "$status" -eq 0 ] || could_not_run "ncu: exit $status: $(tail -n 1 ncu.log)"
value() {{
  sed -n "s/.*\"$1\",\"[^\"]*\",\"\([^\"]*\)\"\$/\1/p" ncu.log | tr -d ',' | awk '{{s += $1} END {{print s + 0}'
}
wavefronts=$(value l1tex__data_pipe_lsu_wavefronts_mem_shared_op_$op.sum)
instructions=$(value smsp__sass_inst_executed_op_shared_$op.sum)
[ "$instructions" != 0 ] || could_not_run "no shared $op counters for $kernel in ncu's output"
ratio=$(awk "BEGIN {{printf \"%.2f\", $wavefronts / $instructions}")
detail="$ratio wavefronts per shared $op instruction where $ideal would do (predicted {3})"
if awk "BEGIN {{exit !($wavefronts / $instructions > $ideal * 1.1)}"; then
  report confirmed ncu ncu.log "" "" "" "$detail"
  exit 0
fi
report not-reproduced ncu ncu.log "" "" "" "$detail"
exit 1
)SH",
        Op.empty() ? "ld" : Op, Ideal,
        Facts.getString("kernel_name").value_or(""),
        formatv("{0:F1}", Predicted));
    return Script;
  }
  StringRef Sanitizer = Tool == "memcheck" ? "memcheck" : "racecheck";
  Script += "sanitize " + Sanitizer.str() + " " +
            (Tool == "memcheck" ? SharedFault : RaceFault) +
            "\ncase $? in 0) exit 0 ;; 2) could_not_run \"$last_detail\" ;; "
            "esac\n";
  Script += NotReproduced(Sanitizer, Sanitizer.str() + ".log");
  return Script;
}

std::string buildScript(const Finding &F, const ReproBuild &Build,
                        StringRef Folder) {
  // Folders of the sources relative to the build's, so that the
  // reproducer folder and the sources it names can move together (to a GPU
  // machine's checkout, say), as the included unit's path does.
  std::string Flags;
  std::string Here = realPath(Build.Directory);
  bool PathNext = false;
  for (const std::string &Flag : Build.Flags) {
    StringRef F = Flag;
    std::string Out = Flag;
    for (StringRef Prefix : {"-I", "-isystem", "-include"})
      if (PathNext || (F.starts_with(Prefix) && F.size() > Prefix.size() &&
                       sys::path::is_absolute(F.drop_front(Prefix.size())))) {
        StringRef Path = PathNext ? F : F.drop_front(Prefix.size());
        if (sys::path::is_absolute(Path))
          Out = (PathNext ? "" : Prefix.str()) +
                relativePath(realPath(Path), Here);
        break;
      }
    PathNext = F == "-I" || F == "-isystem" || F == "-include";
    Flags += " " + shellQuote(Out);
  }
  // The unit is linked alone: the functions of the program's other units
  // and libraries it names (cuBLAS for llm.c's mains, a sample's .cpp
  // half) are left unresolved, as only the kernel's launch runs.
  // The build's folder relative to the reproducer's; absolute when the two
  // share no top-level folder.
  std::string Relative =
      relativePath(realPath(Build.Directory), realPath(Folder));
  std::string BuildFolder = sys::path::is_absolute(Relative)
                                ? shellQuote(Relative)
                                : "\"$here\"/" + shellQuote(Relative);
  return formatv(
      R"SH(#!/bin/sh
# Builds the reproducer of {0}
# for the GPU of this machine (CUDA_TIDY_ARCH=90 names one; without a GPU,
# sm_{1}), with the compile command of the translation unit.
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${{NVCC:-{2}}
[ -x "$nvcc" ] || nvcc=$(command -v nvcc) || {{ echo "build.sh: no nvcc (set NVCC)"; exit 2; }
arch=${{CUDA_TIDY_ARCH:-$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -n 1 | tr -d ' .')}
[ -n "$arch" ] || arch={1}
cd {3} || exit 2
exec "$nvcc"{4} -arch=sm_$arch -lineinfo -Xlinker --unresolved-symbols=ignore-all -o "$here/repro" "$here/repro.cu"
)SH",
      findingKey(F), Build.DefaultArch.empty() ? "90" : Build.DefaultArch,
      Build.Nvcc, BuildFolder, Flags);
}

} // namespace

Expected<ReproSummary>
writeReproducers(std::vector<Finding> &Findings,
                 const std::map<std::string, json::Object> &Records,
                 StringRef Dir,
                 function_ref<ReproBuild(StringRef File)> BuildOf) {
  ReproSummary Summary;
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError("cannot make '" + Dir + "': " + EC.message());
  std::map<std::string, std::string> FolderFile;
  for (Finding &F : Findings) {
    if (!WitnessChecks.contains(F.Check))
      continue;
    std::string Name = reproFolderName(F);
    std::string Real = realPath(F.Where.File);
    auto [Known, New] = FolderFile.try_emplace(Name, Real);
    if (!New && Known->second != Real)
      Name += "-" + utohexstr(xxh3_64bits(Real) & 0xffff, true, 4);
    SmallString<256> Folder(Dir);
    sys::path::append(Folder, Name);
    if (std::error_code EC = sys::fs::create_directories(Folder))
      return createStringError("cannot make '" + Folder + "': " + EC.message());
    json::Object Facts{{"key", findingKey(F)},
                       {"check", F.Check},
                       {"file", Real},
                       {"line", F.Where.Line},
                       {"column", F.Where.Column},
                       {"message", F.Where.Message}};
    auto Record = Records.find(findingKey(F));
    std::string Why;
    Expected<std::string> Source = createStringError("");
    if (Record == Records.end()) {
      Why = "the check recorded no witness for this warning";
      ++Summary.NoRecord;
    } else {
      Facts["witness"] = json::Object(Record->second);
      Facts["tool"] = toolOf(Record->second);
      if (const json::Array *Lines = Record->second.getArray("lines"))
        Facts["lines"] = json::Array(*Lines);
      Source = reproducerSource(F, Record->second, Folder, Facts);
      if (!Source) {
        Why = toString(Source.takeError());
        ++Summary.CannotReproduce;
      }
    }
    auto Path = [&](StringRef File) {
      SmallString<256> P(Folder);
      sys::path::append(P, File);
      return std::string(P);
    };
    if (!Why.empty()) {
      Facts["cannot_reproduce"] = Why;
      DiagnosticLine Note = F.Where;
      Note.Message = "cannot reproduce: " + Why;
      Note.Excerpt.clear();
      F.Notes.push_back(std::move(Note));
      for (StringRef Stale : {"repro.cu", "build.sh", "run.sh"})
        sys::fs::remove(Path(Stale));
    } else {
      ++Summary.Written;
      if (!writeFile(Path("repro.cu"), *Source) ||
          !writeFile(Path("build.sh"),
                     buildScript(F, BuildOf(translationUnit(F, Record->second)),
                                 Folder),
                     true) ||
          !writeFile(Path("run.sh"), runScript(F, Record->second, Facts), true))
        return createStringError("cannot write in '" + Folder + "'");
    }
    if (!writeFile(Path("finding.json"),
                   formatv("{0:2}", json::Value(std::move(Facts))).str() +
                       "\n"))
      return createStringError("cannot write in '" + Folder + "'");
  }
  return Summary;
}

Expected<std::map<std::string, Confirmation>>
parseConfirmations(StringRef Text) {
  Expected<json::Value> Parsed = json::parse(Text);
  if (!Parsed)
    return Parsed.takeError();
  const json::Object *Top = Parsed->getAsObject();
  const json::Array *All = Top ? Top->getArray("confirmations") : nullptr;
  if (!All)
    return createStringError("no 'confirmations' list");
  std::map<std::string, Confirmation> Known;
  for (const json::Value &V : *All) {
    const json::Object *O = V.getAsObject();
    if (!O)
      continue;
    Confirmation C;
    std::optional<StringRef> Key = O->getString("key");
    if (const json::Object *Finding = O->getObject("finding"))
      C.Key = findingKey(Finding->getString("check").value_or(""),
                         Finding->getString("file").value_or(""),
                         Finding->getInteger("line").value_or(0),
                         Finding->getInteger("column").value_or(0));
    else if (Key)
      C.Key = Key->str();
    C.Outcome = O->getString("outcome").value_or("").str();
    C.Gpu = O->getString("gpu").value_or("").str();
    C.Tool = O->getString("tool").value_or("").str();
    C.Detail = O->getString("detail").value_or("").str();
    C.Findings = O->getInteger("findings").value_or(0);
    C.Hazards = O->getInteger("hazards").value_or(0);
    if (const json::Array *Lines = O->getArray("lines"))
      for (const json::Value &L : *Lines)
        if (std::optional<int64_t> N = L.getAsInteger())
          C.Lines.push_back(*N);
    Known[C.Key] = std::move(C);
  }
  return Known;
}

json::Value confirmationsToJson(ArrayRef<Confirmation> All) {
  json::Array List;
  for (const Confirmation &C : All) {
    json::Object O{{"key", C.Key},
                   {"outcome", C.Outcome},
                   {"gpu", C.Gpu},
                   {"tool", C.Tool},
                   {"findings", C.Findings},
                   {"hazards", C.Hazards},
                   {"lines", linesJson(C.Lines)}};
    if (!C.Detail.empty())
      O["detail"] = C.Detail;
    O["text"] = describeConfirmation(C);
    SmallVector<StringRef, 4> Parts;
    StringRef(C.Key).split(Parts, '|');
    if (Parts.size() == 4) {
      unsigned Line = 0, Column = 0;
      Parts[2].getAsInteger(10, Line);
      Parts[3].getAsInteger(10, Column);
      O["finding"] = json::Object{{"check", Parts[0]},
                                  {"file", Parts[1]},
                                  {"line", Line},
                                  {"column", Column}};
    }
    List.push_back(std::move(O));
  }
  return json::Object{{"confirmations", std::move(List)}};
}

std::string describeConfirmation(const Confirmation &C) {
  std::string Gpu = C.Gpu.empty() ? "the GPU" : C.Gpu;
  std::string Text;
  if (C.Outcome == "confirmed")
    Text = "confirmed on " + Gpu;
  else if (C.Outcome == "not-reproduced")
    Text = "not reproduced on " + Gpu;
  else if (C.Outcome == "cannot-reproduce")
    return "cannot reproduce: " + C.Detail;
  else
    Text = "could not run the reproducer" +
           (C.Gpu.empty() ? std::string() : " on " + C.Gpu);
  std::string What = C.Tool;
  if (C.Hazards)
    What += formatv(", {0} hazard{1}", C.Hazards, C.Hazards == 1 ? "" : "s");
  else if (C.Findings)
    What += formatv(", {0} report{1}", C.Findings, C.Findings == 1 ? "" : "s");
  else if (!C.Detail.empty())
    What += (What.empty() ? "" : ", ") + C.Detail;
  if (!C.Lines.empty()) {
    unsigned Low = *llvm::min_element(C.Lines),
             High = *llvm::max_element(C.Lines);
    What += Low == High
                ? formatv(" at line {0}", Low).str()
                : formatv(" between lines {0} and {1}", Low, High).str();
  }
  return What.empty() ? Text : Text + ": " + What;
}

void attachConfirmations(std::vector<Finding> &Findings,
                         const std::map<std::string, Confirmation> &Known) {
  for (Finding &F : Findings) {
    auto Found = Known.find(findingKey(F));
    if (Found == Known.end())
      continue;
    const Confirmation &C = Found->second;
    DiagnosticLine Note = F.Where;
    Note.Message = describeConfirmation(C);
    Note.Excerpt.clear();
    F.Notes.push_back(std::move(Note));
    json::Object Property{{"outcome", C.Outcome},
                          {"gpu", C.Gpu},
                          {"tool", C.Tool},
                          {"hazards", C.Hazards},
                          {"findings", C.Findings},
                          {"lines", linesJson(C.Lines)},
                          {"text", describeConfirmation(C)}};
    if (!C.Detail.empty())
      Property["detail"] = C.Detail;
    F.Confirmation = json::Value(std::move(Property));
  }
}

void parseRunSummary(StringRef Output, Confirmation &C) {
  SmallVector<StringRef, 32> Lines;
  Output.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    if (!Line.consume_front("cuda-tidy-confirm: "))
      continue;
    auto [Key, Value] = Line.split('=');
    if (Key == "outcome")
      C.Outcome = Value.str();
    else if (Key == "tool")
      C.Tool = Value.str();
    else if (Key == "gpu")
      C.Gpu = Value.str();
    else if (Key == "detail")
      C.Detail = Value.str();
    else if (Key == "findings")
      Value.getAsInteger(10, C.Findings);
    else if (Key == "hazards")
      Value.getAsInteger(10, C.Hazards);
    else if (Key == "lines") {
      C.Lines.clear();
      SmallVector<StringRef, 8> Numbers;
      Value.split(Numbers, ' ', -1, false);
      for (StringRef N : Numbers) {
        unsigned L = 0;
        if (!N.getAsInteger(10, L))
          C.Lines.push_back(L);
      }
    }
  }
}

} // namespace cuda_tidy
