//===--- StoredValues.cpp - What plain stores write -----------------------===//
//
// See StoredValues.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/StoredValues.h"
#include "model/CudaModel.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include <functional>

namespace clang::cuda_tidy {

namespace {

/// Whether a call of \p FD does nothing but compute its result from its
/// arguments and from memory read through them: it stores only to its own
/// locals (a constructor also to the object it builds), calls only such
/// functions, side-effect-free builtins and the cached loads (`__ldg`), and
/// reads no variable but its own, its parameters and constants (not
/// `threadIdx`, not a global), with no inline assembly, atomics, barriers,
/// warp operations or volatile accesses. Two calls with equal arguments then
/// return equal values while the memory they read holds still (`load128(p)`
/// = `Packed128{*reinterpret_cast<const int4 *>(p)}`, llm.c).
bool isPureFunction(const FunctionDecl *FD, ASTContext &Ctx,
                    llvm::DenseMap<const FunctionDecl *, bool> &Known,
                    unsigned Depth = 0) {
  if (!FD || Depth > 4)
    return false;
  const FunctionDecl *Definition = nullptr;
  if (FD->isTrivial() && isa<CXXMethodDecl>(FD) &&
      !cast<CXXMethodDecl>(FD)->isCopyAssignmentOperator() &&
      !cast<CXXMethodDecl>(FD)->isMoveAssignmentOperator())
    return true; // A trivial constructor or destructor.
  if (!FD->hasBody(Definition) || !Definition)
    return false;
  auto [It, Inserted] = Known.try_emplace(Definition, false);
  if (!Inserted)
    return It->second; // Known, or in progress (recursion): false.
  const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
  if (Method && Method->isVirtual())
    return false;
  bool Builds = isa<CXXConstructorDecl>(Definition);

  // Whether \p E names storage of this call alone: a local, an element or
  // member of one, or (in a constructor) of the object built.
  std::function<bool(const Expr *)> Own = [&](const Expr *E) -> bool {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
             !VD->getType()->isPointerType() &&
             VD->getDeclContext() == Definition;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return Builds && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
      return Own(ME->getBase());
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase());
      return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay &&
             Own(Decay->getSubExpr());
    }
    return false;
  };
  auto OwnPointer = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_AddrOf && Own(UO->getSubExpr());
    return false;
  };

  std::function<bool(const Stmt *)> Pure = [&](const Stmt *S) -> bool {
    if (!S)
      return true;
    if (isa<AsmStmt, CXXThrowExpr, CXXNewExpr, CXXDeleteExpr, LambdaExpr,
            BlockExpr, AtomicExpr, CXXTryStmt>(S))
      return false;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD &&
            (!VD->hasLocalStorage() || VD->getType().isVolatileQualified()))
          return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (!(VD->hasLocalStorage() && VD->getDeclContext() == Definition) &&
            !VD->isConstexpr() && !VD->isUsableInConstantExpressions(Ctx))
          return false;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S))
      if (Cast->getCastKind() == CK_LValueToRValue &&
          Cast->getSubExpr()->getType().isVolatileQualified())
        return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp() && !Own(BO->getLHS()))
        return false;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->isIncrementDecrementOp() && !Own(UO->getSubExpr()))
        return false;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (!Ctor->isTrivial()) {
        if (!isPureFunction(Ctor, Ctx, Known, Depth + 1))
          return false;
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (!Pure(Init->getInit()))
            return false;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return false;
      const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Call);
      const auto *CalleeMethod = dyn_cast<CXXMethodDecl>(Callee);
      if (OCE && OCE->isAssignmentOp()) {
        // Assignment to a local struct: trivial, or a pure operator
        // (which may only write through `this` when it builds, so not).
        if (!CalleeMethod || !CalleeMethod->isTrivial() || !Own(OCE->getArg(0)))
          return false;
      } else if (unsigned ID = Callee->getBuiltinID(); ID || isMemcpy(Callee)) {
        // memcpy into storage of the call's own is a store to it (clang's
        // CUDA headers define a device memcpy over __builtin_memcpy).
        bool Copy = isMemcpy(Callee);
        // A target's builtins read the thread's registers (`__nvvm_read_
        // ptx_sreg_tid_x`, behind threadIdx.x), shuffle or vote: none is a
        // function of its arguments alone.
        if (Ctx.BuiltinInfo.isTSBuiltin(ID) ||
            (Copy ? !(Call->getNumArgs() == 3 && OwnPointer(Call->getArg(0)))
                  : !Ctx.BuiltinInfo.isConst(ID)))
          return false;
      } else {
        // The cached global loads: a read, written in assembly.
        bool CachedLoad = isCachedGlobalLoad(Callee);
        if (!CachedLoad && !isPureFunction(Callee, Ctx, Known, Depth + 1))
          return false;
        if (CachedLoad)
          return llvm::all_of(Call->arguments(),
                              [&](const Expr *Arg) { return Pure(Arg); });
      }
    }
    for (const Stmt *Child : S->children())
      if (!Pure(Child))
        return false;
    return true;
  };
  bool Result = Pure(Definition->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Result = Result && Pure(Init->getInit());
  Known[Definition] = Result;
  return Result;
}

/// \p E without the temporaries and implicit conversions around a value.
const Expr *skipTemporaries(const Expr *E) {
  while (true) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (Next == E)
      return E;
    E = Next;
  }
}

/// Whether every use of \p Param in \p S is a load of it or of one of its
/// members (under an lvalue-to-rvalue conversion).
bool onlyLoaded(const Stmt *S, const ParmVarDecl *Param) {
  if (!S)
    return true;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
      Cast && Cast->getCastKind() == CK_LValueToRValue) {
    const Expr *E = Cast->getSubExpr()->IgnoreParens();
    while (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow())
        break;
      E = Member->getBase()->IgnoreParens();
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E);
        Ref && Ref->getDecl() == Param)
      return true;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    return Ref->getDecl() != Param;
  for (const Stmt *Child : S->children())
    if (!onlyLoaded(Child, Param))
      return false;
  return true;
}

} // namespace

StoredValues::StoredValues(const KernelRaceContext &K)
    : Sym(K.Sym), Context(K.Context), Deps(K.Deps), Kernel(K.Kernel) {}

StoreComparison StoredValues::compare(const SharedAccess &A,
                                      const SharedAccess &B, bool SameAccess) {
  StoreComparison Result;
  // Every thread storing a by-value kernel parameter, or a member of one,
  // that the kernel never changes stores one value (`s[0] =
  // params.lambda;`, GROMACS's nbfe_foreign kernel), whatever its type.
  if (SameAccess && A.Kind == AccessKind::Write && A.Stored &&
      isUnchangedParameter(A.Stored)) {
    Result.OneValue = true;
    return Result;
  }
  // Two writes of the same value to the same bytes leave them as either
  // would alone: no defect (GPUVerify's benign race). The values are
  // compared symbolically, as expressions over the thread, uniform values
  // and, for a load (`bias[c] = bnBias[base + c]`), the same array: the
  // solver then asks for colliding threads whose values differ.
  if (A.Kind == AccessKind::Write && B.Kind == AccessKind::Write && A.Stored &&
      B.Stored && A.Width == B.Width) {
    StoredValue StoredA = storedValue(A.Stored);
    StoredValue StoredB = storedValue(B.Stored);
    SymId ValueA = StoredA.Value, ValueB = StoredB.Value;
    if (ValueA >= 0 && ValueB >= 0 && StoredA.sameKey(StoredB)) {
      auto Uniform = [&](SymId Value) {
        llvm::SmallVector<unsigned, 2> Atoms;
        Sym.collectAtoms(Value, Atoms);
        return !Sym.usesThread(Value) &&
               llvm::none_of(Atoms, [&](unsigned Atom) {
                 return Sym.atoms()[Atom].isLoopCounter();
               });
      };
      SymEnv NoThread;
      auto ConstA = Sym.evaluate(ValueA, NoThread);
      auto ConstB = Sym.evaluate(ValueB, NoThread);
      if (SameAccess ? Uniform(ValueA)
                     : (ConstA && ConstB && *ConstA == *ConstB)) {
        Result.OneValue = true;
        return Result;
      }
      Result.Values = {ValueA, ValueB};
    }
  }
  return Result;
}

bool StoredValues::isSameArrayInEveryThread(const VarDecl *VD) const {
  // Not a thread's own array, nor a pointer that may differ between
  // threads: `v[0]` then names a different element in each thread.
  return VD && !VD->hasAttr<CUDASharedAttr>() &&
         (!VD->hasLocalStorage() ||
          (VD->getType()->isPointerType() &&
           !(Deps.getVariableDeps(VD) & dep::Thread)));
}

StoredValue StoredValues::argumentValue(const Expr *E) const {
  E = skipTemporaries(E);
  StoredValue V;
  if (E->getType()->isIntegralOrEnumerationType() ||
      E->getType()->isBooleanType()) {
    V.Value = Sym.translate(E);
    if (Sym.isUnknown(V.Value))
      V.Value = -1;
    return V;
  }
  if (!E->getType()->isPointerType())
    return V;
  // `p`, `p + i`, `i + p`, `&p[i]` on a pointer or array the threads
  // share.
  const Expr *Base = E, *Index = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    bool LeftIsPointer = BO->getLHS()->getType()->isPointerType();
    Base = LeftIsPointer ? BO->getLHS() : BO->getRHS();
    Index = LeftIsPointer ? BO->getRHS() : BO->getLHS();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_AddrOf) {
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    if (!ASE)
      return V;
    Base = ASE->getBase();
    Index = ASE->getIdx();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!isSameArrayInEveryThread(VD))
    return V;
  SymId At = Index ? Sym.translate(Index) : Sym.constant(0);
  if (Sym.isUnknown(At))
    return V;
  V.Array = VD;
  V.Value = At;
  return V;
}

StoredValue StoredValues::storedValue(const Expr *Stored) {
  const Expr *E = skipTemporaries(Stored);
  if (E->getType()->isIntegralOrEnumerationType() ||
      E->getType()->isBooleanType())
    return argumentValue(E);
  StoredValue V;
  // A floating-point constant, however it is spelled (`-INFINITY` is
  // `-__builtin_inff()`, `0.5f * 2`): its bits are the value.
  if (E->getType()->isRealFloatingType() && !E->isValueDependent() &&
      !E->HasSideEffects(Context)) {
    Expr::EvalResult Result;
    if (E->EvaluateAsRValue(Result, Context) && Result.Val.isFloat() &&
        !Result.HasSideEffects) {
      llvm::APInt Bits = Result.Val.getFloat().bitcastToAPInt();
      if (Bits.getBitWidth() <= 64) {
        V.Value = Sym.constant(std::int64_t(Bits.getZExtValue()));
        V.FloatBits = true;
        return V;
      }
    }
  }
  // A load from an array that is not shared memory: the same element holds
  // the same value for every thread that reads it in this interval.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Base =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (isSameArrayInEveryThread(VD)) {
      SymId Index = Sym.translate(ASE->getIdx());
      if (!Sym.isUnknown(Index)) {
        V.Array = VD;
        V.Value = Index;
      }
    }
    return V;
  }
  // A pure helper of one argument (isPureFunction), given one integer or
  // one pointer into such an array: equal arguments, equal results
  // (`s_weight[i] = load128(weight + c)`).
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 1 || isa<CXXMemberCallExpr>(Call) ||
        isa<CXXOperatorCallExpr>(Call) ||
        !isPureFunction(Callee, Context, PureFunctions))
      return V;
    V = argumentValue(Call->getArg(0));
    V.Helper = Callee->getCanonicalDecl();
    return V;
  }
  return V;
}

bool StoredValues::isUnchangedParameter(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  while (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (Member->isArrow())
      return false;
    E = Member->getBase()->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getType()->isReferenceType() ||
      dyn_cast<FunctionDecl>(Param->getDeclContext()) != Kernel ||
      !Kernel->getBody())
    return false;
  // ExprMutationAnalyzer runs AST matchers over the whole body (10 ms a
  // parameter on bisectKernelLarge): asked once per parameter, and only
  // when a syntactic test finds a use of it that is not a plain load.
  auto [It, Inserted] = UnchangedParameters.try_emplace(Param, false);
  if (Inserted)
    It->second =
        onlyLoaded(Kernel->getBody(), Param) ||
        !ExprMutationAnalyzer(*Kernel->getBody(), Context).isMutated(Param);
  return It->second;
}

} // namespace clang::cuda_tidy
