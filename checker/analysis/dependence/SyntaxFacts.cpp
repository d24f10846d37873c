//===--- SyntaxFacts.cpp - What a statement's syntax alone says -----------===//
//
// See SyntaxFacts.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/SyntaxFacts.h"
#include "clang/AST/Attr.h"

namespace clang::cuda_tidy {

const VarDecl *namedVariable(const Expr *E) {
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

std::optional<llvm::APSInt> constantValue(const Expr *E,
                                          const ASTContext &Context) {
  Expr::EvalResult Result;
  if (!E || E->isValueDependent() || !E->EvaluateAsInt(Result, Context) ||
      !Result.Val.isInt())
    return std::nullopt;
  return Result.Val.getInt();
}

bool isSharedVariable(const VarDecl *VD) {
  return VD && VD->hasAttr<CUDASharedAttr>();
}

bool writesAny(const Stmt *S,
               const llvm::SmallPtrSetImpl<const VarDecl *> &Watched) {
  if (!S)
    return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
      Cast && Cast->getCastKind() == CK_LValueToRValue &&
      isa<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens()))
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return Watched.count(VD);
  for (const Stmt *Child : S->children())
    if (writesAny(Child, Watched))
      return true;
  return false;
}

void collectVariables(const Stmt *E,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Vars) {
  if (!E)
    return;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Vars.insert(VD);
  for (const Stmt *Child : E->children())
    collectVariables(Child, Vars);
}

} // namespace clang::cuda_tidy
