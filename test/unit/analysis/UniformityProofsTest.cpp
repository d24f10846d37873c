//===--- UniformityProofsTest.cpp - Why a value is the same everywhere ----===//

#include "analysis/dependence/UniformityProofs.h"
#include "AnalysisTest.h"
#include "analysis/dependence/ThreadDependence.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "gtest/gtest.h"
#include <string>

namespace clang::cuda_tidy {
namespace {

using namespace ast_matchers;
using test::ParsedCuda;

/// The first statement in the snippet that \p Matcher binds as "s".
template <typename Node, typename Matcher>
const Node *first(ParsedCuda &P, Matcher M) {
  auto Found = match(M, P.context());
  return Found.empty() ? nullptr : Found.front().template getNodeAs<Node>("s");
}

const ForStmt *loopIn(ParsedCuda &P, llvm::StringRef Function) {
  return first<ForStmt>(
      P, forStmt(hasAncestor(functionDecl(hasName(Function)))).bind("s"));
}

/// How \p E is spelled in the snippet.
std::string spelling(ParsedCuda &P, const Expr *E) {
  const SourceManager &SM = P.context().getSourceManager();
  return Lexer::getSourceText(
             CharSourceRange::getTokenRange(E->getSourceRange()), SM,
             P.context().getLangOpts())
      .str();
}

TEST(UniformityProofs, SharedThreadTermCancelsInTheTripCount) {
  ParsedCuda P(R"(
    __global__ void strided(int *a, int base, int end) {
      int tid = threadIdx.x;
      for (int t = base + tid; t < end + tid; t += 32)
        a[t] = 0;
    }
    __global__ void plain(int *a, int n) {
      int tid = threadIdx.x;
      for (int t = tid; t < n; t += 32)
        a[t] = 0;
    })");
  ASSERT_TRUE(P.ok());
  auto Terms = uniformTripCountTerms(loopIn(P, "strided"));
  ASSERT_TRUE(Terms);
  std::vector<std::string> Spelled;
  for (const Expr *Term : *Terms)
    Spelled.push_back(spelling(P, Term));
  EXPECT_EQ(Spelled, (std::vector<std::string>{"base", "end", "32"}));
  // Nothing cancels: the plain dependence of the condition is exact.
  EXPECT_FALSE(uniformTripCountTerms(loopIn(P, "plain")));
}

TEST(UniformityProofs, UniformTripCountMakesTheLoopConditionUniform) {
  ParsedCuda P(R"(
    __global__ void k(int *a, int base, int end) {
      int tid = threadIdx.x;
      for (int t = base + tid; t < end + tid; t += 32) {
        a[t] = 0;
        __syncthreads();
      }
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *FD = A.analyze(P.function("k"));
  ASSERT_TRUE(FD);
  ASSERT_EQ(FD->getBarrierSites().size(), 1u);
  for (const CFGBlock *C :
       FD->getControlClosure(FD->getBarrierSites()[0].Block))
    EXPECT_FALSE(FD->getConditionDeps(C) & dep::Thread);
}

TEST(UniformityProofs, LoopRunsAtLeastOnce) {
  ParsedCuda P(R"(
    __global__ void constant(int *a) { for (int k = 0; k < 4; ++k) a[k] = 0; }
    __global__ void empty(int *a) { for (int k = 4; k < 4; ++k) a[k] = 0; }
    __global__ void bounded(int *a, int n) {
      for (int k = 0; k < n; ++k) a[k] = 0;
    }
    __global__ void threads(int *a) {
      for (int i = 0; i < blockDim.x; ++i) a[i] = 0;
    }
    __global__ void forever(int *a) { for (;;) a[0] = 0; }
    __global__ void once(int *a, int n) { do a[0] = 0; while (n > 0); })");
  ASSERT_TRUE(P.ok());
  ASTContext &C = P.context();
  EXPECT_TRUE(loopRunsAtLeastOnce(loopIn(P, "constant"), C));
  EXPECT_FALSE(loopRunsAtLeastOnce(loopIn(P, "empty"), C));
  EXPECT_FALSE(loopRunsAtLeastOnce(loopIn(P, "bounded"), C));
  // A block has at least one thread.
  EXPECT_TRUE(loopRunsAtLeastOnce(loopIn(P, "threads"), C));
  EXPECT_TRUE(loopRunsAtLeastOnce(loopIn(P, "forever"), C));
  EXPECT_TRUE(loopRunsAtLeastOnce(
      first<DoStmt>(
          P, doStmt(hasAncestor(functionDecl(hasName("once")))).bind("s")),
      C));
}

TEST(UniformityProofs, BranchRepeatingItsLoopConditionIsImplied) {
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      for (int j = 0; j < n; ++j) {
        a[j] = 0;
        if (j < n)
          __syncthreads();
        if (j < 2)
          __syncthreads();
      }
    })");
  ASSERT_TRUE(P.ok());
  auto Implied = branchesImpliedByLoops(P.function("k")->getBody());
  ASSERT_EQ(Implied.size(), 1u);
  EXPECT_EQ(spelling(P, (*Implied.begin())->getCond()), "j < n");
}

TEST(UniformityProofs, FullMaskVoteReducesItsPredicate) {
  ParsedCuda P(R"(
    __global__ void full(int *a) {
      a[0] = __all_sync(0xffffffff, threadIdx.x < 4);
    }
    __global__ void half(int *a) {
      a[0] = __all_sync(0x0000ffff, threadIdx.x < 4);
    }
    __device__ int helper(int v) { return __any_sync(0xffffffffu, v); }
    __global__ void wrapped(int *a) { a[0] = helper(threadIdx.x & 1); })");
  ASSERT_TRUE(P.ok());
  ASTContext &C = P.context();
  const CallExpr *Full = P.call(P.function("full"), "__all_sync");
  ASSERT_TRUE(Full);
  EXPECT_EQ(warpReducedArgument(Full, C), Full->getArg(1));
  // Half the warp: the other lanes may see another value.
  EXPECT_EQ(warpReducedArgument(P.call(P.function("half"), "__all_sync"), C),
            nullptr);
  const CallExpr *Wrapped = P.call(P.function("wrapped"), "helper");
  ASSERT_TRUE(Wrapped);
  EXPECT_EQ(warpReducedArgument(Wrapped, C), Wrapped->getArg(0));
}

TEST(UniformityProofs, LaneOfThreadIdxX) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      const int tid = threadIdx.x;
      a[0] = threadIdx.x % 32;
      a[1] = tid & 31;
      a[2] = threadIdx.x % 48;
      a[3] = threadIdx.y % 32;
    })");
  ASSERT_TRUE(P.ok());
  std::vector<bool> Lane;
  for (const BoundNodes &Node :
       match(binaryOperator(hasAnyOperatorName("%", "&"),
                            hasAncestor(functionDecl(hasName("k"))))
                 .bind("s"),
             P.context()))
    Lane.push_back(
        isLaneOfThreadIdxX(Node.getNodeAs<BinaryOperator>("s"), P.context()));
  EXPECT_EQ(Lane, (std::vector<bool>{true, true, false, false}));
  EXPECT_EQ(widenLane(dep::Lane), dep::Thread);
  EXPECT_EQ(widenLane(dep::Lane | dep::Block), dep::Thread | dep::Block);
  EXPECT_EQ(widenLane(dep::Block), dep::Block);
}

TEST(UniformityProofs, FullWarpReductionOfLaneValueIsUniformUnderLaneRules) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      int lane = threadIdx.x % 32;
      if (__all_sync(0xffffffff, lane < 4))
        __syncthreads();
      a[threadIdx.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  for (bool Rules : {false, true}) {
    DependenceOptions Options;
    Options.LaneRules = Rules;
    ThreadDependenceAnalysis A(P.context(), Options);
    const FunctionDependence *FD = A.analyze(P.function("k"));
    ASSERT_TRUE(FD);
    ASSERT_EQ(FD->getBarrierSites().size(), 1u);
    DepSet Deps = 0;
    for (const CFGBlock *C :
         FD->getDependentControl(FD->getBarrierSites()[0].Block))
      Deps |= FD->getConditionDeps(C);
    EXPECT_EQ(bool(Deps & dep::Thread), !Rules);
    EXPECT_EQ(FD->usesLaneRule(), Rules);
  }
}

TEST(UniformityProofs, SharedArrayReadBetweenBarriersIsSettled) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      __shared__ int s[32];
      s[threadIdx.x % 32] = a[threadIdx.x];
      __syncthreads();
      a[0] = s[threadIdx.x % 32];
      __syncthreads();
      s[0] = 1;
    }
    __global__ void racy(int *a) {
      __shared__ int s[32];
      s[threadIdx.x % 32] = a[threadIdx.x];
      a[0] = s[threadIdx.x % 32];
    })");
  ASSERT_TRUE(P.ok());
  auto LoadIn = [&](llvm::StringRef Function) {
    return first<ArraySubscriptExpr>(
        P, arraySubscriptExpr(
               hasAncestor(implicitCastExpr(hasCastKind(CK_LValueToRValue))),
               hasBase(implicitCastExpr(
                   has(declRefExpr(to(varDecl(hasName("s"))))))),
               hasAncestor(functionDecl(hasName(Function))))
               .bind("s"));
  };
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  for (auto [Function, Settled] :
       {std::pair("k", true), std::pair("racy", false)}) {
    const FunctionDependence *FD = A.analyze(P.function(Function));
    ASSERT_TRUE(FD);
    const ArraySubscriptExpr *Load = LoadIn(Function);
    ASSERT_TRUE(Load);
    SettledSharedReads Reads(P.function(Function), FD->getCFG());
    EXPECT_TRUE(Reads.usedOnlyBySubscripts(cast<VarDecl>(
        cast<DeclRefExpr>(Load->getBase()->IgnoreImpCasts())->getDecl())));
    EXPECT_EQ(Reads.isSettled(Load), Settled) << Function;
  }
}

} // namespace
} // namespace clang::cuda_tidy
