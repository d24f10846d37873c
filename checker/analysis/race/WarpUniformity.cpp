//===--- WarpUniformity.cpp - Values every lane of a warp agrees on -------===//
//
// See WarpUniformity.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/WarpUniformity.h"
#include "analysis/race/SharedMemoryRace.h"
#include "model/CudaModel.h"
#include "model/SyncEvents.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::cuda_tidy {

namespace {

/// The local variable an lvalue names or is part of (`v`, `v[j]`, `v.x`,
/// `v[j].x`); null for anything else.
const VarDecl *localBase(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return nullptr;
      E = Cast->getSubExpr();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && VD->hasLocalStorage() ? VD : nullptr;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// Whether the CFG element \p S may change local \p VD: an assignment,
/// increment or address taken of it or of a part of it, or a call that gets
/// it (or a part) as an lvalue (`ggml_cuda_mad(acc[j], a, b)` takes a
/// reference).
bool mayChange(const Stmt *S, const VarDecl *VD) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() && localBase(BO->getLHS()) == VD;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
           localBase(UO->getSubExpr()) == VD;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(CE))
      if (localBase(Member->getImplicitObjectArgument()) == VD)
        return true;
    for (const Expr *Arg : CE->arguments())
      if (Arg->isGLValue() || isa<ImplicitCastExpr>(Arg->IgnoreParens()))
        if (localBase(Arg) == VD)
          return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *Ref = dyn_cast<VarDecl>(D))
        if (Ref->getType()->isReferenceType() && Ref->getInit() &&
            localBase(Ref->getInit()) == VD)
          return true;
  return false;
}

/// Whether \p E evaluates to \p Value in this instantiation.
bool evaluatesTo(const Expr *E, std::uint64_t Value, const ASTContext &Ctx) {
  Expr::EvalResult Result;
  return E && !E->isValueDependent() && E->EvaluateAsInt(Result, Ctx) &&
         Result.Val.getInt().getZExtValue() == Value;
}

/// Whether \p A and \p B name the same lvalue (`v`, `v.x`).
bool sameLValue(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IdA, IdB;
  A->IgnoreParenImpCasts()->Profile(IdA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

/// Whether \p E is `__shfl_xor_sync(0xffffffff, Value, Offset[, 32])`.
bool isFullXorShuffle(const Expr *E, const Expr *Value, const VarDecl *Offset,
                      const ASTContext &Ctx) {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  if (!CE || isa<CXXMemberCallExpr>(CE) || CE->getNumArgs() < 3)
    return false;
  SyncEvent Event = classifySync(CE);
  if (Event.Kind != SyncKind::Shuffle || Event.Shuffle != ShuffleMode::Xor)
    return false;
  const auto *Lane =
      dyn_cast<DeclRefExpr>(CE->getArg(2)->IgnoreParenImpCasts());
  return evaluatesTo(CE->getArg(0), 0xffffffff, Ctx) &&
         sameLValue(CE->getArg(1), Value, Ctx) && Lane &&
         Lane->getDecl() == Offset &&
         (CE->getNumArgs() < 4 || evaluatesTo(CE->getArg(3), 32, Ctx));
}

/// The lvalue one step of a butterfly reduction combines with its partner
/// lane's copy through an operation whose result does not depend on the
/// order of its operands (`v += shfl(v)`, `v = shfl(v) && v`,
/// `v.x = __hadd2(v.x, shfl(v.x))`); null when \p S is not such a step.
/// Minimum and maximum are left out: on signed zeros the answer may depend
/// on the order, so lanes could keep different bytes.
const Expr *butterflyStep(const Stmt *S, const VarDecl *Offset,
                          const ASTContext &Ctx) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return nullptr;
  const Expr *Target = BO->getLHS()->IgnoreParens();
  if (const auto *Compound = dyn_cast<CompoundAssignOperator>(BO)) {
    switch (Compound->getOpcode()) {
    case BO_AddAssign:
    case BO_MulAssign:
    case BO_AndAssign:
    case BO_OrAssign:
    case BO_XorAssign:
      return isFullXorShuffle(BO->getRHS(), Target, Offset, Ctx) ? Target
                                                                 : nullptr;
    default:
      return nullptr;
    }
  }
  if (BO->getOpcode() != BO_Assign)
    return nullptr;
  const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
  const Expr *First = nullptr, *Second = nullptr;
  if (const auto *Op = dyn_cast<BinaryOperator>(RHS)) {
    switch (Op->getOpcode()) {
    case BO_Add:
    case BO_Mul:
    case BO_And:
    case BO_Or:
    case BO_Xor:
    case BO_LAnd:
    case BO_LOr:
      First = Op->getLHS();
      Second = Op->getRHS();
      break;
    default:
      return nullptr;
    }
  } else if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 2 ||
        !isCommutativeHalfArithmetic(Callee))
      return nullptr;
    First = Call->getArg(0);
    Second = Call->getArg(1);
  } else {
    return nullptr;
  }
  if (isFullXorShuffle(Second, Target, Offset, Ctx) &&
      sameLValue(First, Target, Ctx))
    return Target;
  if (isFullXorShuffle(First, Target, Offset, Ctx) &&
      sameLValue(Second, Target, Ctx))
    return Target;
  return nullptr;
}

} // namespace

/// The variable a butterfly reduction over the whole warp leaves the same
/// in every lane: `for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(
/// 0xffffffff, v, o);`, the offsets 16, 8, 4, 2, 1 and width 32, each step
/// combining the lane's value with its partner's in either order (lane i
/// and lane i ^ o compute the same thing, so after the step with offset o
/// groups of 2o lanes agree). For an aggregate every member must be
/// reduced. Null when \p Loop is not one.
const VarDecl *butterflyReduction(const Stmt *Loop, const ASTContext &Ctx) {
  if (const auto *Attributed = dyn_cast<AttributedStmt>(Loop))
    Loop = Attributed->getSubStmt();
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For)
    return nullptr;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Offset = Init && Init->isSingleDecl()
                           ? dyn_cast<VarDecl>(Init->getSingleDecl())
                           : nullptr;
  if (!Offset || !evaluatesTo(Offset->getInit(), 16, Ctx))
    return nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
  const auto *CondVar =
      Cond ? dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts())
           : nullptr;
  if (!CondVar || CondVar->getDecl() != Offset ||
      !((Cond->getOpcode() == BO_GT && evaluatesTo(Cond->getRHS(), 0, Ctx)) ||
        (Cond->getOpcode() == BO_GE && evaluatesTo(Cond->getRHS(), 1, Ctx))))
    return nullptr;
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(For->getInc());
  const auto *IncVar =
      Inc ? dyn_cast<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts())
          : nullptr;
  if (!IncVar || IncVar->getDecl() != Offset ||
      !((Inc->getOpcode() == BO_ShrAssign &&
         evaluatesTo(Inc->getRHS(), 1, Ctx)) ||
        (Inc->getOpcode() == BO_DivAssign &&
         evaluatesTo(Inc->getRHS(), 2, Ctx))))
    return nullptr;
  llvm::SmallVector<const Stmt *, 2> Steps;
  if (const auto *Body = dyn_cast<CompoundStmt>(For->getBody()))
    Steps.append(Body->body_begin(), Body->body_end());
  else
    Steps.push_back(For->getBody());
  const VarDecl *Reduced = nullptr;
  llvm::SmallPtrSet<const FieldDecl *, 4> Members;
  bool Whole = false;
  for (const Stmt *S : Steps) {
    const Expr *Target = butterflyStep(S, Offset, Ctx);
    if (!Target)
      return nullptr;
    const VarDecl *VD = localBase(Target);
    if (!VD || (Reduced && VD != Reduced))
      return nullptr;
    Reduced = VD;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParens());
        DRE && DRE->getDecl() == VD)
      Whole = true;
    else if (const auto *ME = dyn_cast<MemberExpr>(Target->IgnoreParens());
             ME && localBase(ME->getBase()) == VD &&
             isa<DeclRefExpr>(ME->getBase()->IgnoreParens()))
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Members.insert(Field);
  }
  if (!Reduced || Reduced->getType()->isReferenceType())
    return nullptr;
  if (Whole && Members.empty())
    return Reduced;
  const RecordDecl *Record = Reduced->getType()->getAsRecordDecl();
  if (Whole || !Record)
    return nullptr;
  for (const FieldDecl *Field : Record->fields())
    if (!Members.count(Field))
      return nullptr;
  return Reduced;
}

namespace {

/// Whether \p S, the rest of a function body from here, returns a value
/// every lane of the warp agrees on: a warp reduction's result (`return
/// __reduce_add_sync(0xffffffff, v)`, or a butterfly loop then `return v`),
/// through branches whose condition is a constant of the instantiation
/// (`if (width == 32) return __all_sync(...); else { ... }`).
bool returnsWarpUniform(llvm::ArrayRef<const Stmt *> Body,
                        const ASTContext &Ctx, unsigned Depth) {
  if (Depth > 4)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 2> Reduced;
  for (const Stmt *S : Body) {
    if (const auto *Compound = dyn_cast<CompoundStmt>(S))
      return returnsWarpUniform(
          llvm::ArrayRef(Compound->body_begin(), Compound->body_end()), Ctx,
          Depth + 1);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      bool Taken = false;
      if (If->getInit() || If->getConditionVariable() ||
          If->getCond()->isValueDependent() ||
          !If->getCond()->EvaluateAsBooleanCondition(Taken, Ctx))
        return false;
      const Stmt *Chosen = Taken ? If->getThen() : If->getElse();
      // A branch that falls through would need the statements after it.
      return Chosen && returnsWarpUniform({Chosen}, Ctx, Depth + 1);
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      const Expr *Value = Return->getRetValue();
      if (!Value)
        return false;
      Value = Value->IgnoreParenImpCasts();
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
          Construct && Construct->getNumArgs() == 1)
        Value = Construct->getArg(0)->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Value))
        return Reduced.count(dyn_cast<VarDecl>(DRE->getDecl()));
      const auto *CE = dyn_cast<CallExpr>(Value);
      const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
      if (!Callee || !Callee->getIdentifier())
        return false;
      return classifySync(CE).isLaneReduction();
    }
    if (const VarDecl *VD = butterflyReduction(S, Ctx)) {
      Reduced.insert(VD);
      continue;
    }
    return false;
  }
  return false;
}

} // namespace

bool WarpUniformity::isBlockUniformIndex(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult Constant;
  if (!E->isValueDependent() && E->EvaluateAsInt(Constant, Context))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
           !(Deps.getVariableDeps(VD) & dep::Thread);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && isBlockUniformIndex(BO->getLHS()) &&
           isBlockUniformIndex(BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf &&
           isBlockUniformIndex(UO->getSubExpr());
  return false;
}

bool WarpUniformity::lastValueIsWarpUniform(
    const Expr *Target, const CFGBlock *Block, unsigned Index, unsigned Depth,
    llvm::SmallPtrSetImpl<const CFGBlock *> &Path, unsigned &Steps) const {
  if (++Steps > 64)
    return false;
  const VarDecl *VD = localBase(Target);
  // The variables of the element's index: a change to one of them moves
  // the element.
  llvm::SmallVector<const VarDecl *, 2> IndexVars;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Target)) {
    llvm::SmallVector<const Stmt *, 4> Work{ASE->getIdx()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
        if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl()))
          IndexVars.push_back(Var);
      if (S)
        Work.append(S->child_begin(), S->child_end());
    }
  }
  for (unsigned I = Index - 1; I >= 1; --I) {
    auto CS = (*Block)[I - 1].getAs<CFGStmt>();
    if (!CS)
      continue;
    const Stmt *S = CS->getStmt();
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      if (DS->isSingleDecl() && DS->getSingleDecl() == VD)
        return isa<DeclRefExpr>(Target) && VD->getInit() &&
               isWarpUniform(VD->getInit(), Block, I, Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign &&
        sameLValue(BO->getLHS(), Target, Context))
      return isWarpUniform(BO->getRHS(), Block, I, Depth + 1);
    if (mayChange(S, VD) || llvm::any_of(IndexVars, [&](const VarDecl *Var) {
          return mayChange(S, Var);
        }))
      return false;
  }
  // At the entry nothing assigned the value.
  if (Block == &Deps.getCFG().getEntry() || !Path.insert(Block).second)
    return false; // Round a loop: the value from the last iteration.
  // A block no path reaches (the discarded side of an `if constexpr`) has
  // no predecessor left and adds nothing.
  bool Uniform = true;
  for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
    if (const CFGBlock *P = Pred.getReachableBlock();
        P &&
        !lastValueIsWarpUniform(Target, P, P->size() + 1, Depth, Path, Steps)) {
      Uniform = false;
      break;
    }
  Path.erase(Block);
  return Uniform;
}

bool WarpUniformity::isWarpUniform(const Expr *E, const CFGBlock *Block,
                                   unsigned Index, unsigned Depth) const {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        VD->getType()->isReferenceType())
      return false;
    llvm::SmallPtrSet<const CFGBlock *, 8> Path;
    unsigned Steps = 0;
    return lastValueIsWarpUniform(E, Block, Index, Depth, Path, Steps);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Base =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !VD->getType()->isConstantArrayType() ||
        !isBlockUniformIndex(ASE->getIdx()))
      return false;
    llvm::SmallPtrSet<const CFGBlock *, 8> Path;
    unsigned Steps = 0;
    return lastValueIsWarpUniform(E, Block, Index, Depth, Path, Steps);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() &&
           isWarpUniform(BO->getLHS(), Block, Index, Depth + 1) &&
           isWarpUniform(BO->getRHS(), Block, Index, Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return false;
    SyncEvent Event = classifySync(CE);
    if (isInCooperativeGroups(Callee))
      return Event.isGroupReduce();
    if (Event.isLaneReduction())
      return true;
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition) || !Definition)
      return false;
    const auto *Body = dyn_cast<CompoundStmt>(Definition->getBody());
    return Body && returnsWarpUniform(
                       llvm::ArrayRef(Body->body_begin(), Body->body_end()),
                       Context, 0);
  }
  return false;
}

} // namespace clang::cuda_tidy
