//===--- SyncEventsTest.cpp - The event vocabulary of the CUDA model ------===//
//
// Each kind on the calls that spell it, with the operands it carries, the
// names diagnostics give it and what the analyses make of it today
// (isBarrier, ordersWarp, accessOrder). The stub headers lack the pipeline
// primitives, libcu++ and CUB: the snippets declare the little they use, in
// the namespaces user code sees them in.
//
//===----------------------------------------------------------------------===//

#include "model/SyncEvents.h"
#include "AnalysisTest.h"
#include "clang/AST/ExprCXX.h"
#include "gtest/gtest.h"

namespace clang::cuda_tidy {
namespace {

using test::ParsedCuda;

/// The event of the first call to \p Callee in \p Function.
SyncEvent eventOf(ParsedCuda &P, llvm::StringRef Function,
                  llvm::StringRef Callee) {
  const CallExpr *CE = P.call(P.function(Function), Callee);
  EXPECT_TRUE(CE) << "no call to " << Callee.str() << " in " << Function.str();
  return CE ? classifySync(CE) : SyncEvent();
}

/// The variable \p E names, looking through conversions.
const ValueDecl *named(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreImplicit());
  return DRE ? DRE->getDecl() : nullptr;
}

std::string nameOf(const Expr *E) {
  const ValueDecl *D = named(E);
  return D ? D->getNameAsString() : "";
}

const GCCAsmStmt *firstAsm(const Stmt *S) {
  if (!S)
    return nullptr;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    return Asm;
  for (const Stmt *Child : S->children())
    if (const GCCAsmStmt *Asm = firstAsm(Child))
      return Asm;
  return nullptr;
}

SyncEvent asmEventOf(ParsedCuda &P, llvm::StringRef Function) {
  const FunctionDecl *F = P.function(Function);
  const GCCAsmStmt *Asm = F ? firstAsm(F->getBody()) : nullptr;
  EXPECT_TRUE(Asm) << "no asm in " << Function.str();
  return Asm ? classifyAsm(Asm) : SyncEvent();
}

TEST(SyncEvents, BlockBarriers) {
  ParsedCuda P(R"(
    __global__ void plain() { __syncthreads(); }
    __global__ void predicate(int *a) { a[0] = __syncthreads_or(a[1] > 0); }
    __global__ void numbered(unsigned id) { __barrier_sync(id); }
    __global__ void member() { cooperative_groups::this_thread_block().sync(); }
    __global__ void freeSync() {
      cooperative_groups::thread_block block =
          cooperative_groups::this_thread_block();
      cooperative_groups::sync(block);
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "plain", "__syncthreads");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(E.Scope, BarrierScope::Block);
  EXPECT_EQ(E.Name, "__syncthreads");
  EXPECT_EQ(E.BarrierId.value(P.context()), 0u);
  EXPECT_FALSE(E.ThreadCount.present());
  EXPECT_TRUE(E.Modelled && E.isBarrier() && !E.ordersWarp());

  E = eventOf(P, "predicate", "__syncthreads_or");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(E.Name, "__syncthreads_or");
  EXPECT_TRUE(E.Value);
  EXPECT_TRUE(E.UniformResult && E.BlockDependentResult);
  EXPECT_FALSE(E.ThreadDependentResult);

  E = eventOf(P, "numbered", "__barrier_sync");
  EXPECT_TRUE(E.isBarrier());
  EXPECT_EQ(nameOf(E.BarrierId.E), "id");

  E = eventOf(P, "member", "sync");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(E.Scope, BarrierScope::Block);
  EXPECT_EQ(E.Name, "thread_block::sync");
  EXPECT_TRUE(E.isBarrier());

  E = eventOf(P, "freeSync", "sync");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(E.Name, "cooperative_groups::sync");
  EXPECT_EQ(nameOf(E.Group), "block");
  EXPECT_TRUE(E.isBarrier());
}

TEST(SyncEvents, GridAndClusterBarriers) {
  ParsedCuda P(R"(
    __global__ void grid() { cooperative_groups::this_grid().sync(); }
    __global__ void cluster() { cooperative_groups::this_cluster().sync(); }
    __global__ void freeGrid() {
      cooperative_groups::sync(cooperative_groups::this_grid());
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "grid", "sync");
  EXPECT_EQ(E.Scope, BarrierScope::Grid);
  EXPECT_EQ(E.Name, "grid_group::sync");
  EXPECT_TRUE(E.isBarrier());
  EXPECT_EQ(E.Scope, BarrierScope::Grid);
  E = eventOf(P, "cluster", "sync");
  EXPECT_EQ(E.Scope, BarrierScope::Cluster);
  EXPECT_EQ(E.Name, "cluster_group::sync");
  E = eventOf(P, "freeGrid", "sync");
  EXPECT_EQ(E.Scope, BarrierScope::Grid);
  EXPECT_EQ(E.Name, "cooperative_groups::sync");
}

TEST(SyncEvents, SplitBarriersOfTheClusterAndOfGroups) {
  ParsedCuda P(R"(
    __global__ void cluster() {
      __cluster_barrier_arrive();
      __cluster_barrier_wait();
    }
    __global__ void block() {
      cooperative_groups::thread_block b =
          cooperative_groups::this_thread_block();
      auto token = b.barrier_arrive();
      b.barrier_wait(static_cast<decltype(token) &&>(token));
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent Arrive = eventOf(P, "cluster", "__cluster_barrier_arrive");
  EXPECT_EQ(Arrive.Kind, SyncKind::BarrierArrive);
  EXPECT_EQ(Arrive.Scope, BarrierScope::Cluster);
  EXPECT_TRUE(Arrive.Modelled);
  EXPECT_FALSE(Arrive.isBarrier());
  // Today the wait stands for the whole barrier.
  SyncEvent Wait = eventOf(P, "cluster", "__cluster_barrier_wait");
  EXPECT_EQ(Wait.Kind, SyncKind::BarrierWait);
  EXPECT_EQ(Wait.Name, "__cluster_barrier_wait");
  EXPECT_TRUE(Wait.isBarrier());
  EXPECT_EQ(Wait.Scope, BarrierScope::Cluster);

  Arrive = eventOf(P, "block", "barrier_arrive");
  EXPECT_EQ(Arrive.Kind, SyncKind::BarrierArrive);
  EXPECT_EQ(Arrive.Name, "thread_block::barrier_arrive");
  EXPECT_FALSE(Arrive.isBarrier());
  Wait = eventOf(P, "block", "barrier_wait");
  EXPECT_EQ(Wait.Kind, SyncKind::BarrierWait);
  EXPECT_EQ(Wait.Scope, BarrierScope::Block);
  EXPECT_TRUE(Wait.isBarrier());
}

constexpr const char *LibcuxxStandIns = R"(
    namespace cuda {
    enum thread_scope {
      thread_scope_system,
      thread_scope_device,
      thread_scope_block,
      thread_scope_thread
    };
    template <thread_scope Scope> class barrier {
    public:
      using arrival_token = unsigned long long;
      __device__ arrival_token arrive();
      __device__ void wait(arrival_token &&token);
      __device__ void arrive_and_wait();
    };
    template <thread_scope Scope> class pipeline {
    public:
      __device__ void producer_commit();
      __device__ void consumer_wait();
    };
    template <class Sync>
    __device__ void memcpy_async(void *dst, const void *src, size_t size,
                                 Sync &sync);
    template <unsigned Prior, thread_scope Scope>
    __device__ void pipeline_consumer_wait_prior(pipeline<Scope> &pipe);
    template <class T> struct atomic_ref {
      __device__ T fetch_add(T value);
    };
    }
)";

TEST(SyncEvents, CudaBarrierHalvesOrderAccessesButAreNoBlockBarrier) {
  ParsedCuda P(std::string(LibcuxxStandIns) + R"(
    __global__ void k() {
      __shared__ cuda::barrier<cuda::thread_scope_block> bar;
      auto token = bar.arrive();
      bar.wait(static_cast<decltype(token) &&>(token));
      bar.arrive_and_wait();
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent Arrive = eventOf(P, "k", "arrive");
  EXPECT_EQ(Arrive.Kind, SyncKind::BarrierArrive);
  EXPECT_EQ(Arrive.Scope, BarrierScope::Block);
  EXPECT_EQ(nameOf(Arrive.Storage), "bar");
  EXPECT_EQ(Arrive.Name, "barrier::arrive");
  SyncEvent Wait = eventOf(P, "k", "wait");
  EXPECT_EQ(Wait.Kind, SyncKind::BarrierWait);
  SyncEvent Both = eventOf(P, "k", "arrive_and_wait");
  EXPECT_EQ(Both.Kind, SyncKind::Barrier);
  EXPECT_EQ(nameOf(Both.Storage), "bar");
  // Modelled, and no barrier every thread must reach (the init call's count
  // says which do), but the race analysis reads the halves.
  for (const SyncEvent &E : {Arrive, Wait, Both})
    EXPECT_TRUE(E.Modelled && !E.isBarrier() && !E.ordersWarp());
  AccessOrder Order = Arrive.accessOrder(P.context());
  EXPECT_TRUE(Order.Arrive && !Order.Wait && !Order.Barrier);
  Order = Wait.accessOrder(P.context());
  EXPECT_TRUE(Order.Wait && !Order.Barrier);
  EXPECT_EQ(Order.Completes, 0);
  EXPECT_EQ(Order.Track, AsyncTrack::Barrier);
  Order = Both.accessOrder(P.context());
  EXPECT_TRUE(Order.Barrier && Order.Completes == 0);
}

TEST(SyncEvents, NamedBarriersWithThreadCounts) {
  ParsedCuda P(R"(
    __global__ void operands(unsigned id, unsigned count) {
      asm volatile("bar.sync %0, %1;" : : "r"(id), "r"(count));
    }
    __global__ void literals() { asm volatile("bar.sync 1, 64;"); }
    __global__ void named(unsigned id) {
      asm volatile("barrier.sync.aligned %[id];" : : [id] "r"(id));
    }
    __global__ void arrive() { asm volatile("bar.arrive 2, 128;"); }
    __global__ void clusterWait() { asm volatile("barrier.cluster.wait;"); }
    __global__ void warp(unsigned m) { asm volatile("bar.warp.sync %0;" : : "r"(m)); }
    __global__ void other(unsigned *a) {
      unsigned lane;
      asm("mov.u32 %0, %%laneid;" : "=r"(lane));
      a[0] = lane;
    }
    __global__ void twoInstructions() {
      asm volatile("bar.sync 0;\n\tbar.sync 1;");
    }
    __global__ void builtin(unsigned id, unsigned count) {
      __nvvm_barrier_sync_cnt(id, count);
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = asmEventOf(P, "operands");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(E.Scope, BarrierScope::Block);
  EXPECT_EQ(E.Name, "bar.sync");
  EXPECT_EQ(nameOf(E.BarrierId.E), "id");
  EXPECT_EQ(nameOf(E.ThreadCount.E), "count");
  // No analysis reads asm as an event yet.
  EXPECT_FALSE(E.Modelled || E.isBarrier());

  E = asmEventOf(P, "literals");
  EXPECT_EQ(E.BarrierId.Constant, 1u);
  EXPECT_EQ(E.ThreadCount.Constant, 64u);
  E = asmEventOf(P, "named");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(nameOf(E.BarrierId.E), "id");
  EXPECT_FALSE(E.ThreadCount.present());
  E = asmEventOf(P, "arrive");
  EXPECT_EQ(E.Kind, SyncKind::BarrierArrive);
  EXPECT_EQ(E.ThreadCount.Constant, 128u);
  E = asmEventOf(P, "clusterWait");
  EXPECT_EQ(E.Kind, SyncKind::BarrierWait);
  EXPECT_EQ(E.Scope, BarrierScope::Cluster);
  E = asmEventOf(P, "warp");
  EXPECT_EQ(E.Kind, SyncKind::WarpSync);
  EXPECT_EQ(nameOf(E.Mask.E), "m");
  EXPECT_EQ(asmEventOf(P, "other").Kind, SyncKind::None);
  EXPECT_EQ(asmEventOf(P, "twoInstructions").Kind, SyncKind::None);

  E = eventOf(P, "builtin", "__nvvm_barrier_sync_cnt");
  EXPECT_EQ(E.Kind, SyncKind::Barrier);
  EXPECT_EQ(nameOf(E.BarrierId.E), "id");
  EXPECT_EQ(nameOf(E.ThreadCount.E), "count");
  EXPECT_EQ(E.Name, "__nvvm_barrier_sync_cnt");
  // Only the threads counted wait: no barrier the whole block must reach,
  // but the race analysis reads it as ordering (which can only hide a race
  // between threads it does not count).
  EXPECT_TRUE(E.Modelled && !E.isBarrier());
  EXPECT_TRUE(E.accessOrder(P.context()).Barrier);
}

TEST(SyncEvents, WarpSyncCarriesItsMask) {
  ParsedCuda P(R"(
    __global__ void full() { __syncwarp(); }
    __global__ void half(unsigned m) { __syncwarp(0xffff); })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "full", "__syncwarp");
  EXPECT_EQ(E.Kind, SyncKind::WarpSync);
  EXPECT_EQ(E.Name, "__syncwarp");
  EXPECT_EQ(E.Mask.value(P.context()), 0xffffffffu);
  EXPECT_TRUE(E.ordersWarp() && !E.isBarrier());
  EXPECT_EQ(eventOf(P, "half", "__syncwarp").Mask.value(P.context()), 0xffffu);
}

TEST(SyncEvents, TileSyncCarriesAStaticSize) {
  ParsedCuda P(R"(
    namespace cg = cooperative_groups;
    __global__ void member() {
      auto tile = cg::tiled_partition<16>(cg::this_thread_block());
      tile.sync();
    }
    __global__ void freeSync() {
      auto tile = cg::tiled_partition<8>(cg::this_thread_block());
      cg::sync(tile);
    }
    __global__ void dynamic() {
      cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), 4);
      tile.sync();
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "member", "sync");
  EXPECT_EQ(E.Kind, SyncKind::TileSync);
  EXPECT_EQ(E.TileSize, 16u);
  EXPECT_FALSE(E.Scope);
  EXPECT_EQ(nameOf(E.Group), "tile");
  EXPECT_TRUE(E.ordersWarp() && !E.isBarrier());
  E = eventOf(P, "freeSync", "sync");
  EXPECT_EQ(E.Kind, SyncKind::TileSync);
  EXPECT_EQ(E.Name, "cooperative_groups::sync");
  EXPECT_EQ(E.TileSize, 8u);
  E = eventOf(P, "dynamic", "sync");
  EXPECT_EQ(E.Kind, SyncKind::TileSync);
  EXPECT_EQ(E.Name, "thread_group::sync");
  EXPECT_FALSE(E.TileSize);
}

TEST(SyncEvents, AsynchronousCopiesPerThread) {
  ParsedCuda P(std::string(LibcuxxStandIns) + R"(
    __device__ void __pipeline_memcpy_async(void *dst, const void *src,
                                            size_t size, size_t zfill = 0);
    __device__ void __pipeline_commit();
    __device__ void __pipeline_wait_prior(size_t prior);
    __global__ void primitives(const int *g) {
      __shared__ int s[32];
      __pipeline_memcpy_async(&s[threadIdx.x], &g[threadIdx.x], sizeof(int));
      __pipeline_commit();
      __pipeline_wait_prior(1);
    }
    __global__ void libcuxx(const int *g,
                            cuda::pipeline<cuda::thread_scope_block> &pipe) {
      __shared__ int s[32];
      cuda::memcpy_async(s, g, sizeof(s), pipe);
      pipe.producer_commit();
      cuda::pipeline_consumer_wait_prior<0>(pipe);
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent Copy = eventOf(P, "primitives", "__pipeline_memcpy_async");
  EXPECT_EQ(Copy.Kind, SyncKind::AsyncCopy);
  EXPECT_TRUE(Copy.Destination && Copy.Source && Copy.Size);
  EXPECT_FALSE(Copy.Group);
  SyncEvent Commit = eventOf(P, "primitives", "__pipeline_commit");
  EXPECT_EQ(Commit.Kind, SyncKind::AsyncCommit);
  SyncEvent Wait = eventOf(P, "primitives", "__pipeline_wait_prior");
  EXPECT_EQ(Wait.Kind, SyncKind::AsyncWait);
  EXPECT_EQ(Wait.Stage.value(P.context()), 1u);
  // Modelled: their order is the race analysis's (accessOrder).
  for (const SyncEvent &E : {Copy, Commit, Wait})
    EXPECT_TRUE(E.Modelled && !E.isBarrier() && !E.ordersWarp());
  EXPECT_EQ(Commit.Name, "__pipeline_commit");
  EXPECT_EQ(Copy.copyTrack(), AsyncTrack::Primitives);
  EXPECT_FALSE(Copy.accessOrder(P.context()).Commit);
  EXPECT_TRUE(Commit.accessOrder(P.context()).Commit);
  EXPECT_EQ(Wait.accessOrder(P.context()).Completes, 1);
  EXPECT_FALSE(Wait.accessOrder(P.context()).Barrier);

  Copy = eventOf(P, "libcuxx", "memcpy_async");
  EXPECT_EQ(Copy.Kind, SyncKind::AsyncCopy);
  EXPECT_EQ(nameOf(Copy.Storage), "pipe");
  EXPECT_EQ(nameOf(Copy.Destination), "s");
  EXPECT_EQ(Copy.Name, "cuda::memcpy_async");
  EXPECT_TRUE(Copy.Modelled);
  EXPECT_EQ(Copy.copyTrack(), AsyncTrack::Pipeline);
  Commit = eventOf(P, "libcuxx", "producer_commit");
  EXPECT_EQ(Commit.Kind, SyncKind::AsyncCommit);
  EXPECT_EQ(nameOf(Commit.Storage), "pipe");
  Wait = eventOf(P, "libcuxx", "pipeline_consumer_wait_prior");
  EXPECT_EQ(Wait.Kind, SyncKind::AsyncWait);
  EXPECT_EQ(Wait.Stage.Constant, 0u);
  EXPECT_TRUE(Wait.Modelled);
  // A pipeline's consumer waits for its oldest stage: read as all.
  EXPECT_EQ(Wait.accessOrder(P.context()).Completes, 0);
  EXPECT_EQ(Wait.accessOrder(P.context()).Track, AsyncTrack::Pipeline);
}

TEST(SyncEvents, AsynchronousCopiesPerGroup) {
  ParsedCuda P(R"(
    namespace cooperative_groups {
    template <class Group>
    __device__ void memcpy_async(const Group &g, void *dst, const void *src,
                                 size_t size);
    template <class Group> __device__ void wait(const Group &g);
    template <unsigned Prior, class Group>
    __device__ void wait_prior(const Group &g);
    }
    namespace cg = cooperative_groups;
    __global__ void k(const int *g) {
      __shared__ int s[32];
      cg::thread_block block = cg::this_thread_block();
      cg::memcpy_async(block, s, g, sizeof(s));
      cg::wait_prior<1>(block);
      cg::wait(block);
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent Copy = eventOf(P, "k", "memcpy_async");
  EXPECT_EQ(Copy.Kind, SyncKind::AsyncCopy);
  EXPECT_EQ(nameOf(Copy.Group), "block");
  EXPECT_EQ(nameOf(Copy.Destination), "s");
  EXPECT_EQ(nameOf(Copy.Source), "g");
  EXPECT_EQ(Copy.Name, "cooperative_groups::memcpy_async");
  SyncEvent Prior = eventOf(P, "k", "wait_prior");
  EXPECT_EQ(Prior.Kind, SyncKind::AsyncWait);
  EXPECT_EQ(Prior.Stage.Constant, 1u);
  SyncEvent Wait = eventOf(P, "k", "wait");
  EXPECT_EQ(Wait.Stage.Constant, 0u);
  // The copy commits its own batch; a wait on the block ends in its sync,
  // a barrier.
  EXPECT_TRUE(Copy.Modelled && !Copy.isBarrier() && !Copy.ordersWarp());
  EXPECT_TRUE(Copy.accessOrder(P.context()).Commit);
  for (const SyncEvent &E : {Prior, Wait}) {
    EXPECT_TRUE(E.Modelled && E.isBarrier() && !E.ordersWarp());
    EXPECT_TRUE(E.accessOrder(P.context()).Barrier);
  }
  EXPECT_EQ(Prior.accessOrder(P.context()).Completes, 1);
  EXPECT_EQ(Wait.accessOrder(P.context()).Completes, 0);
}

TEST(SyncEvents, CollectivesOnTemporaryStorage) {
  ParsedCuda P(R"(
    namespace cub {
    template <class T, int Threads> class BlockReduce {
    public:
      struct TempStorage {
        T Partials[Threads];
      };
      __device__ BlockReduce(TempStorage &storage);
      __device__ T Sum(T input);
    };
    }
    namespace cg = cooperative_groups;
    using Reduce = cub::BlockReduce<int, 128>;
    __global__ void temporary(int *a) {
      __shared__ Reduce::TempStorage temp;
      a[0] = Reduce(temp).Sum(a[threadIdx.x]);
    }
    __global__ void object(int *a) {
      __shared__ Reduce::TempStorage temp;
      Reduce reduce(temp);
      a[0] = reduce.Sum(a[threadIdx.x]);
    }
    __global__ void group(int *a) {
      auto tile = cg::tiled_partition<32>(cg::this_thread_block());
      a[threadIdx.x] = cg::reduce(tile, a[threadIdx.x], cg::plus<int>());
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "temporary", "Sum");
  EXPECT_EQ(E.Kind, SyncKind::Collective);
  EXPECT_EQ(E.Collective, CollectiveOp::Reduce);
  EXPECT_EQ(E.Scope, BarrierScope::Block);
  EXPECT_EQ(nameOf(E.Storage), "temp");
  EXPECT_EQ(E.Name, "BlockReduce::Sum");
  // Read by CUB's contract, not its body: a thread-dependent result, and
  // no order of the lanes (a direct BlockLoad syncs nothing).
  EXPECT_TRUE(E.Modelled && E.ThreadDependentResult && !E.ordersWarp());
  EXPECT_EQ(nameOf(eventOf(P, "object", "Sum").Storage), "temp");

  E = eventOf(P, "group", "reduce");
  EXPECT_EQ(E.Kind, SyncKind::Collective);
  EXPECT_EQ(E.Collective, CollectiveOp::Reduce);
  EXPECT_EQ(nameOf(E.Group), "tile");
  EXPECT_TRUE(E.Value);
  EXPECT_EQ(E.Name, "cooperative_groups::reduce");
  // As today: a warp sync with a thread-dependent result.
  EXPECT_TRUE(E.Modelled && E.ordersWarp() && E.ThreadDependentResult);
}

TEST(SyncEvents, ShufflesAndVotesCarryTheirMasks) {
  ParsedCuda P(R"(
    namespace cg = cooperative_groups;
    __device__ unsigned __match_any_sync(unsigned mask, int value);
    __device__ int __reduce_add_sync(unsigned mask, int value);
    __device__ int __shfl(int value, int lane);
    __global__ void k(int *a, unsigned m) {
      int v = a[threadIdx.x];
      v += __shfl_xor_sync(0xffffffff, v, 4);
      v += __ballot_sync(m, v > 0);
      v += __all_sync(m, v > 0);
      v += __match_any_sync(m, v);
      v += __reduce_add_sync(m, v);
      v += __activemask();
      v += __shfl(v, 0);
      auto tile = cg::tiled_partition<32>(cg::this_thread_block());
      v += tile.shfl_down(v, 1);
      v += tile.any(v > 0);
      a[threadIdx.x] = v;
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "k", "__shfl_xor_sync");
  EXPECT_EQ(E.Kind, SyncKind::Shuffle);
  EXPECT_EQ(E.Shuffle, ShuffleMode::Xor);
  EXPECT_EQ(E.Mask.value(P.context()), 0xffffffffu);
  EXPECT_EQ(nameOf(E.Value), "v");
  EXPECT_EQ(E.Lane->getIntegerConstantExpr(P.context())->getExtValue(), 4);
  EXPECT_TRUE(E.Width.E); // The default argument, warpSize.
  EXPECT_TRUE(E.ordersWarp() && E.ThreadDependentResult);

  E = eventOf(P, "k", "__ballot_sync");
  EXPECT_EQ(E.Kind, SyncKind::Vote);
  EXPECT_EQ(E.Vote, VoteMode::Ballot);
  EXPECT_EQ(nameOf(E.Mask.E), "m");
  EXPECT_EQ(eventOf(P, "k", "__all_sync").Vote, VoteMode::All);
  EXPECT_EQ(eventOf(P, "k", "__match_any_sync").Kind, SyncKind::Match);
  E = eventOf(P, "k", "__reduce_add_sync");
  EXPECT_EQ(E.Kind, SyncKind::WarpReduce);
  EXPECT_TRUE(E.ordersWarp());

  E = eventOf(P, "k", "__activemask");
  EXPECT_EQ(E.Kind, SyncKind::ActiveMask);
  EXPECT_TRUE(E.ThreadDependentResult && !E.ordersWarp());
  // The maskless shuffle orders nothing.
  E = eventOf(P, "k", "__shfl");
  EXPECT_EQ(E.Kind, SyncKind::Other);
  EXPECT_TRUE(E.ThreadDependentResult && !E.ordersWarp());

  E = eventOf(P, "k", "shfl_down");
  EXPECT_EQ(E.Kind, SyncKind::Shuffle);
  EXPECT_EQ(E.Shuffle, ShuffleMode::Down);
  EXPECT_FALSE(E.Mask.present());
  EXPECT_EQ(nameOf(E.Value), "v");
  EXPECT_EQ(nameOf(E.Group), "tile");
  EXPECT_EQ(E.Name, "__static_size_thread_block_tile_base::shfl_down");
  EXPECT_TRUE(E.ordersWarp());
  E = eventOf(P, "k", "any");
  EXPECT_EQ(E.Kind, SyncKind::Vote);
  EXPECT_EQ(E.Vote, VoteMode::Any);
}

TEST(SyncEvents, AtomicsAndHowTheSharedAccessesReadThem) {
  ParsedCuda P(std::string(LibcuxxStandIns) + R"(
    __device__ int __nv_atomic_fetch_add(int *ptr, int value, int order,
                                         int scope);
    __device__ int __atomic_bump(int *p);
    __device__ int atomically(int *p) { return *p; }
    __global__ void k(int *a) {
      __shared__ int s[4];
      a[0] = atomicAdd(&s[0], 1);
      a[1] = __nv_atomic_fetch_add(&s[1], 1, 0, 0);
      a[2] = __atomic_bump(&s[2]);
      a[3] = atomically(&s[3]);
      cuda::atomic_ref<int> ref{};
      a[4] = ref.fetch_add(1);
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "k", "atomicAdd");
  EXPECT_EQ(E.Kind, SyncKind::AtomicUpdate);
  EXPECT_TRUE(E.Modelled && E.ThreadDependentResult);
  EXPECT_TRUE(E.Destination);
  EXPECT_EQ(E.AtomicTarget, E.Destination);
  EXPECT_TRUE(E.AtomicInHelpers);

  E = eventOf(P, "k", "__nv_atomic_fetch_add");
  EXPECT_EQ(E.Kind, SyncKind::AtomicUpdate);
  EXPECT_TRUE(E.Destination);
  EXPECT_FALSE(E.AtomicTarget);

  E = eventOf(P, "k", "__atomic_bump");
  EXPECT_EQ(E.Kind, SyncKind::AtomicUpdate);
  EXPECT_TRUE(E.AtomicTarget);
  EXPECT_FALSE(E.AtomicInHelpers);

  // A user function spelled like an atomic stays unmodelled, but the
  // shared-memory accesses read it as one, as they always did.
  E = eventOf(P, "k", "atomically");
  EXPECT_EQ(E.Kind, SyncKind::None);
  EXPECT_FALSE(E.Modelled);
  EXPECT_TRUE(E.AtomicTarget && E.AtomicInHelpers);

  E = eventOf(P, "k", "fetch_add");
  EXPECT_EQ(E.Kind, SyncKind::AtomicUpdate);
  EXPECT_EQ(E.Name, "atomic_ref::fetch_add");
  EXPECT_EQ(nameOf(E.Storage), "ref");
  EXPECT_FALSE(E.AtomicTarget);
}

TEST(SyncEvents, OtherModelledCallsAreKnownByTheirResults) {
  ParsedCuda P(R"(
    namespace cg = cooperative_groups;
    __global__ void k(long long *a) {
      cg::thread_block block = cg::this_thread_block();
      a[0] = clock64();
      a[1] = block.thread_rank();
      a[3] = block.thread_index().x;
      a[4] = block.dim_threads().y;
      a[5] = block.size();
      a[6] = cg::this_grid().block_rank();
      a[7] = __clusterIdx().x;
      __threadfence();
    }
    __global__ void tileRank(unsigned *a) {
      a[0] = cg::tiled_partition<16>(cg::this_thread_block()).thread_rank();
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = eventOf(P, "k", "clock64");
  EXPECT_EQ(E.Kind, SyncKind::Other);
  EXPECT_TRUE(E.Modelled && E.ThreadDependentResult);

  E = eventOf(P, "k", "thread_rank");
  EXPECT_EQ(E.Query, GroupQuery::ThreadRank);
  EXPECT_EQ(E.Scope, BarrierScope::Block);
  EXPECT_EQ(E.Name, "thread_block::thread_rank");
  EXPECT_TRUE(E.ThreadDependentResult);

  E = eventOf(P, "tileRank", "thread_rank");
  EXPECT_EQ(E.Query, GroupQuery::ThreadRank);
  EXPECT_EQ(E.TileSize, 16u);
  EXPECT_FALSE(E.Scope);

  EXPECT_EQ(eventOf(P, "k", "thread_index").Query, GroupQuery::ThreadIndex);
  EXPECT_EQ(eventOf(P, "k", "dim_threads").Query, GroupQuery::DimThreads);
  E = eventOf(P, "k", "size");
  EXPECT_TRUE(E.UniformResult && !E.BlockDependentResult);
  E = eventOf(P, "k", "block_rank");
  EXPECT_EQ(E.Name, "grid_group::block_rank");
  EXPECT_TRUE(E.UniformResult && E.BlockDependentResult);
  E = eventOf(P, "k", "__clusterIdx");
  EXPECT_TRUE(E.UniformResult && E.ClusterDependentResult);
  E = eventOf(P, "k", "__threadfence");
  EXPECT_EQ(E.Kind, SyncKind::Fence);
  EXPECT_TRUE(E.Modelled && !E.isBarrier() && !E.ordersWarp());
}

TEST(SyncEvents, UserFunctionsStayUnmodelled) {
  ParsedCuda P(R"(
    struct Flags {
      __device__ void sync() {}
    };
    namespace mine {
    __device__ void sync(int) {}
    }
    __device__ int helper(int x) { return x + 1; }
    __global__ void k(int *a) {
      Flags f;
      f.sync();
      mine::sync(0);
      a[0] = helper(a[1]);
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent Helper = eventOf(P, "k", "helper");
  EXPECT_EQ(Helper.Kind, SyncKind::None);
  EXPECT_EQ(Helper.Name, "helper");
  SyncEvent Member = eventOf(P, "k", "Flags::sync");
  EXPECT_EQ(Member.Kind, SyncKind::None);
  EXPECT_EQ(Member.Name, "");
  SyncEvent Free = eventOf(P, "k", "mine::sync");
  EXPECT_EQ(Free.Kind, SyncKind::None);
  for (const SyncEvent &E : {Helper, Member, Free}) {
    EXPECT_FALSE(E.Modelled || E.isBarrier() || E.ordersWarp() ||
                 E.ThreadDependentResult || E.UniformResult);
    EXPECT_FALSE(E.AtomicTarget);
  }
}

TEST(SyncEvents, InlinePtxAsynchronousCopies) {
  ParsedCuda P(R"(
    __global__ void copy(const int *g) {
      __shared__ int s[32];
      unsigned dst = 0;
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
                   "l"(g));
    }
    __global__ void commit() { asm volatile("cp.async.commit_group;"); }
    __global__ void waitOne() { asm volatile("cp.async.wait_group 1;"); }
    __global__ void waitAll() { asm volatile("cp.async.wait_all;"); }
    __global__ void bulk(const int *g) {
      unsigned dst = 0;
      asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx"
                   "::bytes [%0], [%1], 16, [%2];" ::"r"(dst), "l"(g), "r"(dst));
    }
    __global__ void tensor(const void *map) {
      unsigned dst = 0, bar = 0;
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile"
                   ".mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                   ::"r"(dst), "l"(map), "r"(0), "r"(0), "r"(bar));
    }
    __global__ void bulkRead(const int *g) {
      unsigned src = 0;
      asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], 16;"
                   ::"l"(g), "r"(src));
    }
    __global__ void arrive() {
      unsigned bar = 0;
      asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;"
                   ::"r"(bar), "r"(16));
    }
    __global__ void waitLoop() {
      unsigned bar = 0;
      asm volatile("{\n.reg .pred P1;\nLAB_WAIT:\n"
                   "mbarrier.try_wait.parity.shared::cta.b64 P1, [%0], %1;\n"
                   "@P1 bra DONE;\nbra LAB_WAIT;\nDONE:\n}" ::"r"(bar), "r"(0));
    }
    __global__ void twoThings() {
      asm volatile("cp.async.commit_group;\ncp.async.wait_all;");
    })");
  ASSERT_TRUE(P.ok());
  SyncEvent E = asmEventOf(P, "copy");
  EXPECT_EQ(E.Kind, SyncKind::AsyncCopy);
  EXPECT_EQ(nameOf(E.Destination), "dst");
  EXPECT_EQ(E.AsmBytes, 16u);
  EXPECT_EQ(E.Name, "cp.async.cg.shared.global");
  E = asmEventOf(P, "commit");
  EXPECT_EQ(E.Kind, SyncKind::AsyncCommit);
  EXPECT_TRUE(E.accessOrder(P.context()).Commit);
  E = asmEventOf(P, "waitOne");
  EXPECT_EQ(E.Kind, SyncKind::AsyncWait);
  EXPECT_EQ(E.accessOrder(P.context()).Completes, 1);
  E = asmEventOf(P, "waitAll");
  EXPECT_EQ(E.accessOrder(P.context()).Completes, 0);
  // The bulk copies into shared memory complete through an mbarrier, the
  // last memory operand (after a tensor map's coordinates).
  E = asmEventOf(P, "bulk");
  EXPECT_EQ(E.Kind, SyncKind::AsyncCopy);
  EXPECT_TRUE(E.OnMbarrier);
  EXPECT_EQ(E.AsmBytes, 16u);
  EXPECT_EQ(E.copyTrack(), AsyncTrack::Barrier);
  E = asmEventOf(P, "tensor");
  EXPECT_EQ(E.Kind, SyncKind::AsyncCopy);
  EXPECT_EQ(nameOf(E.Storage), "bar");
  EXPECT_FALSE(E.AsmBytes);
  // From shared to global: a read of shared memory, not modelled.
  EXPECT_EQ(asmEventOf(P, "bulkRead").Kind, SyncKind::None);
  E = asmEventOf(P, "arrive");
  EXPECT_EQ(E.Kind, SyncKind::BarrierArrive);
  EXPECT_EQ(nameOf(E.Storage), "bar");
  EXPECT_TRUE(E.accessOrder(P.context()).Arrive);
  // The wait loop around try_wait is one wait; it completes the copies of
  // its phase.
  E = asmEventOf(P, "waitLoop");
  EXPECT_EQ(E.Kind, SyncKind::BarrierWait);
  EXPECT_EQ(E.accessOrder(P.context()).Completes, 0);
  EXPECT_EQ(E.accessOrder(P.context()).Track, AsyncTrack::Barrier);
  // Two instructions that both do something: not read.
  EXPECT_EQ(asmEventOf(P, "twoThings").Kind, SyncKind::None);
}

TEST(SyncEvents, Wrappers) {
  ParsedCuda P(R"(
    constexpr int kPreload = 64;
    __device__ void copy16(unsigned dst, const void *src) {
      if (kPreload == 64)
        asm volatile("cp.async.cg.shared.global.L2::64B [%0], [%1], 16;"
                     ::"r"(dst), "l"(src));
      else
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
                     "l"(src));
    }
    __device__ void commit() { asm volatile("cp.async.commit_group;"); }
    __device__ void namedSync(unsigned id, unsigned n) {
      asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(n));
    }
    __device__ void predicated(unsigned dst, const void *src, bool p) {
      if (p)
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst),
                     "l"(src));
    }
    __device__ void twoEvents() {
      asm volatile("cp.async.commit_group;");
      asm volatile("cp.async.wait_all;");
    }
    __device__ void inLoop(int n) {
      for (int i = 0; i < n; ++i)
        asm volatile("cp.async.commit_group;");
    }
    __device__ void withBarrier() {
      asm volatile("cp.async.wait_all;");
      __syncthreads();
    })");
  ASSERT_TRUE(P.ok());
  // The arm a folding condition picks, alone.
  std::optional<WrappedEvent> W =
      wrappedEvent(P.function("copy16"), P.context());
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Event.Kind, SyncKind::AsyncCopy);
  EXPECT_EQ(W->Event.Name, "cp.async.cg.shared.global.L2::64B");
  EXPECT_EQ(nameOf(W->Event.Destination), "dst");
  W = wrappedEvent(P.function("commit"), P.context());
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Event.Kind, SyncKind::AsyncCommit);
  W = wrappedEvent(P.function("namedSync"), P.context());
  ASSERT_TRUE(W);
  EXPECT_EQ(W->Event.Kind, SyncKind::Barrier);
  EXPECT_EQ(nameOf(W->Event.ThreadCount.E), "n");
  // Not wrappers: a condition of the helper's own, two operations, a
  // loop, a block barrier.
  for (const char *Name : {"predicated", "twoEvents", "inLoop", "withBarrier"})
    EXPECT_FALSE(wrappedEvent(P.function(Name), P.context())) << Name;
}

} // namespace
} // namespace clang::cuda_tidy
