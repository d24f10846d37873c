//===--- HostFactsTest.cpp - What host code establishes before a launch ---===//
//
// The conditions a launching function checks (and leaves when they fail),
// read as multiples of a variable: each spelling real code uses, and the
// ones that show nothing.
//
//===----------------------------------------------------------------------===//

#include "model/HostFacts.h"
#include "AnalysisTest.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

/// The multiple the condition of the `if` in \p Function shows of its
/// first parameter, when the condition is false (the `if` leaves).
std::int64_t multipleIn(ParsedCuda &P, llvm::StringRef Function) {
  const FunctionDecl *F = P.function(Function);
  if (!F)
    return -1;
  for (const Stmt *S : cast<CompoundStmt>(F->getBody())->body())
    if (const auto *If = dyn_cast<IfStmt>(S))
      return multipleShownBy(If->getCond(), false, F->getParamDecl(0),
                             P.context());
  return -1;
}

TEST(HostFacts, ConditionsThatLeaveShowAMultiple) {
  ParsedCuda P(R"(
    void abortNow() __attribute__((noreturn));
    void remainder(int n) { if (n % 32 != 0) abortNow(); }
    void negated(int n) { if (!(n % 64 == 0)) return; }
    void remainderAlone(int n) { if (n % 16) return; }
    void mask(int n) { if ((n & 127) != 0) return; }
    void either(int n, int m) { if (m < 0 || n % 32 != 0) return; }
    void otherVariable(int n, int m) { if (m % 32 != 0) return; }
    void notAMultiple(int n) { if (n % 32 != 1) return; }
    void both(int n, int m) { if (m < 0 && n % 32 != 0) return; }
  )",
               test::Pass::Host);
  ASSERT_TRUE(P.ok());
  EXPECT_EQ(multipleIn(P, "remainder"), 32);
  EXPECT_EQ(multipleIn(P, "negated"), 64);
  EXPECT_EQ(multipleIn(P, "remainderAlone"), 16);
  EXPECT_EQ(multipleIn(P, "mask"), 128);
  // Leaving when either fails: both hold after it.
  EXPECT_EQ(multipleIn(P, "either"), 32);
  EXPECT_EQ(multipleIn(P, "otherVariable"), 0);
  EXPECT_EQ(multipleIn(P, "notAMultiple"), 0);
  // Leaving only when both fail: neither is known after it.
  EXPECT_EQ(multipleIn(P, "both"), 0);
}

/// The stated condition of the first statement of \p Function's body, as
/// written, and the truth value it has after it; "" when none.
std::pair<std::string, bool> statedIn(ParsedCuda &P, llvm::StringRef Function) {
  const FunctionDecl *F = P.function(Function);
  const auto *Body = F ? cast<CompoundStmt>(F->getBody()) : nullptr;
  if (!Body || Body->body_empty())
    return {"", true};
  bool Holds = true;
  const Expr *Stated = statedCondition(Body->body_front(), Holds);
  if (!Stated)
    return {"", Holds};
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  Stated->printPretty(OS, nullptr, P.context().getPrintingPolicy());
  return {Text, Holds};
}

TEST(HostFacts, StatedPreconditions) {
  ParsedCuda P(R"(
    #include <cassert>
    __global__ void asserted(int n) { assert(n % 32 == 0); }
    __global__ void assumed(int n) { __builtin_assume(n > 0); }
    __global__ void attribute(int n) { [[assume(n < 1024)]]; }
    __global__ void trapped(int n) { if (n % 128 != 0) { __trap(); } }
    __global__ void returned(int n) { if (n == 0) return; }
    __global__ void logged(int n) { if (n == 0) n = 1; }
  )");
  ASSERT_TRUE(P.ok());
  EXPECT_EQ(statedIn(P, "asserted"),
            std::make_pair(std::string("n % 32 == 0"), true));
  EXPECT_EQ(statedIn(P, "assumed"), std::make_pair(std::string("n > 0"), true));
  EXPECT_EQ(statedIn(P, "attribute"),
            std::make_pair(std::string("n < 1024"), true));
  EXPECT_EQ(statedIn(P, "trapped"),
            std::make_pair(std::string("n % 128 != 0"), false));
  EXPECT_EQ(statedIn(P, "returned"),
            std::make_pair(std::string("n == 0"), false));
  EXPECT_EQ(statedIn(P, "logged").first, "");
}

} // namespace
} // namespace clang::cuda_tidy
