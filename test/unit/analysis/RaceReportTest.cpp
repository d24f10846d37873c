//===--- RaceReportTest.cpp - How a race is told --------------------------===//

#include "analysis/race/RaceReport.h"
#include "AnalysisTest.h"
#include "gtest/gtest.h"
#include <vector>

namespace clang::cuda_tidy {
namespace {

using test::KernelAccesses;
using test::ParsedCuda;

struct RecordingHandler : SharedRaceHandler {
  void handleRace(const SharedRace &Race) override { Races.push_back(Race); }
  std::vector<SharedRace> Races;
};

TEST(RaceReport, WitnessNamesTheThreadsAndTheElement) {
  ParsedCuda P(R"(
    __global__ void k() {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
      s[255 - threadIdx.x] = 2;
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned IA = Accesses.find("s[threadIdx.x]");
  unsigned IB = Accesses.find("s[255 - threadIdx.x]");
  ASSERT_LT(std::max(IA, IB), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RecordingHandler Handler;
  RaceReport Report(K, Handler);
  RaceScenario S;
  S.Order = 1;
  RaceWitness W;
  W.ThreadA = 255;
  W.ThreadB = 0;
  W.Byte = 255 * 4;
  EXPECT_FALSE(Report.reported(Accesses[IB]));
  Report.reportPair(Accesses[IA], Accesses[IB], false, S, W,
                    RaceVerdict::Definite, BlockShape{{256, 1, 1}}, {});
  ASSERT_EQ(Handler.Races.size(), 1u);
  const SharedRace &Race = Handler.Races[0];
  EXPECT_EQ(Race.Witness,
            "thread (255,0,0) writes 's[255]' and thread (0,0,0) writes it");
  EXPECT_EQ(Race.First, Accesses[IA].E);
  EXPECT_EQ(Race.Second, Accesses[IB].E);
  EXPECT_EQ(Race.Order, SharedRace::WriteAfterWrite);
  EXPECT_FALSE(Race.Possible);
  // Both statements are siblings under no thread-dependent condition: the
  // barrier belongs right before the second.
  ASSERT_TRUE(Race.InsertBarrierBefore);
  EXPECT_EQ(Race.InsertBarrierBefore->getBeginLoc(),
            Accesses[IB].E->getBeginLoc());
  EXPECT_TRUE(Report.reported(Accesses[IB]));
  EXPECT_FALSE(Report.reported(Accesses[IA]));
}

TEST(RaceReport, LaterIterationAndPossibleAreTold) {
  ParsedCuda P(R"(
    __global__ void k(int *out, int n) {
      __shared__ int s[512];
      for (int i = 0; i < n; ++i) {
        out[i] = s[threadIdx.x + 1];
        s[threadIdx.x] = i;
      }
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned IA = Accesses.find("s[threadIdx.x]");
  unsigned IB = Accesses.find("s[threadIdx.x + 1]");
  ASSERT_LT(std::max(IA, IB), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RecordingHandler Handler;
  RaceReport Report(K, Handler);
  RaceScenario S;
  S.Order = 1;
  S.LaterIteration = true;
  S.Relation = {2};
  RaceWitness W;
  W.ThreadA = 1;
  W.ThreadB = 0;
  W.Byte = 4;
  Report.reportPair(Accesses[IA], Accesses[IB], false, S, W,
                    RaceVerdict::Possible, BlockShape{{256, 1, 1}}, {});
  ASSERT_EQ(Handler.Races.size(), 1u);
  const SharedRace &Race = Handler.Races[0];
  EXPECT_EQ(Race.Witness, "thread (1,0,0) writes 's[1]' and thread (0,0,0) "
                          "reads it one iteration of the enclosing loop later");
  EXPECT_EQ(Race.Order, SharedRace::ReadAfterWrite);
  EXPECT_TRUE(Race.Possible);
  // Any two iterations: no one place for the barrier.
  EXPECT_FALSE(Race.InsertBarrierBefore);
}

} // namespace
} // namespace clang::cuda_tidy
