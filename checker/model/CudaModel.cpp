//===--- CudaModel.cpp - What the CUDA built-ins mean ---------------------===//

#include "model/CudaModel.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::cuda_tidy {

std::optional<BuiltinIndexKind> getBuiltinIndexKind(const VarDecl *VD) {
  if (!VD)
    return std::nullopt;
  const auto *RD = VD->getType()->getAsCXXRecordDecl();
  if (!RD || !RD->getIdentifier())
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BuiltinIndexKind>>(RD->getName())
      .Case("__cuda_builtin_threadIdx_t", BuiltinIndexKind::ThreadIdx)
      .Case("__cuda_builtin_blockIdx_t", BuiltinIndexKind::BlockIdx)
      .Case("__cuda_builtin_blockDim_t", BuiltinIndexKind::BlockDim)
      .Case("__cuda_builtin_gridDim_t", BuiltinIndexKind::GridDim)
      .Default(std::nullopt);
}

std::optional<BuiltinIndexKind> getBuiltinIndexRef(const Expr *E,
                                                   std::string *Spelling) {
  E = E->IgnoreParenImpCasts();
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    E = POE->getSyntacticForm()->IgnoreParens();
  const auto *Prop = dyn_cast<MSPropertyRefExpr>(E);
  if (!Prop)
    return std::nullopt;
  const Expr *BaseExpr = Prop->getBaseExpr()->IgnoreParenImpCasts();
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(BaseExpr))
    BaseExpr = OVE->getSourceExpr()->IgnoreParenImpCasts();
  const auto *Base = dyn_cast<DeclRefExpr>(BaseExpr);
  if (!Base)
    return std::nullopt;
  const auto *VD = dyn_cast<VarDecl>(Base->getDecl());
  auto Kind = getBuiltinIndexKind(VD);
  if (Kind && Spelling)
    *Spelling =
        (VD->getName() + "." + Prop->getPropertyDecl()->getName()).str();
  return Kind;
}

bool isInCooperativeGroups(const Decl *D) {
  for (const DeclContext *DC = D->getDeclContext(); DC; DC = DC->getParent())
    if (const auto *NS = dyn_cast<NamespaceDecl>(DC))
      if (NS->getIdentifier() && NS->getName() == "cooperative_groups")
        return true;
  return false;
}

bool isBlockWideGroup(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier())
    return false;
  return (RD->getName() == "thread_block" || RD->getName() == "grid_group") &&
         isInCooperativeGroups(RD);
}

bool isBlockWideGroupType(QualType T) {
  return isBlockWideGroup(T.getNonReferenceType()->getAsCXXRecordDecl());
}

namespace {

std::optional<BarrierScope> recordBarrierScope(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || !isInCooperativeGroups(RD))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BarrierScope>>(RD->getName())
      .Case("thread_block", BarrierScope::Block)
      .Case("cluster_group", BarrierScope::Cluster)
      .Case("grid_group", BarrierScope::Grid)
      .Default(std::nullopt);
}

} // namespace

std::optional<BarrierScope> getGroupBarrierScope(QualType T) {
  return recordBarrierScope(T.getNonReferenceType()->getAsCXXRecordDecl());
}

llvm::StringRef scopeName(BarrierScope Scope) {
  switch (Scope) {
  case BarrierScope::Block:
    return "block";
  case BarrierScope::Cluster:
    return "cluster";
  case BarrierScope::Grid:
    return "grid";
  }
  llvm_unreachable("unknown barrier scope");
}

bool asmReadsThreadRegister(llvm::StringRef AsmString) {
  for (llvm::StringRef Needle :
       {"%laneid", "%tid", "%warpid", "%clock", "%globaltimer", "%lanemask", "shfl.", "vote.", "atom.", "match.", "redux."})
    if (AsmString.contains(Needle))
      return true;
  return false;
}

bool asmReadsBlockRegister(llvm::StringRef AsmString) {
  for (llvm::StringRef Needle :
       {"%ctaid", "%smid", "%cluster_ctaid", "%cluster_ctarank"})
    if (AsmString.contains(Needle))
      return true;
  return false;
}

bool asmReadsClusterRegister(llvm::StringRef AsmString) {
  return AsmString.contains("%clusterid");
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
                                 "__atomic",
                                 "__nvvm_atom",
                                 "__nv_atomic",
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
  return Name == "clock" || Name == "clock64" ||
         hasPrefixThenUpper(Name, "atomic");
}

CallModel classifyCooperativeGroupsCall(const FunctionDecl *FD,
                                        const CallExpr *CE) {
  CallModel M;
  M.Modelled = true;
  llvm::StringRef Name = FD->getIdentifier() ? FD->getName() : "";
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    const CXXRecordDecl *Group = MD->getParent();
    M.Name = (Group->getName() + "::" + Name).str();
    std::optional<BarrierScope> Scope = recordBarrierScope(Group);
    if ((Name == "sync" || Name == "barrier_wait") && Scope) {
      M.IsBlockBarrier = true;
      M.Scope = *Scope;
    } else if (Name == "sync" ||
             isOneOf(Name, {"shfl", "shfl_down", "shfl_up", "shfl_xor",
                            "ballot", "any", "all", "match_any", "match_all"}))
      M.IsWarpSync = true;
    M.ThreadDependentResult =
        isOneOf(Name, {"thread_rank", "thread_index", "meta_group_rank", "shfl",
                       "shfl_down", "shfl_up", "shfl_xor", "ballot", "any",
                       "all", "match_any", "match_all"});
    M.UniformResult = isOneOf(
        Name, {"size", "num_threads", "group_dim", "dim_threads", "group_index",
               "meta_group_size", "block_index", "dim_blocks", "num_blocks",
               "block_rank", "cluster_index", "cluster_rank", "dim_clusters",
               "num_clusters"});
    // A block's place in the grid or in its cluster; a cluster's in the grid.
    M.BlockDependentResult =
        isOneOf(Name, {"group_index", "block_index", "block_rank"});
    M.ClusterDependentResult = isOneOf(Name, {"cluster_index", "cluster_rank"});
    return M;
  }
  M.Name = ("cooperative_groups::" + Name).str();
  if (Name == "sync" && CE->getNumArgs() == 1) {
    if (auto Scope = getGroupBarrierScope(CE->getArg(0)->getType())) {
      M.IsBlockBarrier = true;
      M.Scope = *Scope;
    } else {
      M.IsWarpSync = true;
    }
  }
  if (Name == "reduce" || Name == "inclusive_scan" || Name == "exclusive_scan")
    M.IsWarpSync = true;
  M.ThreadDependentResult = isOneOf(
      Name, {"thread_rank", "reduce", "inclusive_scan", "exclusive_scan",
             "coalesced_threads", "labeled_partition", "binary_partition"});
  M.UniformResult =
      isOneOf(Name, {"this_thread_block", "this_grid", "this_cluster",
                     "group_size", "num_threads"});
  return M;
}

} // namespace

CallModel classifyCall(const CallExpr *CE) {
  CallModel M;
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return M;
  // A launch from device code (dynamic parallelism) starts a child grid:
  // none of the kernel's body runs in the launching thread, and the child's
  // blocks have shared memory of their own. Modelled, so that no analysis
  // follows it as a call (its arguments are still evaluated here).
  if (isa<CUDAKernelCallExpr>(CE)) {
    M.Modelled = true;
    M.Name = FD->getNameAsString();
    return M;
  }
  if (isInCooperativeGroups(FD))
    return classifyCooperativeGroupsCall(FD, CE);
  if (!FD->getIdentifier())
    return M;
  llvm::StringRef Name = FD->getName();
  if (const auto *MD = dyn_cast<CXXMethodDecl>(FD)) {
    // cuda::atomic, cuda::atomic_ref and their std twins.
    const CXXRecordDecl *RD = MD->getParent();
    if (RD->getIdentifier() && RD->getName().contains("atomic") &&
        (Name.starts_with("fetch_") || Name == "exchange" ||
         Name.starts_with("compare_exchange"))) {
      M.Modelled = true;
      M.ThreadDependentResult = true;
      M.Name = (RD->getName() + "::" + Name).str();
    }
    return M;
  }
  M.Name = Name.str();
  if (Name == "__syncthreads" || Name == "__barrier_sync" ||
      Name == "__nvvm_barrier_sync" || Name == "__nvvm_bar_sync" ||
      Name == "__nvvm_barrier0") {
    M.Modelled = M.IsBlockBarrier = true;
    return M;
  }
  if (Name == "__syncthreads_count" || Name == "__syncthreads_and" ||
      Name == "__syncthreads_or" || Name == "__nvvm_bar0_popc" ||
      Name == "__nvvm_bar0_and" || Name == "__nvvm_bar0_or") {
    // Every thread of the block gets the same answer; other blocks may not.
    M.Modelled = M.IsBlockBarrier = M.UniformResult = true;
    M.BlockDependentResult = true;
    return M;
  }
  if (Name == "__cluster_barrier_wait") {
    M.Modelled = M.IsBlockBarrier = true;
    M.Scope = BarrierScope::Cluster;
    return M;
  }
  if (Name == "__cluster_barrier_arrive" ||
      Name == "__cluster_barrier_arrive_relaxed") {
    M.Modelled = true;
    return M;
  }
  if (Name == "__clusterRelativeBlockIdx" ||
      Name == "__clusterRelativeBlockRank") {
    M.Modelled = M.UniformResult = M.BlockDependentResult = true;
    return M;
  }
  if (Name == "__clusterIdx") {
    M.Modelled = M.UniformResult = M.ClusterDependentResult = true;
    return M;
  }
  if (isThreadDependentFunction(Name)) {
    M.Modelled = M.ThreadDependentResult = true;
    M.IsWarpSync = Name.ends_with("_sync");
    return M;
  }
  if (Name == "__syncwarp") {
    M.Modelled = M.IsWarpSync = true;
    return M;
  }
  if (Name == "__threadfence" || Name == "__threadfence_block" ||
      Name == "__threadfence_system") {
    M.Modelled = true;
    return M;
  }
  return M;
}

} // namespace clang::cuda_tidy
