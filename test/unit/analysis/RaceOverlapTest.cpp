//===--- RaceOverlapTest.cpp - Whether two accesses touch one byte --------===//

#include "AnalysisTest.h"
#include "analysis/race/Concurrency.h"
#include "analysis/race/Overlap.h"
#include "analysis/race/RowSplit.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::KernelAccesses;
using test::ParsedCuda;

/// One pair of accesses of a kernel, in the one scenario the concurrency
/// stage finds them in, decided for a block of 256 threads.
struct OverlapCase {
  OverlapCase(ParsedCuda &P, llvm::StringRef First, llvm::StringRef Second)
      : Accesses(P, "k"), K(Accesses.collector(), Options),
        Work(Options.WorkBudget), Overlap(K, Work, Answers) {
    IA = Accesses.find(First);
    IB = Accesses.find(Second);
    if (!ok())
      return;
    const SharedAccess &A = K.Accesses[IA], &B = K.Accesses[IB];
    K.Sym.collectAtoms(A.Offset, Atoms);
    K.Sym.collectAtoms(B.Offset, Atoms);
    for (const SharedAccess *X : {&A, &B})
      for (const auto &Guard : X->Guards)
        K.Sym.collectAtoms(Guard.first, Atoms);
    RaceConcurrency Concurrency(K);
    Scenarios = Concurrency.scenarios(IA, IB, Atoms, false);
  }
  /// Whether both accesses were found.
  bool ok() const { return std::max(IA, IB) < K.Accesses.size(); }
  RaceVerdict decide(RaceWitness &W) {
    return Overlap.decide(K.Accesses[IA], K.Accesses[IB], Shape, Scenarios[0],
                          Atoms, W);
  }

  KernelAccesses Accesses;
  RaceOptions Options;
  KernelRaceContext K;
  RaceWork Work;
  SharedMemoryRaceAnalysis::AnswerCache Answers;
  OverlapDecision Overlap;
  BlockShape Shape{{256, 1, 1}};
  unsigned IA = 0, IB = 0;
  llvm::SmallVector<unsigned, 4> Atoms;
  llvm::SmallVector<RaceScenario, 4> Scenarios;
};

TEST(RaceOverlap, MirroredIndicesCollideWithAWitness) {
  ParsedCuda P(R"(
    __global__ void k() {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
      s[255 - threadIdx.x] = 2;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "s[threadIdx.x]", "s[255 - threadIdx.x]");
  ASSERT_TRUE(C.ok());
  ASSERT_EQ(C.Scenarios.size(), 1u);
  RaceWitness W;
  EXPECT_EQ(C.decide(W), RaceVerdict::Definite);
  // Thread 0's second store meets thread 255's first on s[255].
  EXPECT_EQ(W.ThreadA, 255);
  EXPECT_EQ(W.ThreadB, 0);
  EXPECT_EQ(W.Byte, 255 * 4);
}

TEST(RaceOverlap, EachThreadOnItsOwnElementIsNoRace) {
  ParsedCuda P(R"(
    __global__ void k() {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "s[threadIdx.x]", "s[threadIdx.x]");
  ASSERT_TRUE(C.ok());
  ASSERT_EQ(C.Scenarios.size(), 1u);
  RaceWitness W;
  EXPECT_EQ(C.decide(W), RaceVerdict::None);
}

TEST(RaceOverlap, OffsetsThatNeverMeetNeedNoGuard) {
  // The guards are over unknowns, so the question is not enumerated; the
  // offsets alone keep the halves apart (offsetsApart).
  ParsedCuda P(R"(
    __global__ void k(int n, int m) {
      __shared__ int s[512];
      if (threadIdx.x < n)
        s[threadIdx.x] = 1;
      if (threadIdx.x < m)
        s[threadIdx.x + 256] = 2;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "s[threadIdx.x]", "s[threadIdx.x + 256]");
  ASSERT_TRUE(C.ok());
  // One after the other, and the two sides of the first branch.
  ASSERT_EQ(C.Scenarios.size(), 2u);
  for (const RaceScenario &S : C.Scenarios) {
    RaceWitness W;
    EXPECT_EQ(C.Overlap.decide(C.K.Accesses[C.IA], C.K.Accesses[C.IB], C.Shape,
                               S, C.Atoms, W),
              RaceVerdict::None);
  }
}

TEST(RaceOverlap, CachedAnswersAreTheDecision) {
  ParsedCuda P(R"(
    __global__ void k() {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
      s[255 - threadIdx.x] = 2;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "s[threadIdx.x]", "s[255 - threadIdx.x]");
  ASSERT_TRUE(C.ok());
  ASSERT_EQ(C.Scenarios.size(), 1u);
  const SharedAccess &A = C.K.Accesses[C.IA], &B = C.K.Accesses[C.IB];
  for (unsigned Ask = 0; Ask < 2; ++Ask) {
    RaceWitness W;
    EXPECT_EQ(C.Overlap.cachedDecide(A, B, C.Shape, C.Scenarios[0], C.Atoms,
                                     std::nullopt, W),
              RaceVerdict::Definite);
    EXPECT_EQ(W.ThreadA, 255);
    EXPECT_EQ(W.ThreadB, 0);
    EXPECT_EQ(C.Answers.Entries.size(), 1u);
  }
}

TEST(RaceOverlap, RowSplitReadsABaseOffsetAndAFactor) {
  ParsedCuda P(R"(
    __global__ void k(int d, int b) {
      extern __shared__ float s[];
      float *kj = &s[b * d];
      for (int x = 0; x < d; x++)
        kj[threadIdx.x * d + x] = 1;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "kj[threadIdx.x * d + x]", "kj[threadIdx.x * d + x]");
  ASSERT_TRUE(C.ok());
  const SharedAccess &A = C.K.Accesses[C.IA];
  RowSplits Splits = rowSplits(C.K.Sym, A.Offset, A.Offset, C.Shape);
  // The products b * d and threadIdx.x * d: rows of d 4-byte floats. By b
  // the column 4 * (threadIdx.x * d + x) is not linear: no split.
  ASSERT_EQ(Splits.Splits.size(), 1u);
  const RowSplit *ByD = nullptr;
  for (const RowSplit &Split : Splits.Splits)
    if (C.K.Sym.atoms()[C.K.Sym.node(Splits.Leaves[Split.WidthLeaf]).Value]
            .Name == "d")
      ByD = &Split;
  ASSERT_TRUE(ByD);
  EXPECT_EQ(ByD->Factor, 4);
  // Q = b + threadIdx.x, R = 4 * x: two monomials and one.
  EXPECT_EQ(ByD->QA.size(), 2u);
  EXPECT_EQ(ByD->RA.size(), 1u);
  EXPECT_EQ(ByD->RA.begin()->second, 4);
  RaceWitness W;
  EXPECT_EQ(C.decide(W), RaceVerdict::None);
}

TEST(RaceOverlap, RowSplitNeedsAProduct) {
  ParsedCuda P(R"(
    __global__ void k(int d) {
      __shared__ float s[512];
      s[threadIdx.x + d] = 1;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "s[threadIdx.x + d]", "s[threadIdx.x + d]");
  ASSERT_TRUE(C.ok());
  const SharedAccess &A = C.K.Accesses[C.IA];
  EXPECT_TRUE(rowSplits(C.K.Sym, A.Offset, A.Offset, C.Shape).Splits.empty());
}

TEST(RaceOverlap, RowSplitKeepsAColumnPastTheRow) {
  ParsedCuda P(R"(
    __global__ void k(int d) {
      extern __shared__ float s[];
      for (int x = 0; x <= d; x++)
        s[threadIdx.x * d + x] = 1;
    })");
  ASSERT_TRUE(P.ok());
  OverlapCase C(P, "s[threadIdx.x * d + x]", "s[threadIdx.x * d + x]");
  ASSERT_TRUE(C.ok());
  RaceWitness W;
  EXPECT_NE(C.decide(W), RaceVerdict::None);
}

} // namespace
} // namespace clang::cuda_tidy
