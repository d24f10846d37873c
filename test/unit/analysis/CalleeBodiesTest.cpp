//===--- CalleeBodiesTest.cpp - A helper's body as a call runs it ---------===//

#include "analysis/CalleeBodies.h"
#include "AnalysisTest.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using namespace clang::ast_matchers;
using test::ParsedCuda;

/// The stores to `buf[...]` in \p F, in source order.
std::vector<const Expr *> stores(ParsedCuda &P, const FunctionDecl *F) {
  std::vector<const Expr *> Out;
  for (const BoundNodes &N :
       match(findAll(binaryOperator(isAssignmentOperator(),
                                    hasLHS(arraySubscriptExpr().bind("s")))),
             *F->getBody(), P.context()))
    Out.push_back(N.getNodeAs<Expr>("s"));
  std::sort(Out.begin(), Out.end(), [&](const Expr *A, const Expr *B) {
    return P.context().getSourceManager().isBeforeInTranslationUnit(
        A->getBeginLoc(), B->getBeginLoc());
  });
  return Out;
}

TEST(CalleeIntervals, BarriersInLoopsSplitTheBody) {
  ParsedCuda P(R"(
    __device__ float reduce(float *buf, float x) {
      buf[threadIdx.x] = x;
      __syncthreads();
      for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
          buf[threadIdx.x] = buf[threadIdx.x + s];
        __syncthreads();
      }
      buf[threadIdx.x + 1] = 0;
      return 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDecl *F = P.function("reduce");
  const FunctionDependence *FD = A.analyze(F);
  ASSERT_NE(FD, nullptr);
  CalleeIntervals Intervals(*FD);
  ParentMap PM(const_cast<Stmt *>(F->getBody()));
  std::vector<const Expr *> S = stores(P, F);
  ASSERT_EQ(S.size(), 3u);
  // Before the first barrier; between barriers; after the last.
  EXPECT_EQ(Intervals.of(S[0], PM),
            std::optional<unsigned char>(CalleeIntervals::First));
  EXPECT_EQ(Intervals.of(S[1], PM), std::nullopt);
  EXPECT_EQ(Intervals.of(S[2], PM),
            std::optional<unsigned char>(CalleeIntervals::Last));
}

TEST(CalleeIntervals, ABranchThatSkipsTheBarrierLeavesBoth) {
  ParsedCuda P(R"(
    __device__ void maybe(float *buf, int n) {
      buf[threadIdx.x] = 1;
      if (n > 4)
        __syncthreads();
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDecl *F = P.function("maybe");
  const FunctionDependence *FD = A.analyze(F);
  ASSERT_NE(FD, nullptr);
  CalleeIntervals Intervals(*FD);
  ParentMap PM(const_cast<Stmt *>(F->getBody()));
  std::vector<const Expr *> S = stores(P, F);
  ASSERT_EQ(S.size(), 1u);
  EXPECT_EQ(Intervals.of(S[0], PM),
            std::optional<unsigned char>(CalleeIntervals::First |
                                         CalleeIntervals::Last));
}

TEST(CalleeIntervals, AZeroTripWayThroughASyncingLoopIsKeptApart) {
  // cudf's ORC IntegerRLE: a read at the entry, a loop that syncs in every
  // iteration, thread 0's store after it, a barrier at the end. Only the
  // way that runs the loop zero times puts the store before the call's
  // barrier, and the entry read after the call's first one.
  ParsedCuda P(R"(
    __device__ void rle(float *buf, unsigned n) {
      buf[threadIdx.x] = buf[0];
      while (n > 0) {
        __syncthreads();
        buf[threadIdx.x + 1] = 2;
        n--;
      }
      buf[0] = 3;
      __syncthreads();
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDecl *F = P.function("rle");
  const FunctionDependence *FD = A.analyze(F);
  ASSERT_NE(FD, nullptr);
  CalleeIntervals Intervals(*FD);
  ParentMap PM(const_cast<Stmt *>(F->getBody()));
  std::vector<const Expr *> S = stores(P, F);
  ASSERT_EQ(S.size(), 3u);
  EXPECT_EQ(Intervals.of(S[0], PM),
            std::optional<unsigned char>(CalleeIntervals::First));
  // After the last iteration's barrier the body's tail runs, and nothing
  // orders it before the final barrier: between two barriers either way.
  EXPECT_EQ(Intervals.of(S[1], PM), std::nullopt);
  EXPECT_EQ(Intervals.of(S[2], PM),
            std::optional<unsigned char>(CalleeIntervals::ZeroTripFirst));
}

TEST(CalleeIntervals, ABreakBeforeTheLoopsBarrierIsAFreeWay) {
  ParsedCuda P(R"(
    __device__ void scan(float *buf, int n) {
      buf[threadIdx.x] = 1;
      for (int i = 0; i < n; ++i) {
        if (buf[i] > 0)
          break;
        __syncthreads();
        buf[threadIdx.x + 1] = 2;
      }
      buf[0] = 3;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDecl *F = P.function("scan");
  const FunctionDependence *FD = A.analyze(F);
  ASSERT_NE(FD, nullptr);
  CalleeIntervals Intervals(*FD);
  ParentMap PM(const_cast<Stmt *>(F->getBody()));
  std::vector<const Expr *> S = stores(P, F);
  ASSERT_EQ(S.size(), 3u);
  // The entry store reaches the exit by a break in the first iteration.
  EXPECT_EQ(Intervals.of(S[0], PM),
            std::optional<unsigned char>(CalleeIntervals::First |
                                         CalleeIntervals::Last));
  EXPECT_EQ(Intervals.of(S[1], PM),
            std::optional<unsigned char>(CalleeIntervals::Last));
  EXPECT_EQ(Intervals.of(S[2], PM),
            std::optional<unsigned char>(CalleeIntervals::First |
                                         CalleeIntervals::Last));
}

TEST(CalleeIntervals, TheLastIterationsTailIsAfterTheLastBarrier) {
  ParsedCuda P(R"(
    __device__ void tail(float *buf, int n) {
      buf[threadIdx.x] = 1;
      for (int i = 0; i < n; ++i) {
        __syncthreads();
        buf[threadIdx.x + 1] = 2;
      }
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDecl *F = P.function("tail");
  const FunctionDependence *FD = A.analyze(F);
  ASSERT_NE(FD, nullptr);
  CalleeIntervals Intervals(*FD);
  ParentMap PM(const_cast<Stmt *>(F->getBody()));
  std::vector<const Expr *> S = stores(P, F);
  ASSERT_EQ(S.size(), 2u);
  EXPECT_EQ(Intervals.of(S[0], PM),
            std::optional<unsigned char>(CalleeIntervals::First |
                                         CalleeIntervals::ZeroTripLast));
  EXPECT_EQ(Intervals.of(S[1], PM),
            std::optional<unsigned char>(CalleeIntervals::Last));
}

TEST(FunctionDependenceAtCall, AParameterGivenTheThreadIndexIsThreadDependent) {
  ParsedCuda P(R"(
    __device__ void helper(float *buf, int t) {
      if (t == 0)
        buf[0] = 1;
      __syncthreads();
    }
    __global__ void k() {
      __shared__ float buf[32];
      helper(buf, threadIdx.x);
      helper(buf, 3);
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *K = A.analyze(P.function("k"));
  const FunctionDependence *H = A.analyze(P.function("helper"));
  ASSERT_NE(K, nullptr);
  ASSERT_NE(H, nullptr);
  ASSERT_EQ(K->getBarrierSites().size(), 2u);
  auto Branch = [](const FunctionDependence &D) -> DepSet {
    for (const CFGBlock *B : D.getCFG())
      if (B->getTerminatorStmt())
        return D.getConditionDeps(B);
    return ~DepSet(0);
  };
  // On its own the branch depends on parameter t only.
  EXPECT_FALSE(Branch(*H) & dep::Thread);
  EXPECT_TRUE(Branch(*H->atCall(*K, K->getBarrierSites()[0].Call)) &
              dep::Thread);
  EXPECT_FALSE(Branch(*H->atCall(*K, K->getBarrierSites()[1].Call)) &
               dep::Thread);
}

} // namespace
} // namespace clang::cuda_tidy
