//===--- NvccDatabaseTest.cpp - nvcc command lines to Clang's -------------===//

#include "NvccDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

using cuda_tidy::translateNvccCommand;
using testing::ElementsAre;

namespace {

std::vector<std::string> translate(std::vector<std::string> Args) {
  return translateNvccCommand(Args, "/build");
}

TEST(NvccDatabase, RecognisesNvcc) {
  EXPECT_TRUE(cuda_tidy::isNvcc("/usr/local/cuda/bin/nvcc"));
  EXPECT_TRUE(cuda_tidy::isNvcc("nvcc"));
  EXPECT_FALSE(cuda_tidy::isNvcc("/usr/bin/clang++"));
  EXPECT_FALSE(cuda_tidy::isNvcc("nvcc-wrapper"));
}

TEST(NvccDatabase, ArchitecturesBecomeOne) {
  // clang-tidy needs exactly one device job: the first architecture wins.
  EXPECT_THAT(translate({"nvcc", "-gencode", "arch=compute_80,code=sm_80",
                         "-gencode=arch=compute_90,code=[sm_90,compute_90]",
                         "-c", "k.cu"}),
              ElementsAre("clang++", "-c", "k.cu", "--cuda-gpu-arch=sm_80"));
  EXPECT_THAT(translate({"nvcc", "-arch=compute_90", "k.cu"}),
              ElementsAre("clang++", "k.cu", "--cuda-gpu-arch=sm_90"));
  EXPECT_THAT(translate({"nvcc", "--gpu-architecture", "sm_90a", "k.cu"}),
              ElementsAre("clang++", "k.cu", "--cuda-gpu-arch=sm_90a"));
  EXPECT_THAT(translate({"nvcc", "-arch=native", "k.cu"}),
              ElementsAre("clang++", "k.cu"));
}

TEST(NvccDatabase, NoArchitectureIsTheToolkitsDefault) {
  // nvcc compiles for its toolkit's default architecture when none is
  // named: sm_75 from CUDA 13 on, whose headers dropped Clang's sm_52.
  llvm::SmallString<128> Cuda;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("cuda-13", Cuda));
  llvm::SmallString<128> Include(Cuda);
  llvm::sys::path::append(Include, "include");
  ASSERT_FALSE(llvm::sys::fs::create_directories(Include));
  llvm::SmallString<128> Header(Include);
  llvm::sys::path::append(Header, "cuda.h");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(Header, EC);
    ASSERT_FALSE(EC);
    Out << "#define CUDA_VERSION 13000\n";
  }
  EXPECT_THAT(translateNvccCommand({"nvcc", "-c", "k.cu"}, "/build", Cuda),
              ElementsAre("clang++", "-c", "k.cu", "--cuda-gpu-arch=sm_75"));
  // An architecture the command names stays.
  EXPECT_THAT(
      translateNvccCommand({"nvcc", "-arch=sm_90", "k.cu"}, "/build", Cuda),
      ElementsAre("clang++", "k.cu", "--cuda-gpu-arch=sm_90"));
  // The toolkit of an nvcc at <toolkit>/bin/nvcc is the one that counts.
  llvm::SmallString<128> Nvcc(Cuda);
  llvm::sys::path::append(Nvcc, "bin", "nvcc");
  EXPECT_THAT(translateNvccCommand({std::string(Nvcc), "k.cu"}, "/build"),
              ElementsAre("clang++", "--cuda-path=" + std::string(Cuda), "k.cu",
                          "--cuda-gpu-arch=sm_75"));
  llvm::sys::fs::remove_directories(Cuda);
}

TEST(NvccDatabase, SpellingsThatChange) {
  EXPECT_THAT(translate({"nvcc", "-x", "cu", "-rdc=true", "--std", "c++17",
                         "--default-stream", "per-thread", "k.cu"}),
              ElementsAre("clang++", "-x", "cuda", "-fgpu-rdc", "-std=c++17",
                          "-fgpu-default-stream=per-thread", "k.cu"));
  EXPECT_THAT(translate({"nvcc", "-dc", "k.cu"}),
              ElementsAre("clang++", "-fgpu-rdc", "-c", "k.cu"));
  EXPECT_THAT(translate({"nvcc", "-rdc", "false", "k.cu"}),
              ElementsAre("clang++", "k.cu"));
}

TEST(NvccDatabase, HostCompilerFlagsAreUnpacked) {
  EXPECT_THAT(translate({"nvcc", "-Xcompiler=-fPIC,-Wall,-rdynamic",
                         "--compiler-options", "-DX=1", "k.cu"}),
              ElementsAre("clang++", "-fPIC", "-Wall", "-DX=1", "k.cu"));
}

TEST(NvccDatabase, NvccOnlyFlagsAreDropped) {
  EXPECT_THAT(translate({"nvcc",
                         "--expt-relaxed-constexpr",
                         "-lineinfo",
                         "-G",
                         "-Xptxas",
                         "-v",
                         "-ccbin",
                         "/usr/bin/g++",
                         "--use_fast_math",
                         "-maxrregcount=64",
                         "--diag-suppress=177",
                         "-Werror",
                         "all-warnings",
                         "-forward-unknown-to-host-compiler",
                         "--threads",
                         "4",
                         "-O3",
                         "-I/inc",
                         "-isystem",
                         "/sys",
                         "-DNDEBUG",
                         "-o",
                         "k.o",
                         "k.cu"}),
              ElementsAre("clang++", "-O3", "-I/inc", "-isystem", "/sys",
                          "-DNDEBUG", "-o", "k.o", "k.cu"));
}

TEST(NvccDatabase, OptionsFilesAreRead) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-db-test", Dir));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "includes.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    ASSERT_FALSE(EC);
    Out << "-I/project/include \"-DNAME=a b\"\n--expt-extended-lambda\n";
  }
  EXPECT_THAT(
      translateNvccCommand({"nvcc", "--options-file", "includes.rsp", "k.cu"},
                           Dir),
      ElementsAre("clang++", "-I/project/include", "-DNAME=a b", "k.cu"));
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccDatabase, DatabasesWithoutNvccAreLeftAlone) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-db-test", Dir));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    ASSERT_FALSE(EC);
    Out << R"([{"directory": "/b", "file": "k.cu",
               "arguments": ["clang++", "-c", "k.cu"]}])";
  }
  llvm::Expected<bool> Translated = cuda_tidy::translateDatabase(Dir, Dir);
  ASSERT_TRUE(static_cast<bool>(Translated));
  EXPECT_FALSE(*Translated);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccDatabase, FlagsThatRunOrWriteAreDropped) {
  using cuda_tidy::withoutUnsafeFlags;
  EXPECT_THAT(withoutUnsafeFlags({"/project/tools/clang++",
                                  "-Xclang",
                                  "-dependency-file",
                                  "-Xclang",
                                  "/tmp/x.d",
                                  "-mllvm",
                                  "-stats",
                                  "--serialize-diagnostics",
                                  "x.dia",
                                  "-fmodules",
                                  "-fmodules-cache-path=/tmp/mc",
                                  "-fplugin=evil.so",
                                  "-B/project/bin",
                                  "--config=evil.cfg",
                                  "-Wp,-MD,x.d",
                                  "--offload-arch=native",
                                  "--nvptx-arch-tool=/project/probe",
                                  "-Xarch_device",
                                  "-O3",
                                  "-O2",
                                  "-DX=1",
                                  "-c",
                                  "k.cu"},
                                 "/build"),
              ElementsAre("clang++", "-O2", "-DX=1", "-c", "k.cu"));
}

TEST(NvccDatabase, ResponseFilesAreReadThenFiltered) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-db-test", Dir));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "flags.rsp");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    ASSERT_FALSE(EC);
    Out << "-DA=1 -Xclang -load -Xclang evil.so\n";
  }
  EXPECT_THAT(
      cuda_tidy::withoutUnsafeFlags({"clang++", "@flags.rsp", "k.cu"}, Dir),
      ElementsAre("clang++", "-DA=1", "k.cu"));
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccDatabase, UnsafeClangDatabasesAreRewritten) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-db-test", Dir));
  llvm::SmallString<128> Sub(Dir);
  llvm::sys::path::append(Sub, "sub");
  ASSERT_FALSE(llvm::sys::fs::create_directory(Sub));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    ASSERT_FALSE(EC);
    Out << R"([{"directory": "/b", "file": "k.cu",
               "command": "clang++ --serialize-diagnostics x.dia -c k.cu"}])";
  }
  // As clang-tidy does, -p looks in the parents of a folder without one.
  llvm::SmallString<128> Out;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-db-out", Out));
  llvm::Expected<bool> Translated = cuda_tidy::translateDatabase(Sub, Out);
  ASSERT_TRUE(static_cast<bool>(Translated));
  EXPECT_TRUE(*Translated);
  llvm::SmallString<128> Written(Out);
  llvm::sys::path::append(Written, "compile_commands.json");
  auto Text = llvm::MemoryBuffer::getFile(Written);
  ASSERT_TRUE(static_cast<bool>(Text));
  EXPECT_THAT((*Text)->getBuffer().str(),
              testing::Not(testing::HasSubstr("serialize")));
  llvm::sys::fs::remove_directories(Dir);
  llvm::sys::fs::remove_directories(Out);
}

TEST(NvccDatabase, MissingDatabaseDirectoryIsAnError) {
  llvm::Expected<bool> Translated =
      cuda_tidy::translateDatabase("/nonexistent/build", "/nonexistent/out");
  ASSERT_FALSE(static_cast<bool>(Translated));
  EXPECT_THAT(llvm::toString(Translated.takeError()),
              testing::HasSubstr("is not a directory"));
}

TEST(NvccDatabase, BadDatabasesAreErrors) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("nvcc-db-test", Dir));
  llvm::SmallString<128> File(Dir);
  llvm::sys::path::append(File, "compile_commands.json");
  {
    std::error_code EC;
    llvm::raw_fd_ostream Out(File, EC);
    ASSERT_FALSE(EC);
    Out << R"({"not": "an array"})";
  }
  llvm::Expected<bool> Translated = cuda_tidy::translateDatabase(Dir, Dir);
  ASSERT_FALSE(static_cast<bool>(Translated));
  EXPECT_THAT(llvm::toString(Translated.takeError()),
              testing::HasSubstr("is not a JSON array of compile commands"));
  llvm::sys::fs::remove_directories(Dir);
}

} // namespace
