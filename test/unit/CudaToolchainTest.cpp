//===--- CudaToolchainTest.cpp - flags for CUDA 13 under Clang 22 ---------===//

#include "CudaToolchain.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include <cstring>

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
  EXPECT_THAT(
      cudaToolchainFlags(Cuda.root(), Compat),
      ElementsAre(
          "--cuda-path=" + Cuda.root(), "-Xclang", "-target-sdk-version=12.9",
          "-isystem" + Cuda.path({"include", "cccl"}),
          "-Wno-unknown-cuda-version", "-D__CUDA_TIDY_CUDACC_VER_MAJOR__=13",
          "-D__CUDA_TIDY_CUDACC_VER_MINOR__=0",
          "-D__CUDA_TIDY_CUDACC_VER_BUILD__=0", "-include" + Compat));
}

TEST(CudaToolchain, SupportedToolkitKeepsItsVersion) {
  // A toolkit Clang 22 knows needs no SDK version, and one without cccl/ no
  // include for it; a compat header that is not there is not included.
  FakeToolkit Cuda(12040, /*WithCccl=*/false);
  EXPECT_THAT(cudaToolchainFlags(Cuda.root(), Cuda.path({"missing.h"})),
              ElementsAre("--cuda-path=" + Cuda.root(),
                          "-Wno-unknown-cuda-version",
                          "-D__CUDA_TIDY_CUDACC_VER_MAJOR__=12",
                          "-D__CUDA_TIDY_CUDACC_VER_MINOR__=4",
                          "-D__CUDA_TIDY_CUDACC_VER_BUILD__=0"));
}

TEST(CudaToolchain, UnknownVersionDefinesNoVersionMacros) {
  FakeToolkit Cuda(13000, /*WithCccl=*/false);
  llvm::sys::fs::remove(Cuda.path({"include", "cuda.h"}));
  EXPECT_THAT(
      cudaToolchainFlags(Cuda.root(), Cuda.path({"missing.h"})),
      ElementsAre("--cuda-path=" + Cuda.root(), "-Wno-unknown-cuda-version"));
}

TEST(CudaToolchain, NvccBuildFromVersionJson) {
  FakeToolkit Cuda(12080, /*WithCccl=*/false);
  Cuda.write({"version.json"}, R"({"cuda": {"version": "12.8.1"},
      "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.8.93"}})");
  cuda_tidy::ToolkitVersion V = cuda_tidy::readToolkitVersion(Cuda.root());
  EXPECT_EQ(V.Major, 12u);
  EXPECT_EQ(V.Minor, 8u);
  EXPECT_EQ(V.Build, 93u);
}

TEST(CudaToolchain, NvccBuildFromDistInfo) {
  // A pip-style toolkit (the one at /usr/local/cuda here) has no
  // version.json, but a dist-info folder per component.
  FakeToolkit Cuda(13000, /*WithCccl=*/false);
  Cuda.write({"dist-info", "nvidia_cuda_crt-13.0.77.dist-info", "METADATA"},
             "");
  Cuda.write({"dist-info", "nvidia_cuda_nvcc-13.0.88.dist-info", "METADATA"},
             "");
  cuda_tidy::ToolkitVersion V = cuda_tidy::readToolkitVersion(Cuda.root());
  EXPECT_EQ(V.Major, 13u);
  EXPECT_EQ(V.Minor, 0u);
  EXPECT_EQ(V.Build, 88u);
}

TEST(CudaToolchain, DefaultArchitectureIsTheToolkits) {
  FakeToolkit Cuda13(13000, /*WithCccl=*/false);
  FakeToolkit Cuda12(12080, /*WithCccl=*/false);
  EXPECT_EQ(cuda_tidy::defaultGpuArch(Cuda13.root()), "sm_75");
  EXPECT_EQ(cuda_tidy::defaultGpuArch(Cuda12.root()), "sm_52");
  EXPECT_EQ(cuda_tidy::defaultGpuArch(Cuda13.path({"nowhere"})), "");
}

TEST(CudaToolchain, NamesGpuArch) {
  EXPECT_TRUE(cuda_tidy::namesGpuArch({"-O2", "--cuda-gpu-arch=sm_90"}));
  EXPECT_TRUE(cuda_tidy::namesGpuArch({"--offload-arch=sm_80"}));
  EXPECT_FALSE(cuda_tidy::namesGpuArch({"-O2", "-std=c++17"}));
}

TEST(CudaToolchain, OverlayShowsTheBarrierWithoutItsDestructor) {
  FakeToolkit Cuda(13000, /*WithCccl=*/true);
  std::string Header = Cuda.path(
      {"include", "cccl", "cuda", "__barrier", "barrier_block_scope.h"});
  Cuda.write(
      {"include", "cccl", "cuda", "__barrier", "barrier_block_scope.h"},
      "class barrier {\n"
      "public:\n"
      "  barrier() = default;\n"
      "  __device__ ~barrier()\n"
      "  {\n"
      "    if (x) { asm volatile(\"mbarrier.inval.shared.b64 [%0];\"); }\n"
      "  }\n"
      "  int x;\n"
      "};\n");
  EXPECT_EQ(cuda_tidy::barrierHeaderWithDestructor(Cuda.root()), Header);
  std::string Cache = Cuda.path({"cache"});
  std::string Overlay = cuda_tidy::sharedVariableOverlay(Header, Cache);
  ASSERT_FALSE(Overlay.empty());
  // The same header gives the same files: concurrent runs share them.
  EXPECT_EQ(cuda_tidy::sharedVariableOverlay(Header, Cache), Overlay);
  auto Yaml = llvm::MemoryBuffer::getFile(Overlay);
  ASSERT_TRUE(bool(Yaml));
  EXPECT_THAT((*Yaml)->getBuffer().str(),
              testing::HasSubstr("\"name\":\"" + Header + "\""));
  llvm::StringRef Text = (*Yaml)->getBuffer();
  size_t At = Text.find("\"external-contents\":\"");
  ASSERT_NE(At, llvm::StringRef::npos);
  llvm::StringRef Copy =
      Text.drop_front(At + strlen("\"external-contents\":\"")).split('"').first;
  auto Patched = llvm::MemoryBuffer::getFile(Copy);
  ASSERT_TRUE(bool(Patched));
  EXPECT_EQ((*Patched)->getBuffer().str(),
            "class barrier {\n"
            "public:\n"
            "  barrier() = default;\n"
            "  // cuda-tidy: the destructor is left out, so that Clang accepts "
            "__shared__ barriers as nvcc does.\n"
            "\n"
            "  int x;\n"
            "};\n");
}

TEST(CudaToolchain, NoOverlayWithoutADestructor) {
  FakeToolkit Cuda(12020, /*WithCccl=*/false);
  Cuda.write({"include", "cuda", "__barrier", "barrier_block_scope.h"},
             "class barrier { public: barrier() = default; };\n");
  EXPECT_EQ(cuda_tidy::barrierHeaderWithDestructor(Cuda.root()), "");
  EXPECT_EQ(cuda_tidy::toolkitOverlay(Cuda.root()), "");
}

TEST(CudaToolchain, CompatHeaderBesideBin) {
  EXPECT_EQ(cuda_tidy::findCompatHeader("/opt/cuda-tidy/bin/cuda-clangd"),
            "/opt/cuda-tidy/share/cuda-tidy/cuda_tidy_nvcc_compat.h");
}

} // namespace
