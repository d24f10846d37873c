//===--- SharedAddresses.cpp - What a 32-bit shared address points at ----===//
//
// See SharedAddresses.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/SharedAddresses.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"

namespace clang::cuda_tidy {

/// \p Pointer as written, before its conversion to `void *` (after an
/// array's decay).
const Expr *beforeVoidCast(const Expr *Pointer) {
  Pointer = Pointer->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(Pointer)) {
    if (Cast->getCastKind() != CK_BitCast && Cast->getCastKind() != CK_NoOp)
      break;
    Pointer = Cast->getSubExpr()->IgnoreParens();
  }
  return Pointer;
}

namespace {

/// `__cvta_generic_to_shared(p)` (or the NVVM builtin under it): the 32-bit
/// shared address of pointer p.
bool isSharedConversion(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Callee && Callee->getIdentifier() && Call->getNumArgs() == 1 &&
         (Callee->getName() == "__cvta_generic_to_shared" ||
          Callee->getName() == "__nvvm_cvta_generic_to_shared");
}

/// Whether nothing in \p Definition's body changes \p Var after its
/// initialisation (Clang's ExprMutationAnalyzer decides).
bool isUnassignedIn(const VarDecl *Var, const FunctionDecl *Definition,
                    ASTContext &Context) {
  const Stmt *Body = Definition->getBody();
  return Body && !ExprMutationAnalyzer(*Body, Context).isMutated(Var);
}

} // namespace

const Expr *SharedAddressResolver::pointerOf(const Expr *Address,
                                             unsigned Depth) {
  if (!Address || Depth > 4)
    return nullptr;
  const Expr *E = Address->IgnoreParenCasts();
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (isSharedConversion(Call))
      return beforeVoidCast(Call->getArg(0));
    const FunctionDecl *Callee = Call->getDirectCallee();
    // A helper that returns the conversion of its parameter (ggml's
    // `ggml_cuda_cvta_generic_to_shared(p)`).
    const FunctionDecl *Definition = nullptr;
    if (Callee && Call->getNumArgs() == 1 && Callee->hasBody(Definition) &&
        Definition->getNumParams() == 1 && Depth < 4)
      if (const auto *Body = dyn_cast<CompoundStmt>(Definition->getBody());
          Body && Body->size() == 1)
        if (const auto *Return = dyn_cast<ReturnStmt>(Body->body_front());
            Return && Return->getRetValue()) {
          bool AddressOf = false;
          const Expr *Inner = callerOperand(Return->getRetValue(), Call,
                                            Definition, AddressOf, Depth + 1);
          return AddressOf && Inner ? beforeVoidCast(Inner) : nullptr;
        }
    return nullptr;
  }
  // `unsigned dst = __cvta_generic_to_shared(&tile[t]);`, assigned once.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->hasLocalStorage() && !isa<ParmVarDecl>(Var) &&
        Var->getInit() && Sym.assignmentsTo(Var) == 0)
      return pointerOf(Var->getInit(), Depth + 1);
  return nullptr;
}

SharedAddress SharedAddressResolver::addressOf(const Expr *Address) {
  SharedAddress Result;
  if (!Address)
    return Result;
  const Expr *E = Address->IgnoreParenCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add && BO->getType()->isIntegerType()) {
    for (auto [Base, Offset] : {std::pair(BO->getLHS(), BO->getRHS()),
                                std::pair(BO->getRHS(), BO->getLHS())})
      if (const Expr *Pointer = pointerOf(Base)) {
        Result.Pointer = Pointer;
        Result.ByteOffset = Offset;
        return Result;
      }
    return Result;
  }
  Result.Pointer = pointerOf(Address);
  return Result;
}

const Expr *SharedAddressResolver::callerOperand(const Expr *E,
                                                 const CallExpr *Call,
                                                 const FunctionDecl *Definition,
                                                 bool &AddressOf,
                                                 unsigned Depth) {
  if (!E || Depth > 6)
    return nullptr;
  const Expr *X = E->IgnoreParenCasts();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(X)) {
    if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
        Param && Param->getDeclContext() == Definition) {
      unsigned I = Param->getFunctionScopeIndex();
      // The wrapper's parameter stands for the argument, when nothing in
      // the wrapper assigns it.
      if (I >= Call->getNumArgs() || isa<CXXOperatorCallExpr>(Call) ||
          !isUnassignedIn(Param, Definition, Context))
        return nullptr;
      return Call->getArg(I);
    }
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->getDeclContext() == Definition && Var->hasLocalStorage() &&
        Var->getInit() && isUnassignedIn(Var, Definition, Context))
      return callerOperand(Var->getInit(), Call, Definition, AddressOf,
                           Depth + 1);
    return nullptr;
  }
  if (const auto *Inner = dyn_cast<CallExpr>(X)) {
    if (isSharedConversion(Inner)) {
      bool InnerAddressOf = false;
      const Expr *Pointer = callerOperand(Inner->getArg(0), Call, Definition,
                                          InnerAddressOf, Depth + 1);
      if (!Pointer || InnerAddressOf)
        return nullptr;
      AddressOf = true;
      return Pointer;
    }
  }
  return nullptr;
}

} // namespace clang::cuda_tidy
