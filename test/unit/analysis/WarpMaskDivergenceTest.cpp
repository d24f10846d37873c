//===--- WarpMaskDivergenceTest.cpp - Masks naming lanes that leave -------===//

#include "analysis/WarpMaskDivergence.h"
#include "AnalysisTest.h"
#include "gtest/gtest.h"
#include <functional>
#include <vector>

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

struct Collected : WarpMaskHandler {
  std::vector<DivergentWarpCollective> Reports;
  void
  handleDivergentWarpCollective(const DivergentWarpCollective &D) override {
    Reports.push_back(D);
  }
};

/// The reports for kernel "k" of \p Code, parsed in \p Pass. The reports
/// point into the unit's AST (the condition, the callee), so the units stay
/// parsed for the whole run (ASan found a test reading a freed callee).
std::vector<DivergentWarpCollective>
reportsFor(llvm::StringRef Code, WarpMaskOptions Options = {},
           test::Pass Pass = test::Pass::Device) {
  static std::vector<std::unique_ptr<ParsedCuda>> Units;
  Units.push_back(std::make_unique<ParsedCuda>(Code, Pass));
  ParsedCuda &P = *Units.back();
  EXPECT_TRUE(P.ok());
  if (!P.ok())
    return {};
  DependenceOptions DepOptions;
  DepOptions.LaneRules = true;
  ThreadDependenceAnalysis Dependence(P.context(), DepOptions);
  Collected Handler;
  WarpMaskAnalysis Analysis(Dependence, Handler, Options);
  Analysis.analyze(P.function("k"));
  return Handler.Reports;
}

TEST(WarpMaskDivergence, FullMaskUnderLaneBranchNamesTheLanesAway) {
  auto Reports = reportsFor(R"(
    __global__ void k(float *a) {
      float v = a[threadIdx.x];
      if ((threadIdx.x & 31) < 16)
        v += __shfl_xor_sync(0xffffffff, v, 1);
      a[threadIdx.x] = v;
    })");
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_EQ(Reports[0].Name, "__shfl_xor_sync");
  EXPECT_EQ(Reports[0].Mask, "0xffffffff");
  EXPECT_EQ(Reports[0].Lanes, "lanes 16-31");
  EXPECT_EQ(Reports[0].When, "");
  EXPECT_FALSE(Reports[0].Undecided);
  ASSERT_NE(Reports[0].Condition, nullptr);
}

TEST(WarpMaskDivergence, MaskOfExactlyTheLanesThatStayIsSilent) {
  EXPECT_TRUE(reportsFor(R"(
    __global__ void k(float *a) {
      const int lane = threadIdx.x % 32;
      float v = a[threadIdx.x];
      if (lane < 16)
        v += __shfl_xor_sync(0xffff, v, 1);
      if (lane < 16)
        v += __shfl_xor_sync((1u << 16) - 1, v, 1);
      a[threadIdx.x] = v;
    })")
                  .empty());
}

TEST(WarpMaskDivergence, PartOfTheMaskAwayIsNamed) {
  auto Reports = reportsFor(R"(
    __global__ void k(float *a) {
      const int lane = threadIdx.x % 32;
      float v = a[threadIdx.x];
      if (lane < 8 || lane == 12)
        v += __shfl_xor_sync(0xffff, v, 1);
      a[threadIdx.x] = v;
    })");
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_EQ(Reports[0].Lanes, "lanes 8-11, 13-15");
}

TEST(WarpMaskDivergence, PartialLastWarpDependsOnTheBound) {
  auto Reports = reportsFor(R"(
    __global__ void k(float *a, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n)
        a[i] = __shfl_down_sync(0xffffffff, a[i], 1);
    })");
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_NE(Reports[0].When.find("'n' is"), std::string::npos);
}

TEST(WarpMaskDivergence, BoundsThatAreMultiplesOf32KeepWarpsWhole) {
  EXPECT_TRUE(reportsFor(R"(
    __global__ void k(float *a, int n) {
      __builtin_assume(n % 32 == 0);
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n)
        a[i] = __shfl_down_sync(0xffffffff, a[i], 1);
      if (i < 4096)
        a[i] = __shfl_down_sync(0xffffffff, a[i], 1);
    })")
                  .empty());
}

TEST(WarpMaskDivergence, WarpUniformGuardsAreSilent) {
  EXPECT_TRUE(reportsFor(R"(
    __global__ void k(float *a, int limit) {
      float v = a[threadIdx.x];
      if (threadIdx.x / 32 < limit)
        v += __shfl_xor_sync(0xffffffff, v, 1);
      if (threadIdx.y < limit)
        v += __shfl_xor_sync(0xffffffff, v, 1);
      if (__any_sync(0xffffffff, v > 0))
        v += __shfl_xor_sync(0xffffffff, v, 1);
      a[threadIdx.x] = v;
    })")
                  .empty());
}

TEST(WarpMaskDivergence, MasksItCannotReadAreSilent) {
  EXPECT_TRUE(reportsFor(R"(
    __global__ void k(float *a, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      unsigned m = __ballot_sync(0xffffffff, i < n);
      if (i < n) {
        a[i] = __shfl_down_sync(m, a[i], 1);
        a[i] = __shfl_down_sync(__activemask(), a[i], 1);
      }
      // Uniform under the lane rules, so an atom of the translation: not
      // a free unknown for the solver.
      unsigned half = __ballot_sync(0xffffffff, threadIdx.x % 32 < 8);
      if (threadIdx.x % 32 < 8)
        a[i] = __shfl_down_sync(half, a[i], 1);
    })",
                         {/*ReportUndecided=*/true})
                  .empty());
}

TEST(WarpMaskDivergence, UndecidedGuardsOnlyWhenAsked) {
  const char *Code = R"(
    __global__ void k(float *a, const int *on) {
      float v = a[threadIdx.x];
      if (on[threadIdx.x])
        v += __shfl_xor_sync(0xffffffff, v, 1);
      a[threadIdx.x] = v;
    })";
  EXPECT_TRUE(reportsFor(Code).empty());
  auto Reports = reportsFor(Code, {/*ReportUndecided=*/true});
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_TRUE(Reports[0].Undecided);
  EXPECT_EQ(Reports[0].Lanes, "");
}

TEST(WarpMaskDivergence, LanesMayMeetAtTheOtherArmsCollective) {
  EXPECT_TRUE(reportsFor(R"(
    __global__ void k(float *a) {
      if (threadIdx.x % 32 < 16)
        __syncwarp();
      else
        __syncwarp();
    })")
                  .empty());
  EXPECT_TRUE(reportsFor(R"(
    __device__ float sum(float x) {
      return x + __shfl_xor_sync(0xffffffff, x, 1);
    }
    __global__ void k(float *a) {
      float v = a[threadIdx.x];
      if (threadIdx.x % 32 < 16)
        v = sum(v);
      else
        v = __shfl_xor_sync(0xffffffff, v, 2);
      a[threadIdx.x] = v;
    })")
                  .empty());
  // Another mask on the other arm is no meeting.
  EXPECT_EQ(reportsFor(R"(
    __global__ void k(float *a) {
      if (threadIdx.x % 32 < 16)
        __syncwarp();
      else
        __syncwarp(0xffff0000);
    })")
                .size(),
            1u);
}

TEST(WarpMaskDivergence, LoopsAndEarlyExitsSendLanesAway) {
  auto Reports = reportsFor(R"(
    __global__ void k(float *a, int n) {
      if (threadIdx.x % 32 >= 24)
        return;
      for (int i = threadIdx.x; i < n; i += blockDim.x)
        a[i] = __shfl_down_sync(0x00ffffff, a[i], 1);
    })");
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_EQ(Reports[0].Kind, ConditionKind::Loop);
  // The exit keeps exactly the mask's lanes: only the loop sends lanes away.
  EXPECT_NE(Reports[0].When.find("'n' is"), std::string::npos);
}

TEST(WarpMaskDivergence, HelpersCountAsTheCollectiveTheyAlwaysReach) {
  auto Reports = reportsFor(R"(
    __device__ float sum(float x) {
      for (int o = 16; o > 0; o >>= 1)
        x += __shfl_xor_sync(0xffffffff, x, o);
      return x;
    }
    __device__ float sometimes(float x) {
      if (threadIdx.x % 2)
        x += __shfl_xor_sync(0xffffffff, x, 1);
      return x;
    }
    __global__ void k(float *a) {
      float v = a[threadIdx.x];
      if (threadIdx.x % 32 < 16)
        v = sum(v);
      if (threadIdx.x % 32 < 16)
        v = sometimes(v);
      a[threadIdx.x] = v;
    })");
  ASSERT_EQ(Reports.size(), 1u);
  ASSERT_NE(Reports[0].Callee, nullptr);
  EXPECT_EQ(Reports[0].Callee->getName(), "sum");
  ASSERT_NE(Reports[0].Collective, nullptr);
  EXPECT_EQ(Reports[0].Name, "__shfl_xor_sync");
  EXPECT_EQ(Reports[0].Lanes, "lanes 16-31");
}

TEST(WarpMaskDivergence, HostPassSeesTheSameKernel) {
  auto Reports = reportsFor(R"(
    __global__ void k(float *a) {
      if (threadIdx.x % 32 == 0)
        __syncwarp();
    })",
                            {}, test::Pass::Host);
  ASSERT_EQ(Reports.size(), 1u);
  EXPECT_EQ(Reports[0].Lanes, "lanes 1-31");
}

/// What decideBarrier says of the first `__syncthreads()` of kernel "k".
std::optional<bool> barrierDecision(llvm::StringRef Code,
                                    DivergentWarpCollective &Point) {
  static std::vector<std::unique_ptr<ParsedCuda>> Units;
  Units.push_back(std::make_unique<ParsedCuda>(Code, test::Pass::Device));
  ParsedCuda &P = *Units.back();
  EXPECT_TRUE(P.ok());
  if (!P.ok())
    return std::nullopt;
  ThreadDependenceAnalysis Dependence(P.context(), DependenceOptions());
  Collected Handler;
  WarpMaskAnalysis Analysis(Dependence, Handler);
  const FunctionDecl *K = P.function("k");
  // The first barrier in the order of the source.
  const CallExpr *Barrier = nullptr;
  std::function<void(const Stmt *)> Find = [&](const Stmt *S) {
    if (!S || Barrier)
      return;
    if (const auto *Call = dyn_cast<CallExpr>(S))
      if (Call->getDirectCallee() &&
          Call->getDirectCallee()->getName() == "__syncthreads")
        Barrier = Call;
    for (const Stmt *Child : S->children())
      Find(Child);
  };
  Find(K->getBody());
  EXPECT_NE(Barrier, nullptr);
  return Analysis.decideBarrier(K, Barrier, {}, Point);
}

TEST(WarpMaskDivergence, BarrierRuledOutByTheKernelsTrap) {
  DivergentWarpCollective Point;
  std::optional<bool> Found = barrierDecision(R"(
    __global__ void k(float *out, int C, int passes) {
      if (C % 128 != 0)
        __trap();
      __shared__ float s[1024];
      for (int i = 0; i < passes; i++) {
        int column = threadIdx.x % 32 * 4 + i * 128;
        if (column >= C)
          break;
        s[threadIdx.x] = out[column];
        __syncthreads();
        out[column] = s[(threadIdx.x + 32) % blockDim.x];
      }
      __syncthreads();
      out[threadIdx.x] = s[0];
    })",
                                              Point);
  ASSERT_TRUE(Found.has_value());
  EXPECT_FALSE(*Found);
}

TEST(WarpMaskDivergence, BarrierSplitNamesItsPoint) {
  DivergentWarpCollective Point;
  std::optional<bool> Found = barrierDecision(R"(
    __global__ void k(float *out, int n) {
      __shared__ float s[1024];
      if (threadIdx.x < n) {
        s[threadIdx.x] = out[threadIdx.x];
        __syncthreads();
        out[threadIdx.x] = s[0];
      }
      __syncthreads();
      out[threadIdx.x] = s[1];
    })",
                                              Point);
  ASSERT_TRUE(Found.has_value());
  EXPECT_TRUE(*Found);
  ASSERT_EQ(Point.Values.size(), 1u);
  EXPECT_EQ(Point.Values[0].first->getName(), "n");
  EXPECT_GT(Point.Values[0].second, 0);
  EXPECT_LT(Point.Values[0].second, Point.Block[0]);
  ASSERT_NE(Point.Condition, nullptr);
}

TEST(WarpMaskDivergence, BarrierWithAnExitAfterItIsUndecided) {
  DivergentWarpCollective Point;
  EXPECT_FALSE(barrierDecision(R"(
    __device__ int opaque(int);
    __global__ void k(const int *in, int *out, int n) {
      __shared__ int part[256];
      int j = 0;
      while (j < n) {
        part[threadIdx.x] = in[j * 256 + threadIdx.x];
        __syncthreads();
        if (opaque(part[(threadIdx.x + 1) % 256]) > 100)
          break;
        ++j;
      }
      out[blockIdx.x] = j;
    })",
                               Point)
                   .has_value());
}

} // namespace
} // namespace clang::cuda_tidy
