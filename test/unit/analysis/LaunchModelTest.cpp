//===--- LaunchModelTest.cpp - The launch model's answers -----------------===//

#include "model/LaunchModel.h"
#include "AnalysisTest.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/Support/FileSystem.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;
using test::Pass;

/// The model of \p P, collected as the checks collect it and resolved with
/// \p Index. The snippets' line numbers count the two `#include` lines that
/// ParsedCuda puts first and the empty line after `R"(`.
class Model {
public:
  explicit Model(ParsedCuda &P, const ProgramLaunches *Index = nullptr)
      : Launches(P.context()) {
    struct Collect : ast_matchers::MatchFinder::MatchCallback {
      LaunchModel &Into;
      explicit Collect(LaunchModel &Into) : Into(Into) {}
      void run(const ast_matchers::MatchFinder::MatchResult &R) override {
        Into.collect(R);
      }
    } Callback(Launches);
    ast_matchers::MatchFinder Finder;
    LaunchModel::registerMatchers(&Finder, &Callback);
    Finder.matchAST(P.context());
    Launches.resolve(Index);
  }
  LaunchModel Launches;
};

std::array<std::int64_t, 3> dims(std::int64_t X, std::int64_t Y = 1,
                                 std::int64_t Z = 1) {
  return {X, Y, Z};
}

TEST(LaunchModel, ChevronBlockIsItsConstantShape) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    void host(float *a) { k<<<dim3(8, 2), dim3(32, 4)>>>(a); })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 1u);
  const KernelLaunch &L = *Launches.front();
  EXPECT_EQ(L.Kind, LaunchKind::Chevron);
  EXPECT_EQ(L.Route, LaunchRoute::Named);
  EXPECT_EQ(L.Caller, P.function("host"));
  EXPECT_EQ(L.From, "input.cu:5");
  ASSERT_TRUE(L.Shape);
  EXPECT_EQ(L.Shape->Dim, dims(32, 4));
  EXPECT_EQ(L.ConstantBytes, 0);
  std::optional<BlockShape> Grid = M.Launches.grid(L);
  ASSERT_TRUE(Grid);
  EXPECT_EQ(Grid->Dim, dims(8, 2));
  ASSERT_EQ(M.Launches.shapesOf(P.function("k")).size(), 1u);
}

TEST(LaunchModel, BlockIsFollowedThroughALocal) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    void host(float *a, int n) {
      dim3 g(n);
      dim3 b(16, 16);
      k<<<g, b>>>(a);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 1u);
  ASSERT_TRUE(Launches.front()->Shape);
  EXPECT_EQ(Launches.front()->Shape->Dim, dims(16, 16));
  EXPECT_FALSE(M.Launches.grid(*Launches.front()));
}

TEST(LaunchModel, TemplateHelperLaunchesTheKernelItIsPassed) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    template <class Kernel> void launch(Kernel kernel, dim3 block, float *a) {
      kernel<<<1, block>>>(a);
    }
    void host(float *a) {
      const dim3 b(32, 8);
      launch(k, b, a);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 1u);
  const KernelLaunch &L = *Launches.front();
  EXPECT_EQ(L.Route, LaunchRoute::Helper);
  EXPECT_EQ(L.From, "input.cu:6");
  EXPECT_EQ(L.HelperFrom, "input.cu:10");
  EXPECT_EQ(L.HelperCall, P.call(P.function("host"), "launch"));
  ASSERT_TRUE(L.Shape);
  EXPECT_EQ(L.Shape->Dim, dims(32, 8));
  // Launched through a helper: its arguments are the helper's.
  EXPECT_TRUE(M.Launches.relationsOf(P.function("k")).empty());
}

TEST(LaunchModel, LocalPointerLaunchesEveryKernelItIsSetTo) {
  ParsedCuda P(R"(
    __global__ void naive(float *a) {}
    __global__ void tiled(float *a) {}
    void host(float *a, bool fast) {
      void (*kernel)(float *) = &naive;
      if (fast)
        kernel = tiled;
      kernel<<<4, 256>>>(a);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  for (const char *Name : {"naive", "tiled"}) {
    auto Launches = M.Launches.launchesOf(P.function(Name));
    ASSERT_EQ(Launches.size(), 1u) << Name;
    EXPECT_EQ(Launches.front()->Route, LaunchRoute::LocalPointer);
    ASSERT_TRUE(Launches.front()->Shape);
    EXPECT_EQ(Launches.front()->Shape->Dim, dims(256));
  }
}

TEST(LaunchModel, ApiLaunchesGiveTheirConfiguration) {
  ParsedCuda P(R"(
    struct cudaLaunchConfig_t {
      dim3 gridDim;
      dim3 blockDim;
      size_t dynamicSmemBytes;
      cudaStream_t stream;
    };
    cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config,
                                   void (*kernel)(float *, int), float *a,
                                   int n);
    __global__ void k(float *a, int n) {}
    void host(float *a, int n) {
      void *args[] = {&a, &n};
      cudaLaunchKernel((const void *)k, dim3(2), dim3(64, 2), args, 1024, 0);
      cudaLaunchConfig_t config = {};
      config.gridDim = dim3(4);
      config.blockDim = dim3(128);
      config.dynamicSmemBytes = 512;
      cudaLaunchKernelEx(&config, k, a, n);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 2u);
  const KernelLaunch &Api = *Launches[0];
  EXPECT_EQ(Api.Kind, LaunchKind::LaunchKernel);
  ASSERT_TRUE(Api.Shape);
  EXPECT_EQ(Api.Shape->Dim, dims(64, 2));
  EXPECT_EQ(Api.ConstantBytes, 1024);
  EXPECT_FALSE(Api.ArgsKnown);
  const KernelLaunch &Ex = *Launches[1];
  EXPECT_EQ(Ex.Kind, LaunchKind::LaunchKernelEx);
  ASSERT_TRUE(Ex.Shape);
  EXPECT_EQ(Ex.Shape->Dim, dims(128));
  EXPECT_EQ(Ex.ConstantBytes, 512);
  EXPECT_TRUE(Ex.ArgsKnown);
  EXPECT_EQ(Ex.Args.size(), 2u);
  // Both are read for the dynamic-shared check and give the block shapes;
  // a kernel handed to a launch API has no relations.
  EXPECT_EQ(M.Launches.byteCountLaunches().size(), 2u);
  llvm::ArrayRef<BlockShape> Shapes = M.Launches.shapesOf(P.function("k"));
  ASSERT_EQ(Shapes.size(), 2u);
  EXPECT_EQ(Shapes[0].Dim, dims(64, 2));
  EXPECT_EQ(Shapes[1].Dim, dims(128));
  EXPECT_TRUE(M.Launches.relationsOf(P.function("k")).empty());
}

TEST(LaunchModel, DynamicBytesAreAConstantOrAnExpression) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    void fixed(float *a) {
      const int n = 64;
      k<<<1, n, n * sizeof(float)>>>(a);
    }
    void given(float *a, int n) { k<<<1, 64, n * sizeof(float)>>>(a); })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 2u);
  EXPECT_EQ(Launches[0]->ConstantBytes, 256);
  // Not a constant: the expression stays for the symbolic host terms.
  EXPECT_FALSE(Launches[1]->ConstantBytes);
  EXPECT_NE(Launches[1]->Bytes, nullptr);
}

TEST(LaunchModel, UnevaluableLaunchSaysWhy) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    void (*global)(float *) = k;
    void host(float *a, dim3 b) {
      k<<<1, b>>>(a);
      global<<<1, 32>>>(a);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 1u);
  EXPECT_FALSE(Launches.front()->Shape);
  EXPECT_EQ(Launches.front()->Unresolved,
            "it comes from parameter 'b' of 'host'");
  EXPECT_TRUE(M.Launches.shapesOf(P.function("k")).empty());
  std::vector<UnresolvedLaunch> Unresolved = M.Launches.unresolved();
  ASSERT_EQ(Unresolved.size(), 2u);
  EXPECT_EQ(Unresolved[0].Kernel, P.function("k"));
  // The launch through a global pointer: no kernel, and why.
  EXPECT_EQ(Unresolved[1].Kernel, nullptr);
  EXPECT_FALSE(Unresolved[1].Why.empty());
}

TEST(LaunchModel, RelationBetweenAParameterAndTheBlock) {
  ParsedCuda P(R"(
    __global__ void k(float *a, int tilew, int r) {}
    void host(float *a, int bx, int radius) {
      dim3 block(bx, 4);
      k<<<1, block>>>(a, block.x + 2 * radius, radius);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Relations = M.Launches.relationsOf(P.function("k"));
  ASSERT_EQ(Relations.size(), 1u);
  EXPECT_EQ(Relations.front().str(), "tilew = blockDim.x + 2 * r");
  EXPECT_EQ(Relations.front().From, "input.cu:7");
}

TEST(LaunchModel, WarpRowsThroughAnObjectHoldingTheShape) {
  ParsedCuda P(R"(
    __global__ void wide(float *a) {}
    __global__ void narrow(float *a) {}
    __global__ void unlaunched(float *a) {}
    struct LaunchParams {
      dim3 block;
      LaunchParams(const dim3 &block_) : block(block_) {}
    };
    template <typename Kernel>
    void launchThrough(Kernel kernel, const LaunchParams &params, float *a) {
      kernel<<<1, params.block>>>(a);
    }
    void host(float *a) {
      const dim3 block(128, 1, 1);
      LaunchParams params = LaunchParams(block);
      launchThrough(wide, params, a);
      narrow<<<1, 48>>>(a);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  EXPECT_TRUE(M.Launches.launchesHaveWarpRows(P.function("wide")));
  EXPECT_FALSE(M.Launches.launchesHaveWarpRows(P.function("narrow")));
  EXPECT_FALSE(M.Launches.launchesHaveWarpRows(P.function("unlaunched")));
}

TEST(LaunchModel, ExitBoundBoundByTheLaunch) {
  ParsedCuda P(R"(
    __global__ void k(float *a, int n) {}
    void host(float *a, int n) {
      k<<<1, dim3(32, n)>>>(a, n);
      k<<<1, dim3(32, 8)>>>(a, 8);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  const FunctionDecl *K = P.function("k");
  EXPECT_TRUE(
      M.Launches.launchesBindExitBound(K, 1, std::nullopt, K->getParamDecl(1)));
  EXPECT_FALSE(M.Launches.launchesBindExitBound(K, 1, 8, nullptr));
}

TEST(LaunchModel, OtherFilesLaunchesComeFromTheIndex) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {})",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("launch-model-test", Dir));
  IndexedLaunch Other;
  Other.Kernel = kernelKey(P.function("k"));
  Other.Name = "k";
  Other.File = "/elsewhere/main.cu";
  Other.Line = 12;
  Other.Block = BlockShape{{64, 2, 1}};
  Other.Bytes = 0;
  ASSERT_TRUE(ProgramLaunches::write(Dir, "/elsewhere/main.cu", {Other}));
  const ProgramLaunches *Index = ProgramLaunches::load(Dir);
  ASSERT_NE(Index, nullptr);
  Model M(P, Index);
  llvm::sys::fs::remove_directories(Dir);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 1u);
  EXPECT_EQ(Launches.front()->Route, LaunchRoute::OtherFile);
  EXPECT_EQ(Launches.front()->From, "main.cu:12");
  ASSERT_TRUE(Launches.front()->Shape);
  EXPECT_EQ(Launches.front()->Shape->Dim, dims(64, 2));
  EXPECT_EQ(Launches.front()->Shape->Origin, "launched in main.cu:12");
  EXPECT_EQ(M.Launches.byteCountLaunches().size(), 1u);
}

TEST(LaunchModel, HelperTwoCallsDeepGivesBlockAndBytesThroughAStruct) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    struct Config {
      dim3 block;
      unsigned bytes;
    };
    template <class K> void inner(K kernel, const Config &c, unsigned n) {
      kernel<<<1, c.block, n>>>(nullptr);
    }
    template <class K> void outer(K kernel, const Config &c, unsigned n) {
      inner(kernel, c, n);
    }
    void host(float *a) {
      Config c{dim3(32, 4), 0};
      outer(k, c, 512);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 1u);
  const KernelLaunch &L = *Launches.front();
  EXPECT_EQ(L.Route, LaunchRoute::Helper);
  EXPECT_EQ(L.HelperCaller, P.function("host"));
  ASSERT_TRUE(L.Shape);
  EXPECT_EQ(L.Shape->Dim, dims(32, 4));
  EXPECT_EQ(L.ConstantBytes, 512);
  EXPECT_FALSE(L.ArgsKnown);
  EXPECT_TRUE(M.Launches.launchesHaveWarpRows(P.function("k")));
  EXPECT_EQ(M.Launches.byteCountLaunches().size(), 1u);
}

TEST(LaunchModel, ApiLaunchInsideAHelper) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    void launch(void (*kernel)(float *), dim3 block, void **args) {
      cudaLaunchKernel((const void *)kernel, dim3(1), block, args, 0, 0);
    }
    void host(float *a, dim3 given) {
      void *args[] = {&a};
      launch(k, dim3(48), args);
      launch(k, given, args);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 2u);
  EXPECT_EQ(Launches[0]->Kind, LaunchKind::LaunchKernel);
  EXPECT_EQ(Launches[0]->Route, LaunchRoute::Helper);
  ASSERT_TRUE(Launches[0]->Shape);
  EXPECT_EQ(Launches[0]->Shape->Dim, dims(48));
  EXPECT_FALSE(Launches[1]->Shape);
  EXPECT_EQ(Launches[1]->Unresolved,
            "it comes from parameter 'given' of 'host'");
  EXPECT_FALSE(M.Launches.launchesHaveWarpRows(P.function("k")));
  auto Unevaluated = M.Launches.unevaluatedLaunchesOf(P.function("k"));
  ASSERT_EQ(Unevaluated.size(), 1u);
  BlockShape Assumed;
  Assumed.Assumed = true;
  EXPECT_EQ(describeShapeOrigin(Assumed, Unevaluated),
            " (assumed: the block of the launch at input.cu:11 is not a "
            "constant)");
  EXPECT_EQ(describeShapeOrigin(Assumed, {}),
            " (assumed: no launch of this kernel was found)");
}

TEST(LaunchModel, UnevaluatedBlocksSayWhy) {
  ParsedCuda P(R"(
    __global__ void k(float *a) {}
    int size();
    void host(float *a, const unsigned *sizes, bool wide) {
      k<<<1, sizes[0]>>>(a);
      k<<<1, size()>>>(a);
      unsigned n = 32;
      if (wide)
        n = 64;
      k<<<1, n>>>(a);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  auto Launches = M.Launches.launchesOf(P.function("k"));
  ASSERT_EQ(Launches.size(), 3u);
  EXPECT_EQ(Launches[0]->Unresolved, "it is read from memory ('sizes[0]')");
  EXPECT_EQ(Launches[1]->Unresolved, "it is the result of a call to 'size'");
  EXPECT_EQ(Launches[2]->Unresolved,
            "'n' has different values on the paths that reach it");
}

TEST(LaunchModel, BarrierQuestionsReadLocalPointers) {
  ParsedCuda P(R"(
    __global__ void k(float *a, int n) {}
    void host(float *a, int n) {
      void (*kernel)(float *, int) = k;
      kernel<<<1, dim3(32, n)>>>(a, n);
    })",
               Pass::Host);
  ASSERT_TRUE(P.ok());
  Model M(P);
  const FunctionDecl *K = P.function("k");
  EXPECT_TRUE(M.Launches.launchesHaveWarpRows(K));
  EXPECT_TRUE(
      M.Launches.launchesBindExitBound(K, 1, std::nullopt, K->getParamDecl(1)));
  EXPECT_FALSE(M.Launches.launchesBindExitBound(K, 1, 8, nullptr));
}

} // namespace
} // namespace clang::cuda_tidy
