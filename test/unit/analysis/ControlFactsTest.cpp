//===--- ControlFactsTest.cpp - Control dependence, reachability, exits ---===//

#include "analysis/dependence/ControlFacts.h"
#include "AnalysisTest.h"
#include "analysis/dependence/ThreadDependence.h"
#include "clang/Analysis/CFG.h"
#include "gtest/gtest.h"
#include <memory>

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

/// A function's CFG, built as ThreadDependenceAnalysis builds it, with its
/// control facts.
struct Facts {
  Facts(ParsedCuda &P, const FunctionDecl *F) : Function(F) {
    CFG::BuildOptions Options;
    Options.setAllAlwaysAdd();
    Options.AddInitializers = true;
    Options.AddImplicitDtors = true;
    Graph = CFG::buildCFG(F, F->getBody(), &P.context(), Options);
    Control = std::make_unique<ControlFacts>(Graph.get(), F->getBody());
  }

  /// The block that holds the call \p CE.
  const CFGBlock *blockOf(const CallExpr *CE) const {
    for (const CFGBlock *B : *Graph)
      for (const CFGElement &E : *B)
        if (auto S = E.getAs<CFGStmt>(); S && S->getStmt() == CE)
          return B;
    return nullptr;
  }

  /// The block whose terminator is the first statement of class \p Class
  /// (an `if`, a `for`).
  const CFGBlock *branch(Stmt::StmtClass Class) const {
    const CFGBlock *Found = nullptr;
    for (const CFGBlock *B : *Graph)
      if (const Stmt *T = B->getTerminatorStmt();
          T && T->getStmtClass() == Class)
        if (!Found || B->getBlockID() > Found->getBlockID())
          Found = B; // Clang numbers the blocks from the exit up.
    return Found;
  }

  /// Marks every block that calls a block barrier, as the fixpoint does
  /// before it asks for early exits.
  void markBarriers() {
    for (const CFGBlock *B : *Graph)
      for (const CFGElement &E : *B)
        if (auto S = E.getAs<CFGStmt>())
          if (const auto *CE = dyn_cast<CallExpr>(S->getStmt());
              CE && CE->getDirectCallee() &&
              CE->getDirectCallee()->getName() == "__syncthreads")
            Control->markBarrierBlock(B);
  }

  const FunctionDecl *Function;
  std::unique_ptr<CFG> Graph;
  std::unique_ptr<ControlFacts> Control;
};

TEST(ControlFacts, BlockUnderBranchDependsOnIt) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      if (threadIdx.x < 16)
        __syncthreads();
      a[threadIdx.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  Facts X(P, F);
  const CFGBlock *Barrier = X.blockOf(P.call(F, "__syncthreads"));
  const CFGBlock *If = X.branch(Stmt::IfStmtClass);
  ASSERT_TRUE(Barrier && If);
  ASSERT_EQ(X.Control->closure(Barrier).size(), 1u);
  EXPECT_EQ(X.Control->closure(Barrier).front(), If);
  // The branch itself runs in every thread.
  EXPECT_TRUE(X.Control->closure(If).empty());
  // Where the two sides meet.
  EXPECT_EQ(X.Control->immediatePostDominator(If),
            X.Control->immediatePostDominator(Barrier));
}

TEST(ControlFacts, NestedBranchesNearestFirst) {
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      if (blockIdx.x < n) {
        a[0] = 1;
        if (threadIdx.x < 16)
          __syncthreads();
      }
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  Facts X(P, F);
  const CFGBlock *Barrier = X.blockOf(P.call(F, "__syncthreads"));
  ASSERT_TRUE(Barrier);
  const auto &Closure = X.Control->closure(Barrier);
  ASSERT_EQ(Closure.size(), 2u);
  // The inner branch decides directly, the outer one through it.
  EXPECT_EQ(X.Control->closure(Closure[0]).size(), 1u);
  EXPECT_EQ(X.Control->closure(Closure[0]).front(), Closure[1]);
  EXPECT_TRUE(X.Control->closure(Closure[1]).empty());
}

TEST(ControlFacts, ReturnThatLeavesQuietlyIsAnEarlyExit) {
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      int i = threadIdx.x;
      if (i >= n)
        return;
      __syncthreads();
      a[i] = 0;
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  Facts X(P, F);
  X.markBarriers();
  const CFGBlock *Barrier = X.blockOf(P.call(F, "__syncthreads"));
  const CFGBlock *If = X.branch(Stmt::IfStmtClass);
  ASSERT_TRUE(Barrier && If);
  EXPECT_TRUE(llvm::is_contained(X.Control->closure(Barrier), If));
  EXPECT_TRUE(X.Control->isEarlyExit(If, Barrier));
}

TEST(ControlFacts, ReturnAfterASharedStoreIsNoEarlyExit) {
  // The leaving threads write what the others may read: they took part.
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      __shared__ int s[32];
      int i = threadIdx.x;
      if (i >= n) {
        s[0] = i;
        return;
      }
      __syncthreads();
      a[i] = s[0];
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  Facts X(P, F);
  X.markBarriers();
  const CFGBlock *Barrier = X.blockOf(P.call(F, "__syncthreads"));
  const CFGBlock *If = X.branch(Stmt::IfStmtClass);
  ASSERT_TRUE(Barrier && If);
  EXPECT_FALSE(X.Control->isEarlyExit(If, Barrier));
}

TEST(ControlFacts, EarlyReturnsAreLeftOutForBlockBarriersNotGridOnes) {
  // A thread that has left takes no part in a barrier of its block; a grid
  // barrier waits for every block, so leaving early splits it.
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      if (threadIdx.x >= n)
        return;
      __syncthreads();
      a[threadIdx.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *FD = A.analyze(P.function("k"));
  ASSERT_TRUE(FD);
  ASSERT_EQ(FD->getBarrierSites().size(), 1u);
  const CFGBlock *Barrier = FD->getBarrierSites()[0].Block;
  EXPECT_TRUE(FD->getDependentControl(Barrier, BarrierScope::Block).empty());
  EXPECT_TRUE(FD->getDependentControl(Barrier, BarrierScope::Cluster).empty());
  auto Grid = FD->getDependentControl(Barrier, BarrierScope::Grid);
  ASSERT_EQ(Grid.size(), 1u);
  EXPECT_TRUE(FD->getConditionDeps(Grid[0]) & dep::Thread);
  EXPECT_TRUE(FD->isEarlyReturn(Grid[0], Barrier));
}

TEST(ControlFacts, ReachesAroundALoop) {
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      for (int i = 0; i < n; ++i)
        __syncthreads();
      a[0] = 0;
      __threadfence();
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  Facts X(P, F);
  const CFGBlock *Body = X.blockOf(P.call(F, "__syncthreads"));
  const CFGBlock *After = X.blockOf(P.call(F, "__threadfence"));
  const CFGBlock *Header = X.branch(Stmt::ForStmtClass);
  ASSERT_TRUE(Body && After && Header);
  EXPECT_TRUE(X.Control->reaches(Body, Header)); // Round the loop.
  EXPECT_TRUE(X.Control->reaches(Body, After));
  EXPECT_FALSE(X.Control->reaches(After, Body));
  EXPECT_FALSE(X.Control->reaches(After, Header));
  // Every way from the body out of the loop passes its header.
  EXPECT_FALSE(X.Control->reaches(Body, After, Header));
  EXPECT_TRUE(X.Control->reaches(&X.Graph->getEntry(), After, Body));
}

TEST(ControlFacts, TailCallIsFollowedOnlyByTheWayOut) {
  ParsedCuda P(R"(
    __device__ void g(int *a);
    __device__ void h(int *a) {
      g(a);
      g(a + 1);
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("h");
  Facts X(P, F);
  llvm::SmallVector<const CallExpr *, 2> Calls;
  for (const CFGBlock *B : *X.Graph)
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>())
        if (const auto *CE = dyn_cast<CallExpr>(S->getStmt()))
          Calls.push_back(CE);
  ASSERT_EQ(Calls.size(), 2u);
  const CallExpr *First = Calls[0], *Last = Calls[1];
  if (Last->getBeginLoc() < First->getBeginLoc())
    std::swap(First, Last);
  EXPECT_FALSE(X.Control->isTailCall(First, X.blockOf(First), F));
  EXPECT_TRUE(X.Control->isTailCall(Last, X.blockOf(Last), F));
}

} // namespace
} // namespace clang::cuda_tidy
