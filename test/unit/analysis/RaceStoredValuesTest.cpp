//===--- RaceStoredValuesTest.cpp - What plain stores write ---------------===//

#include "AnalysisTest.h"
#include "analysis/race/StoredValues.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::KernelAccesses;
using test::ParsedCuda;

/// How StoredValues compares the accesses spelled \p First and \p Second
/// in kernel `k` of \p Code (one access, run by two threads, when they are
/// spelled alike).
StoreComparison compareStores(llvm::StringRef Code, llvm::StringRef First,
                              llvm::StringRef Second) {
  ParsedCuda P(Code);
  EXPECT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  EXPECT_TRUE(Accesses.ok());
  if (!Accesses.ok())
    return {};
  unsigned Size = Accesses.collector().accesses().size();
  unsigned IA = Accesses.find(First);
  unsigned IB = First == Second ? IA : Accesses.find(Second);
  EXPECT_LT(std::max(IA, IB), Size);
  if (std::max(IA, IB) >= Size)
    return {};
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  StoredValues Values(K);
  return Values.compare(Accesses[IA], Accesses[IB], IA == IB);
}

TEST(RaceStoredValues, TwoStoresOfOneConstantAreOneValue) {
  StoreComparison C =
      compareStores(R"(
    __global__ void k() {
      __shared__ int s[4];
      s[threadIdx.x % 4] = 1;
      s[(threadIdx.x + 1) % 4] = 1;
    })",
                    "s[threadIdx.x % 4]", "s[(threadIdx.x + 1) % 4]");
  EXPECT_TRUE(C.OneValue);
}

TEST(RaceStoredValues, FloatConstantsAreTheirBits) {
  // `0.5f * 2` and `1.0f` are spelled apart but store the same bits.
  StoreComparison C =
      compareStores(R"(
    __global__ void k() {
      __shared__ float s[4];
      s[threadIdx.x % 4] = 0.5f * 2;
      s[(threadIdx.x + 1) % 4] = 1.0f;
    })",
                    "s[threadIdx.x % 4]", "s[(threadIdx.x + 1) % 4]");
  EXPECT_TRUE(C.OneValue);
}

TEST(RaceStoredValues, DifferentConstantsAreLeftToTheSolver) {
  StoreComparison C =
      compareStores(R"(
    __global__ void k() {
      __shared__ int s[4];
      s[threadIdx.x % 4] = 1;
      s[(threadIdx.x + 1) % 4] = 2;
    })",
                    "s[threadIdx.x % 4]", "s[(threadIdx.x + 1) % 4]");
  EXPECT_FALSE(C.OneValue);
  EXPECT_TRUE(C.Values);
}

TEST(RaceStoredValues, ThreadIndexDiffersBetweenThreads) {
  StoreComparison C = compareStores(R"(
    __global__ void k() {
      __shared__ int s[1];
      s[0] = threadIdx.x;
    })",
                                    "s[0]", "s[0]");
  EXPECT_FALSE(C.OneValue);
  EXPECT_TRUE(C.Values);
}

TEST(RaceStoredValues, AnUnchangedParameterIsOneValue) {
  StoreComparison C = compareStores(R"(
    struct Params { float lambda; };
    __global__ void k(Params params) {
      __shared__ float s[1];
      s[0] = params.lambda;
    })",
                                    "s[0]", "s[0]");
  EXPECT_TRUE(C.OneValue);
}

TEST(RaceStoredValues, LoadsOfOneElementOfACommonArrayAreOneValue) {
  StoreComparison C = compareStores(R"(
    __global__ void k(const float *in) {
      __shared__ float s[1];
      s[0] = in[blockIdx.x];
    })",
                                    "s[0]", "s[0]");
  EXPECT_TRUE(C.OneValue);
}

} // namespace
} // namespace clang::cuda_tidy
