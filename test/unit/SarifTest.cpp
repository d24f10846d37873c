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

} // namespace
