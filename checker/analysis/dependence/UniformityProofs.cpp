//===--- UniformityProofs.cpp - Why a value is the same in every thread ---===//
//
// See UniformityProofs.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/UniformityProofs.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "analysis/race/SharedMemoryRace.h"
#include "model/SyncEvents.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/STLExtras.h"
#include <algorithm>
#include <cstdint>

namespace clang::cuda_tidy {

namespace {

/// The variable a `for` init sets and the constant it sets it to.
std::optional<std::pair<const VarDecl *, llvm::APSInt>>
initialValue(const Stmt *Init, const ASTContext &Context) {
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Init)) {
    const auto *VD =
        DS->isSingleDecl() ? dyn_cast<VarDecl>(DS->getSingleDecl()) : nullptr;
    if (VD && VD->getInit())
      if (auto Value = constantValue(VD->getInit(), Context))
        return std::make_pair(VD, *Value);
    return std::nullopt;
  }
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Init);
      BO && BO->getOpcode() == BO_Assign)
    if (const VarDecl *VD = namedVariable(BO->getLHS()))
      if (auto Value = constantValue(BO->getRHS(), Context))
        return std::make_pair(VD, *Value);
  return std::nullopt;
}

/// Whether \p E is the constant 0xffffffff: every lane of the warp.
bool isFullWarpMask(const Expr *E, const ASTContext &Context) {
  Expr::EvalResult Result;
  return E && !E->isValueDependent() && E->EvaluateAsInt(Result, Context) &&
         Result.Val.getInt().getZExtValue() == 0xffffffffu;
}

/// `__all_sync(0xffffffff, v)`, `__any_sync`, `__ballot_sync` and
/// `__reduce_*_sync` with a full mask: v. Null for anything else.
const Expr *builtinWarpReduction(const CallExpr *CE,
                                 const ASTContext &Context) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() || CE->getNumArgs() != 2 ||
      isa<CXXMemberCallExpr>(CE))
    return nullptr;
  return classifySync(CE).isLaneReduction() &&
                 isFullWarpMask(CE->getArg(0), Context)
             ? CE->getArg(1)
             : nullptr;
}

/// The parameter of \p FD whose full-warp reduction the rest of its body,
/// \p Body, returns (see warpReducedArgument); null if it does not.
const ParmVarDecl *
reducedParameter(const FunctionDecl *FD, llvm::ArrayRef<const Stmt *> Body,
                 llvm::SmallPtrSetImpl<const VarDecl *> &Reduced,
                 const ASTContext &Context, unsigned Depth) {
  if (Depth > 4)
    return nullptr;
  auto Parameter = [&](const Expr *E) -> const ParmVarDecl * {
    const auto *DRE =
        E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
    const auto *P = DRE ? dyn_cast<ParmVarDecl>(DRE->getDecl()) : nullptr;
    return P && P->getDeclContext() == FD && !P->getType()->isReferenceType()
               ? P
               : nullptr;
  };
  for (const Stmt *S : Body) {
    if (isa<NullStmt>(S))
      continue;
    if (const auto *Compound = dyn_cast<CompoundStmt>(S))
      return reducedParameter(
          FD, llvm::ArrayRef(Compound->body_begin(), Compound->body_end()),
          Reduced, Context, Depth + 1);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      bool Taken = false;
      if (If->getInit() || If->getConditionVariable() ||
          If->getCond()->isValueDependent() ||
          !If->getCond()->EvaluateAsBooleanCondition(Taken, Context))
        return nullptr;
      const Stmt *Chosen = Taken ? If->getThen() : If->getElse();
      // A branch that falls through would need the statements after it.
      return Chosen
                 ? reducedParameter(FD, {Chosen}, Reduced, Context, Depth + 1)
                 : nullptr;
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      const Expr *Value = Return->getRetValue();
      if (!Value)
        return nullptr;
      Value = Value->IgnoreParenImpCasts();
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
          Construct && Construct->getNumArgs() == 1 &&
          Construct->getConstructor()->isCopyOrMoveConstructor())
        Value = Construct->getArg(0)->IgnoreParenImpCasts();
      if (const ParmVarDecl *P = Parameter(Value))
        return Reduced.count(P) ? P : nullptr;
      const auto *CE = dyn_cast<CallExpr>(Value);
      return CE ? Parameter(builtinWarpReduction(CE, Context)) : nullptr;
    }
    // Reduces a parameter in place; the steps read nothing else.
    const VarDecl *VD = butterflyReduction(S, Context);
    if (!VD || !isa<ParmVarDecl>(VD) || VD->getDeclContext() != FD)
      return nullptr;
    Reduced.insert(VD);
  }
  return nullptr;
}

/// Whether \p E is `threadIdx.x`, through integer conversions that keep
/// its value and `const` locals initialised with it (`const int tid =
/// threadIdx.x;`).
bool isThreadIdxX(const Expr *E, unsigned Depth = 0) {
  while (E && Depth < 8) {
    E = E->IgnoreParens();
    std::string Spelling;
    if (getBuiltinIndexRef(E, &Spelling) == BuiltinIndexKind::ThreadIdx)
      return Spelling == "threadIdx.x";
    if (const auto *Cast = dyn_cast<CastExpr>(E)) {
      // threadIdx.x is below 1024: 16 bits hold it.
      QualType To = Cast->getType();
      bool Keeps =
          Cast->getCastKind() == CK_LValueToRValue ||
          Cast->getCastKind() == CK_NoOp ||
          (Cast->getCastKind() == CK_IntegralCast && To->isIntegerType() &&
           To->getAs<BuiltinType>() &&
           llvm::is_contained({BuiltinType::Short, BuiltinType::UShort,
                               BuiltinType::Int, BuiltinType::UInt,
                               BuiltinType::Long, BuiltinType::ULong,
                               BuiltinType::LongLong, BuiltinType::ULongLong},
                              To->getAs<BuiltinType>()->getKind()));
      if (!Keeps)
        return false;
      E = Cast->getSubExpr();
      continue;
    }
    const auto *DRE = dyn_cast<DeclRefExpr>(E);
    const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !VD->getType().isConstQualified() || !VD->getType()->isIntegerType() ||
        !VD->getInit())
      return false;
    E = VD->getInit();
    ++Depth;
  }
  return false;
}

} // namespace

/// Whether \p BO is `threadIdx.x % C` (C a power of two up to 32) or
/// `threadIdx.x & M` (M from 0 to 31): a function of the lane alone when
/// the block's x extent is a multiple of 32.
bool isLaneOfThreadIdxX(const BinaryOperator *BO, const ASTContext &Context) {
  auto Constant = [&](const Expr *E) -> std::optional<std::int64_t> {
    Expr::EvalResult Result;
    if (E->isValueDependent() || !E->EvaluateAsInt(Result, Context))
      return std::nullopt;
    return Result.Val.getInt().getExtValue();
  };
  if (BO->getOpcode() == BO_Rem) {
    std::optional<std::int64_t> C = Constant(BO->getRHS());
    return C && *C > 0 && 32 % *C == 0 && isThreadIdxX(BO->getLHS());
  }
  if (BO->getOpcode() == BO_And) {
    for (auto [Mask, Index] : {std::pair(BO->getRHS(), BO->getLHS()),
                               std::pair(BO->getLHS(), BO->getRHS())}) {
      std::optional<std::int64_t> M = Constant(Mask);
      if (M && *M >= 0 && *M < 32 && isThreadIdxX(Index))
        return true;
    }
  }
  return false;
}

const Expr *warpReducedArgument(const CallExpr *CE, const ASTContext &Context) {
  if (const Expr *Builtin = builtinWarpReduction(CE, Context))
    return Builtin;
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee || isa<CXXMethodDecl>(Callee) || !Callee->hasBody(Definition) ||
      !Definition || Definition->isDependentContext())
    return nullptr;
  llvm::SmallPtrSet<const VarDecl *, 2> Reduced;
  const ParmVarDecl *P = reducedParameter(Definition, {Definition->getBody()},
                                          Reduced, Context, 0);
  if (!P || P->getFunctionScopeIndex() >= CE->getNumArgs())
    return nullptr;
  return CE->getArg(P->getFunctionScopeIndex());
}

bool loopRunsAtLeastOnce(const Stmt *Loop, const ASTContext &Context) {
  if (isa_and_nonnull<DoStmt>(Loop))
    return true;
  const Expr *Cond = nullptr;
  const Stmt *Init = nullptr;
  if (const auto *FS = dyn_cast_or_null<ForStmt>(Loop)) {
    Cond = FS->getCond();
    Init = FS->getInit();
    if (!Cond)
      return true; // for (;;)
  } else if (const auto *WS = dyn_cast_or_null<WhileStmt>(Loop)) {
    Cond = WS->getCond();
  } else {
    return false;
  }
  if (!Cond || Cond->isValueDependent())
    return false;
  bool Always = false;
  if (Cond->EvaluateAsBooleanCondition(Always, Context))
    return Always;
  const auto *Compare = dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts());
  auto Start = initialValue(Init, Context);
  if (!Compare || !Compare->isComparisonOp() || !Start)
    return false;
  const auto &[Counter, First] = *Start;
  bool CounterOnLeft = namedVariable(Compare->getLHS()) == Counter;
  if (!CounterOnLeft && namedVariable(Compare->getRHS()) != Counter)
    return false;
  const Expr *BoundExpr = CounterOnLeft ? Compare->getRHS() : Compare->getLHS();
  auto Bound = constantValue(BoundExpr, Context);
  if (!Bound) {
    // `i < blockDim.x` (or gridDim) from a start of 0: the extent is at
    // least 1, so a counter below it on the left runs the body once. A loop
    // over the block's threads that may run no times made its exit edge a
    // way past its barriers, and a read after the loop a false race.
    auto Kind = getBuiltinIndexRef(BoundExpr->IgnoreParenImpCasts(), nullptr);
    if (!CounterOnLeft || !Kind ||
        (*Kind != BuiltinIndexKind::BlockDim &&
         *Kind != BuiltinIndexKind::GridDim) ||
        First.isNegative())
      return false;
    return (Compare->getOpcode() == BO_LT && First.isZero()) ||
           (Compare->getOpcode() == BO_LE && First.getZExtValue() <= 1);
  }
  // Compare as the condition does, in the type both sides convert to.
  QualType Type = Compare->getLHS()->getType();
  unsigned Width = std::max({First.getBitWidth(), Bound->getBitWidth(), 64u});
  llvm::APSInt L = First.extend(Width), R = Bound->extend(Width);
  if (!CounterOnLeft)
    std::swap(L, R);
  bool Unsigned = Type->isUnsignedIntegerType();
  L.setIsUnsigned(Unsigned);
  R.setIsUnsigned(Unsigned);
  if (Unsigned && (First.isNegative() || Bound->isNegative()))
    return false;
  switch (Compare->getOpcode()) {
  case BO_LT:
    return L < R;
  case BO_LE:
    return L <= R;
  case BO_GT:
    return L > R;
  case BO_GE:
    return L >= R;
  case BO_NE:
    return L != R;
  case BO_EQ:
    return L == R;
  default:
    return false;
  }
}

namespace {

/// Whether \p A and \p B are the same side-effect-free expression over
/// locals, constants and built-in index components: two evaluations at
/// points between which none of its variables is written give one value.
bool samePureTerm(const Expr *A, const Expr *B) {
  A = A->IgnoreParenImpCasts();
  B = B->IgnoreParenImpCasts();
  std::string SpellingA, SpellingB;
  auto IndexA = getBuiltinIndexRef(A, &SpellingA);
  auto IndexB = getBuiltinIndexRef(B, &SpellingB);
  if (IndexA || IndexB)
    return IndexA == IndexB && SpellingA == SpellingB;
  if (const auto *RefA = dyn_cast<DeclRefExpr>(A)) {
    const auto *RefB = dyn_cast<DeclRefExpr>(B);
    if (!RefB || RefA->getDecl() != RefB->getDecl())
      return false;
    // A variable only the function's own statements can write: a local or
    // parameter that is no reference, or a constant. Shared and global
    // variables may change under the loop through other threads or calls.
    if (const auto *VD = dyn_cast<VarDecl>(RefA->getDecl()))
      return (VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
              !VD->getType().isVolatileQualified()) ||
             VD->isConstexpr();
    return isa<EnumConstantDecl, NonTypeTemplateParmDecl>(RefA->getDecl());
  }
  if (const auto *LitA = dyn_cast<IntegerLiteral>(A)) {
    const auto *LitB = dyn_cast<IntegerLiteral>(B);
    return LitB && llvm::APInt::isSameValue(LitA->getValue(), LitB->getValue());
  }
  if (const auto *UA = dyn_cast<UnaryOperator>(A)) {
    const auto *UB = dyn_cast<UnaryOperator>(B);
    return UB && UA->getOpcode() == UB->getOpcode() &&
           !UA->isIncrementDecrementOp() && UA->getOpcode() != UO_AddrOf &&
           UA->getOpcode() != UO_Deref &&
           samePureTerm(UA->getSubExpr(), UB->getSubExpr());
  }
  if (const auto *BA = dyn_cast<BinaryOperator>(A)) {
    const auto *BB = dyn_cast<BinaryOperator>(B);
    return BB && BA->getOpcode() == BB->getOpcode() && !BA->isAssignmentOp() &&
           BA->getOpcode() != BO_Comma &&
           samePureTerm(BA->getLHS(), BB->getLHS()) &&
           samePureTerm(BA->getRHS(), BB->getRHS());
  }
  if (const auto *CA = dyn_cast<ExplicitCastExpr>(A)) {
    const auto *CB = dyn_cast<ExplicitCastExpr>(B);
    return CB && CA->getType() == CB->getType() &&
           samePureTerm(CA->getSubExpr(), CB->getSubExpr());
  }
  return false;
}

/// Splits \p E into the terms of a sum, each with its sign:
/// `a + b * c - d` is +a, +(b * c), -d.
void sumTerms(const Expr *E, bool Negative,
              llvm::SmallVectorImpl<std::pair<const Expr *, bool>> &Terms) {
  E = E->IgnoreParenImpCasts();
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && (BO->getOpcode() == BO_Add || BO->getOpcode() == BO_Sub)) {
    sumTerms(BO->getLHS(), Negative, Terms);
    sumTerms(BO->getRHS(), Negative != (BO->getOpcode() == BO_Sub), Terms);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && (UO->getOpcode() == UO_Minus || UO->getOpcode() == UO_Plus)) {
    sumTerms(UO->getSubExpr(), Negative != (UO->getOpcode() == UO_Minus),
             Terms);
    return;
  }
  Terms.push_back({E, Negative});
}

} // namespace

std::optional<llvm::SmallVector<const Expr *, 4>>
uniformTripCountTerms(const ForStmt *Loop) {
  // for (V = Start; V op Bound; V += Step): in iteration k the condition is
  // `Start + k * Step op Bound`, that is `(Start - Bound) + k * Step op 0`.
  // Terms that Start and Bound share cancel; when what is left and Step are
  // uniform, every thread decides alike in every iteration, so all run the
  // same number of them. Signed arithmetic only: it does not wrap.
  if (!Loop || !Loop->getCond() || !Loop->getInc())
    return std::nullopt;
  const auto *Compare =
      dyn_cast<BinaryOperator>(Loop->getCond()->IgnoreParenImpCasts());
  if (!Compare || !Compare->isComparisonOp() || Compare->getOpcode() == BO_EQ)
    return std::nullopt;
  const VarDecl *Counter = nullptr;
  const Expr *Start = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(Loop->getInit());
      DS && DS->isSingleDecl()) {
    Counter = dyn_cast<VarDecl>(DS->getSingleDecl());
    Start = Counter ? Counter->getInit() : nullptr;
  } else if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Loop->getInit());
             BO && BO->getOpcode() == BO_Assign) {
    Counter = namedVariable(BO->getLHS());
    Start = BO->getRHS();
  }
  if (!Counter || !Start || !Counter->getType()->isSignedIntegerType() ||
      !Compare->getLHS()->getType()->isSignedIntegerType())
    return std::nullopt;
  bool CounterOnLeft = namedVariable(Compare->getLHS()) == Counter;
  if (!CounterOnLeft && namedVariable(Compare->getRHS()) != Counter)
    return std::nullopt;
  const Expr *Bound = CounterOnLeft ? Compare->getRHS() : Compare->getLHS();

  const Expr *Step = nullptr;
  const Expr *Inc = Loop->getInc()->IgnoreParens();
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc);
      UO && UO->isIncrementDecrementOp() &&
      namedVariable(UO->getSubExpr()) == Counter)
    Step = nullptr; // One: a constant.
  else if (const auto *CA = dyn_cast<CompoundAssignOperator>(Inc);
           CA &&
           (CA->getOpcode() == BO_AddAssign ||
            CA->getOpcode() == BO_SubAssign) &&
           namedVariable(CA->getLHS()) == Counter)
    Step = CA->getRHS();
  else
    return std::nullopt;

  llvm::SmallPtrSet<const VarDecl *, 8> Inputs;
  collectVariables(Start, Inputs);
  collectVariables(Bound, Inputs);
  collectVariables(Step, Inputs);
  if (Inputs.count(Counter))
    return std::nullopt;
  llvm::SmallPtrSet<const VarDecl *, 8> Counters{Counter};
  if (writesAny(Loop->getBody(), Inputs) ||
      writesAny(Loop->getCond(), Inputs) || writesAny(Loop->getInc(), Inputs) ||
      writesAny(Loop->getBody(), Counters) || writesAny(Bound, Counters))
    return std::nullopt;

  llvm::SmallVector<std::pair<const Expr *, bool>, 8> StartTerms, BoundTerms;
  sumTerms(Start, false, StartTerms);
  sumTerms(Bound, false, BoundTerms);
  llvm::SmallVector<const Expr *, 4> Left;
  for (const auto &Term : StartTerms) {
    auto Twin = llvm::find_if(BoundTerms, [&](const auto &Other) {
      return Other.first && Other.second == Term.second &&
             samePureTerm(Term.first, Other.first);
    });
    if (Twin == BoundTerms.end())
      Left.push_back(Term.first);
    else
      Twin->first = nullptr;
  }
  if (Left.size() == StartTerms.size())
    return std::nullopt; // Nothing cancels: the plain dependence is exact.
  for (const auto &Term : BoundTerms)
    if (Term.first)
      Left.push_back(Term.first);
  if (Step)
    Left.push_back(Step);
  return Left;
}

namespace {

void collectImpliedBranches(const Stmt *S,
                            llvm::SmallVectorImpl<const ForStmt *> &Loops,
                            llvm::SmallPtrSetImpl<const IfStmt *> &Out) {
  if (!S)
    return;
  if (const auto *If = dyn_cast<IfStmt>(S);
      If && If->getCond() && !If->hasVarStorage() && !If->isConsteval())
    for (const ForStmt *Loop : Loops)
      if (samePureTerm(If->getCond(), Loop->getCond())) {
        llvm::SmallPtrSet<const VarDecl *, 4> Read;
        collectVariables(Loop->getCond(), Read);
        if (!writesAny(Loop->getBody(), Read)) {
          Out.insert(If);
          break;
        }
      }
  const auto *Loop = dyn_cast<ForStmt>(S);
  if (Loop && Loop->getCond())
    Loops.push_back(Loop);
  for (const Stmt *Child : S->children())
    if (!Loop || Child == Loop->getBody())
      collectImpliedBranches(Child, Loops, Out);
  if (Loop && Loop->getCond())
    Loops.pop_back();
}

} // namespace

llvm::SmallPtrSet<const IfStmt *, 4> branchesImpliedByLoops(const Stmt *Body) {
  llvm::SmallVector<const ForStmt *, 4> Loops;
  llvm::SmallPtrSet<const IfStmt *, 4> Result;
  collectImpliedBranches(Body, Loops, Result);
  return Result;
}

namespace {

/// The array variable that \p E, an assignment or increment, stores an
/// element of (`s[i] = v`, `s[i] += v`, `++s[i]`); null otherwise.
const VarDecl *storedArray(const Stmt *E) {
  const Expr *Target = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAssignmentOp())
    Target = BO->getLHS();
  else if (const auto *UO = dyn_cast<UnaryOperator>(E);
           UO && UO->isIncrementDecrementOp())
    Target = UO->getSubExpr();
  const auto *ASE =
      Target ? dyn_cast<ArraySubscriptExpr>(Target->IgnoreParens()) : nullptr;
  return ASE ? namedVariable(ASE->getBase()) : nullptr;
}

/// Whether \p Use, a reference to an array, is the array of a subscript that
/// is loaded or stored to; \p Ancestors are its enclosing statements,
/// nearest last.
bool isSubscriptUse(const DeclRefExpr *Use,
                    llvm::ArrayRef<const Stmt *> Ancestors) {
  const Stmt *Inner = Use;
  unsigned I = Ancestors.size();
  auto Up = [&]() -> const Stmt * {
    while (I > 0 && isa<ParenExpr>(Ancestors[I - 1]))
      Inner = Ancestors[--I];
    return I > 0 ? Ancestors[--I] : nullptr;
  };
  const auto *Decay = dyn_cast_or_null<ImplicitCastExpr>(Up());
  if (!Decay || Decay->getCastKind() != CK_ArrayToPointerDecay)
    return false;
  Inner = Decay;
  const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Up());
  if (!ASE || ASE->getBase() != Inner)
    return false;
  Inner = ASE;
  const Stmt *Parent = Up();
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent))
    return Cast->getCastKind() == CK_LValueToRValue;
  if (const auto *BO = dyn_cast_or_null<BinaryOperator>(Parent))
    return BO->isAssignmentOp() && BO->getLHS() == Inner;
  if (const auto *UO = dyn_cast_or_null<UnaryOperator>(Parent))
    return UO->isIncrementDecrementOp();
  return false;
}

bool mentionsVariable(const Stmt *S, const VarDecl *VD) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S); DRE && DRE->getDecl() == VD)
    return true;
  for (const Stmt *Child : S->children())
    if (Child && mentionsVariable(Child, VD))
      return true;
  return false;
}

bool onlySubscriptUses(const Stmt *S, const VarDecl *VD,
                       llvm::SmallVectorImpl<const Stmt *> &Ancestors) {
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (DRE->getDecl() == VD && !isSubscriptUse(DRE, Ancestors))
      return false;
  // A lambda names a static local without capturing it, and its stores run
  // in a CFG of their own, out of sight of the barrier intervals.
  if (const auto *LE = dyn_cast<LambdaExpr>(S))
    return !mentionsVariable(LE, VD) &&
           !(LE->getBody() && mentionsVariable(LE->getBody(), VD));
  Ancestors.push_back(S);
  for (const Stmt *Child : S->children())
    if (Child && !onlySubscriptUses(Child, VD, Ancestors))
      return false;
  Ancestors.pop_back();
  return true;
}

} // namespace

bool SettledSharedReads::usedOnlyBySubscripts(const VarDecl *VD) {
  auto [It, New] = OnlySubscripts.try_emplace(VD, false);
  if (!New)
    return It->second;
  const auto *Array =
      dyn_cast<ConstantArrayType>(VD->getType()->getAsArrayTypeUnsafe());
  llvm::SmallVector<const Stmt *, 16> Ancestors;
  // An `extern __shared__` array shares its storage with every other one.
  bool Result = Array && Array->getElementType()->isScalarType() &&
                !VD->hasExternalStorage() && VD->getDeclContext() == Function &&
                Function->getBody() &&
                onlySubscriptUses(Function->getBody(), VD, Ancestors);
  return OnlySubscripts[VD] = Result;
}

bool SettledSharedReads::isSettled(const ArraySubscriptExpr *ASE) {
  auto Cached = SettledReads.find(ASE);
  if (Cached != SettledReads.end())
    return Cached->second;
  bool &Result = SettledReads[ASE];
  Result = false;
  const VarDecl *VD = namedVariable(ASE->getBase());
  if (!VD || !usedOnlyBySubscripts(VD))
    return false;
  auto ElementStmt = [](const CFGBlock *B, unsigned I) -> const Stmt * {
    auto CS = (*B)[I].getAs<CFGStmt>();
    return CS ? CS->getStmt() : nullptr;
  };
  auto IsBarrier = [](const Stmt *S) {
    const auto *CE = dyn_cast_or_null<CallExpr>(S);
    return CE && classifySync(CE).isBarrier();
  };
  // Where the read is.
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 2> Reads;
  for (const CFGBlock *B : Graph)
    for (unsigned I = 0; I < B->size(); ++I)
      if (ElementStmt(B, I) == ASE)
        Reads.push_back({B, I});
  if (Reads.empty())
    return false;
  // The barriers (or the entry) the threads last passed before the read:
  // the barrier interval starts after each.
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 4> Starts;
  llvm::BitVector Seen(Graph.getNumBlockIDs());
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work(
      Reads.begin(), Reads.end());
  while (!Work.empty()) {
    auto [B, End] = Work.pop_back_val();
    bool Stopped = false;
    for (unsigned I = End; I-- > 0;)
      if (IsBarrier(ElementStmt(B, I))) {
        Starts.push_back({B, I + 1});
        Stopped = true;
        break;
      }
    if (Stopped)
      continue;
    if (B == &Graph.getEntry() || B->pred_empty())
      Starts.push_back({B, 0});
    for (const CFGBlock *Pred : B->preds())
      if (Pred && !Seen.test(Pred->getBlockID())) {
        Seen.set(Pred->getBlockID());
        Work.push_back({Pred, Pred->size()});
      }
  }
  // Everything a thread may run from those points to the next barrier: a
  // store to the array anywhere there may be concurrent with the read.
  Seen.reset();
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Forward(
      Starts.begin(), Starts.end());
  while (!Forward.empty()) {
    auto [B, Begin] = Forward.pop_back_val();
    bool Stopped = false;
    for (unsigned I = Begin; I < B->size(); ++I) {
      const Stmt *S = ElementStmt(B, I);
      if (IsBarrier(S)) {
        Stopped = true;
        break;
      }
      if (S && storedArray(S) == VD)
        return false;
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && !Seen.test(Succ->getBlockID())) {
        Seen.set(Succ->getBlockID());
        Forward.push_back({Succ, 0});
      }
  }
  return Result = true;
}

} // namespace clang::cuda_tidy
