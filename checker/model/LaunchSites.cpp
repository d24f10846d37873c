//===--- LaunchSites.cpp - How launches are spelled in the AST ------------===//

#include "model/LaunchSites.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::cuda_tidy {

const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  return FD && FD->getDefinition() ? FD->getDefinition() : FD;
}

const FunctionDecl *kernelNamed(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *FD = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>())
    return nullptr;
  return definitionOf(FD);
}

const FunctionDecl *chevronKernel(const CUDAKernelCallExpr *Launch) {
  if (const FunctionDecl *Callee = Launch->getDirectCallee())
    return definitionOf(Callee);
  return kernelNamed(Launch->getCallee());
}

std::optional<unsigned> parameterNamed(const Expr *E,
                                       const FunctionDecl *Function) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    // A copy, or `dim3(n)` with the other extents left at their defaults.
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() >= 1 &&
        llvm::all_of(
            llvm::drop_begin(Construct->arguments()),
            [](const Expr *Arg) { return isa<CXXDefaultArgExpr>(Arg); })) {
      E = Construct->getArg(0);
      continue;
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || Param->getDeclContext() != Function)
      return std::nullopt;
    return Param->getFunctionScopeIndex();
  }
  return std::nullopt;
}

std::optional<unsigned> kernelParameter(const Expr *Callee,
                                        const FunctionDecl *Function) {
  return parameterNamed(Callee->IgnoreParenCasts(), Function);
}

std::optional<LaunchKind> apiLaunchKind(const CallExpr *Call) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return std::nullopt;
  llvm::StringRef Name = Callee->getName();
  if (Call->getNumArgs() >= 3 && Name == "cudaLaunchKernel")
    return LaunchKind::LaunchKernel;
  if (Call->getNumArgs() >= 3 && Name == "cudaLaunchCooperativeKernel")
    return LaunchKind::CooperativeKernel;
  if (Call->getNumArgs() >= 2 && Name == "cudaLaunchKernelEx")
    return LaunchKind::LaunchKernelEx;
  if (Call->getNumArgs() >= 2 && Name == "cudaLaunchKernelExC")
    return LaunchKind::LaunchKernelExC;
  return std::nullopt;
}

const Expr *apiKernelArgument(const CallExpr *Call, LaunchKind Kind) {
  return Call->getArg(Kind == LaunchKind::LaunchKernel ||
                              Kind == LaunchKind::CooperativeKernel
                          ? 0
                          : 1);
}

bool handsFunctionOn(const CallExpr *Call) {
  return llvm::any_of(Call->arguments(), [](const Expr *Arg) {
    return Arg->getType()->isFunctionPointerType() || kernelNamed(Arg);
  });
}

namespace {

class CallFinder : public RecursiveASTVisitor<CallFinder> {
public:
  explicit CallFinder(llvm::function_ref<void(const CallExpr *)> OnCall)
      : OnCall(OnCall) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *CE) {
    OnCall(CE);
    return true;
  }

private:
  llvm::function_ref<void(const CallExpr *)> OnCall;
};

} // namespace

void forEachCall(const FunctionDecl *Function,
                 llvm::function_ref<void(const CallExpr *)> OnCall) {
  if (const Stmt *Body = Function->getBody())
    CallFinder(OnCall).TraverseStmt(const_cast<Stmt *>(Body));
}

namespace {

/// A launch argument as an affine form over the components of the launch's
/// block variable, other variables and a constant. Coefficients are kept
/// modulo 2^32 (as int32): the ring in which the launch's 32-bit `int` and
/// `unsigned` arithmetic computes, wrap-around included.
struct AffineForm {
  std::int64_t Constant = 0;
  std::array<std::int64_t, 3> Dim = {0, 0, 0};
  llvm::SmallVector<std::pair<const VarDecl *, std::int64_t>, 2> Vars;
};

std::int64_t wrap32(std::uint64_t V) {
  return std::int64_t(std::int32_t(std::uint32_t(V)));
}

void addScaled(AffineForm &Into, const AffineForm &From, std::int64_t Scale) {
  auto Mul = [&](std::int64_t C) {
    return std::uint64_t(C) * std::uint64_t(Scale);
  };
  Into.Constant = wrap32(std::uint64_t(Into.Constant) + Mul(From.Constant));
  for (unsigned D = 0; D < 3; ++D)
    Into.Dim[D] = wrap32(std::uint64_t(Into.Dim[D]) + Mul(From.Dim[D]));
  for (const auto &Term : From.Vars) {
    const VarDecl *Var = Term.first;
    std::int64_t C = Term.second;
    auto *Same = llvm::find_if(
        Into.Vars, [&](const auto &Other) { return Other.first == Var; });
    if (Same == Into.Vars.end())
      Into.Vars.push_back({Var, wrap32(Mul(C))});
    else
      Same->second = wrap32(std::uint64_t(Same->second) + Mul(C));
  }
  llvm::erase_if(Into.Vars, [](const auto &Term) { return Term.second == 0; });
}

/// The dim3 variable a launch's block argument names (`block` in
/// `k<<<grid, block>>>`), through its copy.
const VarDecl *blockVariable(const Expr *Block) {
  Block = Block->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Block);
      Construct && Construct->getNumArgs() == 1 &&
      Construct->getArg(0)->getType()->isRecordType())
    Block = Construct->getArg(0)->IgnoreImplicit()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Block);
  const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *Record =
      Var ? Var->getType().getNonReferenceType()->getAsCXXRecordDecl()
          : nullptr;
  if (!Record || !Record->getIdentifier() || Record->getName() != "dim3")
    return nullptr;
  return Var;
}

/// \p E, a launch argument, as an affine form: integer constants, `+`,
/// `-`, multiplication by a constant, integer variables, and `.x`, `.y`,
/// `.z` of \p Block (blockDim of the launched grid). Every value on the way
/// is an integer of at most 32 bits and every conversion one to 32 bits, so
/// that the launch computes it modulo 2^32 from the values of its leaves;
/// none for anything else.
std::optional<AffineForm> affineArgument(const Expr *E, const VarDecl *Block,
                                         ASTContext &Context,
                                         unsigned Depth = 0) {
  if (!E || Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  QualType Type = E->getType();
  if (!Type->isIntegerType() || Context.getTypeSize(Type) > 32 ||
      E->isValueDependent())
    return std::nullopt;
  AffineForm Form;
  if (E->isPRValue()) {
    Expr::EvalResult Result;
    if (E->EvaluateAsInt(Result, Context)) {
      Form.Constant = wrap32(Result.Val.getInt().getExtValue());
      return Form;
    }
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      break;
    case CK_IntegralCast:
      // To 16 bits, say, the value would not be taken modulo 2^32.
      if (Context.getTypeSize(Type) != 32)
        return std::nullopt;
      break;
    default:
      return std::nullopt;
    }
    return affineArgument(Cast->getSubExpr(), Block, Context, Depth + 1);
  }
  if (const auto *Unary = dyn_cast<UnaryOperator>(E)) {
    if (Unary->getOpcode() != UO_Minus && Unary->getOpcode() != UO_Plus)
      return std::nullopt;
    std::optional<AffineForm> Sub =
        affineArgument(Unary->getSubExpr(), Block, Context, Depth + 1);
    if (!Sub)
      return std::nullopt;
    addScaled(Form, *Sub, Unary->getOpcode() == UO_Minus ? -1 : 1);
    return Form;
  }
  if (const auto *Binary = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = Binary->getOpcode();
    if (Op != BO_Add && Op != BO_Sub && Op != BO_Mul)
      return std::nullopt;
    std::optional<AffineForm> L =
        affineArgument(Binary->getLHS(), Block, Context, Depth + 1);
    std::optional<AffineForm> R =
        affineArgument(Binary->getRHS(), Block, Context, Depth + 1);
    if (!L || !R)
      return std::nullopt;
    auto IsConstant = [](const AffineForm &F) {
      return F.Vars.empty() && F.Dim == std::array<std::int64_t, 3>{0, 0, 0};
    };
    if (Op == BO_Mul) {
      if (IsConstant(*L))
        std::swap(L, R);
      if (!IsConstant(*R))
        return std::nullopt; // Not affine.
      addScaled(Form, *L, R->Constant);
      return Form;
    }
    addScaled(Form, *L, 1);
    addScaled(Form, *R, Op == BO_Sub ? -1 : 1);
    return Form;
  }
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Base =
        dyn_cast<DeclRefExpr>(Member->getBase()->IgnoreParenImpCasts());
    const auto *Field = Member->getMemberDecl();
    if (!Block || Member->isArrow() || !Base || Base->getDecl() != Block ||
        !Field->getIdentifier())
      return std::nullopt;
    llvm::StringRef Name = Field->getName();
    if (Name != "x" && Name != "y" && Name != "z")
      return std::nullopt;
    Form.Dim[Name[0] - 'x'] = 1;
    return Form;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl())) {
      Form.Vars.push_back({Var, 1});
      return Form;
    }
  return std::nullopt;
}

/// The variable \p Arg passes whole (`radius`), if it is one.
const VarDecl *passedVariable(const Expr *Arg) {
  for (;;) {
    Arg = Arg->IgnoreParens();
    const auto *Cast = dyn_cast<ImplicitCastExpr>(Arg);
    if (!Cast || (Cast->getCastKind() != CK_LValueToRValue &&
                  Cast->getCastKind() != CK_NoOp))
      break;
    Arg = Cast->getSubExpr();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Arg);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

} // namespace

llvm::SmallVector<ArgumentRelation, 1>
launchRelations(const FunctionDecl *Kernel, const CUDAKernelCallExpr *Launch,
                const std::string &From, ASTContext &Context) {
  llvm::SmallVector<ArgumentRelation, 1> Found;
  const VarDecl *Block = Launch->getConfig()->getNumArgs() > 1
                             ? blockVariable(Launch->getConfig()->getArg(1))
                             : nullptr;
  const unsigned N = Kernel->getNumParams();
  // Arguments are evaluated in an unspecified order: one that changes a
  // variable another reads makes its value unknown.
  bool Readable = Launch->getNumArgs() == N &&
                  llvm::none_of(Launch->arguments(), [&](const Expr *Arg) {
                    return Arg->HasSideEffects(Context);
                  });
  // The parameter that stands for variable V: the first integer one the
  // launch passes V to whole, of V's own type (so it holds V's value).
  auto Carrier = [&](const VarDecl *V) -> const ParmVarDecl * {
    for (unsigned I = 0; I < N; ++I) {
      const ParmVarDecl *Q = Kernel->getParamDecl(I);
      if (Q->getType()->isIntegerType() &&
          passedVariable(Launch->getArg(I)) == V &&
          Context.hasSameUnqualifiedType(Q->getType(),
                                         V->getType().getNonReferenceType()))
        return Q;
    }
    return nullptr;
  };
  for (unsigned I = 0; Readable && I < N; ++I) {
    const ParmVarDecl *P = Kernel->getParamDecl(I);
    if (!P->getType()->isIntegerType() ||
        Context.getTypeSize(P->getType()) != 32)
      continue;
    std::optional<AffineForm> Form =
        affineArgument(Launch->getArg(I), Block, Context);
    if (!Form)
      continue;
    ArgumentRelation R;
    R.Param = P;
    R.Constant = Form->Constant;
    R.Dim = Form->Dim;
    bool Expressed = true;
    // The form's variables are distinct with non-zero coefficients
    // (addScaled), and distinct variables have distinct carriers (a
    // parameter's argument passes one variable): each is one term.
    for (const auto &[V, C] : Form->Vars) {
      // A variable no other parameter carries is no fact about the kernel;
      // P carrying it itself is no relation (and would make one circular).
      const ParmVarDecl *Q = Carrier(V);
      if (!Q || Q == P) {
        Expressed = false;
        break;
      }
      R.Terms.push_back({Q, C});
    }
    // A constant alone is BlockShape::Arguments' business.
    if (!Expressed ||
        (R.Terms.empty() && R.Dim == std::array<std::int64_t, 3>{0, 0, 0}))
      continue;
    llvm::sort(R.Terms, [](const auto &A, const auto &B) {
      return A.first->getFunctionScopeIndex() <
             B.first->getFunctionScopeIndex();
    });
    R.From = From;
    Found.push_back(std::move(R));
  }
  return Found;
}

} // namespace clang::cuda_tidy
