//===--- RaceConcurrencyTest.cpp - Which shared accesses run at once ------===//

#include "AnalysisTest.h"
#include "analysis/race/Concurrency.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::KernelAccesses;
using test::ParsedCuda;

/// The atoms of \p A's and \p B's offsets and guards, as the race analysis
/// collects them for a pair.
llvm::SmallVector<unsigned, 4>
atomsOf(SymbolicTranslator &Sym, const SharedAccess &A, const SharedAccess &B) {
  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(A.Offset, Atoms);
  Sym.collectAtoms(B.Offset, Atoms);
  for (const SharedAccess *X : {&A, &B})
    for (const auto &Guard : X->Guards)
      Sym.collectAtoms(Guard.first, Atoms);
  return Atoms;
}

/// Whether \p I and \p J are among the candidate pairs of \p Concurrency.
bool isCandidate(const RaceConcurrency &Concurrency, unsigned I, unsigned J) {
  return Concurrency.candidatePairs().count({std::min(I, J), std::max(I, J)});
}

TEST(RaceConcurrency, BarrierBetweenOrdersTwoAccesses) {
  ParsedCuda P(R"(
    __global__ void k(int *out) {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned W = Accesses.find("s[threadIdx.x]");
  unsigned R = Accesses.find("s[255 - threadIdx.x]");
  ASSERT_LT(std::max(W, R), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  EXPECT_FALSE(Concurrency.concurrent(W, R).Concurrent);
  EXPECT_FALSE(isCandidate(Concurrency, W, R));
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[W], K.Accesses[R]);
  EXPECT_TRUE(Concurrency.scenarios(W, R, Atoms, false).empty());
}

TEST(RaceConcurrency, AccessesWithNoBarrierBetweenRunAtOnce) {
  ParsedCuda P(R"(
    __global__ void k(int *out) {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
      out[threadIdx.x] = s[255 - threadIdx.x];
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned W = Accesses.find("s[threadIdx.x]");
  unsigned R = Accesses.find("s[255 - threadIdx.x]");
  ASSERT_LT(std::max(W, R), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  PairConcurrency InFlight = Concurrency.concurrent(W, R);
  EXPECT_TRUE(InFlight.Concurrent);
  EXPECT_TRUE(InFlight.WarpConcurrent);
  EXPECT_TRUE(isCandidate(Concurrency, W, R));
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[W], K.Accesses[R]);
  llvm::SmallVector<RaceScenario, 4> Scenarios =
      Concurrency.scenarios(W, R, Atoms, false);
  ASSERT_EQ(Scenarios.size(), 1u);
  EXPECT_EQ(Scenarios[0].Order, 1); // The read comes second.
  EXPECT_FALSE(Scenarios[0].LaterIteration);
  EXPECT_FALSE(Scenarios[0].DifferentWarpsOnly);
  EXPECT_FALSE(Scenarios[0].Skip);
}

TEST(RaceConcurrency, WarpSyncOrdersOnlyTheLanesOfAWarp) {
  ParsedCuda P(R"(
    __global__ void k(int *out) {
      __shared__ int s[256];
      s[threadIdx.x] = 1;
      __syncwarp();
      out[threadIdx.x] = s[255 - threadIdx.x];
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned W = Accesses.find("s[threadIdx.x]");
  unsigned R = Accesses.find("s[255 - threadIdx.x]");
  ASSERT_LT(std::max(W, R), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  PairConcurrency InFlight = Concurrency.concurrent(W, R);
  EXPECT_TRUE(InFlight.Concurrent);
  EXPECT_FALSE(InFlight.WarpConcurrent);
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[W], K.Accesses[R]);
  llvm::SmallVector<RaceScenario, 4> Scenarios =
      Concurrency.scenarios(W, R, Atoms, false);
  ASSERT_EQ(Scenarios.size(), 1u);
  EXPECT_TRUE(Scenarios[0].DifferentWarpsOnly);
}

TEST(RaceConcurrency, LoopCarriedPairRunsAtOnceAcrossIterations) {
  // This iteration's read against the next iteration's write: the barrier
  // orders the write before the read, nothing the read before the write.
  ParsedCuda P(R"(
    __global__ void k(int *out, int n) {
      __shared__ int s[512];
      int v = 0;
      for (int i = 0; i < n; ++i) {
        s[threadIdx.x + i] = i;
        __syncthreads();
        v += s[threadIdx.x + i + 1];
      }
      out[threadIdx.x] = v;
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned W = Accesses.find("s[threadIdx.x + i]");
  unsigned R = Accesses.find("s[threadIdx.x + i + 1]");
  ASSERT_LT(std::max(W, R), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  EXPECT_TRUE(Concurrency.concurrent(W, R).Concurrent);
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[W], K.Accesses[R]);
  ASSERT_EQ(Atoms.size(), 1u); // The counter i.
  llvm::SmallVector<RaceScenario, 4> Scenarios =
      Concurrency.scenarios(W, R, Atoms, false);
  ASSERT_EQ(Scenarios.size(), 1u);
  EXPECT_EQ(Scenarios[0].Order, -1); // The write comes second...
  EXPECT_TRUE(Scenarios[0].LaterIteration);
  // ... one iteration after the read: B (the read) one iteration earlier.
  ASSERT_EQ(Scenarios[0].Relation.size(), 1u);
  EXPECT_EQ(Scenarios[0].Relation[0], -1);
}

TEST(RaceConcurrency, BothSidesOfAThreadDependentBranchRunAtOnce) {
  ParsedCuda P(R"(
    __global__ void k(int *out) {
      __shared__ int s[256];
      if (threadIdx.x < 128)
        s[threadIdx.x] = 1;
      else
        out[threadIdx.x] = s[threadIdx.x - 128];
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned W = Accesses.find("s[threadIdx.x]");
  unsigned R = Accesses.find("s[threadIdx.x - 128]");
  ASSERT_LT(std::max(W, R), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  EXPECT_TRUE(Concurrency.concurrent(W, R).Concurrent);
  EXPECT_TRUE(isCandidate(Concurrency, W, R));
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[W], K.Accesses[R]);
  llvm::SmallVector<RaceScenario, 4> Scenarios =
      Concurrency.scenarios(W, R, Atoms, false);
  ASSERT_EQ(Scenarios.size(), 1u);
  EXPECT_EQ(Scenarios[0].Order, 0); // Either may come first.
}

TEST(RaceConcurrency, BarrierBranchSkipsItsBarrierInSomeIterations) {
  // The barrier runs while `half > 32`: the way from this iteration's store
  // to the next iteration's load skips it only where that is false, and
  // passes the __syncwarp() there, so only threads of two warps meet.
  ParsedCuda P(R"(
    __global__ void k() {
      __shared__ float s[256];
      for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half) {
          float v = s[threadIdx.x + half];
          s[threadIdx.x] = v;
        }
        if (half > 32)
          __syncthreads();
        else
          __syncwarp();
      }
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned W = Accesses.find("s[threadIdx.x]");
  unsigned R = Accesses.find("s[threadIdx.x + half]");
  ASSERT_LT(std::max(W, R), Accesses.collector().accesses().size());
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[W], K.Accesses[R]);
  llvm::SmallVector<RaceScenario, 4> Scenarios =
      Concurrency.scenarios(W, R, Atoms, false);
  const RaceScenario *Next = nullptr;
  for (const RaceScenario &S : Scenarios)
    if (S.Order == 1)
      Next = &S;
  ASSERT_TRUE(Next);
  EXPECT_TRUE(Next->LaterIteration);
  ASSERT_TRUE(Next->Skip);
  EXPECT_FALSE(Next->Skip->Polarity); // The else side, with no barrier.
  EXPECT_FALSE(Next->Skip->OnB);      // In the store's iteration.
  EXPECT_EQ(K.Sym.atoms()[Next->Skip->Counter].Name, "half");
  EXPECT_TRUE(Next->DifferentWarpsOnly);
  // The load is in the next iteration of the loop over `half`.
  unsigned Half = llvm::find(Atoms, Next->Skip->Counter) - Atoms.begin();
  ASSERT_LT(Half, Next->Relation.size());
  EXPECT_EQ(Next->Relation[Half], 1);
}

/// The declarations the snippets below use, in the namespaces and classes
/// of the toolkit's headers.
constexpr const char *AsyncStandIns = R"(
    __device__ void __pipeline_memcpy_async(void *dst, const void *src,
                                            unsigned long size);
    __device__ void __pipeline_commit();
    __device__ void __pipeline_wait_prior(unsigned long prior);
    namespace cuda {
    enum thread_scope { thread_scope_system, thread_scope_device,
                        thread_scope_block };
    template <thread_scope Scope> class barrier {
    public:
      struct arrival_token {};
      __device__ arrival_token arrive();
      __device__ void wait(arrival_token &&token);
    };
    template <thread_scope Scope> class pipeline {
    public:
      __device__ void producer_commit();
      __device__ void consumer_wait();
    };
    template <thread_scope Scope>
    __device__ void memcpy_async(void *dst, const void *src,
                                 unsigned long size, pipeline<Scope> &pipe);
    }
    namespace cub {
    template <class T, int Threads> class BlockReduce {
    public:
      struct TempStorage { T Partials[Threads / 32]; };
      __device__ BlockReduce(TempStorage &storage);
      __device__ T Sum(T input);
    };
    }
)";

/// Whether accesses \p TextA and \p TextB of kernel \p Kernel may be in
/// flight together.
bool concurrentIn(ParsedCuda &P, llvm::StringRef Kernel, llvm::StringRef TextA,
                  llvm::StringRef TextB) {
  KernelAccesses Accesses(P, Kernel);
  EXPECT_TRUE(Accesses.ok());
  unsigned A = Accesses.find(TextA), B = Accesses.find(TextB);
  EXPECT_LT(std::max(A, B), Accesses.collector().accesses().size());
  if (std::max(A, B) >= Accesses.collector().accesses().size())
    return false;
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  return RaceConcurrency(K).concurrent(A, B).Concurrent;
}

TEST(RaceConcurrency, SplitBarrierOrdersWhatCameBeforeTheArrive) {
  ParsedCuda P(std::string(AsyncStandIns) + R"(
    __global__ void k(int *out) {
      __shared__ int s[256];
      __shared__ cuda::barrier<cuda::thread_scope_block> bar;
      s[threadIdx.x] = 1;
      auto token = bar.arrive();
      out[threadIdx.x] = s[255 - threadIdx.x];
      bar.wait(static_cast<decltype(token) &&>(token));
      out[threadIdx.x] += s[(threadIdx.x + 1) % 256];
    })");
  ASSERT_TRUE(P.ok());
  // Read between the halves: not ordered after the other threads' write.
  EXPECT_TRUE(concurrentIn(P, "k", "s[threadIdx.x]", "s[255 - threadIdx.x]"));
  // Read after the wait: ordered after what the others did before arriving.
  EXPECT_FALSE(
      concurrentIn(P, "k", "s[threadIdx.x]", "s[(threadIdx.x + 1) % 256]"));
  // What a thread does between the halves meets what others do after.
  EXPECT_TRUE(concurrentIn(P, "k", "s[255 - threadIdx.x]",
                           "s[(threadIdx.x + 1) % 256]"));
}

TEST(RaceConcurrency, AsyncCopyCrossesBarriersUntilItsWait) {
  ParsedCuda P(std::string(AsyncStandIns) + R"(
    __global__ void early(const int *in, int *out) {
      __shared__ int s[256];
      __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
      __pipeline_commit();
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    }
    __global__ void waited(const int *in, int *out) {
      __shared__ int s[256];
      __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
      __pipeline_commit();
      __pipeline_wait_prior(0);
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    }
    __global__ void uncommitted(const int *in, int *out) {
      __shared__ int s[256];
      __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
      __pipeline_wait_prior(0);
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    }
    __global__ void onePending(const int *in, int *out) {
      __shared__ int s[256];
      __pipeline_memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4);
      __pipeline_commit();
      __pipeline_commit();
      __pipeline_wait_prior(1);
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    })");
  ASSERT_TRUE(P.ok());
  EXPECT_TRUE(
      concurrentIn(P, "early", "&s[threadIdx.x]", "s[255 - threadIdx.x]"));
  EXPECT_FALSE(
      concurrentIn(P, "waited", "&s[threadIdx.x]", "s[255 - threadIdx.x]"));
  // A wait completes committed batches only.
  EXPECT_TRUE(concurrentIn(P, "uncommitted", "&s[threadIdx.x]",
                           "s[255 - threadIdx.x]"));
  // The copy's batch is the older of two: `wait_prior(1)` completes it.
  EXPECT_FALSE(
      concurrentIn(P, "onePending", "&s[threadIdx.x]", "s[255 - threadIdx.x]"));
}

TEST(RaceConcurrency, PipelineCopyCompletesAtTheConsumersWait) {
  ParsedCuda P(std::string(AsyncStandIns) + R"(
    __global__ void waited(const int *in, int *out,
                           cuda::pipeline<cuda::thread_scope_block> &pipe) {
      __shared__ int s[256];
      cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4, pipe);
      pipe.producer_commit();
      pipe.consumer_wait();
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    }
    __global__ void primitivesWait(const int *in, int *out,
                                   cuda::pipeline<cuda::thread_scope_block> &pipe) {
      __shared__ int s[256];
      cuda::memcpy_async(&s[threadIdx.x], &in[threadIdx.x], 4, pipe);
      pipe.producer_commit();
      __pipeline_wait_prior(0);
      __syncthreads();
      out[threadIdx.x] = s[255 - threadIdx.x];
    })");
  ASSERT_TRUE(P.ok());
  // The pipeline's commit counts on its own track.
  EXPECT_FALSE(
      concurrentIn(P, "waited", "&s[threadIdx.x]", "s[255 - threadIdx.x]"));
  // A wait of the primitives does not complete a pipeline's copy.
  EXPECT_TRUE(concurrentIn(P, "primitivesWait", "&s[threadIdx.x]",
                           "s[255 - threadIdx.x]"));
}

TEST(RaceConcurrency, BlockPrimitiveSharesItsStorageWithinOneCall) {
  ParsedCuda P(std::string(AsyncStandIns) + R"(
    using Reduce = cub::BlockReduce<int, 128>;
    __global__ void k(int *out) {
      __shared__ Reduce::TempStorage temp;
      out[0] = Reduce(temp).Sum(out[threadIdx.x]);
    })");
  ASSERT_TRUE(P.ok());
  KernelAccesses Accesses(P, "k");
  ASSERT_TRUE(Accesses.ok());
  unsigned U = Accesses.find("temp");
  ASSERT_LT(U, Accesses.collector().accesses().size());
  EXPECT_EQ(Accesses.collector().accesses()[U].Means, AccessMeans::Collective);
  RaceOptions Options;
  KernelRaceContext K(Accesses.collector(), Options);
  RaceConcurrency Concurrency(K);
  llvm::SmallVector<unsigned, 4> Atoms =
      atomsOf(K.Sym, K.Accesses[U], K.Accesses[U]);
  EXPECT_TRUE(Concurrency.scenarios(U, U, Atoms, false).empty());
}

} // namespace
} // namespace clang::cuda_tidy
