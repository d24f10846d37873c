//===--- SarifTest.cpp - clang-tidy's diagnostics as SARIF ----------------===//

#include "Sarif.h"
#include "gtest/gtest.h"

using llvm::json::Object;

namespace {

TEST(Sarif, WarningsWithTheirNotes) {
  llvm::json::Value Log = cuda_tidy::diagnosticsToSarif(
      "2 warnings generated.\n"
      "/src/k.cu:16:5: warning: barrier '__syncthreads' may be reached by "
      "only some threads of the block [cuda-divergent-barrier]\n"
      "   16 |     __syncthreads();\n"
      "/src/k.cu:14:7: note: threads of a block may disagree on this "
      "condition\n"
      "k.cu:3:1: error: unknown type name 'foo' [clang-diagnostic-error]\n");
  const Object *Root = Log.getAsObject();
  ASSERT_TRUE(Root);
  EXPECT_EQ(Root->getString("version"), "2.1.0");
  const Object *Run = Root->getArray("runs")->front().getAsObject();
  const llvm::json::Array *Results = Run->getArray("results");
  ASSERT_EQ(Results->size(), 2u);

  const Object *Warning = (*Results)[0].getAsObject();
  EXPECT_EQ(Warning->getString("ruleId"), "cuda-divergent-barrier");
  EXPECT_EQ(Warning->getString("level"), "warning");
  EXPECT_EQ(Warning->getObject("message")->getString("text"),
            "barrier '__syncthreads' may be reached by only some threads of "
            "the block");
  const Object *Where = Warning->getArray("locations")
                            ->front()
                            .getAsObject()
                            ->getObject("physicalLocation");
  EXPECT_EQ(Where->getObject("artifactLocation")->getString("uri"),
            "file:///src/k.cu");
  EXPECT_EQ(Where->getObject("region")->getInteger("startLine"), 16);
  EXPECT_EQ(Where->getObject("region")->getInteger("startColumn"), 5);
  ASSERT_EQ(Warning->getArray("relatedLocations")->size(), 1u);

  const Object *Error = (*Results)[1].getAsObject();
  EXPECT_EQ(Error->getString("level"), "error");
  EXPECT_EQ(Error->getString("ruleId"), "clang-diagnostic-error");
  EXPECT_EQ(Error->getArray("relatedLocations")->size(), 0u);
}

TEST(Sarif, NoDiagnosticsIsAnEmptyRun) {
  llvm::json::Value Log = cuda_tidy::diagnosticsToSarif("");
  const Object *Run =
      Log.getAsObject()->getArray("runs")->front().getAsObject();
  EXPECT_EQ(Run->getArray("results")->size(), 0u);
}

TEST(Sarif, RulesFingerprintsAndFixes) {
  std::vector<cuda_tidy::Finding> Findings = cuda_tidy::parseClangTidyOutput(
      "/repo/src/k.cu:16:5: warning: race on 'a' [cuda-shared-memory-race]\n"
      "/repo/src/k.cu:14:7: note: the other access\n");
  Findings[0].Function = "kernel";
  Findings[0].Fixes.push_back({"/repo/src/k.cu", 10, 0, "__syncthreads();"});
  auto FingerprintOf = [](const llvm::json::Value &Log) {
    return Log.getAsObject()
        ->getArray("runs")
        ->front()
        .getAsObject()
        ->getArray("results")
        ->front()
        .getAsObject()
        ->getObject("partialFingerprints")
        ->getString("cudaTidyFinding/v1")
        ->str();
  };
  llvm::json::Value Log = cuda_tidy::findingsToSarif(Findings, "/repo");
  const Object *Run =
      Log.getAsObject()->getArray("runs")->front().getAsObject();
  const Object *Rule = Run->getObject("tool")
                           ->getObject("driver")
                           ->getArray("rules")
                           ->front()
                           .getAsObject();
  EXPECT_EQ(Rule->getString("helpUri"), "rules/cuda-shared-memory-race.md");
  EXPECT_TRUE(Rule->getObject("shortDescription")
                  ->getString("text")
                  ->starts_with("Finds two threads of a block"));
  const Object *Result = Run->getArray("results")->front().getAsObject();
  const Object *Artifact = Result->getArray("locations")
                               ->front()
                               .getAsObject()
                               ->getObject("physicalLocation")
                               ->getObject("artifactLocation");
  EXPECT_EQ(Artifact->getString("uri"), "src/k.cu");
  EXPECT_EQ(Artifact->getString("uriBaseId"), "%SRCROOT%");
  EXPECT_EQ(Run->getObject("originalUriBaseIds")
                ->getObject("%SRCROOT%")
                ->getString("uri"),
            "file:///repo/");
  const Object *Fix = Result->getArray("fixes")->front().getAsObject();
  const Object *Change =
      Fix->getArray("artifactChanges")->front().getAsObject();
  const Object *Replacement =
      Change->getArray("replacements")->front().getAsObject();
  EXPECT_EQ(Replacement->getObject("deletedRegion")->getInteger("byteOffset"),
            10);
  EXPECT_EQ(Replacement->getObject("insertedContent")->getString("text"),
            "__syncthreads();");

  // A line shift keeps the fingerprint; another function changes it.
  std::string Before = FingerprintOf(Log);
  Findings[0].Where.Line += 7;
  EXPECT_EQ(FingerprintOf(cuda_tidy::findingsToSarif(Findings, "/repo")),
            Before);
  Findings[0].Function = "other";
  EXPECT_NE(FingerprintOf(cuda_tidy::findingsToSarif(Findings, "/repo")),
            Before);
}

} // namespace
