//===--- CudaToolchain.cpp - flags for CUDA 13 under Clang 22 -------------===//

#include "CudaToolchain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <optional>

using namespace llvm;

namespace cuda_tidy {

std::string findCuda() {
  for (const char *Var : {"CUDA_PATH", "CUDA_HOME"})
    if (std::optional<std::string> Env = sys::Process::GetEnv(Var))
      if (sys::fs::is_directory(*Env))
        return *Env;
  return sys::fs::is_directory("/usr/local/cuda") ? "/usr/local/cuda" : "";
}

unsigned readCudaVersion(StringRef Cuda) {
  SmallString<256> Header(Cuda);
  sys::path::append(Header, "include", "cuda.h");
  auto Buffer = MemoryBuffer::getFile(Header);
  if (!Buffer)
    return 0;
  StringRef Text = (*Buffer)->getBuffer();
  StringRef Define = "#define CUDA_VERSION ";
  size_t Pos = Text.find(Define);
  if (Pos == StringRef::npos)
    return 0;
  unsigned Version = 0;
  Text.substr(Pos + Define.size()).ltrim().consumeInteger(10, Version);
  return Version;
}

ToolkitVersion readToolkitVersion(StringRef Cuda) {
  ToolkitVersion V;
  unsigned Version = readCudaVersion(Cuda);
  if (!Version)
    return V;
  V.Major = Version / 1000;
  V.Minor = Version % 1000 / 10;
  SmallString<256> Json(Cuda);
  sys::path::append(Json, "version.json");
  if (auto Buffer = MemoryBuffer::getFile(Json)) {
    if (Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer())) {
      const json::Object *Root = Parsed->getAsObject();
      const json::Object *Nvcc = Root ? Root->getObject("cuda_nvcc") : nullptr;
      std::optional<StringRef> Text =
          Nvcc ? Nvcc->getString("version") : std::nullopt;
      SmallVector<StringRef, 3> Parts;
      if (Text)
        Text->split(Parts, '.');
      if (Parts.size() == 3 && !Parts[2].getAsInteger(10, V.Build))
        return V;
      V.Build = 0;
    } else {
      consumeError(Parsed.takeError());
    }
  }
  SmallString<256> DistInfo(Cuda);
  sys::path::append(DistInfo, "dist-info");
  std::error_code EC;
  for (sys::fs::directory_iterator It(DistInfo, EC), End; It != End && !EC;
       It.increment(EC)) {
    StringRef Name = sys::path::filename(It->path());
    if (!Name.consume_front("nvidia_cuda_nvcc-") ||
        !Name.consume_back(".dist-info"))
      continue;
    SmallVector<StringRef, 3> Parts;
    Name.split(Parts, '.');
    if (Parts.size() == 3 && !Parts[2].getAsInteger(10, V.Build))
      return V;
    V.Build = 0;
  }
  return V;
}

std::string defaultGpuArch(StringRef Cuda) {
  unsigned Version = readCudaVersion(Cuda);
  if (!Version)
    return "";
  return Version >= 13000 ? "sm_75" : "sm_52";
}

bool namesGpuArch(ArrayRef<std::string> Args) {
  for (StringRef Arg : Args)
    for (StringRef Flag : {"--cuda-gpu-arch=", "--offload-arch=",
                           "-offload-arch=", "--no-offload-arch="})
      if (Arg.starts_with(Flag))
        return true;
  return false;
}

std::string barrierHeaderWithDestructor(StringRef Cuda) {
  for (StringRef Under : {"include/cccl", "include"}) {
    SmallString<256> Header(Cuda);
    sys::path::append(Header, Under, "cuda", "__barrier",
                      "barrier_block_scope.h");
    auto Buffer = MemoryBuffer::getFile(Header);
    if (Buffer && (*Buffer)->getBuffer().contains("~barrier()"))
      return std::string(Header);
  }
  return "";
}

namespace {

/// \p Text without the body of its first `~barrier()`: the declarator, the
/// attributes before it on its line and the braces it opens; nullopt when
/// it has none or its braces do not balance.
std::optional<std::string> withoutBarrierDestructor(StringRef Text) {
  size_t Name = Text.find("~barrier()");
  if (Name == StringRef::npos)
    return std::nullopt;
  size_t LineStart = Text.rfind('\n', Name);
  LineStart = LineStart == StringRef::npos ? 0 : LineStart + 1;
  size_t Open = Text.find('{', Name);
  if (Open == StringRef::npos)
    return std::nullopt;
  unsigned Depth = 0;
  for (size_t I = Open; I < Text.size(); ++I) {
    if (Text[I] == '{')
      ++Depth;
    else if (Text[I] == '}' && --Depth == 0)
      return (Text.take_front(LineStart) +
              "  // cuda-tidy: the destructor is left out, so that Clang "
              "accepts __shared__ barriers as nvcc does.\n" +
              Text.drop_front(I + 1))
          .str();
  }
  return std::nullopt;
}

/// Writes \p Text to \p Path unless a file is there already, through a
/// temporary file renamed into place, so that concurrent runs never see a
/// partial file; false on failure.
bool writeOnce(StringRef Path, StringRef Text) {
  if (sys::fs::exists(Path))
    return true;
  SmallString<256> Temporary;
  int FD;
  if (sys::fs::createUniqueFile(Path + ".tmp-%%%%%%", FD, Temporary))
    return false;
  {
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    if (Out.has_error()) {
      Out.clear_error();
      sys::fs::remove(Temporary);
      return false;
    }
  }
  if (sys::fs::rename(Temporary, Path)) {
    sys::fs::remove(Temporary);
    return sys::fs::exists(Path);
  }
  return true;
}

} // namespace

std::string sharedVariableOverlay(StringRef Header, StringRef CacheDir) {
  auto Buffer = MemoryBuffer::getFile(Header);
  if (!Buffer)
    return "";
  std::optional<std::string> Patched =
      withoutBarrierDestructor((*Buffer)->getBuffer());
  if (!Patched || sys::fs::create_directories(CacheDir))
    return "";
  std::string Key = utohexstr(
      xxh3_64bits(Header.str() + '\0' + (*Buffer)->getBuffer().str()));
  SmallString<256> Copy(CacheDir), Overlay(CacheDir);
  sys::path::append(Copy, "barrier_block_scope-" + Key + ".h");
  sys::path::append(Overlay, "overlay-" + Key + ".yaml");
  json::Object Root{
      {"version", 0},
      {"roots", json::Array{json::Object{{"type", "file"},
                                         {"name", Header},
                                         {"external-contents", Copy.str()}}}}};
  std::string Yaml;
  raw_string_ostream(Yaml) << json::Value(std::move(Root)) << "\n";
  if (!writeOnce(Copy, *Patched) || !writeOnce(Overlay, Yaml))
    return "";
  return std::string(Overlay);
}

std::string toolkitOverlay(StringRef Cuda) {
  std::string Header = barrierHeaderWithDestructor(Cuda);
  return Header.empty() ? "" : sharedVariableOverlay(Header, cacheDirectory());
}

std::string cacheDirectory() {
  SmallString<256> Dir;
  if (std::optional<std::string> Xdg = sys::Process::GetEnv("XDG_CACHE_HOME");
      Xdg && sys::path::is_absolute(*Xdg))
    Dir = *Xdg;
  else if (std::optional<std::string> Home = sys::Process::GetEnv("HOME");
           Home && sys::path::is_absolute(*Home))
    sys::path::append(Dir, *Home, ".cache");
  else
    sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
  sys::path::append(Dir, "cuda-tidy");
  return std::string(Dir);
}

std::string findCompatHeader(StringRef Executable) {
  SmallString<256> Path(
      sys::path::parent_path(sys::path::parent_path(Executable)));
  sys::path::append(Path, "share", "cuda-tidy", "cuda_tidy_nvcc_compat.h");
  return std::string(Path);
}

std::vector<std::string> cudaToolchainFlags(StringRef Cuda,
                                            StringRef CompatHeader) {
  std::vector<std::string> Flags = {("--cuda-path=" + Cuda).str()};
  if (readCudaVersion(Cuda) > NewestSupportedCuda) {
    Flags.push_back("-Xclang");
    Flags.push_back("-target-sdk-version=12.9");
  }
  SmallString<256> Cccl(Cuda);
  sys::path::append(Cccl, "include", "cccl");
  if (sys::fs::is_directory(Cccl))
    Flags.push_back("-isystem" + std::string(Cccl));
  Flags.push_back("-Wno-unknown-cuda-version");
  if (ToolkitVersion V = readToolkitVersion(Cuda); V.Major) {
    Flags.push_back("-D__CUDA_TIDY_CUDACC_VER_MAJOR__=" +
                    std::to_string(V.Major));
    Flags.push_back("-D__CUDA_TIDY_CUDACC_VER_MINOR__=" +
                    std::to_string(V.Minor));
    Flags.push_back("-D__CUDA_TIDY_CUDACC_VER_BUILD__=" +
                    std::to_string(V.Build));
  }
  if (sys::fs::exists(CompatHeader))
    Flags.push_back(("-include" + CompatHeader).str());

  return Flags;
}

} // namespace cuda_tidy
