//===--- RaceDataIndexedTest.cpp - Atomics at an index the data picks -----===//

#include "AnalysisTest.h"
#include "analysis/race/DataIndexed.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::KernelAccesses;
using test::ParsedCuda;

TEST(RaceDataIndexed, AtomicAtAnyElementMeetsAPlainStoreToEveryElement) {
  ParsedCuda P(R"(
    __global__ void k(const unsigned *in) {
      __shared__ unsigned counts[64];
      counts[threadIdx.x % 64] = 0;
      atomicAdd(&counts[in[threadIdx.x] % 64], 1u);
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned Plain = Accesses.find("counts[threadIdx.x % 64]");
  unsigned Atomic = Accesses.find("&counts[in[threadIdx.x] % 64]");
  ASSERT_LT(std::max(Plain, Atomic), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  DataIndexedDecision Decision(K, Concurrency);
  std::optional<DataIndex> Index = Decision.dataIndex(Accesses[Atomic]);
  ASSERT_TRUE(Index);
  EXPECT_EQ(Index->Values, 64);
  EXPECT_EQ(Index->ElementBytes, 4);
  EXPECT_FALSE(Decision.dataIndex(Accesses[Plain]));
  DataWitness W;
  EXPECT_EQ(Decision.decide(Accesses[Plain], Accesses[Atomic], *Index,
                            BlockShape{{256, 1, 1}},
                            /*DifferentWarpsOnly=*/false, W),
            RaceVerdict::Definite);
  // Thread 0's atomic on element 0 meets thread 64's store.
  EXPECT_EQ(W.Atomic, 0);
  EXPECT_EQ(W.Element, 0);
  EXPECT_EQ(W.Writer, 64);
}

TEST(RaceDataIndexed, AtomicMeetsAStoreToOneElementOnlyForSomeData) {
  ParsedCuda P(R"(
    __global__ void k(const unsigned *in) {
      __shared__ unsigned counts[64];
      if (threadIdx.x == 0)
        counts[0] = 0;
      atomicAdd(&counts[in[threadIdx.x] % 64], 1u);
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned Plain = Accesses.find("counts[0]");
  unsigned Atomic = Accesses.find("&counts[in[threadIdx.x] % 64]");
  ASSERT_LT(std::max(Plain, Atomic), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  DataIndexedDecision Decision(K, Concurrency);
  std::optional<DataIndex> Index = Decision.dataIndex(Accesses[Atomic]);
  ASSERT_TRUE(Index);
  DataWitness W;
  EXPECT_EQ(Decision.decide(Accesses[Plain], Accesses[Atomic], *Index,
                            BlockShape{{256, 1, 1}},
                            /*DifferentWarpsOnly=*/false, W),
            RaceVerdict::Possible);
  EXPECT_EQ(W.Atomic, 1); // Thread 0 stores; thread 1 is another thread.
  EXPECT_EQ(W.Element, 0);
  EXPECT_EQ(W.Writer, 0);
}

} // namespace
} // namespace clang::cuda_tidy
