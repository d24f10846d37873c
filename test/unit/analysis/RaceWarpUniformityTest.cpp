//===--- RaceWarpUniformityTest.cpp - Values every lane agrees on ---------===//

#include "AnalysisTest.h"
#include "analysis/race/SharedMemoryRace.h"
#include "analysis/race/WarpUniformity.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::KernelAccesses;
using test::ParsedCuda;

/// Whether the value the store `s[threadIdx.x / 32] = ...` of kernel `k` of
/// \p Code writes is the same in every lane of a warp.
bool storesWarpUniform(llvm::StringRef Code) {
  ParsedCuda P(Code);
  EXPECT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  EXPECT_TRUE(Accesses.ok());
  if (!Accesses.ok())
    return false;
  unsigned I = Accesses.find("s[threadIdx.x / 32]");
  EXPECT_LT(I, Accesses.collector().accesses().size());
  if (I >= Accesses.collector().accesses().size())
    return false;
  const SharedAccess &Store = Accesses[I];
  WarpUniformity Uniformity(P.context(), Accesses.collector().dependence());
  return Store.Stored &&
         Uniformity.isWarpUniform(Store.Stored, Store.Block, Store.Index);
}

constexpr llvm::StringLiteral Butterfly = R"(
    __device__ float warpSum(float v) {
      for (int o = 16; o > 0; o >>= 1)
        v += __shfl_xor_sync(MASK, v, o);
      return v;
    }
    __global__ void k(const float *in) {
      __shared__ float s[8];
      float v = warpSum(in[threadIdx.x]);
      s[threadIdx.x / 32] = v;
    })";

TEST(RaceWarpUniformity, FullMaskButterflyResultIsWarpUniform) {
  EXPECT_TRUE(
      storesWarpUniform(("#define MASK 0xffffffff\n" + Butterfly).str()));
}

TEST(RaceWarpUniformity, HalfMaskButterflyResultIsNot) {
  EXPECT_FALSE(
      storesWarpUniform(("#define MASK 0x0000ffff\n" + Butterfly).str()));
}

TEST(RaceWarpUniformity, ThreadIndexIsNot) {
  EXPECT_FALSE(storesWarpUniform(R"(
    __global__ void k() {
      __shared__ unsigned s[8];
      s[threadIdx.x / 32] = threadIdx.x;
    })"));
}

TEST(RaceWarpUniformity, ButterflyReductionNamesTheReducedVariable) {
  ParsedCuda P(("#define MASK 0xffffffff\n" + Butterfly).str());
  ASSERT_TRUE(P.ok());
  const FunctionDecl *F = P.function("warpSum");
  ASSERT_TRUE(F);
  using namespace ast_matchers;
  auto Loops = match(stmt(forEachDescendant(forStmt().bind("loop"))),
                     *F->getBody(), P.context());
  ASSERT_EQ(Loops.size(), 1u);
  const VarDecl *Reduced =
      butterflyReduction(Loops[0].getNodeAs<ForStmt>("loop"), P.context());
  ASSERT_TRUE(Reduced);
  EXPECT_EQ(Reduced->getName(), "v");
}

} // namespace
} // namespace clang::cuda_tidy
