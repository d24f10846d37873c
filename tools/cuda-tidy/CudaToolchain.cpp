//===--- CudaToolchain.cpp - flags for CUDA 13 under Clang 22 -------------===//

#include "CudaToolchain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
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
  if (sys::fs::exists(CompatHeader))
    Flags.push_back(("-include" + CompatHeader).str());
  return Flags;
}

} // namespace cuda_tidy
