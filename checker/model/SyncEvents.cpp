//===--- SyncEvents.cpp - What each CUDA call means for ordering ----------===//

#include "model/SyncEvents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::cuda_tidy {

std::optional<std::uint64_t>
SyncOperand::value(const ASTContext &Context) const {
  if (Constant)
    return Constant;
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
    return std::nullopt;
  return Result.Val.getInt().tryZExtValue();
}

bool SyncEvent::isBarrier() const {
  // A barrier every thread of its scope must reach. Not a `cuda::barrier`'s
  // (Storage): its expected count is the `init` call's, which may be any
  // subset of the block, so reaching it under a thread-dependent branch is
  // no fault by itself; nor a named barrier with a thread count, which
  // warp-specialised kernels reach in some warps only. A wait on a split
  // barrier without an object of its own (the cluster's, a group's) is read
  // as the whole barrier, and so is a cooperative-groups wait on the block
  // (`cg::wait(block)` ends in `block.sync()`).
  if (!Modelled || !Scope || Storage || ThreadCount.present())
    return false;
  return Kind == SyncKind::Barrier || Kind == SyncKind::BarrierWait ||
         (Kind == SyncKind::AsyncWait && Group);
}

AsyncTrack SyncEvent::copyTrack() const {
  if (OnMbarrier)
    return AsyncTrack::Barrier;
  const CXXRecordDecl *Object =
      Storage ? Storage->getType().getNonReferenceType()->getAsCXXRecordDecl()
              : nullptr;
  if (Object && Object->getIdentifier()) {
    if (Object->getName() == "barrier")
      return AsyncTrack::Barrier;
    if (Object->getName() == "pipeline")
      return AsyncTrack::Pipeline;
  }
  return AsyncTrack::Primitives;
}

AccessOrder SyncEvent::accessOrder(const ASTContext &Context) const {
  AccessOrder Order;
  switch (Kind) {
  case SyncKind::Barrier:
    Order.Barrier = Scope.has_value();
    if (Storage) {
      Order.Completes = 0;
      Order.Track = AsyncTrack::Barrier;
    }
    break;
  case SyncKind::BarrierArrive:
    Order.Arrive = Scope.has_value();
    break;
  case SyncKind::BarrierWait:
    Order.Wait = Scope.has_value();
    if (Storage) {
      Order.Completes = 0;
      Order.Track = AsyncTrack::Barrier;
    }
    break;
  case SyncKind::Collective:
    // What a thread does before a CUB primitive that syncs the block inside
    // is ordered before what the others do after it. Its own use of its
    // storage stays an access (SharedAccesses.h), which a second use meets.
    Order.Barrier = HoldsBlockBarrier;
    break;
  case SyncKind::AsyncCopy:
    // A cooperative-groups copy commits its own batch.
    Order.Commit = Group && copyTrack() == AsyncTrack::Primitives;
    break;
  case SyncKind::AsyncCommit:
    Order.Commit = true;
    Order.Track = Storage ? AsyncTrack::Pipeline : AsyncTrack::Primitives;
    break;
  case SyncKind::AsyncWait: {
    Order.Track = Storage ? AsyncTrack::Pipeline : AsyncTrack::Primitives;
    // A pipeline's consumer waits for its oldest stage, which may be any
    // of the committed ones: read as completing all of them. A stage count
    // that does not fold is read the same way. Either can only hide a race.
    std::optional<std::uint64_t> Prior = Stage.value(Context);
    Order.Completes =
        Order.Track == AsyncTrack::Pipeline || !Prior
            ? 0
            : static_cast<int>(std::min<std::uint64_t>(*Prior, 8));
    Order.Barrier = Group && Scope;
    break;
  }
  default:
    break;
  }
  return Order;
}

bool SyncEvent::ordersWarp() const {
  if (!Modelled)
    return false;
  switch (Kind) {
  case SyncKind::Collective:
    // A cooperative-groups collective runs on the group's lanes; CUB's
    // block primitives may not sync at all (a direct BlockLoad).
    return Group != nullptr;
  case SyncKind::AsyncWait:
    // `cg::wait(tile)` ends in `tile.sync()`.
    return Group && !Scope;
  case SyncKind::WarpSync:
  case SyncKind::TileSync:
  case SyncKind::Shuffle:
  case SyncKind::Vote:
  case SyncKind::Match:
  case SyncKind::WarpReduce:
    return true;
  default:
    return false;
  }
}

namespace {

bool isOneOf(llvm::StringRef Name,
             std::initializer_list<llvm::StringRef> Candidates) {
  return llvm::is_contained(Candidates, Name);
}

bool hasPrefixThenUpper(llvm::StringRef Name, llvm::StringRef Prefix) {
  return Name.size() > Prefix.size() && Name.starts_with(Prefix) &&
         (isUppercase(Name[Prefix.size()]) || Name[Prefix.size()] == '_');
}

bool isAtomicFunction(llvm::StringRef Name) {
  return Name.starts_with("__atomic") || Name.starts_with("__nvvm_atom") ||
         Name.starts_with("__nv_atomic") || hasPrefixThenUpper(Name, "atomic");
}

/// Free functions whose result differs between threads of one block.
bool isThreadDependentFunction(llvm::StringRef Name) {
  for (llvm::StringRef Prefix : {"__shfl",
                                 "__ballot",
                                 "__any",
                                 "__all",
                                 "__uni",
                                 "__match",
                                 "__reduce_",
                                 "__activemask",
                                 "__lanemask",
                                 "__clock",
                                 "__globaltimer",
                                 "__nvvm_read_ptx_sreg_tid",
                                 "__nvvm_read_ptx_sreg_laneid",
                                 "__nvvm_read_ptx_sreg_warpid",
                                 "__nvvm_read_ptx_sreg_clock",
                                 "__nvvm_read_ptx_sreg_globaltimer",
                                 "__nvvm_read_ptx_sreg_smid",
                                 "__nvvm_read_ptx_sreg_lanemask",
                                 "__nvvm_shfl",
                                 "__nvvm_vote",
                                 "__nvvm_match",
                                 "__nvvm_redux"})
    if (Name.starts_with(Prefix))
      return true;
  return Name == "clock" || Name == "clock64" || isAtomicFunction(Name);
}

const Expr *argument(const CallExpr *CE, unsigned I) {
  return I < CE->getNumArgs() ? CE->getArg(I) : nullptr;
}

/// The object a member call is made on, static members called through one
/// (`block.sync()`) included.
const Expr *objectOf(const CallExpr *CE) {
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(CE))
    return Member->getImplicitObjectArgument();
  if (const auto *ME =
          dyn_cast<MemberExpr>(CE->getCallee()->IgnoreParenImpCasts()))
    return ME->getBase();
  return nullptr;
}

/// The first template argument of \p Args, when it is an integer.
std::optional<std::uint64_t>
firstIntegerArgument(const TemplateArgumentList *Args) {
  if (!Args || Args->size() == 0 ||
      Args->get(0).getKind() != TemplateArgument::Integral)
    return std::nullopt;
  return Args->get(0).getAsIntegral().tryZExtValue();
}

/// A static tile's size: the first template argument of the group's class
/// (`thread_block_tile<32>`, the bases that declare its members).
std::optional<std::uint64_t> tileSizeOf(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast_or_null<ClassTemplateSpecializationDecl>(RD);
  return Spec ? firstIntegerArgument(&Spec->getTemplateArgs()) : std::nullopt;
}

/// A count given as the template argument of a function
/// (`cg::wait_prior<1>`).
SyncOperand templateCount(const FunctionDecl *FD) {
  SyncOperand Op;
  Op.Constant = firstIntegerArgument(FD->getTemplateSpecializationArgs());
  return Op;
}

/// True if \p D is declared in the namespace \p Name at file scope, or in
/// one nested in it (`cuda::std`, CUB's versioned inline namespaces).
bool isInTopNamespace(const Decl *D, llvm::StringRef Name) {
  const NamespaceDecl *Top = nullptr;
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      Top = NS;
  return Top && Top->getIdentifier() && Top->getName() == Name;
}

/// The scope a libcu++ class template names by its `thread_scope`
/// argument (`cuda::barrier<cuda::thread_scope_block>`).
std::optional<BarrierScope> threadScopeOf(const CXXRecordDecl *RD) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(RD);
  if (!Spec)
    return std::nullopt;
  for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray()) {
    if (Arg.getKind() != TemplateArgument::Integral)
      continue;
    const auto *Enum = Arg.getIntegralType()->getAsEnumDecl();
    if (!Enum || !Enum->getIdentifier() || Enum->getName() != "thread_scope")
      continue;
    for (const EnumConstantDecl *Constant : Enum->enumerators())
      if (llvm::APSInt::isSameValue(Constant->getInitVal(),
                                    Arg.getAsIntegral()))
        return llvm::StringSwitch<std::optional<BarrierScope>>(
                   Constant->getName())
            .Case("thread_scope_block", BarrierScope::Block)
            .Case("thread_scope_cluster", BarrierScope::Cluster)
            .Cases({"thread_scope_device", "thread_scope_system"},
                   BarrierScope::Grid)
            .Default(std::nullopt);
  }
  return std::nullopt;
}

/// The TempStorage a CUB primitive was built on: the argument of the
/// constructor of the object \p Object names (`BlockReduce(temp).Sum(x)`,
/// or `BlockReduce reduce(temp); reduce.Sum(x)`). Null for one built
/// without (on private storage of its own).
const Expr *tempStorageOf(const Expr *Object) {
  if (!Object)
    return nullptr;
  const Expr *E = Object->IgnoreImplicit();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Cast->getSubExpr()->IgnoreImplicit();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()); VD && VD->getInit())
      E = VD->getInit()->IgnoreImplicit();
  const auto *Construct = dyn_cast<CXXConstructExpr>(E);
  return Construct && Construct->getNumArgs() > 0 ? Construct->getArg(0)
                                                  : nullptr;
}

std::optional<ShuffleMode> groupShuffleMode(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ShuffleMode>>(Name)
      .Case("shfl", ShuffleMode::Index)
      .Case("shfl_up", ShuffleMode::Up)
      .Case("shfl_down", ShuffleMode::Down)
      .Case("shfl_xor", ShuffleMode::Xor)
      .Default(std::nullopt);
}

std::optional<VoteMode> groupVoteMode(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<VoteMode>>(Name)
      .Case("all", VoteMode::All)
      .Case("any", VoteMode::Any)
      .Case("ballot", VoteMode::Ballot)
      .Default(std::nullopt);
}

void classifyGroupMember(const CXXMethodDecl *MD, llvm::StringRef Name,
                         const CallExpr *CE, SyncEvent &E) {
  const CXXRecordDecl *Group = MD->getParent();
  E.Name = (Group->getName() + "::" + Name).str();
  E.Scope = getGroupBarrierScope(Group);
  E.TileSize = tileSizeOf(Group);
  E.Group = objectOf(CE);
  E.Kind = SyncKind::Other;
  if (Name == "sync") {
    E.Kind = E.Scope ? SyncKind::Barrier : SyncKind::TileSync;
  } else if (Name == "barrier_arrive" && E.Scope) {
    E.Kind = SyncKind::BarrierArrive;
  } else if (Name == "barrier_wait" && E.Scope) {
    E.Kind = SyncKind::BarrierWait;
  } else if (auto Mode = groupShuffleMode(Name)) {
    E.Kind = SyncKind::Shuffle;
    E.Shuffle = *Mode;
    E.Value = argument(CE, 0);
    E.Lane = argument(CE, 1);
  } else if (auto Vote = groupVoteMode(Name)) {
    E.Kind = SyncKind::Vote;
    E.Vote = *Vote;
    E.Value = argument(CE, 0);
  } else if (Name == "match_any" || Name == "match_all") {
    E.Kind = SyncKind::Match;
    E.Value = argument(CE, 0);
  }
  E.Query = llvm::StringSwitch<GroupQuery>(Name)
                .Case("thread_index", GroupQuery::ThreadIndex)
                .Cases({"dim_threads", "group_dim"}, GroupQuery::DimThreads)
                .Case("thread_rank", GroupQuery::ThreadRank)
                .Case("meta_group_rank", GroupQuery::MetaGroupRank)
                .Default(GroupQuery::None);
  E.ThreadDependentResult =
      isOneOf(Name, {"thread_rank", "thread_index", "meta_group_rank", "shfl",
                     "shfl_down", "shfl_up", "shfl_xor", "ballot", "any", "all",
                     "match_any", "match_all"});
  E.UniformResult =
      isOneOf(Name, {"size", "num_threads", "group_dim", "dim_threads",
                     "group_index", "meta_group_size", "block_index",
                     "dim_blocks", "num_blocks", "block_rank", "cluster_index",
                     "cluster_rank", "dim_clusters", "num_clusters"});
  // A block's place in the grid or in its cluster; a cluster's in the grid.
  E.BlockDependentResult =
      isOneOf(Name, {"group_index", "block_index", "block_rank"});
  E.ClusterDependentResult = isOneOf(Name, {"cluster_index", "cluster_rank"});
}

void classifyGroupFunction(const FunctionDecl *FD, llvm::StringRef Name,
                           const CallExpr *CE, SyncEvent &E) {
  E.Name = ("cooperative_groups::" + Name).str();
  E.Kind = SyncKind::Other;
  if (Name == "sync" && CE->getNumArgs() == 1) {
    E.Group = CE->getArg(0);
    QualType T = E.Group->getType();
    E.Scope = getGroupBarrierScope(T);
    E.Kind = E.Scope ? SyncKind::Barrier : SyncKind::TileSync;
    E.TileSize = tileSizeOf(T.getNonReferenceType()->getAsCXXRecordDecl());
  } else if (isOneOf(Name, {"reduce", "inclusive_scan", "exclusive_scan"})) {
    E.Kind = SyncKind::Collective;
    E.Collective = Name == "reduce" ? CollectiveOp::Reduce : CollectiveOp::Scan;
    E.Group = argument(CE, 0);
    E.Value = argument(CE, 1);
  } else if (Name == "memcpy_async") {
    // (group, dst, src, bytes) or (group, dst, dst count, src, src count).
    bool Counted = CE->getNumArgs() == 5;
    E.Kind = SyncKind::AsyncCopy;
    E.Group = argument(CE, 0);
    E.Destination = argument(CE, 1);
    E.Source = argument(CE, Counted ? 3 : 2);
    E.Size = argument(CE, Counted ? 4 : 3);
  } else if (Name == "wait" || Name == "wait_prior") {
    E.Kind = SyncKind::AsyncWait;
    E.Group = argument(CE, 0);
    if (E.Group)
      E.Scope = getGroupBarrierScope(E.Group->getType());
    if (Name == "wait")
      E.Stage.Constant = 0;
    else
      E.Stage = templateCount(FD);
  }
  E.ThreadDependentResult = isOneOf(
      Name, {"thread_rank", "reduce", "inclusive_scan", "exclusive_scan",
             "coalesced_threads", "labeled_partition", "binary_partition"});
  E.UniformResult =
      isOneOf(Name, {"this_thread_block", "this_grid", "this_cluster",
                     "group_size", "num_threads"});
}

/// Member calls outside cooperative groups: the atomics of libcu++ and the
/// standard library, `cuda::barrier` and `cuda::pipeline`, and CUB's block
/// primitives, all modelled (their bodies are the libraries' business).
void classifyMember(const CXXMethodDecl *MD, llvm::StringRef Name,
                    const CallExpr *CE, SyncEvent &E) {
  const CXXRecordDecl *RD = MD->getParent();
  if (!RD->getIdentifier())
    return;
  llvm::StringRef Class = RD->getName();
  // cuda::atomic, cuda::atomic_ref and their std twins.
  if (Class.contains("atomic") &&
      (Name.starts_with("fetch_") || Name == "exchange" ||
       Name.starts_with("compare_exchange"))) {
    E.Kind = SyncKind::AtomicUpdate;
    E.Modelled = true;
    E.ThreadDependentResult = true;
    E.Name = (Class + "::" + Name).str();
    E.Storage = objectOf(CE);
    return;
  }
  if (isInTopNamespace(RD, "cuda") &&
      (Class == "barrier" || Class == "__barrier_base")) {
    E.Kind = llvm::StringSwitch<SyncKind>(Name)
                 .Cases({"arrive", "arrive_and_drop"}, SyncKind::BarrierArrive)
                 .Cases({"wait", "wait_parity", "try_wait", "try_wait_for",
                         "try_wait_until", "try_wait_parity",
                         "try_wait_parity_for", "try_wait_parity_until"},
                        SyncKind::BarrierWait)
                 .Case("arrive_and_wait", SyncKind::Barrier)
                 .Default(SyncKind::None);
  } else if (isInTopNamespace(RD, "cuda") && Class == "pipeline") {
    E.Kind = llvm::StringSwitch<SyncKind>(Name)
                 .Case("producer_commit", SyncKind::AsyncCommit)
                 .Case("consumer_wait", SyncKind::AsyncWait)
                 .Default(SyncKind::None);
  } else if (isInTopNamespace(RD, "cub") &&
             isOneOf(Class, {"BlockAdjacentDifference", "BlockDiscontinuity",
                             "BlockExchange", "BlockHistogram", "BlockLoad",
                             "BlockMergeSort", "BlockRadixSort", "BlockReduce",
                             "BlockRunLengthDecode", "BlockScan",
                             "BlockShuffle", "BlockStore"})) {
    E.Kind = SyncKind::Collective;
    E.Collective = Class == "BlockReduce" ? CollectiveOp::Reduce
                   : Class == "BlockScan" ? CollectiveOp::Scan
                                          : CollectiveOp::Other;
    E.Scope = BarrierScope::Block;
    E.Storage = tempStorageOf(objectOf(CE));
    E.Value = argument(CE, 0);
    E.Name = (Class + "::" + Name).str();
    // Their contract, not their internals: the results (an aggregate valid
    // in thread 0, a scan's prefixes) differ between threads.
    E.Modelled = E.ThreadDependentResult = true;
    E.HoldsBlockBarrier = Class != "BlockLoad" && Class != "BlockStore";
    return;
  }
  if (E.Kind == SyncKind::None)
    return;
  E.Modelled = true;
  E.Name = (Class + "::" + Name).str();
  E.Storage = objectOf(CE);
  E.Scope = threadScopeOf(RD);
}

std::optional<ShuffleMode> shuffleMode(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<ShuffleMode>>(Name)
      .Case("__shfl_sync", ShuffleMode::Index)
      .Case("__shfl_up_sync", ShuffleMode::Up)
      .Case("__shfl_down_sync", ShuffleMode::Down)
      .Case("__shfl_xor_sync", ShuffleMode::Xor)
      .Default(std::nullopt);
}

VoteMode voteMode(llvm::StringRef Name) {
  return llvm::StringSwitch<VoteMode>(Name)
      .Cases({"__all_sync", "__nvvm_vote_all_sync"}, VoteMode::All)
      .Cases({"__any_sync", "__nvvm_vote_any_sync"}, VoteMode::Any)
      .Cases({"__ballot_sync", "__nvvm_vote_ballot_sync"}, VoteMode::Ballot)
      .Cases({"__uni_sync", "__nvvm_vote_uni_sync"}, VoteMode::Uniform)
      .Default(VoteMode::Other);
}

/// The functions of the thread-dependent families: those ending in `_sync`
/// synchronise the lanes of their mask, the others only have results that
/// differ between threads.
void classifyThreadDependent(llvm::StringRef Name, const CallExpr *CE,
                             SyncEvent &E) {
  E.Modelled = E.ThreadDependentResult = true;
  if (Name.ends_with("_sync")) {
    E.Mask.E = argument(CE, 0);
    E.Value = argument(CE, 1);
    if (Name.starts_with("__shfl")) {
      E.Kind = SyncKind::Shuffle;
      E.Shuffle = shuffleMode(Name).value_or(ShuffleMode::Index);
      E.Lane = argument(CE, 2);
      E.Width.E = argument(CE, 3);
    } else if (Name.starts_with("__match")) {
      E.Kind = SyncKind::Match;
    } else if (Name.starts_with("__reduce_")) {
      E.Kind = SyncKind::WarpReduce;
    } else {
      E.Kind = SyncKind::Vote;
      E.Vote = voteMode(Name);
    }
    return;
  }
  if (Name.starts_with("__activemask")) {
    E.Kind = SyncKind::ActiveMask;
  } else if (isAtomicFunction(Name)) {
    E.Kind = SyncKind::AtomicUpdate;
    if (const Expr *Pointer = argument(CE, 0);
        Pointer && Pointer->getType()->isPointerType())
      E.Destination = Pointer;
  } else {
    E.Kind = SyncKind::Other;
  }
}

/// The arguments of a `cuda::ptx` call that are not its tags (the empty
/// structs `space_cluster_t`, `sem_release_t`, ... that pick the form).
llvm::SmallVector<const Expr *, 6> ptxOperands(const CallExpr *CE) {
  llvm::SmallVector<const Expr *, 6> Operands;
  for (const Expr *Arg : CE->arguments()) {
    const CXXRecordDecl *RD =
        Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
    if (!RD || !RD->isEmpty())
      Operands.push_back(Arg);
  }
  return Operands;
}

/// The type of tag argument \p I of a `cuda::ptx` call, as its canonical
/// type prints (`cuda::ptx::space_t<cuda::ptx::dot_space::global>`, which
/// `space_global_t` names); empty when it is no tag.
std::string ptxTag(const CallExpr *CE, unsigned I) {
  const Expr *Arg = argument(CE, I);
  QualType T = Arg ? Arg->getType().getNonReferenceType() : QualType();
  const CXXRecordDecl *RD = Arg ? T->getAsCXXRecordDecl() : nullptr;
  return RD && RD->isEmpty()
             ? T.getCanonicalType().getUnqualifiedType().getAsString()
             : "";
}

/// The bulk (TMA) copies from global into shared memory that complete on a
/// barrier's transaction count, and the mbarrier operations they meet:
/// `cuda::device::memcpy_async_tx(dst, src, size, bar)`, `cuda::device::
/// barrier_arrive_tx(bar, n, bytes)`, `cuda::device::experimental::
/// cp_async_bulk_global_to_shared` and `cp_async_bulk_tensor_Nd_global_to_
/// shared`, and in `cuda::ptx` `cp_async_bulk` and `cp_async_bulk_tensor`
/// from the global space, `mbarrier_arrive(_expect_tx)` and the
/// `mbarrier_try_wait` / `mbarrier_test_wait` family. A copy is a write of
/// its destination in flight until its barrier's phase completes; the
/// mbarrier calls are the halves of a split barrier on that word.
bool classifyBulkCopy(const FunctionDecl *FD, llvm::StringRef Name,
                      const CallExpr *CE, SyncEvent &E) {
  unsigned N = CE->getNumArgs();
  if (Name == "memcpy_async_tx" || Name == "cp_async_bulk_global_to_shared") {
    E.Kind = SyncKind::AsyncCopy;
    E.Destination = argument(CE, 0);
    E.Source = argument(CE, 1);
    E.Size = argument(CE, 2);
    E.Storage = argument(CE, 3);
  } else if (Name.starts_with("cp_async_bulk_tensor_") &&
             Name.ends_with("_global_to_shared") && N >= 3) {
    E.Kind = SyncKind::AsyncCopy;
    E.Destination = argument(CE, 0);
    E.Storage = argument(CE, N - 1);
  } else if (Name == "barrier_arrive_tx") {
    E.Kind = SyncKind::BarrierArrive;
    E.Storage = argument(CE, 0);
  } else if ((Name == "cp_async_bulk" || Name == "cp_async_bulk_tensor") &&
             llvm::StringRef(ptxTag(CE, 1)).contains("global")) {
    // (dst space, src space, dst, src or tensor map, size or coordinates,
    // mbarrier): only the copies into shared memory have a barrier.
    llvm::SmallVector<const Expr *, 6> Ops = ptxOperands(CE);
    if (Ops.size() < 4)
      return false;
    E.Kind = SyncKind::AsyncCopy;
    E.Destination = Ops[0];
    E.Source = Ops[1];
    if (Name == "cp_async_bulk")
      E.Size = Ops[2];
    E.Storage = Ops.back();
    E.OnMbarrier = true;
  } else if (Name.starts_with("mbarrier_arrive") ||
             Name.starts_with("mbarrier_try_wait") ||
             Name.starts_with("mbarrier_test_wait")) {
    E.Kind = Name.starts_with("mbarrier_arrive") ? SyncKind::BarrierArrive
                                                 : SyncKind::BarrierWait;
    for (const Expr *Arg : ptxOperands(CE))
      if (Arg->getType()->isPointerType()) {
        E.Storage = Arg;
        break;
      }
    E.OnMbarrier = true;
  } else {
    return false;
  }
  if (E.Kind == SyncKind::AsyncCopy && !E.Storage)
    return false;
  E.Scope = BarrierScope::Block;
  // Named as written: `cuda::ptx::cp_async_bulk`, without libcu++'s inline
  // versioning namespaces.
  E.Name = Name.str();
  for (const DeclContext *DC = FD->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC);
        NS && !NS->isInline() && NS->getIdentifier())
      E.Name = (NS->getName() + "::" + E.Name).str();
  return true;
}

void classifyFreeFunction(const FunctionDecl *FD, llvm::StringRef Name,
                          const CallExpr *CE, SyncEvent &E) {
  E.Name = Name.str();
  if (isOneOf(Name, {"__syncthreads", "__barrier_sync", "__nvvm_barrier_sync",
                     "__nvvm_bar_sync", "__nvvm_barrier0"})) {
    E.Kind = SyncKind::Barrier;
    E.Scope = BarrierScope::Block;
    E.Modelled = true;
    if (Name == "__syncthreads" || Name == "__nvvm_barrier0")
      E.BarrierId.Constant = 0;
    else
      E.BarrierId.E = argument(CE, 0);
    return;
  }
  if (isOneOf(Name,
              {"__syncthreads_count", "__syncthreads_and", "__syncthreads_or",
               "__nvvm_bar0_popc", "__nvvm_bar0_and", "__nvvm_bar0_or"})) {
    // Every thread of the block gets the same answer; other blocks may not.
    E.Kind = SyncKind::Barrier;
    E.Scope = BarrierScope::Block;
    E.BarrierId.Constant = 0;
    E.Value = argument(CE, 0);
    E.Modelled = E.UniformResult = E.BlockDependentResult = true;
    return;
  }
  if (Name == "__cluster_barrier_wait" || Name == "__cluster_barrier_arrive" ||
      Name == "__cluster_barrier_arrive_relaxed") {
    E.Kind = Name == "__cluster_barrier_wait" ? SyncKind::BarrierWait
                                              : SyncKind::BarrierArrive;
    E.Scope = BarrierScope::Cluster;
    E.Modelled = true;
    return;
  }
  if (Name == "__clusterRelativeBlockIdx" ||
      Name == "__clusterRelativeBlockRank") {
    E.Kind = SyncKind::Other;
    E.Modelled = E.UniformResult = E.BlockDependentResult = true;
    return;
  }
  if (Name == "__clusterIdx") {
    E.Kind = SyncKind::Other;
    E.Modelled = E.UniformResult = E.ClusterDependentResult = true;
    return;
  }
  if (isThreadDependentFunction(Name)) {
    classifyThreadDependent(Name, CE, E);
    return;
  }
  if (Name == "__syncwarp") {
    E.Kind = SyncKind::WarpSync;
    E.Mask.E = argument(CE, 0);
    E.Modelled = true;
    return;
  }
  if (isOneOf(Name, {"__threadfence", "__threadfence_block",
                     "__threadfence_system"})) {
    E.Kind = SyncKind::Fence;
    E.Modelled = true;
    return;
  }
  // Named barriers with a count, the pipeline primitives and libcu++'s
  // copies: modelled (accessOrder says how the race analysis reads them).
  E.Modelled = true;
  if (Name == "__nvvm_barrier_sync_cnt") {
    E.Kind = SyncKind::Barrier;
    E.Scope = BarrierScope::Block;
    E.BarrierId.E = argument(CE, 0);
    E.ThreadCount.E = argument(CE, 1);
  } else if (Name == "__pipeline_memcpy_async") {
    E.Kind = SyncKind::AsyncCopy;
    E.Destination = argument(CE, 0);
    E.Source = argument(CE, 1);
    E.Size = argument(CE, 2);
  } else if (Name == "__pipeline_commit") {
    E.Kind = SyncKind::AsyncCommit;
  } else if (Name == "__pipeline_wait_prior") {
    E.Kind = SyncKind::AsyncWait;
    E.Stage.E = argument(CE, 0);
  } else if (Name == "memcpy_async" && isInTopNamespace(FD, "cuda")) {
    // (dst, src, bytes, pipeline or barrier), or the same after a group.
    const Expr *First = argument(CE, 0);
    const CXXRecordDecl *FirstRecord =
        First ? First->getType().getNonReferenceType()->getAsCXXRecordDecl()
              : nullptr;
    unsigned Shift = FirstRecord && isInCooperativeGroups(FirstRecord) ? 1 : 0;
    E.Kind = SyncKind::AsyncCopy;
    E.Name = "cuda::memcpy_async";
    if (Shift)
      E.Group = First;
    E.Destination = argument(CE, Shift);
    E.Source = argument(CE, Shift + 1);
    E.Size = argument(CE, Shift + 2);
    E.Storage = argument(CE, Shift + 3);
  } else if (isInTopNamespace(FD, "cuda") &&
             classifyBulkCopy(FD, Name, CE, E)) {
    // The bulk copies and the mbarriers they complete on (below).
  } else if (Name == "pipeline_consumer_wait_prior" &&
             isInTopNamespace(FD, "cuda")) {
    E.Kind = SyncKind::AsyncWait;
    E.Stage = templateCount(FD);
    E.Storage = argument(CE, 0);
  } else {
    E.Modelled = false;
  }
}

SyncEvent classifyCallee(const CallExpr *CE) {
  SyncEvent E;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return E;
  // A launch from device code (dynamic parallelism) starts a child grid:
  // none of the kernel's body runs in the launching thread, and the child's
  // blocks have shared memory of their own. Modelled, so that no analysis
  // follows it as a call (its arguments are still evaluated here).
  if (isa<CUDAKernelCallExpr>(CE)) {
    E.Kind = SyncKind::DeviceLaunch;
    E.Modelled = true;
    E.Name = FD->getNameAsString();
    return E;
  }
  if (isInCooperativeGroups(FD)) {
    E.Modelled = true;
    llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";
    if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
      classifyGroupMember(MD, Name, CE, E);
    else
      classifyGroupFunction(FD, Name, CE, E);
    return E;
  }
  if (!FD->getIdentifier())
    return E;
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD))
    classifyMember(MD, FD->getName(), CE, E);
  else
    classifyFreeFunction(FD, FD->getName(), CE, E);
  return E;
}

} // namespace

SyncEvent classifySync(const CallExpr *CE) {
  SyncEvent E = classifyCallee(CE);
  // The shared-memory accesses' reading of atomics goes by spelling alone,
  // whatever else the call is.
  const FunctionDecl *FD = CE->getDirectCallee();
  const Expr *First = argument(CE, 0);
  if (FD && FD->getIdentifier() && First && First->getType()->isPointerType()) {
    llvm::StringRef Name = FD->getName();
    E.AtomicInHelpers = Name.starts_with("atomic");
    if (E.AtomicInHelpers || Name.starts_with("__atomic"))
      E.AtomicTarget = First;
  }
  return E;
}

namespace {

/// An operand of a barrier instruction: `%1` or `%[name]` names an operand
/// of the asm statement, anything else should be a literal.
SyncOperand asmOperand(const GCCAsmStmt *Asm, llvm::StringRef Token) {
  SyncOperand Op;
  Token = Token.trim();
  if (!Token.consume_front("%")) {
    std::uint64_t Value;
    if (!Token.getAsInteger(0, Value))
      Op.Constant = Value;
    return Op;
  }
  unsigned Index;
  if (Token.consume_front("[") && Token.consume_back("]")) {
    int Named = Asm->getNamedOperand(Token);
    if (Named < 0)
      return Op;
    Index = Named;
  } else if (Token.getAsInteger(10, Index)) {
    return Op;
  }
  if (Index < Asm->getNumOutputs())
    Op.E = Asm->getOutputExpr(Index);
  else if (Index - Asm->getNumOutputs() < Asm->getNumInputs())
    Op.E = Asm->getInputExpr(Index - Asm->getNumOutputs());
  return Op;
}

/// The instructions of an asm string that do something: without braces,
/// labels, `.reg` declarations, guard predicates, and the branches,
/// selects, moves and tests that a loop around `mbarrier.try_wait` or the
/// conversion of its predicate to a result are made of.
llvm::SmallVector<llvm::StringRef, 2>
significantInstructions(llvm::StringRef Text) {
  llvm::SmallVector<llvm::StringRef, 2> Out;
  llvm::SmallVector<llvm::StringRef, 8> Pieces;
  Text.split(Pieces, ';');
  for (llvm::StringRef Piece : Pieces) {
    llvm::SmallVector<llvm::StringRef, 4> Lines;
    Piece.split(Lines, '\n');
    for (llvm::StringRef Line : Lines) {
      Line = Line.trim(" \t\r{}");
      // A label: an identifier and a colon (not the `::` of a state space).
      size_t Colon = Line.find(':');
      if (Colon != llvm::StringRef::npos && Colon > 0 &&
          Line.substr(Colon, 2) != "::" &&
          llvm::all_of(Line.substr(0, Colon), [](char C) {
            return llvm::isAlnum(C) || C == '_' || C == '$';
          }))
        Line = Line.substr(Colon + 1).trim(" \t\r{}");
      if (Line.consume_front("@"))
        Line = Line.drop_until([](char C) { return C == ' ' || C == '\t'; })
                   .trim();
      if (Line.empty() || Line.starts_with(".reg") || Line.starts_with("//"))
        continue;
      llvm::StringRef Mnemonic = Line.take_until(
          [](char C) { return C == '.' || C == ' ' || C == '\t'; });
      if (isOneOf(Mnemonic, {"bra", "selp", "mov", "setp", "and", "or", "not"}))
        continue;
      Out.push_back(Line);
    }
  }
  return Out;
}

/// Splits the operands of an instruction at the commas outside brackets
/// and braces (`[%0], [%1, {%2, %3}], [%4]`).
llvm::SmallVector<llvm::StringRef, 4> splitOperands(llvm::StringRef Operands) {
  llvm::SmallVector<llvm::StringRef, 4> Out;
  int Depth = 0;
  size_t Start = 0;
  for (size_t I = 0; I <= Operands.size(); ++I) {
    char C = I < Operands.size() ? Operands[I] : ',';
    if (C == '[' || C == '{')
      ++Depth;
    else if (C == ']' || C == '}')
      --Depth;
    else if (C == ',' && Depth <= 0) {
      llvm::StringRef Token = Operands.slice(Start, I).trim();
      if (!Token.empty())
        Out.push_back(Token);
      Start = I + 1;
    }
  }
  return Out;
}

} // namespace

SyncEvent classifyAsm(const GCCAsmStmt *Asm) {
  SyncEvent E;
  std::string Text = Asm->getAsmString();
  llvm::SmallVector<llvm::StringRef, 2> Instructions =
      significantInstructions(Text);
  if (Instructions.size() != 1)
    return E;
  llvm::StringRef Instruction = Instructions.front();
  size_t Space = Instruction.find_first_of(" \t");
  llvm::StringRef Mnemonic = Instruction.substr(0, Space);
  llvm::StringRef Operands =
      Space == llvm::StringRef::npos ? "" : Instruction.substr(Space);
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Mnemonic.split(Parts, '.');
  llvm::SmallVector<llvm::StringRef, 4> Ops = splitOperands(Operands);
  auto Op = [&](unsigned I) {
    if (I >= Ops.size())
      return SyncOperand();
    // A memory operand, `[%0]`, names its address; a tensor's, `[%1, {%2,
    // %3}]`, its map first.
    llvm::StringRef Token = Ops[I].trim();
    if (Token.starts_with("[") && Token.ends_with("]"))
      Token = Token.drop_front().drop_back().split(',').first.trim();
    return asmOperand(Asm, Token);
  };
  // The first memory operand: an mbarrier's address.
  auto MemoryOp = [&]() {
    for (unsigned I = 0; I < Ops.size(); ++I)
      if (Ops[I].starts_with("["))
        return Op(I);
    return SyncOperand();
  };
  // mbarrier.arrive{.expect_tx}... state, [addr]{, n}, mbarrier.try_wait
  // and mbarrier.test_wait{.parity}... p, [addr], state: the halves of a
  // split barrier on the word at addr, the wait completing the bulk copies
  // of its phase. init, expect_tx alone and the rest are not read.
  if (Parts.size() >= 2 && Parts[0] == "mbarrier") {
    if (Parts[1] == "arrive" || Parts[1] == "arrive_drop")
      E.Kind = SyncKind::BarrierArrive;
    else if (Parts[1] == "try_wait" || Parts[1] == "test_wait")
      E.Kind = SyncKind::BarrierWait;
    else
      return E;
    E.Storage = MemoryOp().E;
    E.OnMbarrier = true;
    E.Scope = BarrierScope::Block;
    E.Name = Mnemonic.str();
    return E;
  }
  // The per-thread asynchronous copy the pipeline primitives compile to:
  // cp.async.{ca,cg}.shared.global [dst], [src], bytes (an optional
  // source size or cache hint after), cp.async.commit_group,
  // cp.async.wait_group N and cp.async.wait_all. The bulk copies into
  // shared memory, cp.async.bulk{.tensor.Nd}.shared::cluster.global...
  // [dst], [src or map, coordinates], (bytes,) [mbar], complete on the
  // mbarrier's phase.
  if (Parts.size() >= 3 && Parts[0] == "cp" && Parts[1] == "async") {
    if (Parts[2] == "commit_group") {
      E.Kind = SyncKind::AsyncCommit;
    } else if (Parts[2] == "wait_group") {
      E.Kind = SyncKind::AsyncWait;
      E.Stage = Op(0);
    } else if (Parts[2] == "wait_all") {
      E.Kind = SyncKind::AsyncWait;
      E.Stage.Constant = 0;
    } else if ((Parts[2] == "ca" || Parts[2] == "cg") && Parts.size() >= 5 &&
               Parts[3].starts_with("shared") && Parts[4] == "global") {
      E.Kind = SyncKind::AsyncCopy;
      E.Destination = Op(0).E;
      E.Source = Op(1).E;
      E.AsmBytes = Op(2).Constant;
    } else if (Parts[2] == "bulk" && Ops.size() >= 3) {
      bool Tensor = Parts.size() >= 5 && Parts[3] == "tensor";
      unsigned Space = Tensor ? 5 : 3;
      if (Parts.size() <= Space + 1 || !Parts[Space].starts_with("shared") ||
          !Parts[Space + 1].starts_with("global") ||
          !llvm::is_contained(Parts, "mbarrier::complete_tx::bytes"))
        return E;
      E.Kind = SyncKind::AsyncCopy;
      E.Destination = Op(0).E;
      E.Source = Op(1).E;
      E.Storage = Op(Tensor ? 2 : 3).E;
      E.OnMbarrier = true;
      E.Scope = BarrierScope::Block;
      if (!Tensor) {
        SyncOperand Bytes = Op(2);
        E.AsmBytes = Bytes.Constant;
        E.Size = Bytes.E;
      }
      if (!E.Storage || !E.Destination)
        return SyncEvent();
    } else {
      return E;
    }
    E.Name = Mnemonic.str();
    return E;
  }
  // bar{.cta,.warp}.sync, bar{.cta}.arrive, barrier{.cta}.{sync,arrive},
  // barrier.cluster.{arrive,wait}, each with modifiers (.aligned, .release).
  if (Parts.size() < 2 || (Parts[0] != "bar" && Parts[0] != "barrier"))
    return E;
  llvm::StringRef Level = Parts[1];
  llvm::StringRef Action =
      isOneOf(Level, {"cta", "cluster", "warp"}) && Parts.size() > 2 ? Parts[2]
                                                                     : Level;
  if (Level == "warp") {
    if (Action != "sync")
      return E;
    E.Kind = SyncKind::WarpSync;
    E.Mask = Op(0);
  } else if (Level == "cluster") {
    if (Action != "arrive" && Action != "wait")
      return E;
    E.Kind = Action == "wait" ? SyncKind::BarrierWait : SyncKind::BarrierArrive;
    E.Scope = BarrierScope::Cluster;
  } else {
    if (Action != "sync" && Action != "arrive")
      return E;
    E.Kind = Action == "sync" ? SyncKind::Barrier : SyncKind::BarrierArrive;
    E.Scope = BarrierScope::Block;
    E.BarrierId = Op(0);
    E.ThreadCount = Op(1);
  }
  E.Name = Mnemonic.str();
  return E;
}

namespace {

/// Collects the events of wrappedEvent() under \p S; \p Bad when one is
/// conditional, in a loop, or a block barrier.
void collectWrapped(const Stmt *S, const ASTContext &Context, bool Guarded,
                    llvm::SmallVectorImpl<WrappedEvent> &Found, bool &Bad) {
  if (!S || Bad || isa<LambdaExpr>(S))
    return;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    const Expr *Cond = If->getCond();
    bool Value;
    if (!If->getConditionVariable() && !If->getInit() && Cond &&
        !Cond->isValueDependent() &&
        Cond->EvaluateAsBooleanCondition(Value, Context)) {
      collectWrapped(Value ? If->getThen() : If->getElse(), Context, Guarded,
                     Found, Bad);
      return;
    }
    for (const Stmt *Child : S->children())
      collectWrapped(Child, Context, true, Found, Bad);
    return;
  }
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt, SwitchStmt,
          ConditionalOperator, BinaryConditionalOperator>(S)) {
    for (const Stmt *Child : S->children())
      collectWrapped(Child, Context, true, Found, Bad);
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isLogicalOp()) {
    collectWrapped(BO->getLHS(), Context, Guarded, Found, Bad);
    collectWrapped(BO->getRHS(), Context, true, Found, Bad);
    return;
  }
  SyncEvent Event;
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(S))
    Event = classifyAsm(Asm);
  else if (const auto *CE = dyn_cast<CallExpr>(S))
    Event = classifySync(CE);
  if (Event.Kind != SyncKind::None) {
    if (Event.isBarrier()) {
      Bad = true;
      return;
    }
    if (llvm::is_contained({SyncKind::AsyncCopy, SyncKind::AsyncCommit,
                            SyncKind::AsyncWait, SyncKind::Barrier,
                            SyncKind::BarrierArrive, SyncKind::BarrierWait},
                           Event.Kind) &&
        (Event.Kind == SyncKind::AsyncCopy ||
         Event.accessOrder(Context).ordersAnything())) {
      if (Guarded) {
        Bad = true;
        return;
      }
      Found.push_back({Event, S});
    }
  }
  for (const Stmt *Child : S->children())
    collectWrapped(Child, Context, Guarded, Found, Bad);
}

} // namespace

std::optional<WrappedEvent> wrappedEvent(const FunctionDecl *Definition,
                                         const ASTContext &Context) {
  if (!Definition || !Definition->hasBody() || Definition->isDependentContext())
    return std::nullopt;
  llvm::SmallVector<WrappedEvent, 2> Found;
  bool Bad = false;
  collectWrapped(Definition->getBody(), Context, false, Found, Bad);
  if (Bad || Found.size() != 1)
    return std::nullopt;
  return Found.front();
}

} // namespace clang::cuda_tidy
