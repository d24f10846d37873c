//===--- FindingsTest.cpp - clang-tidy's printed diagnostics as data ------===//

#include "Findings.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

namespace {

const char *Output =
    "/src/k.cu:16:5: warning: barrier '__syncthreads' may be reached by "
    "only some threads of the block [cuda-divergent-barrier]\n"
    "   16 |     __syncthreads();\n"
    "      |     ^\n"
    "/src/k.cu:14:7: note: threads of a block may disagree on this "
    "condition\n"
    "/src/a.cu:3:1: error: race [cuda-shared-memory-race,-warnings-as-errors]\n"
    "error: unable to handle compilation [clang-diagnostic-error]\n";

TEST(Findings, ParsesWarningsNotesAndErrors) {
  std::vector<Finding> Found = parseClangTidyOutput(Output);
  ASSERT_EQ(Found.size(), 3u);
  EXPECT_EQ(Found[0].Check, "cuda-divergent-barrier");
  EXPECT_EQ(Found[0].Where.Line, 16u);
  EXPECT_EQ(Found[0].Where.Excerpt, "   16 |     __syncthreads();\n"
                                    "      |     ^\n");
  ASSERT_EQ(Found[0].Notes.size(), 1u);
  EXPECT_EQ(Found[0].Notes[0].Column, 7u);
  EXPECT_EQ(Found[1].Level, "error");
  EXPECT_EQ(Found[1].Check, "cuda-shared-memory-race");
  EXPECT_TRUE(Found[1].PromotedToError);
  EXPECT_EQ(Found[2].Where.File, "");
  EXPECT_EQ(Found[2].Check, "clang-diagnostic-error");
}

TEST(Findings, PrintsAsClangTidyDid) {
  std::string Printed;
  llvm::raw_string_ostream OS(Printed);
  for (const Finding &F : parseClangTidyOutput(Output))
    printFinding(OS, F);
  EXPECT_EQ(Printed, Output);
}

TEST(Findings, SortsAndDropsRepeats) {
  std::string Twice = std::string(Output) + Output;
  std::vector<Finding> Found = parseClangTidyOutput(Twice);
  sortAndDeduplicate(Found);
  ASSERT_EQ(Found.size(), 3u);
  EXPECT_EQ(Found[0].Where.File, "");
  EXPECT_EQ(Found[1].Where.File, "/src/a.cu");
  EXPECT_EQ(Found[2].Where.File, "/src/k.cu");
}

TEST(Findings, AttachesExportedFixes) {
  std::vector<Finding> Found = parseClangTidyOutput(Output);
  attachExportedFixes(Found, R"(---
MainSourceFile:  '/src/k.cu'
Diagnostics:
  - DiagnosticName:  cuda-divergent-barrier
    DiagnosticMessage:
      Message:         'barrier ''__syncthreads'' may be reached by only some threads of the block'
      FilePath:        '/src/k.cu'
      FileOffset:      200
      Replacements:    []
    Notes:
      - Message:         'threads of a block may disagree on this condition'
        FilePath:        '/src/k.cu'
        FileOffset:      100
        Replacements:
          - FilePath:        '/src/k.cu'
            Offset:          100
            Length:          3
            ReplacementText: 'true'
    Level:           Warning
...
)");
  ASSERT_EQ(Found[0].Fixes.size(), 1u);
  EXPECT_EQ(Found[0].Fixes[0].Offset, 100u);
  EXPECT_EQ(Found[0].Fixes[0].Text, "true");
  EXPECT_TRUE(Found[1].Fixes.empty());
  attachExportedFixes(Found, "{not yaml");
}

std::string functionAt(llvm::StringRef Source, llvm::StringRef Marker) {
  llvm::StringRef Before = Source.substr(0, Source.find(Marker));
  unsigned Line = Before.count('\n') + 1;
  unsigned Column = Before.size() - Before.rfind('\n');
  return enclosingFunction(Source, Line, Column);
}

TEST(Findings, EnclosingFunction) {
  llvm::StringRef Source = R"(#include <x.h>
#define BODY { int in_macro; }
namespace ns {
struct S {
  __device__ float get() const { return MEMBER; }
};
template <int N>
__global__ void __launch_bounds__(256) kernel(float *a) {
  // a comment with a brace {
  const char *s = "}";
  if (threadIdx.x < N) {
    auto f = [&](int i) { return LAMBDA; };
    for (;;) { LOOP; }
  }
  KERNEL_LOOP(i, n) { IN_MACRO_LOOP; }
}
}
void S2::~S2() { DESTRUCTOR; }
int global = 1; FILE_SCOPE
)";
  auto At = [&](llvm::StringRef Marker) { return functionAt(Source, Marker); };
  EXPECT_EQ(At("MEMBER"), "get");
  EXPECT_EQ(At("LAMBDA"), "kernel");
  EXPECT_EQ(At("LOOP;"), "kernel");
  EXPECT_EQ(At("IN_MACRO_LOOP"), "kernel");
  EXPECT_EQ(At("DESTRUCTOR"), "S2::~S2");
  EXPECT_EQ(At("FILE_SCOPE"), "");
  EXPECT_EQ(enclosingFunction(Source, 1000, 1), "");
}

} // namespace
