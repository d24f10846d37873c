//===--- GateTest.cpp - baseline, diff filter, configuration --------------===//

#include "Gate.h"
#include "Baseline.h"
#include "Config.h"
#include "DiffFilter.h"
#include "LegacyCuda.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

namespace {

Finding finding(std::string File, unsigned Line, std::string Function,
                std::string Message = "race on 'a'") {
  Finding F;
  F.Level = "warning";
  F.Check = "cuda-shared-memory-race";
  F.Where.File = std::move(File);
  F.Where.Line = Line;
  F.Where.Column = 1;
  F.Where.Message = std::move(Message);
  F.Function = std::move(Function);
  return F;
}

TEST(Config, NamesChecks) {
  EXPECT_TRUE(configNamesChecks("{Checks: '-*,cuda-*'}"));
  EXPECT_TRUE(configNamesChecks("{\"Checks\": \"cuda-*\"}"));
  EXPECT_TRUE(configNamesChecks("CheckOptions:\n  a.b: 1\nChecks: x\n"));
  EXPECT_FALSE(configNamesChecks("{CheckOptions: {cuda-x.Strict: true}}"));
  EXPECT_FALSE(configNamesChecks("CheckOptions:\n  - key: Checks\n"));
  EXPECT_FALSE(configNamesChecks(""));
  EXPECT_FALSE(configNamesChecks("{not: [yaml"));
}

TEST(Baseline, MatchesByFunctionNotLine) {
  std::vector<Finding> Today = {finding("/repo/src/k.cu", 10, "kernel"),
                                finding("/repo/src/k.cu", 20, "kernel"),
                                finding("/repo/src/h.cuh", 5, "helper")};
  llvm::json::Value Written = makeBaseline(Today, "/repo");
  std::string Text;
  llvm::raw_string_ostream(Text) << Written;
  auto Entries = parseBaseline(Text);
  ASSERT_TRUE(bool(Entries)) << llvm::toString(Entries.takeError());
  ASSERT_EQ(Entries->size(), 2u);
  EXPECT_EQ((*Entries)[1].File, "src/k.cu");
  EXPECT_EQ((*Entries)[1].Count, 2u);

  // Moved lines, one copy more in 'kernel', 'helper' fixed.
  std::vector<Finding> Later = {finding("/repo/src/k.cu", 12, "kernel"),
                                finding("/repo/src/k.cu", 22, "kernel"),
                                finding("/repo/src/k.cu", 30, "kernel"),
                                finding("/repo/src/k.cu", 40, "other")};
  BaselineOutcome Outcome = applyBaseline(*Entries, Later, "/repo");
  EXPECT_EQ(Outcome.Suppressed, 2u);
  ASSERT_EQ(Later.size(), 2u);
  EXPECT_EQ(Later[0].Where.Line, 30u);
  EXPECT_EQ(Later[1].Function, "other");
  ASSERT_EQ(Outcome.NoLongerSeen.size(), 1u);
  EXPECT_EQ(Outcome.NoLongerSeen[0].Function, "helper");
}

TEST(Baseline, RejectsWhatIsNotOne) {
  EXPECT_FALSE(bool(parseBaseline("[")));
  EXPECT_FALSE(bool(parseBaseline("[]")));
  EXPECT_FALSE(bool(parseBaseline("{\"version\": 2, \"findings\": []}")));
  EXPECT_FALSE(bool(
      parseBaseline("{\"version\": 1, \"findings\": [{\"check\": \"a\"}]}")));
  EXPECT_FALSE(bool(parseBaseline(
      "{\"version\": 1, \"findings\": [{\"check\": \"a\", \"file\": \"f\", "
      "\"function\": \"\", \"message\": \"m\", \"count\": 0}]}")));
  auto Empty = parseBaseline("{\"version\": 1, \"findings\": []}");
  ASSERT_TRUE(bool(Empty));
  EXPECT_TRUE(Empty->empty());
}

TEST(Baseline, PathsRelativeToRoot) {
  EXPECT_EQ(relativeToRoot("/repo/src/../src/k.cu", "/repo"), "src/k.cu");
  EXPECT_EQ(relativeToRoot("/other/k.cu", "/repo"), "/other/k.cu");
  EXPECT_EQ(relativeToRoot("/repository/k.cu", "/repo"), "/repository/k.cu");
}

TEST(DiffFilter, ChangedLinesOfGitDiff) {
  auto Changed =
      ChangedLines::parse("diff --git a/src/k.cu b/src/k.cu\n"
                          "index 1..2 100644\n"
                          "--- a/src/k.cu\n"
                          "+++ b/src/k.cu\n"
                          "@@ -11 +11 @@ __global__ void reduce() {\n"
                          "-    __syncthreads();\n"
                          "+    if (x) __syncthreads();\n"
                          "@@ -20,2 +20,0 @@\n"
                          "-  a;\n"
                          "-  b;\n"
                          "@@ -30,0 +31,2 @@\n"
                          "+  c;\n"
                          "+  d;\n"
                          "--- a/gone.cu\n"
                          "+++ /dev/null\n"
                          "@@ -1 +0,0 @@\n"
                          "-x\n",
                          "/repo");
  ASSERT_TRUE(bool(Changed)) << llvm::toString(Changed.takeError());
  EXPECT_EQ(Changed->files(), std::vector<std::string>{"/repo/src/k.cu"});
  auto On = [&](unsigned Line) {
    return Changed->touches(finding("src/k.cu", Line, "f"), "/repo");
  };
  EXPECT_FALSE(On(10));
  EXPECT_TRUE(On(11));
  EXPECT_FALSE(On(12));
  // The deletion after line 20 touches lines 20 and 21.
  EXPECT_FALSE(On(19));
  EXPECT_TRUE(On(20));
  EXPECT_TRUE(On(21));
  EXPECT_FALSE(On(22));
  EXPECT_TRUE(On(31));
  EXPECT_TRUE(On(32));
  EXPECT_FALSE(On(33));
  // A note on a changed line is enough.
  Finding F = finding("/repo/src/k.cu", 50, "f");
  EXPECT_FALSE(Changed->touches(F, "/repo"));
  F.Notes.push_back(F.Where);
  F.Notes.back().Line = 11;
  EXPECT_TRUE(Changed->touches(F, "/repo"));
}

TEST(DiffFilter, ContextLines) {
  auto Changed = ChangedLines::parse("--- k.cu\n+++ k.cu\n"
                                     "@@ -1,4 +1,4 @@\n"
                                     " a\n"
                                     "-b\n"
                                     "+B\n"
                                     " c\n"
                                     " d\n"
                                     "\\ No newline at end of file\n",
                                     "/r");
  ASSERT_TRUE(bool(Changed)) << llvm::toString(Changed.takeError());
  EXPECT_FALSE(Changed->touches(finding("/r/k.cu", 1, ""), "/r"));
  EXPECT_TRUE(Changed->touches(finding("/r/k.cu", 2, ""), "/r"));
  EXPECT_FALSE(Changed->touches(finding("/r/k.cu", 3, ""), "/r"));
}

TEST(DiffFilter, RejectsWhatIsNotADiff) {
  EXPECT_FALSE(bool(ChangedLines::parse("hello\n", "/r")));
  EXPECT_FALSE(bool(ChangedLines::parse("@@ -1 +1 @@\n+x\n", "/r")));
  EXPECT_FALSE(
      bool(ChangedLines::parse("+++ b/k.cu\n@@ -1,2 +1,2 @@\n+x\n", "/r")));
  EXPECT_FALSE(bool(ChangedLines::parse("+++ b/k.cu\n@@ bad @@\n", "/r")));
  EXPECT_TRUE(bool(ChangedLines::parse("", "/r")));
}

TEST(Gate, SplitsTheCommand) {
  SplitCommand Split =
      splitCommand({"--load=x.so", "-p", "build", "a.cu", "--header-filter",
                    ".*", "b.cu", "--", "-std=c++17"});
  EXPECT_EQ(Split.Files, (std::vector<std::string>{"a.cu", "b.cu"}));
  EXPECT_EQ(Split.DatabaseDir, "build");
  EXPECT_EQ(Split.AfterFiles, (std::vector<std::string>{"--", "-std=c++17"}));
  EXPECT_EQ(splitCommand({"-p=db"}).DatabaseDir, "db");
}

} // namespace

namespace {

TEST(LegacyCuda, RemovedApisUsed) {
  EXPECT_EQ(
      removedApisUsed("texture<float, 1> t;\n"
                      "x = tex1Dfetch(t, i) + tex2D<float>(obj, u, v);\n"
                      "cudaThreadSynchronize(); cudaThreadSynchronize();\n"
                      "p.clockRate; mycudaThreadExit(); tex2D (t2, u, v);"),
      (std::vector<std::string>{"texture<>", "tex1Dfetch",
                                "cudaThreadSynchronize",
                                "cudaDeviceProp::clockRate", "tex2D"}));
  EXPECT_TRUE(removedApisUsed("cudaDeviceSynchronize(); tex2D<float>(o, 1, 2);")
                  .empty());
  EXPECT_TRUE(removedApisUsed("// was cudaThreadSynchronize()\n"
                              "/* texture<float> t; */ f(\"// tex1D(\");")
                  .empty());
  EXPECT_EQ(removedApisUsed("f(\"//\"); cudaThreadExit();"),
            std::vector<std::string>{"cudaThreadExit"});
}

TEST(LegacyCuda, NamedToolkit) {
  EXPECT_EQ(
      namedToolkit({"a.cu", "--", "--cuda-path=/opt/cuda-11"}, std::nullopt),
      "/opt/cuda-11");
  EXPECT_EQ(
      namedToolkit({"--extra-arg=--cuda-path=/opt/c", "a.cu"}, std::nullopt),
      "/opt/c");
  EXPECT_EQ(namedToolkit({"--cuda-path=/not-for-clang", "a.cu"}, std::nullopt),
            std::nullopt);
  EXPECT_EQ(namedToolkit({"a.cu"}, llvm::StringRef("/no/such/dir")),
            std::nullopt);
}

} // namespace
