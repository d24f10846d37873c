//===--- ShardTest.cpp - the parts of a sharded run and their merges ------===//

#include "Shard.h"
#include "Baseline.h"
#include "Sarif.h"
#include "llvm/Support/FormatVariadic.h"
#include "gtest/gtest.h"
#include <string>

using namespace cuda_tidy;

namespace {

TEST(Shard, ParsesKOfN) {
  llvm::Expected<Shard> Part = Shard::parse("2/5");
  ASSERT_TRUE(bool(Part));
  EXPECT_EQ(Part->Index, 2u);
  EXPECT_EQ(Part->Count, 5u);
  for (const char *Bad : {"0/5", "6/5", "1/0", "", "/", "1/", "/2", "a/b",
                          "1/2/3", "-1/2", "1 /2"}) {
    llvm::Expected<Shard> Rejected = Shard::parse(Bad);
    EXPECT_FALSE(bool(Rejected)) << Bad;
    llvm::consumeError(Rejected.takeError());
  }
}

TEST(Shard, EveryFileInExactlyOnePart) {
  for (unsigned Count : {1u, 2u, 3u, 7u}) {
    std::vector<unsigned> PerPart(Count);
    for (unsigned F = 0; F < 200; ++F) {
      std::string File = "src/dir" + std::to_string(F % 9) + "/unit" +
                         std::to_string(F) + ".cu";
      unsigned Parts = 0;
      for (unsigned K = 1; K <= Count; ++K)
        if (Shard{K, Count}.contains(File)) {
          ++Parts;
          ++PerPart[K - 1];
        }
      EXPECT_EQ(Parts, 1u) << File << " in " << Count << " parts";
    }
    // A hash, not a perfect split, but no part is empty or twice its share.
    for (unsigned N : PerPart) {
      EXPECT_GT(N, 0u);
      EXPECT_LT(N, 2 * 200 / Count + 1);
    }
  }
}

BaselineEntry entry(std::string File, unsigned Count) {
  return {"cuda-shared-memory-race", std::move(File), "kernel", "race on 'a'",
          Count};
}

TEST(MergeBaselines, AHeaderSeenFromSeveralPartsIsOneFinding) {
  std::vector<std::vector<BaselineEntry>> Parts = {
      {entry("src/common.cuh", 1), entry("src/a.cu", 2)},
      {entry("src/common.cuh", 1), entry("src/b.cu", 1)},
      {entry("src/common.cuh", 2)}};
  llvm::Expected<std::vector<BaselineEntry>> Merged =
      parseBaseline(llvm::formatv("{0:2}", mergeBaselines(Parts)).str());
  ASSERT_TRUE(bool(Merged));
  ASSERT_EQ(Merged->size(), 3u);
  EXPECT_EQ((*Merged)[0].File, "src/a.cu");
  EXPECT_EQ((*Merged)[0].Count, 2u);
  EXPECT_EQ((*Merged)[1].File, "src/b.cu");
  EXPECT_EQ((*Merged)[2].File, "src/common.cuh");
  EXPECT_EQ((*Merged)[2].Count, 2u);
}

TEST(ReadSarif, WritesTheSameLogAgain) {
  std::vector<Finding> Findings = parseClangTidyOutput(
      "/repo/src/k.cu:16:5: warning: race on 'a' [cuda-shared-memory-race]\n"
      "/repo/src/k.cu:14:7: note: the other access\n"
      "/usr/include/x y.h:3:1: warning: in a header [cuda-bank-conflict]\n"
      "/repo/src/k.cu:2:1: error: unknown type [clang-diagnostic-error]\n");
  Findings[0].Function = "ns::kernel";
  Findings[0].Fixes.push_back({"/repo/src/k.cu", 10, 0, "__syncthreads();"});
  llvm::json::Value Log = findingsToSarif(Findings, "/repo");
  EXPECT_EQ(sarifRoot(Log), "/repo");
  llvm::Expected<std::vector<Finding>> Read = readSarifFindings(Log, "/repo");
  ASSERT_TRUE(bool(Read));
  ASSERT_EQ(Read->size(), 3u);
  EXPECT_EQ((*Read)[0].Where.File, "/repo/src/k.cu");
  EXPECT_EQ((*Read)[0].Function, "ns::kernel");
  ASSERT_EQ((*Read)[0].Notes.size(), 1u);
  EXPECT_EQ((*Read)[0].Notes[0].Line, 14u);
  ASSERT_EQ((*Read)[0].Fixes.size(), 1u);
  EXPECT_EQ((*Read)[0].Fixes[0].Text, "__syncthreads();");
  // Outside the root: a file URI, decoded.
  EXPECT_EQ((*Read)[1].Where.File, "/usr/include/x y.h");
  EXPECT_EQ((*Read)[2].Level, "error");
  EXPECT_EQ(findingsToSarif(*Read, "/repo"), Log);
}

TEST(ReadSarif, RelativePathsBelongToTheMergesRoot) {
  std::vector<Finding> Findings = parseClangTidyOutput(
      "/runner1/repo/src/k.cu:16:5: warning: race [cuda-shared-memory-race]\n");
  llvm::json::Value Log = findingsToSarif(Findings, "/runner1/repo");
  llvm::Expected<std::vector<Finding>> Read =
      readSarifFindings(Log, "/runner2/repo");
  ASSERT_TRUE(bool(Read));
  EXPECT_EQ(Read->front().Where.File, "/runner2/repo/src/k.cu");
}

TEST(ReadSarif, RejectsWhatIsNotALog) {
  for (const char *Text :
       {"{}", "[]", "{\"version\": \"2.1.0\"}",
        "{\"version\": \"2.1.0\", \"runs\": [{\"results\": [{}]}]}"}) {
    llvm::Expected<llvm::json::Value> Value = llvm::json::parse(Text);
    ASSERT_TRUE(bool(Value));
    llvm::Expected<std::vector<Finding>> Read = readSarifFindings(*Value, "");
    EXPECT_FALSE(bool(Read)) << Text;
    llvm::consumeError(Read.takeError());
  }
}

} // namespace
