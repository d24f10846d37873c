//===--- CudaToolchainTest.cpp - flags for CUDA 13 under Clang 22 ---------===//

#include "CudaToolchain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using cuda_tidy::cudaToolchainFlags;
using testing::ElementsAre;

namespace {

/// A toolkit in a temporary directory: include/cuda.h with \p Version, and
/// include/cccl when \p WithCccl.
class FakeToolkit {
public:
  FakeToolkit(unsigned Version, bool WithCccl) {
    EXPECT_FALSE(llvm::sys::fs::createUniqueDirectory("cuda-toolkit", Root));
    write({"include", "cuda.h"}, "#pragma once\n#define CUDA_VERSION " +
                                     std::to_string(Version) + "\n");
    if (WithCccl)
      EXPECT_FALSE(
          llvm::sys::fs::create_directories(path({"include", "cccl"})));
  }
  ~FakeToolkit() { llvm::sys::fs::remove_directories(Root); }

  std::string path(std::initializer_list<llvm::StringRef> Parts) const {
    llvm::SmallString<256> Path(Root);
    for (llvm::StringRef Part : Parts)
      llvm::sys::path::append(Path, Part);
    return std::string(Path);
  }

  void write(std::initializer_list<llvm::StringRef> Parts,
             llvm::StringRef Text) const {
    std::string Path = path(Parts);
    EXPECT_FALSE(
        llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Path)));
    std::error_code EC;
    llvm::raw_fd_ostream Out(Path, EC);
    EXPECT_FALSE(EC);
    Out << Text;
  }

  std::string root() const { return std::string(Root); }

private:
  llvm::SmallString<128> Root;
};

TEST(CudaToolchain, ReadsCudaVersion) {
  FakeToolkit Cuda(13000, /*WithCccl=*/false);
  EXPECT_EQ(cuda_tidy::readCudaVersion(Cuda.root()), 13000u);
  EXPECT_EQ(cuda_tidy::readCudaVersion(Cuda.path({"nowhere"})), 0u);
}

TEST(CudaToolchain, Cuda13GetsSdkVersionAndCccl) {
  FakeToolkit Cuda(13000, /*WithCccl=*/true);
  Cuda.write({"share", "compat.h"}, "");
  std::string Compat = Cuda.path({"share", "compat.h"});
  EXPECT_THAT(cudaToolchainFlags(Cuda.root(), Compat),
              ElementsAre("--cuda-path=" + Cuda.root(), "-Xclang",
                          "-target-sdk-version=12.9",
                          "-isystem" + Cuda.path({"include", "cccl"}),
                          "-Wno-unknown-cuda-version", "-include" + Compat));
}

TEST(CudaToolchain, SupportedToolkitKeepsItsVersion) {
  // A toolkit Clang 22 knows needs no SDK version, and one without cccl/ no
  // include for it; a compat header that is not there is not included.
  FakeToolkit Cuda(12040, /*WithCccl=*/false);
  EXPECT_THAT(
      cudaToolchainFlags(Cuda.root(), Cuda.path({"missing.h"})),
      ElementsAre("--cuda-path=" + Cuda.root(), "-Wno-unknown-cuda-version"));
}

TEST(CudaToolchain, CompatHeaderBesideBin) {
  EXPECT_EQ(cuda_tidy::findCompatHeader("/opt/cuda-tidy/bin/cuda-clangd"),
            "/opt/cuda-tidy/share/cuda-tidy/cuda_tidy_nvcc_compat.h");
}

} // namespace
