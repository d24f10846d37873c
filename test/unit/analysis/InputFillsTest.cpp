//===--- InputFillsTest.cpp - One value that passes a test of input data --===//

#include "AnalysisTest.h"
#include "analysis/SharedAccesses.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"
#include <vector>

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

/// The conditions of the `if` statements of \p F, in source order.
std::vector<const Expr *> conditions(const FunctionDecl *F) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    std::vector<const Expr *> Found;
    bool VisitIfStmt(IfStmt *If) {
      Found.push_back(If->getCond());
      return true;
    }
  } V;
  V.TraverseStmt(F->getBody());
  return V.Found;
}

const char Code[] = R"cuda(
__global__ void k(const int *w, const unsigned char *f, int limit, int *out) {
  int t = threadIdx.x;
  if (w[t] > 0) out[0] = 1;
  if (0 > w[t]) out[0] = 2;
  if (!(w[t] != 5)) out[0] = 3;
  if (t < limit && w[t] <= -2) out[0] = 4;
  if (f[t]) out[0] = 5;
  if (w[t] > limit) out[0] = 6;
  if (w[t] > 0 && w[t + 1] < 0) out[0] = 7;
  if (w[t] == 3 || f[t]) out[0] = 8;
}
)cuda";

struct Fill {
  bool Found;
  std::string Param;
  std::int64_t Value;
};

Fill fillFor(ParsedCuda &P, unsigned Index, bool Holds) {
  const FunctionDecl *K = P.function("k");
  std::vector<const Expr *> Conds = conditions(K);
  llvm::SmallVector<InputFill, 1> Fills;
  if (!inputFills(Conds.at(Index), Holds, K, P.context(), Fills) ||
      Fills.size() != 1)
    return {false, "", 0};
  return {true, Fills[0].Param->getName().str(), Fills[0].Value};
}

TEST(InputFills, ComparisonsWithConstantBounds) {
  ParsedCuda P(Code);
  ASSERT_TRUE(P.ok());
  Fill F = fillFor(P, 0, true);
  EXPECT_TRUE(F.Found);
  EXPECT_EQ(F.Param, "w");
  EXPECT_EQ(F.Value, 1);
  EXPECT_EQ(fillFor(P, 0, false).Value, 0); // `w[t] > 0` fails at 0.
  EXPECT_EQ(fillFor(P, 1, true).Value, -1); // `0 > w[t]`: the load on the right.
  EXPECT_EQ(fillFor(P, 2, true).Value, 5);  // `!(w[t] != 5)`.
  EXPECT_EQ(fillFor(P, 2, false).Value, 6);
}

TEST(InputFills, UniformOperandsAreTheWitnesss) {
  ParsedCuda P(Code);
  ASSERT_TRUE(P.ok());
  // `t < limit && w[t] <= -2`: only the input operand gets a fill.
  Fill F = fillFor(P, 3, true);
  EXPECT_TRUE(F.Found);
  EXPECT_EQ(F.Value, -2);
  // A bare flag holds at 1 and fails at 0.
  F = fillFor(P, 4, true);
  EXPECT_EQ(F.Param, "f");
  EXPECT_EQ(F.Value, 1);
  EXPECT_EQ(fillFor(P, 4, false).Value, 0);
}

TEST(InputFills, NoConstantNoFill) {
  ParsedCuda P(Code);
  ASSERT_TRUE(P.ok());
  const FunctionDecl *K = P.function("k");
  std::vector<const Expr *> Conds = conditions(K);
  llvm::SmallVector<InputFill, 1> Fills;
  // A bound that is a parameter.
  EXPECT_FALSE(inputFills(Conds[5], true, K, P.context(), Fills));
  // One buffer that would need two values: 1 and -1.
  Fills.clear();
  EXPECT_FALSE(inputFills(Conds[6], true, K, P.context(), Fills));
  // Failing `a && b` needs one operand to fail: the first.
  Fills.clear();
  ASSERT_TRUE(inputFills(Conds[6], false, K, P.context(), Fills));
  ASSERT_EQ(Fills.size(), 1u);
  EXPECT_EQ(Fills[0].Value, 0);
  // Holding `a || b` needs one; failing it needs both, on two buffers.
  Fills.clear();
  ASSERT_TRUE(inputFills(Conds[7], true, K, P.context(), Fills));
  EXPECT_EQ(Fills.size(), 1u);
  Fills.clear();
  ASSERT_TRUE(inputFills(Conds[7], false, K, P.context(), Fills));
  ASSERT_EQ(Fills.size(), 2u);
  EXPECT_EQ(Fills[0].Value, 4);
  EXPECT_EQ(Fills[1].Value, 0);
}

} // namespace
} // namespace clang::cuda_tidy
