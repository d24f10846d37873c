//===--- CudaModel.cpp - What the CUDA built-ins mean ---------------------===//

#include "model/CudaModel.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/Builtins.h"
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

std::optional<BarrierScope> getGroupBarrierScope(const CXXRecordDecl *RD) {
  if (!RD || !RD->getIdentifier() || !isInCooperativeGroups(RD))
    return std::nullopt;
  return llvm::StringSwitch<std::optional<BarrierScope>>(RD->getName())
      .Case("thread_block", BarrierScope::Block)
      .Case("cluster_group", BarrierScope::Cluster)
      .Case("grid_group", BarrierScope::Grid)
      .Default(std::nullopt);
}

std::optional<BarrierScope> getGroupBarrierScope(QualType T) {
  return getGroupBarrierScope(T.getNonReferenceType()->getAsCXXRecordDecl());
}

bool isWarpSizeVariable(const VarDecl *VD) {
  return VD->getIdentifier() && VD->getName() == "warpSize" &&
         !VD->hasLocalStorage();
}

std::optional<MinMaxKind> getMinMaxCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || CE->getNumArgs() != 2)
    return std::nullopt;
  return llvm::StringSwitch<std::optional<MinMaxKind>>(Callee->getName())
      .Cases({"min", "umin"}, MinMaxKind::Min)
      .Cases({"max", "umax"}, MinMaxKind::Max)
      .Default(std::nullopt);
}

bool isMemcpy(const FunctionDecl *FD) {
  unsigned ID = FD->getBuiltinID();
  return ID == Builtin::BImemcpy || ID == Builtin::BI__builtin_memcpy ||
         (FD->getIdentifier() && FD->getName() == "memcpy" &&
          FD->getDeclContext()->getRedeclContext()->isTranslationUnit());
}

bool isCachedGlobalLoad(const FunctionDecl *FD) {
  if (!FD->getIdentifier())
    return false;
  llvm::StringRef Name = FD->getName();
  return Name == "__ldg" || Name == "__ldca" || Name == "__ldcg" ||
         Name == "__ldcs";
}

bool isCommutativeHalfArithmetic(const FunctionDecl *FD) {
  return FD->getIdentifier() &&
         llvm::is_contained({"__hadd", "__hadd2", "__hmul", "__hmul2"},
                            FD->getName());
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
       {"%laneid", "%tid", "%warpid", "%clock", "%globaltimer", "%lanemask",
        "shfl.", "vote.", "atom.", "match.", "redux."})
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

} // namespace clang::cuda_tidy
