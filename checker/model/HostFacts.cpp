//===--- HostFacts.cpp - What host code establishes before a launch -------===//
//
// See HostFacts.h.
//
//===----------------------------------------------------------------------===//

#include "model/HostFacts.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include <numeric>

namespace clang::cuda_tidy {
namespace {

std::optional<std::int64_t> constantOf(const Expr *E,
                                       const ASTContext &Context) {
  if (std::optional<llvm::APSInt> Value = constantValue(E, Context))
    return Value->getExtValue();
  return std::nullopt;
}

/// `Var % C` (C > 1) or `Var & (C - 1)` with C a power of two: C.
std::int64_t divisorIn(const Expr *E, const VarDecl *Var,
                       const ASTContext &Context) {
  const auto *BO = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
  if (!BO || namedVariable(BO->getLHS()) != Var)
    return 0;
  std::optional<std::int64_t> C = constantOf(BO->getRHS(), Context);
  if (!C || *C < 1)
    return 0;
  if (BO->getOpcode() == BO_Rem)
    return *C > 1 ? *C : 0;
  if (BO->getOpcode() == BO_And && ((*C + 1) & *C) == 0)
    return *C + 1;
  return 0;
}

/// Whether running \p S certainly leaves the function: a return, a throw, a
/// call of a function that does not return (`abort`, `ggml_abort`,
/// `__assert_fail`), or a block that ends in one.
bool leaves(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ReturnStmt, CXXThrowExpr>(S))
    return true;
  if (const auto *Compound = dyn_cast<CompoundStmt>(S))
    return llvm::any_of(Compound->body(), leaves);
  if (const auto *Do = dyn_cast<DoStmt>(S))
    return leaves(Do->getBody());
  if (const auto *E = dyn_cast<Expr>(S)) {
    E = E->IgnoreParenCasts();
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
      E = Cleanups->getSubExpr()->IgnoreParenCasts();
    // The device side's `__assert_fail` is no `noreturn` function
    // (Clang's CUDA wrapper drops the attribute for a ptxas bug), but a
    // failed assertion stops the kernel all the same.
    if (const auto *Call = dyn_cast<CallExpr>(E))
      if (const FunctionDecl *Callee = Call->getDirectCallee())
        return Callee->isNoReturn() ||
               (Callee->getIdentifier() &&
                llvm::is_contained({"__assert_fail", "__assertfail",
                                    "__assert_rtn", "_wassert", "__trap"},
                                   Callee->getName()));
    if (const auto *Comma = dyn_cast<BinaryOperator>(E);
        Comma && Comma->getOpcode() == BO_Comma)
      return leaves(Comma->getLHS()) || leaves(Comma->getRHS());
  }
  return false;
}

/// The multiple of \p Var that statement \p S shows holds after it.
std::int64_t multipleAfter(const Stmt *S, const VarDecl *Var,
                           const ASTContext &Context) {
  if (!S)
    return 0;
  // `if (!(x)) abort();`, the shape of GGML_ASSERT and of early returns.
  if (const auto *If = dyn_cast<IfStmt>(S))
    return !If->getElse() && !If->hasInitStorage() && leaves(If->getThen())
               ? multipleShownBy(If->getCond(), false, Var, Context)
               : 0;
  // `do { ... } while (0)` around a macro's statements, and blocks.
  if (const auto *Do = dyn_cast<DoStmt>(S)) {
    std::optional<std::int64_t> Again = constantOf(Do->getCond(), Context);
    return Again && *Again == 0 ? multipleAfter(Do->getBody(), Var, Context)
                                : 0;
  }
  if (const auto *Compound = dyn_cast<CompoundStmt>(S)) {
    std::int64_t Found = 0;
    for (const Stmt *Child : Compound->body())
      Found = std::max(Found, multipleAfter(Child, Var, Context));
    return Found;
  }
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return 0;
  E = E->IgnoreParenCasts();
  // assert(c): `c ? (void)0 : __assert_fail(...)` or `(c) || fail()`.
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E))
    return leaves(Choice->getFalseExpr())
               ? multipleShownBy(Choice->getCond(), true, Var, Context)
               : 0;
  if (const auto *Or = dyn_cast<BinaryOperator>(E);
      Or && Or->getOpcode() == BO_LOr && leaves(Or->getRHS()))
    return multipleShownBy(Or->getLHS(), true, Var, Context);
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (Call->getBuiltinCallee() == Builtin::BI__builtin_assume &&
        Call->getNumArgs() == 1)
      return multipleShownBy(Call->getArg(0), true, Var, Context);
  return 0;
}

/// Whether \p Caller writes \p Var or lets it be written (its address
/// taken, a non-const reference bound to it): Clang's ExprMutationAnalyzer
/// (HostValues::mayChange), which follows a non-const reference or pointer
/// handed to a call into the callee's body where the unit holds it, as
/// through a forwarding launch helper. A variable that is itself a
/// reference may be written through another name: any use counts.
bool mayWrite(const FunctionDecl *Caller, const VarDecl *Var,
              LaunchModel &Launches) {
  if (!Caller->getBody())
    return false;
  if (Var->getType()->isReferenceType())
    return true;
  return Launches.valuesIn(Caller).mayChange(Var);
}

/// The multiple of \p Var established before \p Call in \p Caller: by the
/// statements before the one holding the call, in every block around it.
std::int64_t multipleBefore(const CallExpr *Call, const FunctionDecl *Caller,
                            const VarDecl *Var, LaunchModel &Launches,
                            ASTContext &Context) {
  if (mayWrite(Caller, Var, Launches))
    return 0;
  // A parent map of the launching function's body alone: the unit's
  // (ASTContext::getParents) would be built over every header, at a cost
  // far above the check's.
  ParentMap Parents(Caller->getBody());
  std::int64_t Found = 0;
  const Stmt *Child = Call;
  for (const Stmt *Parent = Parents.getParent(Child); Parent;
       Child = Parent, Parent = Parents.getParent(Child))
    if (const auto *Compound = dyn_cast<CompoundStmt>(Parent))
      for (const Stmt *S : Compound->body()) {
        if (S == Child)
          break;
        Found = std::max(Found, multipleAfter(S, Var, Context));
      }
  return Found;
}

/// \p E without `std::forward<T>(x)` or `std::move(x)` around it.
const Expr *withoutForwarding(const Expr *E) {
  E = E->IgnoreParenImpCasts();
  while (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 1 || !Callee->isInStdNamespace() ||
        !Callee->getIdentifier() ||
        (Callee->getName() != "forward" && Callee->getName() != "move"))
      break;
    E = Call->getArg(0)->IgnoreParenImpCasts();
  }
  return E;
}

/// The multiple launch \p L passes for the kernel's parameter \p I: a
/// constant, or a variable its launching function checks first. A launch
/// inside a helper (`ggml_cuda_kernel_launch(k, params, args...)`) passes
/// the helper's parameter: the argument the hand-off call gives it, checked
/// in the function that makes that call.
std::int64_t multiplePassed(const KernelLaunch &L, unsigned I,
                            LaunchModel &Launches, ASTContext &Context) {
  bool ThroughHelper = L.HelperCall && L.HelperCaller;
  const auto &Args = ThroughHelper ? L.HelperArgs : L.Args;
  if (!L.Call || !L.Caller || (!ThroughHelper && !L.ArgsKnown) ||
      I >= Args.size())
    return 0;
  const Expr *Arg = withoutForwarding(Args[I]);
  const CallExpr *At = L.Call;
  const FunctionDecl *In = L.Caller;
  if (ThroughHelper)
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg))
      if (const auto *Param = dyn_cast<ParmVarDecl>(Ref->getDecl());
          Param && Param->getDeclContext() == L.Caller &&
          L.HelperCall->getDirectCallee() == L.Caller &&
          Param->getFunctionScopeIndex() < L.HelperCall->getNumArgs()) {
        Arg = withoutForwarding(
            L.HelperCall->getArg(Param->getFunctionScopeIndex()));
        At = L.HelperCall;
        In = L.HelperCaller;
      }
  if (std::optional<std::int64_t> Value = constantOf(Arg, Context))
    return *Value > 0 ? *Value : 0;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Arg))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        Var && Var->hasLocalStorage() && Var->getDeclContext() == In)
      return multipleBefore(At, In, Var, Launches, Context);
  return 0;
}

} // namespace

std::int64_t multipleShownBy(const Expr *Condition, bool Holds,
                             const VarDecl *Var, const ASTContext &Context) {
  if (!Condition)
    return 0;
  // Casts to bool (`static_cast<bool>(c)` in assert) keep the meaning: a
  // remainder cast to bool is still "nonzero".
  const Expr *E = Condition->IgnoreParenCasts();
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot) {
    // `!(n % 32)`: the remainder is zero.
    if (Holds)
      if (std::int64_t D = divisorIn(Not->getSubExpr(), Var, Context))
        return D;
    return multipleShownBy(Not->getSubExpr(), !Holds, Var, Context);
  }
  // `if (n % 32) return;`: false, the remainder is zero.
  if (!Holds)
    if (std::int64_t D = divisorIn(E, Var, Context))
      return D;
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return 0;
  if ((BO->getOpcode() == BO_LAnd && Holds) ||
      (BO->getOpcode() == BO_LOr && !Holds))
    return std::max(multipleShownBy(BO->getLHS(), Holds, Var, Context),
                    multipleShownBy(BO->getRHS(), Holds, Var, Context));
  bool Equal = BO->getOpcode() == BO_EQ, Unequal = BO->getOpcode() == BO_NE;
  if (!(Equal && Holds) && !(Unequal && !Holds))
    return 0;
  for (auto [Side, Other] : {std::pair(BO->getLHS(), BO->getRHS()),
                             std::pair(BO->getRHS(), BO->getLHS())})
    if (std::optional<std::int64_t> Zero = constantOf(Other, Context);
        Zero && *Zero == 0)
      if (std::int64_t D = divisorIn(Side, Var, Context))
        return D;
  return 0;
}

std::vector<ParameterMultiple> launchedMultiples(LaunchModel &Launches,
                                                 const FunctionDecl *Kernel,
                                                 ASTContext &Context) {
  std::vector<ParameterMultiple> Facts;
  Launches.resolve();
  std::vector<const KernelLaunch *> Launched = Launches.launchesOf(Kernel);
  if (Launched.empty())
    return Facts;
  for (unsigned I = 0; I < Kernel->getNumParams(); ++I) {
    const ParmVarDecl *Param = Kernel->getParamDecl(I);
    if (!Param->getType()->isIntegerType())
      continue;
    std::int64_t Common = 0;
    for (const KernelLaunch *L : Launched) {
      std::int64_t Multiple = multiplePassed(*L, I, Launches, Context);
      Common = Multiple == 0 ? 0
               : Common == 0 ? Multiple
                             : std::gcd(Common, Multiple);
      if (Common <= 1)
        break;
    }
    if (Common > 1)
      Facts.push_back({Param, Common});
  }
  return Facts;
}

const Expr *statedCondition(const Stmt *S, bool &Holds) {
  Holds = true;
  // llm.c's `if (C % (32 * x128::size) != 0) { printf(...); __trap(); }`.
  if (const auto *If = dyn_cast_or_null<IfStmt>(S)) {
    if (If->getElse() || If->hasInitStorage() || If->hasVarStorage() ||
        If->isConsteval() || !leaves(If->getThen()))
      return nullptr;
    Holds = false;
    return If->getCond();
  }
  if (const auto *Attributed = dyn_cast_or_null<AttributedStmt>(S)) {
    for (const Attr *A : Attributed->getAttrs())
      if (const auto *Assume = dyn_cast<CXXAssumeAttr>(A))
        return Assume->getAssumption();
    return nullptr;
  }
  const auto *E = dyn_cast_or_null<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreParenCasts();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreParenCasts();
  // `static_cast<bool>(c)`, as glibc's assert writes it: c itself when it
  // is already a truth value.
  auto Truth = [](const Expr *C) {
    const Expr *Bare = C->IgnoreParenCasts();
    return Bare->getType()->isBooleanType() ? Bare : C;
  };
  if (const auto *Choice = dyn_cast<ConditionalOperator>(E))
    return leaves(Choice->getFalseExpr()) ? Truth(Choice->getCond()) : nullptr;
  if (const auto *Or = dyn_cast<BinaryOperator>(E);
      Or && Or->getOpcode() == BO_LOr && leaves(Or->getRHS()))
    return Truth(Or->getLHS());
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (Call->getBuiltinCallee() == Builtin::BI__builtin_assume &&
        Call->getNumArgs() == 1)
      return Call->getArg(0);
  return nullptr;
}

} // namespace clang::cuda_tidy
