//===--- DependenceFixpointTest.cpp - The dataflow and its lattice --------===//
//
// The lattice (LocalState.h) directly; the fixpoint (DependenceFixpoint.h)
// through what it writes into a FunctionDependence, which is how
// ThreadDependenceAnalysis::analyze runs it.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/DependenceFixpoint.h"
#include "AnalysisTest.h"
#include "analysis/dependence/LocalState.h"
#include "analysis/dependence/ThreadDependence.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

TEST(LocalState, MemberWrittenAloneKeepsItsSiblingsApart) {
  MemberPaths Paths;
  // Steps to members are their (aligned) FieldDecls; any two objects do.
  int Fields[2] = {};
  unsigned X = Paths.child(0, &Fields[0]), Y = Paths.child(0, &Fields[1]);
  EXPECT_EQ(Paths.child(0, &Fields[0]), X); // Interned.
  VarState P;
  Paths.writePart(P, X, dep::Thread, /*Strong=*/true);
  EXPECT_EQ(Paths.readPart(P, X), dep::Thread);
  EXPECT_EQ(Paths.readPart(P, Y), DepSet(0));
  // The whole reads every part.
  EXPECT_EQ(Paths.readPart(P, 0), dep::Thread);
  // A strong store to the whole replaces the parts.
  Paths.writePart(P, 0, dep::Block, /*Strong=*/true);
  EXPECT_EQ(Paths.readPart(P, X), dep::Block);
  EXPECT_TRUE(P.Parts.empty());
}

TEST(LocalState, WeakStoreAddsAndJoinKeepsEitherSide) {
  MemberPaths Paths;
  unsigned First = Paths.child(0, MemberPaths::elementStep(0));
  unsigned Second = Paths.child(0, MemberPaths::elementStep(1));
  EXPECT_EQ(Paths.withoutElements(First), 0u);
  VarState A, B;
  A.Whole = dep::Block;
  Paths.writePart(A, First, dep::Thread, /*Strong=*/false);
  EXPECT_EQ(Paths.readPart(A, First), dep::Block | dep::Thread);
  EXPECT_EQ(Paths.readPart(A, Second), dep::Block);
  Paths.writePart(B, Second, dep::Cluster, /*Strong=*/true);
  VarState Joined = Paths.join(A, B);
  EXPECT_EQ(Paths.readPart(Joined, First), dep::Block | dep::Thread);
  EXPECT_EQ(Paths.readPart(Joined, Second), dep::Block | dep::Cluster);
  EXPECT_EQ(Paths.join(Joined, A), Joined);
}

/// The local variable named \p Name of the snippet's kernel `k`.
const VarDecl *local(ParsedCuda &P, llvm::StringRef Name) {
  using namespace ast_matchers;
  auto Found = match(
      varDecl(hasName(Name), hasAncestor(functionDecl(hasName("k")))).bind("v"),
      P.context());
  return Found.empty() ? nullptr : Found.front().getNodeAs<VarDecl>("v");
}

/// The dependence of the branches that decide whether \p F's first barrier
/// runs.
DepSet barrierControl(const FunctionDependence &FD) {
  if (FD.getBarrierSites().empty())
    return ~DepSet(0);
  DepSet Deps = 0;
  for (const CFGBlock *C :
       FD.getDependentControl(FD.getBarrierSites()[0].Block))
    Deps |= FD.getConditionDeps(C);
  return Deps;
}

TEST(DependenceFixpoint, LocalAssignedUnderDivergentBranchIsThreadDependent) {
  // Threads disagree on whether the assignment ran: after the join the
  // value differs although both values are constants.
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      int v = 0;
      int w = 0;
      if (threadIdx.x & 1)
        v = 1;
      if (blockIdx.x & 1)
        w = 1;
      a[0] = v + w;
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *FD = A.analyze(F);
  ASSERT_TRUE(FD);
  EXPECT_TRUE(FD->getVariableDeps(local(P, "v")) & dep::Thread);
  DepSet W = FD->getVariableDeps(local(P, "w"));
  EXPECT_FALSE(W & dep::Thread);
  EXPECT_TRUE(W & dep::Block);
}

TEST(DependenceFixpoint, SiblingMemberStaysUniform) {
  ParsedCuda P(R"(
    struct Pair { int x, y; };
    __global__ void k(int *a) {
      Pair p;
      p.x = threadIdx.x;
      p.y = blockIdx.x;
      if (p.y > 0)
        __syncthreads();
      a[p.x] = 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *FD = A.analyze(P.function("k"));
  ASSERT_TRUE(FD);
  EXPECT_EQ(barrierControl(*FD), dep::Block);
  // The variable as a whole holds the thread's x.
  EXPECT_TRUE(FD->getVariableDeps(local(P, "p")) & dep::Thread);
}

TEST(DependenceFixpoint, SummaryInstantiatesParameterBitsAtTheCall) {
  ParsedCuda P(R"(
    __device__ int second(int a, int b) { return b; }
    __device__ void store(int *out, int v) { *out = v; }
    __global__ void k(int *a) {
      int v = second(threadIdx.x, blockIdx.x);
      int w = 0;
      store(&w, threadIdx.x);
      if (v)
        __syncthreads();
      a[w] = 0;
    })");
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("k");
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionSummary *Second = A.getSummary(P.function("second"));
  ASSERT_TRUE(Second);
  EXPECT_EQ(Second->Return, dep::param(1));
  const FunctionSummary *Store = A.getSummary(P.function("store"));
  ASSERT_TRUE(Store);
  ASSERT_EQ(Store->PointeeWrites.size(), 1u);
  EXPECT_EQ(Store->PointeeWrites[0], dep::param(1));

  const FunctionDependence *FD = A.analyze(F);
  ASSERT_TRUE(FD);
  DepSet Control = barrierControl(*FD);
  EXPECT_FALSE(Control & dep::Thread);
  EXPECT_TRUE(Control & dep::Block);
  // What the callee stores through its pointer reaches the local.
  EXPECT_TRUE(FD->getVariableDeps(local(P, "w")) & dep::Thread);
  llvm::ArrayRef<DepSet> Args = FD->getArgumentDeps(P.call(F, "second"));
  ASSERT_EQ(Args.size(), 2u);
  EXPECT_EQ(Args[0], dep::Thread);
  EXPECT_EQ(Args[1], dep::Block);
  EXPECT_EQ(FD->getArgumentWitness(P.call(F, "second"), 0).render(),
            "'threadIdx.x'");
}

TEST(DependenceFixpoint, InstantiateMapsSymbolicBits) {
  DepSet Args[] = {dep::Thread, dep::Block};
  EXPECT_EQ(instantiate(dep::param(1), Args, 0), dep::Block);
  EXPECT_EQ(instantiate(dep::param(0) | dep::Cluster, Args, 0),
            dep::Thread | dep::Cluster);
  EXPECT_EQ(instantiate(dep::Object, Args, dep::Block), dep::Block);
  DepSet Members[] = {dep::Cluster};
  EXPECT_EQ(instantiate(dep::objectMember(0), {}, dep::Thread, Members),
            dep::Cluster);
  // A member without a set of its own gets the object's.
  EXPECT_EQ(instantiate(dep::objectMember(1), {}, dep::Thread, Members),
            dep::Thread);
}

TEST(DependenceFixpoint, ConditionWitnessNamesTheVariablesOnTheWay) {
  ParsedCuda P(R"(
    __global__ void k(int *a) {
      int tid = threadIdx.x;
      int row = tid / 4;
      if (row < 2)
        __syncthreads();
      a[tid] = 0;
    })");
  ASSERT_TRUE(P.ok());
  ThreadDependenceAnalysis A(P.context(), DependenceOptions());
  const FunctionDependence *FD = A.analyze(P.function("k"));
  ASSERT_TRUE(FD);
  auto Control = FD->getDependentControl(FD->getBarrierSites()[0].Block);
  ASSERT_EQ(Control.size(), 1u);
  EXPECT_EQ(FD->getConditionWitness(Control[0]).render(),
            "'threadIdx.x' through 'tid' and 'row'");
}

} // namespace
} // namespace clang::cuda_tidy
