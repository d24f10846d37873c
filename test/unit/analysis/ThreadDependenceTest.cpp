//===--- ThreadDependenceTest.cpp - The dependence analysis's answers -----===//

#include "analysis/dependence/ThreadDependence.h"
#include "AnalysisTest.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

/// The dependence of the condition of the branch that decides whether
/// \p F's first call to \p Callee runs.
DepSet deciding(ParsedCuda &P, ThreadDependenceAnalysis &A,
                llvm::StringRef Kernel, llvm::StringRef Callee) {
  const FunctionDecl *F = P.function(Kernel);
  const FunctionDependence *FD = A.analyze(F);
  if (!FD)
    return ~DepSet(0);
  for (const BarrierSite &Site : FD->getBarrierSites()) {
    if (!Site.Call->getDirectCallee() ||
        Site.Call->getDirectCallee()->getName() != Callee)
      continue;
    DepSet Deps = 0;
    for (const CFGBlock *Branch : FD->getDependentControl(Site.Block))
      Deps |= FD->getConditionDeps(Branch);
    return Deps;
  }
  return ~DepSet(0);
}

TEST(ThreadDependence, BranchOnThreadIndexIsThreadDependent) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      if (threadIdx.x < 16)
        __syncthreads();
      a[threadIdx.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  EXPECT_TRUE(deciding(P, A, "k", "__syncthreads") & dep::Thread);
}

TEST(ThreadDependence, ThreadsThatSkipTheBarrierAndLeaveSplitNothing) {
  // On sm_70 and later a thread that has left the kernel takes no part in
  // the barrier: the branch decides nothing the remaining threads share.
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      if (threadIdx.x < 16)
        __syncthreads();
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  EXPECT_EQ(deciding(P, A, "k", "__syncthreads"), DepSet(0));
}

TEST(ThreadDependence, BranchOnBlockIndexIsUniformInTheBlock) {
  ParsedCuda P(R"(
    __global__ void k(int *a, int n) {
      if (blockIdx.x < n)
        __syncthreads();
      a[threadIdx.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  DepSet Deps = deciding(P, A, "k", "__syncthreads");
  EXPECT_FALSE(Deps & dep::Thread);
  EXPECT_TRUE(Deps & dep::Block);
}

TEST(ThreadDependence, SharedFlagReadAfterBarrierIsUniform) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      __shared__ bool last;
      if (threadIdx.x == 0)
        last = a[0] > 0;
      __syncthreads();
      if (last)
        __syncthreads();
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *FD = A.analyze(P.function("k"));
  ASSERT_TRUE(FD);
  ASSERT_EQ(FD->getBarrierSites().size(), 2u);
  const BarrierSite &Second = FD->getBarrierSites()[1];
  for (const CFGBlock *Branch : FD->getDependentControl(Second.Block))
    EXPECT_FALSE(FD->getConditionDeps(Branch) & dep::Thread);
}

TEST(ThreadDependence, ValueAssignedUnderDivergentBranchIsThreadDependent) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      int v = 0;
      if (threadIdx.x & 1)
        v = 1;
      if (v)
        __syncthreads();
      a[threadIdx.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  EXPECT_TRUE(deciding(P, A, "k", "__syncthreads") & dep::Thread);
}

TEST(ThreadDependence, DeviceFunctionSummaryCarriesParameterBits) {
  ParsedCuda P(R"(
    __device__ int twice(int x) { return 2 * x; }
    __global__ void k(int *a) { a[0] = twice(threadIdx.x); })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionSummary *S = A.getSummary(P.function("twice"));
  ASSERT_TRUE(S);
  EXPECT_EQ(S->Return, dep::param(0));
}

} // namespace
} // namespace clang::cuda_tidy
