//===--- ReproTest.cpp - reproducers and their confirmations --------------===//

#include "Repro.h"
#include "gtest/gtest.h"

using namespace cuda_tidy;

namespace {

Finding raceAt(unsigned Line, unsigned Column) {
  Finding F;
  F.Level = "warning";
  F.Check = "cuda-shared-memory-race";
  F.Where.File = "/src/k.cu";
  F.Where.Line = Line;
  F.Where.Column = Column;
  F.Where.Message = "read after write race on shared 'tile'";
  return F;
}

TEST(Repro, FolderNamesAreCheckFileLineColumn) {
  EXPECT_EQ(reproFolderName(raceAt(22, 14)),
            "cuda-shared-memory-race-k.cu-22-14");
}

TEST(Repro, WitnessRecordsJoinByCheckFileLineColumn) {
  std::map<std::string, llvm::json::Object> Records = parseWitnessRecords(
      R"({"check":"cuda-shared-memory-race","file":"/src/k.cu","line":22,"column":14,"block":[256,1,1]}
not json
{"check":"cuda-shared-memory-race","file":"/src/k.cu","line":22,"column":14,"block":[32,1,1]}
)");
  ASSERT_EQ(Records.size(), 1u);
  const llvm::json::Object &R = Records.begin()->second;
  // The first record of a key wins.
  EXPECT_EQ((*R.getArray("block"))[0].getAsInteger(), 256);
  EXPECT_EQ(Records.begin()->first, findingKey(raceAt(22, 14)));
}

TEST(Repro, ReproducerLaunchesTheWitness) {
  llvm::Expected<llvm::json::Value> Record = llvm::json::parse(R"({
    "check": "cuda-shared-memory-race", "file": "/src/k.cu", "line": 22,
    "column": 14, "block": [16, 16, 1], "grid": [2, 1, 1],
    "dynamic_shared_bytes": 4096, "cooperative": false,
    "kernel": {"name": "k", "spelling": "ns::k<float, 16>", "parameters": [
      {"name": "in", "type": "const float *", "kind": "pointer"},
      {"name": "n", "type": "int", "kind": "integer", "value": 7},
      {"name": "m", "type": "int", "kind": "integer"}]}})");
  ASSERT_TRUE(bool(Record));
  llvm::json::Object Facts;
  llvm::Expected<std::string> Source = reproducerSource(
      raceAt(22, 14), *Record->getAsObject(), "/src/repro/x", Facts);
  ASSERT_TRUE(bool(Source));
  EXPECT_NE(Source->find("#include \"../../k.cu\""), std::string::npos);
  EXPECT_NE(Source->find("dim3 Grid(2, 1, 1), Block(16, 16, 1);"),
            std::string::npos);
  EXPECT_NE(Source->find("size_t Shared = 4096;"), std::string::npos);
  EXPECT_NE(Source->find("Arg1 arg1 = static_cast<Arg1>(7LL);"),
            std::string::npos);
  // Not the witness's: the number of threads launched, and said so.
  EXPECT_NE(Source->find("Arg2 arg2 = static_cast<Arg2>(512LL);"),
            std::string::npos);
  EXPECT_EQ(Facts.getString("inputs"), "default");
  EXPECT_NE(Source->find("ns::k<float, 16><<<Grid, Block, Shared>>>(arg0, "
                         "arg1, arg2);"),
            std::string::npos);
}

TEST(Repro, NoReproducerForWhatALaunchCannotGive) {
  llvm::json::Object Facts;
  llvm::Expected<llvm::json::Value> Chased = llvm::json::parse(R"({
    "kernel": {"name": "k", "spelling": "k", "parameters": [
      {"name": "rows", "type": "float **", "kind": "pointer",
       "holds_pointers": true}]}})");
  llvm::Expected<std::string> Source =
      reproducerSource(raceAt(1, 1), *Chased->getAsObject(), "/r", Facts);
  ASSERT_FALSE(bool(Source));
  EXPECT_EQ(llvm::toString(Source.takeError()),
            "parameter 'rows' (float **) points to pointers, which the kernel "
            "would chase through memory: a reproducer's buffers cannot give "
            "them");
  llvm::Expected<llvm::json::Value> Data =
      llvm::json::parse(R"({"cannot_reproduce": "the race needs input data"})");
  Source = reproducerSource(raceAt(1, 1), *Data->getAsObject(), "/r", Facts);
  ASSERT_FALSE(bool(Source));
  EXPECT_EQ(llvm::toString(Source.takeError()), "the race needs input data");
}

TEST(Repro, RunSummaryAndItsNote) {
  Confirmation C;
  parseRunSummary("compute-sanitizer output\n"
                  "cuda-tidy-confirm: outcome=confirmed\n"
                  "cuda-tidy-confirm: tool=racecheck\n"
                  "cuda-tidy-confirm: gpu=NVIDIA H200\n"
                  "cuda-tidy-confirm: findings=2\n"
                  "cuda-tidy-confirm: hazards=512\n"
                  "cuda-tidy-confirm: lines=22 14\n",
                  C);
  EXPECT_EQ(C.Outcome, "confirmed");
  EXPECT_EQ(C.Gpu, "NVIDIA H200");
  EXPECT_EQ(C.Hazards, 512u);
  EXPECT_EQ(describeConfirmation(C),
            "confirmed on NVIDIA H200: racecheck, 512 hazards between lines "
            "14 and 22");
  Confirmation Hang;
  Hang.Outcome = "confirmed";
  Hang.Gpu = "NVIDIA H200";
  Hang.Tool = "watchdog";
  Hang.Detail = "hang: still running after 10 s";
  EXPECT_EQ(
      describeConfirmation(Hang),
      "confirmed on NVIDIA H200: watchdog, hang: still running after 10 s");
  Confirmation Not;
  Not.Outcome = "not-reproduced";
  Not.Gpu = "NVIDIA H200";
  Not.Tool = "racecheck";
  Not.Detail = "racecheck reported nothing";
  EXPECT_EQ(describeConfirmation(Not),
            "not reproduced on NVIDIA H200: racecheck, racecheck reported "
            "nothing");
}

TEST(Repro, ConfirmationsRoundTripAndAttach) {
  Confirmation C;
  C.Key = findingKey(raceAt(22, 14));
  C.Outcome = "confirmed";
  C.Gpu = "NVIDIA H200";
  C.Tool = "racecheck";
  C.Hazards = 3;
  C.Lines = {14};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  OS << confirmationsToJson({C});
  llvm::Expected<std::map<std::string, Confirmation>> Read =
      parseConfirmations(Text);
  ASSERT_TRUE(bool(Read));
  ASSERT_EQ(Read->count(C.Key), 1u);
  std::vector<Finding> Findings = {raceAt(22, 14), raceAt(30, 1)};
  attachConfirmations(Findings, *Read);
  ASSERT_EQ(Findings[0].Notes.size(), 1u);
  EXPECT_EQ(Findings[0].Notes[0].Message,
            "confirmed on NVIDIA H200: racecheck, 3 hazards at line 14");
  ASSERT_TRUE(Findings[0].Confirmation.has_value());
  EXPECT_TRUE(Findings[1].Notes.empty());
  EXPECT_FALSE(Findings[1].Confirmation.has_value());
}

} // namespace
