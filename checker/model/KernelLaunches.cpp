//===--- KernelLaunches.cpp - Kernels and their launch shapes -------------===//

#include "model/KernelLaunches.h"
#include "analysis/BlockShapeInference.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

namespace {

/// The kernel \p E names (`k`, `&k`, through casts), as its definition.
const FunctionDecl *kernelNamed(const Expr *E) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *FD = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  if (!FD || !FD->hasAttr<CUDAGlobalAttr>())
    return nullptr;
  return FD->getDefinition() ? FD->getDefinition() : FD;
}

/// The kernels a local function pointer is set to in a function body.
class PointerTargets : public RecursiveASTVisitor<PointerTargets> {
public:
  explicit PointerTargets(const VarDecl *Pointer) : Pointer(Pointer) {}
  llvm::SmallVector<const FunctionDecl *, 4> Kernels;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      if (const auto *Ref =
              dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (Ref->getDecl() == Pointer)
          add(BO->getRHS());
    return true;
  }
  void add(const Expr *E) {
    if (const FunctionDecl *Kernel = kernelNamed(E))
      Kernels.push_back(Kernel);
  }

private:
  const VarDecl *Pointer;
};

/// The parameter of \p Function that \p E names, looking through the copy
/// of a `dim3` and implicit conversions.
std::optional<unsigned> parameterNamed(const Expr *E,
                                       const FunctionDecl *Function) {
  for (unsigned Depth = 0; E && Depth < 4; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() == 1) {
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

const FunctionDecl *definitionOf(const FunctionDecl *FD) {
  return FD && FD->getDefinition() ? FD->getDefinition() : FD;
}

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

void KernelLaunches::addRelations(const FunctionDecl *Kernel,
                                  const CUDAKernelCallExpr *Launch,
                                  ASTContext &Context) {
  LaunchRelations &Known = Relations[Kernel];
  if (!Known.Known)
    return;
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
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Launch->getBeginLoc());
  OptionalFileEntryRef LaunchFile = SM.getFileEntryRefForID(SM.getFileID(At));
  for (unsigned I = 0; Readable && LaunchFile && I < N; ++I) {
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
    R.From = llvm::sys::path::filename(LaunchFile->getName()).str() + ":" +
             std::to_string(SM.getExpansionLineNumber(At));
    Found.push_back(std::move(R));
  }
  if (!Known.Launched) {
    Known.Launched = true;
    Known.List = std::move(Found);
    return;
  }
  // Only a relation every launch gives stays.
  llvm::erase_if(Known.List, [&](ArgumentRelation &R) {
    const auto *Same = llvm::find_if(
        Found, [&](const ArgumentRelation &F) { return F.sameForm(R); });
    if (Same == Found.end())
      return true;
    if (!llvm::is_contained(llvm::split(R.From, ", "), Same->From))
      R.From += ", " + Same->From;
    return false;
  });
}

void KernelLaunches::addLaunch(const CUDAKernelCallExpr *Launch,
                               const FunctionDecl *Caller, HostValues &Values) {
  llvm::SmallVector<const FunctionDecl *, 4> Targets;
  if (const FunctionDecl *Kernel = Launch->getDirectCallee()) {
    Targets.push_back(Kernel->getDefinition() ? Kernel->getDefinition()
                                              : Kernel);
  } else if (std::optional<unsigned> Parameter =
                 Caller ? parameterNamed(Launch->getCallee(), Caller)
                        : std::nullopt) {
    // A launch helper: the kernel and perhaps the block come from its
    // callers (resolveHelperLaunches).
    HelperLaunch Helper;
    Helper.Helper = definitionOf(Caller);
    Helper.KernelParameter = *Parameter;
    if (Launch->getConfig()->getNumArgs() > 1) {
      const Expr *Block = Launch->getConfig()->getArg(1);
      Helper.Shape = Values.blockShape(Block, Launch);
      if (!Helper.Shape)
        Helper.BlockParameter = parameterNamed(Block, Caller);
    }
    HelperLaunches.push_back(Helper);
    return;
  } else if (const auto *Ref = dyn_cast<DeclRefExpr>(
                 Launch->getCallee()->IgnoreParenImpCasts())) {
    const auto *Pointer = dyn_cast<VarDecl>(Ref->getDecl());
    if (!Pointer || !Pointer->hasLocalStorage() || !Caller ||
        !Caller->getBody())
      return;
    PointerTargets Finder(Pointer);
    if (Pointer->getInit())
      Finder.add(Pointer->getInit());
    Finder.TraverseStmt(const_cast<Stmt *>(Caller->getBody()));
    Targets = Finder.Kernels;
  }
  std::optional<BlockShape> Shape =
      Launch->getConfig()->getNumArgs() > 1
          ? Values.blockShape(Launch->getConfig()->getArg(1), Launch)
          : std::nullopt;
  ASTContext &Context = Caller->getASTContext();
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Launch->getBeginLoc());
  OptionalFileEntryRef LaunchFile = SM.getFileEntryRefForID(SM.getFileID(At));
  std::optional<std::int64_t> Bytes =
      Launch->getConfig()->getNumArgs() > 2
          ? Values.evaluate(Launch->getConfig()->getArg(2), Launch)
          : std::optional<std::int64_t>(0);
  for (const FunctionDecl *Kernel : Targets) {
    // The integer arguments whose values reach the launch as constants.
    std::optional<BlockShape> Bound = Shape;
    if (Bound && LaunchFile) {
      for (unsigned I = 0;
           I < Launch->getNumArgs() && I < Kernel->getNumParams(); ++I) {
        const ParmVarDecl *Param = Kernel->getParamDecl(I);
        if (!Param->getType()->isIntegralOrEnumerationType())
          continue;
        if (std::optional<std::int64_t> Value =
                Values.evaluate(Launch->getArg(I), Launch))
          Bound->Arguments.push_back({Param, *Value});
      }
      Bound->ArgumentsFrom =
          llvm::sys::path::filename(LaunchFile->getName()).str() + ":" +
          std::to_string(SM.getExpansionLineNumber(At));
    }
    if (LaunchFile) {
      IndexedLaunch Indexed;
      Indexed.Kernel = kernelKey(Kernel);
      Indexed.Name = Kernel->getNameAsString();
      Indexed.File = SM.getFileManager().getCanonicalName(*LaunchFile).str();
      Indexed.Line = SM.getExpansionLineNumber(At);
      Indexed.Block = Shape;
      Indexed.Bytes = Bytes;
      if (!Indexed.Kernel.empty())
        Seen.push_back(std::move(Indexed));
    }
    addShape(Kernel, Shape, Bound);
    addRelations(Kernel, Launch, Context);
  }
}

void KernelLaunches::addShape(const FunctionDecl *Kernel,
                              const std::optional<BlockShape> &Shape,
                              const std::optional<BlockShape> &Bound) {
  if (!Shape || !Bound) {
    Unknown.insert(Kernel);
    return;
  }
  auto &Known = Shapes[Kernel];
  auto Same = llvm::find_if(
      Known, [&](const BlockShape &Other) { return Other.Dim == Shape->Dim; });
  if (Same != Known.end()) {
    // Only values every launch of the shape passes stay bound.
    llvm::erase_if(Same->Arguments, [&](const auto &Argument) {
      return Bound->argument(Argument.first) != Argument.second;
    });
    return;
  }
  if (Known.size() < 4)
    Known.push_back(*Bound);
}

void KernelLaunches::addCall(const CallExpr *Call, const FunctionDecl *Caller) {
  // A kernel handed to a call (a launch helper, cudaLaunchKernel) may be
  // launched with arguments no relation describes.
  for (const Expr *Arg : Call->arguments())
    if (const FunctionDecl *Kernel = kernelNamed(Arg))
      dropRelations(Kernel);
  if (isa<CUDAKernelCallExpr, CXXOperatorCallExpr, CXXMemberCallExpr>(Call) ||
      !Call->getDirectCallee())
    return;
  if (llvm::any_of(Call->arguments(), [](const Expr *Arg) {
        return Arg->getType()->isFunctionPointerType();
      }))
    PointerCalls.push_back({Call, Caller});
}

void KernelLaunches::resolveHelperLaunches(ASTContext &Context) {
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<HostValues>> Values;
  auto ValuesIn = [&](const FunctionDecl *F) -> HostValues & {
    auto &Slot = Values[F];
    if (!Slot)
      Slot = std::make_unique<HostValues>(F, Context);
    return *Slot;
  };
  // Helpers found while resolving (a caller passing on its own parameter)
  // are appended and resolved in turn.
  for (size_t I = 0; I < HelperLaunches.size(); ++I) {
    const HelperLaunch Launch = HelperLaunches[I];
    for (const auto &[Call, Caller] : PointerCalls) {
      if (definitionOf(Call->getDirectCallee()) != Launch.Helper ||
          Launch.KernelParameter >= Call->getNumArgs())
        continue;
      std::optional<BlockShape> Shape = Launch.Shape;
      std::optional<unsigned> BlockParameter;
      if (!Shape && Launch.BlockParameter &&
          *Launch.BlockParameter < Call->getNumArgs()) {
        const Expr *Block = Call->getArg(*Launch.BlockParameter);
        Shape = ValuesIn(Caller).blockShape(Block, Call);
        if (!Shape)
          BlockParameter = parameterNamed(Block, Caller);
      }
      const Expr *Argument = Call->getArg(Launch.KernelParameter);
      if (std::optional<unsigned> Passed = parameterNamed(Argument, Caller)) {
        HelperLaunch Outer{Caller, *Passed, Shape, BlockParameter,
                           Launch.Depth + 1};
        // A helper called several times with the same parameters is one
        // helper launch of its caller.
        bool Known = llvm::any_of(HelperLaunches, [&](const HelperLaunch &H) {
          return H.Helper == Outer.Helper &&
                 H.KernelParameter == Outer.KernelParameter &&
                 H.BlockParameter == Outer.BlockParameter &&
                 H.Shape.has_value() == Outer.Shape.has_value() &&
                 (!H.Shape || H.Shape->Dim == Outer.Shape->Dim);
        });
        if (Launch.Depth < 4 && !Known)
          HelperLaunches.push_back(Outer);
        continue;
      }
      PointerTargets Targets(nullptr);
      const Expr *Named = Argument->IgnoreParenCasts();
      if (const auto *UO = dyn_cast<UnaryOperator>(Named);
          UO && UO->getOpcode() == UO_AddrOf)
        Named = UO->getSubExpr()->IgnoreParenCasts();
      const auto *Ref = dyn_cast<DeclRefExpr>(Named);
      const auto *Pointer = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
      if (Pointer && Pointer->hasLocalStorage() && Caller->getBody()) {
        PointerTargets Finder(Pointer);
        if (Pointer->getInit())
          Finder.add(Pointer->getInit());
        Finder.TraverseStmt(const_cast<Stmt *>(Caller->getBody()));
        Targets.Kernels = Finder.Kernels;
      } else {
        Targets.add(Argument);
      }
      for (const FunctionDecl *Kernel : Targets.Kernels) {
        addShape(Kernel, Shape, Shape);
        dropRelations(Kernel);
      }
    }
  }
  HelperLaunches.clear();
}

llvm::ArrayRef<BlockShape>
KernelLaunches::shapesOf(const FunctionDecl *Kernel) const {
  if (Unknown.count(Kernel))
    return {};
  auto It = Shapes.find(Kernel);
  if (It == Shapes.end())
    return {};
  return It->second;
}

llvm::SmallVector<BlockShape, 2> KernelLaunches::shapesFor(
    const FunctionDecl *Kernel, ThreadDependenceAnalysis &Dependence,
    const AssumedShapes &Assumed, const ProgramLaunches *Index) const {
  llvm::SmallVector<BlockShape, 2> Launched;
  bool AnyUnknown = Unknown.count(Kernel);
  llvm::SmallVector<ArgumentRelation, 1> Related =
      relationsOf(Kernel, Dependence.getContext(), Index);
  auto WithRelations = [&](llvm::ArrayRef<BlockShape> Shapes) {
    llvm::SmallVector<BlockShape, 2> Out(Shapes.begin(), Shapes.end());
    for (BlockShape &Shape : Out)
      Shape.Relations = Related;
    return Out;
  };
  if (auto It = Shapes.find(Kernel); It != Shapes.end())
    Launched.append(It->second.begin(), It->second.end());
  if (Index) {
    llvm::StringRef MainFile =
        mainFileName(Dependence.getContext().getSourceManager());
    for (const IndexedLaunch *L :
         Index->launchesOf(kernelKey(Kernel), MainFile)) {
      if (!L->Block) {
        AnyUnknown = true;
        continue;
      }
      auto Same = llvm::find_if(Launched, [&](const BlockShape &Other) {
        return Other.Dim == L->Block->Dim;
      });
      // The index holds no argument values: another file's launch of the
      // same shape may pass anything.
      if (Same != Launched.end())
        Same->Arguments.clear();
      else if (Launched.size() < 4) {
        BlockShape Shape = *L->Block;
        Shape.Origin = "launched in " + L->where();
        Launched.push_back(Shape);
      }
    }
  }
  // A launch whose shape is not a constant may have any shape: as before,
  // the kernel is then analysed as if no launch were known.
  if (!Launched.empty() && !AnyUnknown)
    return WithRelations(Launched);
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  if (!Deps)
    return {};
  SharedAccessCollector Collector(Dependence.getContext(), *Deps);
  Collector.collect();
  return WithRelations(inferBlockShapes(Collector, Assumed));
}

llvm::SmallVector<ArgumentRelation, 1>
KernelLaunches::relationsOf(const FunctionDecl *Kernel, ASTContext &Context,
                            const ProgramLaunches *Index) const {
  auto It = Relations.find(Kernel);
  if (It == Relations.end() || !It->second.Known || !It->second.Launched)
    return {};
  // The index holds no arguments: another file's launch may pass anything.
  if (Index && !Index
                    ->launchesOf(kernelKey(Kernel),
                                 mainFileName(Context.getSourceManager()))
                    .empty())
    return {};
  return It->second.List;
}

bool KernelLaunches::writeIndex(llvm::StringRef Dir,
                                ASTContext &Context) const {
  llvm::StringRef MainFile = mainFileName(Context.getSourceManager());
  if (MainFile.empty())
    return false;
  return ProgramLaunches::write(Dir, MainFile, Seen);
}

std::string describeShapeOrigin(const BlockShape &Shape) {
  if (!Shape.Assumed)
    return Shape.Origin.empty() ? "" : " (" + Shape.Origin + ")";
  // Relations are read from launches: those launches' blocks are not
  // constants.
  std::string Why = "no launch of this kernel was found";
  if (!Shape.Relations.empty()) {
    const std::string &From = Shape.Relations.front().From;
    Why = From.find(',') == std::string::npos
              ? "the block of the launch at " + From + " is not a constant"
              : "the blocks of the launches at " + From + " are not constants";
  }
  if (Shape.Origin.empty())
    return " (assumed: " + Why + ")";
  return " (assumed " + Shape.Origin + ": " + Why + ")";
}

namespace {

class LaunchFinder : public RecursiveASTVisitor<LaunchFinder> {
public:
  LaunchFinder(llvm::function_ref<void(const CUDAKernelCallExpr *)> OnLaunch,
               llvm::function_ref<void(const CallExpr *)> OnCall)
      : OnLaunch(OnLaunch), OnCall(OnCall) {}
  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitLambdaBody() const { return true; }
  bool VisitCallExpr(CallExpr *CE) {
    if (const auto *Launch = dyn_cast<CUDAKernelCallExpr>(CE))
      OnLaunch(Launch);
    else if (OnCall)
      OnCall(CE);
    return true;
  }

private:
  llvm::function_ref<void(const CUDAKernelCallExpr *)> OnLaunch;
  llvm::function_ref<void(const CallExpr *)> OnCall;
};

} // namespace

void forEachLaunch(
    const FunctionDecl *Function,
    llvm::function_ref<void(const CUDAKernelCallExpr *)> OnLaunch,
    llvm::function_ref<void(const CallExpr *)> OnCall) {
  if (const Stmt *Body = Function->getBody())
    LaunchFinder(OnLaunch, OnCall).TraverseStmt(const_cast<Stmt *>(Body));
}

namespace {

/// The expression that a launch's block argument \p Block gives dimension
/// \p Dim (`k` for `dim3 threads(32, k)` and Dim 1), followed through the
/// local that reaches \p At; null when it cannot be read.
const Expr *blockDimension(const Expr *Block, unsigned Dim, const Stmt *At,
                           HostValues &Values, unsigned Depth = 0) {
  if (!Block || Depth > 4)
    return nullptr;
  Block = Block->IgnoreImplicit()->IgnoreParenImpCasts();
  if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(Block))
    return blockDimension(Cast->getSubExpr(), Dim, At, Values, Depth + 1);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Block)) {
    const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
    if (!VD || !VD->hasLocalStorage())
      return nullptr;
    if (VD->getType()->isIntegerType())
      return Dim == 0 ? Block : nullptr;
    return blockDimension(Values.reachingValue(VD, At), Dim, At, Values,
                          Depth + 1);
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Block)) {
    if (Construct->getNumArgs() == 1 &&
        Construct->getArg(0)->getType()->isRecordType())
      return blockDimension(Construct->getArg(0), Dim, At, Values, Depth + 1);
    if (Dim >= Construct->getNumArgs() ||
        isa<CXXDefaultArgExpr>(Construct->getArg(Dim)))
      return nullptr;
    return Construct->getArg(Dim)->IgnoreParenImpCasts();
  }
  if (Block->getType()->isIntegerType())
    return Dim == 0 ? Block : nullptr;
  return nullptr;
}

bool contains(const Stmt *Outer, const Stmt *Inner) {
  if (Outer == Inner)
    return true;
  for (const Stmt *Child : Outer->children())
    if (Child && contains(Child, Inner))
      return true;
  return false;
}

/// Whether \p At runs only under `case Value:` of a `switch` on \p Var in
/// \p Root, entered from no other label (no fall-through into it).
bool underCase(const Stmt *Root, const Stmt *At, const VarDecl *Var,
               std::int64_t Value, const ASTContext &Context) {
  if (!Root)
    return false;
  if (const auto *Switch = dyn_cast<SwitchStmt>(Root)) {
    const auto *On =
        dyn_cast<DeclRefExpr>(Switch->getCond()->IgnoreParenImpCasts());
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Switch->getBody());
    if (On && On->getDecl() == Var && !Switch->getInit() && Body) {
      std::optional<std::int64_t> Label;
      const Stmt *Previous = nullptr;
      for (const Stmt *Child : Body->body()) {
        if (const auto *Case = dyn_cast<CaseStmt>(Child)) {
          Expr::EvalResult Result;
          bool FallsIn = Previous && !isa<BreakStmt, ReturnStmt>(Previous);
          Label.reset();
          if (!FallsIn && !Case->getRHS() &&
              !isa<SwitchCase>(Case->getSubStmt()) &&
              Case->getLHS()->EvaluateAsInt(Result, Context))
            Label = Result.Val.getInt().getExtValue();
        } else if (isa<DefaultStmt>(Child)) {
          Label.reset();
        }
        if (contains(Child, At))
          return Label == Value;
        Previous = Child;
        if (const auto *Labelled = dyn_cast<SwitchCase>(Child))
          Previous = Labelled->getSubStmt();
      }
    }
  }
  for (const Stmt *Child : Root->children())
    if (Child && contains(Child, At))
      return underCase(Child, At, Var, Value, Context);
  return false;
}

/// The local or parameter \p E names when the launching function \p Caller
/// never changes it after its declaration.
const VarDecl *unchangedVariable(const Expr *E, const FunctionDecl *Caller,
                                 ASTContext &Context) {
  const auto *Ref =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
      !Caller->getBody())
    return nullptr;
  ExprMutationAnalyzer Mutations(*Caller->getBody(), Context);
  return Mutations.isMutated(VD) ? nullptr : VD;
}

} // namespace

bool launchesBindExitBound(const FunctionDecl *Kernel, unsigned Dim,
                           std::optional<std::int64_t> Value,
                           const ParmVarDecl *Parameter,
                           llvm::ArrayRef<const FunctionDecl *> Launchers,
                           ASTContext &Context) {
  if (Dim > 2 || (!Value && !Parameter))
    return false;
  const FunctionDecl *Wanted = Kernel->getCanonicalDecl();
  bool Any = false, All = true;
  for (const FunctionDecl *Caller : Launchers) {
    std::optional<HostValues> Values;
    forEachLaunch(Caller, [&](const CUDAKernelCallExpr *Launch) {
      const FunctionDecl *Target = Launch->getDirectCallee();
      if (!All || !Target || Target->getCanonicalDecl() != Wanted)
        return;
      Any = true;
      if (!Values)
        Values.emplace(Caller, Context);
      const Expr *Size = Launch->getConfig()->getNumArgs() > 1
                             ? blockDimension(Launch->getConfig()->getArg(1),
                                              Dim, Launch, *Values)
                             : nullptr;
      if (!Size) {
        All = false;
        return;
      }
      std::optional<std::int64_t> SizeValue = Values->evaluate(Size, Launch);
      if (Value) {
        if (SizeValue == Value)
          return;
        const VarDecl *Var = unchangedVariable(Size, Caller, Context);
        All = Var && underCase(Caller->getBody(), Launch, Var, *Value, Context);
        return;
      }
      unsigned Index = Parameter->getFunctionScopeIndex();
      if (Index >= Launch->getNumArgs()) {
        All = false;
        return;
      }
      const Expr *Passed = Launch->getArg(Index);
      std::optional<std::int64_t> PassedValue =
          Values->evaluate(Passed, Launch);
      if (SizeValue && PassedValue == SizeValue)
        return;
      const VarDecl *Var = unchangedVariable(Size, Caller, Context);
      All = Var && Var == unchangedVariable(Passed, Caller, Context);
    });
    if (!All)
      return false;
  }
  return Any;
}

namespace {

/// \p E without what only wraps a class value: implicit nodes, parentheses,
/// functional casts, copies and moves.
const Expr *bareValue(const Expr *E) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
        Construct && Construct->getNumArgs() == 1 &&
        Construct->getConstructor()->isCopyOrMoveConstructor()) {
      E = Construct->getArg(0);
      continue;
    }
    break;
  }
  return E;
}

/// The fields \p E reads, outermost last (`params.block_dims` gives
/// `block_dims`), and the expression they are read from; false when \p E
/// is no chain of `.` members.
bool memberChain(const Expr *E, const Expr *&Base,
                 llvm::SmallVectorImpl<const FieldDecl *> &Fields) {
  E = bareValue(E);
  while (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field || Field->getType()->isReferenceType())
      return false;
    Fields.insert(Fields.begin(), Field);
    E = bareValue(ME->getBase());
    if (ME->isArrow()) {
      // Only a constructor's own members (`this->cfg`, or just `cfg`).
      if (!isa<CXXThisExpr>(E))
        return false;
      break;
    }
  }
  Base = E;
  return true;
}

bool mentionsField(const Stmt *S, const FieldDecl *Field) {
  if (const auto *ME = dyn_cast<MemberExpr>(S);
      ME && ME->getMemberDecl() == Field)
    return true;
  for (const Stmt *Child : S->children())
    if (Child && mentionsField(Child, Field))
      return true;
  return false;
}

/// What member path \p Path of the object \p Construct builds holds once
/// the constructor has run, when the constructor copies it from one of its
/// parameters: a member initialiser `block_dims(block_dims_)`, or a last
/// assignment `cfg.blockDim = params.block_dims;` at the top of its body.
/// Returns the argument that parameter gets, and sets \p Path to the
/// members of it that are read. Null otherwise.
const Expr *memberFromArgument(const CXXConstructExpr *Construct,
                               llvm::SmallVectorImpl<const FieldDecl *> &Path) {
  const FunctionDecl *Definition = nullptr;
  if (Path.empty() || !Construct->getConstructor()->hasBody(Definition))
    return nullptr;
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition);
  const auto *Body = Ctor ? dyn_cast<CompoundStmt>(Ctor->getBody()) : nullptr;
  if (!Body)
    return nullptr;
  const Expr *Value = nullptr;
  llvm::SmallVector<const FieldDecl *, 4> ValueFields; // The path it sets.
  for (const CXXCtorInitializer *Init : Ctor->inits())
    if (Init->isWritten() && Init->getMember() == Path.front()) {
      Value = Init->getInit();
      ValueFields.assign(1, Path.front());
    }
  for (const Stmt *S : Body->body()) {
    if (const auto *E = dyn_cast<Expr>(S))
      S = E->IgnoreImplicit();
    // `m = v`, built in or a class's operator=.
    const Expr *LHS = nullptr, *RHS = nullptr;
    if (const auto *Assign = dyn_cast<BinaryOperator>(S);
        Assign && Assign->getOpcode() == BO_Assign) {
      LHS = Assign->getLHS();
      RHS = Assign->getRHS();
    } else if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(S);
               Call && Call->getOperator() == OO_Equal &&
               Call->getNumArgs() == 2) {
      LHS = Call->getArg(0);
      RHS = Call->getArg(1);
    }
    const Expr *Target = nullptr;
    llvm::SmallVector<const FieldDecl *, 4> Fields;
    if (LHS && memberChain(LHS, Target, Fields) && isa<CXXThisExpr>(Target)) {
      // A sibling of the path, or something outside it: no change.
      size_t Common = 0;
      while (Common < Fields.size() && Common < Path.size() &&
             Fields[Common] == Path[Common])
        ++Common;
      if (Common == Fields.size() && Common <= Path.size()) {
        // The path or an object around it is set whole.
        Value = RHS;
        ValueFields = Fields;
        continue;
      }
      if (Common == Path.size())
        return nullptr; // Part of the path's value changes.
      if (!mentionsField(RHS, Path.front()))
        continue;
      return nullptr;
    }
    if (!S || mentionsField(S, Path.front()))
      return nullptr;
  }
  if (!Value || ValueFields.size() != Path.size())
    return nullptr; // Set whole (`cfg = {};`) and not since.
  const Expr *Base = nullptr;
  llvm::SmallVector<const FieldDecl *, 4> Read;
  if (!memberChain(Value, Base, Read))
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Base);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  if (!Param || Param->getDeclContext() != Ctor ||
      Param->getFunctionScopeIndex() >= Construct->getNumArgs())
    return nullptr;
  Path.assign(Read.begin(), Read.end());
  return Construct->getArg(Param->getFunctionScopeIndex());
}

/// Whether \p S names \p VD outside \p At.
bool namedOutside(const Stmt *S, const VarDecl *VD, const Stmt *At) {
  if (S == At)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S); Ref && Ref->getDecl() == VD)
    return true;
  for (const Stmt *Child : S->children())
    if (Child && namedOutside(Child, VD, At))
      return true;
  return false;
}

/// Follows \p E (with the members \p Path of it) back through locals and
/// constructions in \p Function to a value with no members left to read,
/// or to a parameter of \p Function (\p Param is set, null returned).
const Expr *followValue(const Expr *E,
                        llvm::SmallVectorImpl<const FieldDecl *> &Path,
                        const Stmt *At, HostValues &Values,
                        const FunctionDecl *Function, int &Param) {
  for (unsigned Depth = 0; E && Depth < 12; ++Depth) {
    const Expr *Base = nullptr;
    llvm::SmallVector<const FieldDecl *, 4> Fields;
    if (!memberChain(E, Base, Fields))
      return nullptr;
    Path.insert(Path.begin(), Fields.begin(), Fields.end());
    E = Base;
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(Ref->getDecl());
      if (const auto *P = dyn_cast_or_null<ParmVarDecl>(VD)) {
        if (P->getDeclContext() != Function)
          return nullptr;
        Param = P->getFunctionScopeIndex();
        return nullptr;
      }
      if (Path.empty())
        return E;
      if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType())
        return nullptr;
      E = Values.reachingValue(VD, At);
      // A local built only to be given to the launch (`&config.cfg`): its
      // address taken there changes nothing before the launch reads it.
      if (!E && VD->getInit() && Function->getBody() &&
          !namedOutside(Function->getBody(), VD, At))
        E = VD->getInit();
      continue;
    }
    if (Path.empty())
      return E;
    const auto *Construct = dyn_cast<CXXConstructExpr>(E);
    if (!Construct)
      return nullptr;
    E = memberFromArgument(Construct, Path);
  }
  return nullptr;
}

/// The field \p Name of the record \p T points to.
const FieldDecl *pointeeField(QualType T, llvm::StringRef Name) {
  const auto *Record =
      T->isPointerType() ? T->getPointeeType()->getAsRecordDecl() : nullptr;
  if (!Record)
    return nullptr;
  for (const FieldDecl *Field : Record->fields())
    if (Field->getIdentifier() && Field->getName() == Name)
      return Field;
  return nullptr;
}

/// The callee the launch API call \p CE launches (its argument), and its
/// block (with \p Path the members to read of it); null when \p CE is no
/// `cudaLaunchKernel` or `cudaLaunchKernelEx`.
const Expr *apiLaunch(const CallExpr *CE, const Expr *&Block,
                      llvm::SmallVectorImpl<const FieldDecl *> &Path) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier())
    return nullptr;
  llvm::StringRef Name = Callee->getName();
  if ((Name == "cudaLaunchKernel" || Name == "cudaLaunchCooperativeKernel") &&
      CE->getNumArgs() >= 3) {
    Block = CE->getArg(2);
    return CE->getArg(0);
  }
  if ((Name == "cudaLaunchKernelEx" || Name == "cudaLaunchKernelExC") &&
      CE->getNumArgs() >= 2) {
    const Expr *Config = CE->getArg(0)->IgnoreParenImpCasts();
    const FieldDecl *Field = pointeeField(Config->getType(), "blockDim");
    const auto *Address = dyn_cast<UnaryOperator>(Config);
    if (!Field || !Address || Address->getOpcode() != UO_AddrOf) {
      Block = nullptr; // A launch whose block cannot be read.
      return CE->getArg(1);
    }
    Block = Address->getSubExpr();
    Path.assign(1, Field);
    return CE->getArg(1);
  }
  return nullptr;
}

/// Whether \p E names \p Wanted (a function, through casts and `&`).
bool namesFunction(const Expr *E, const FunctionDecl *Wanted) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *FD = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
  return FD && FD->getCanonicalDecl() == Wanted;
}

/// Whether \p Block's x extent at \p At is a constant multiple of 32.
bool warpRows(const Expr *Block, const Stmt *At, HostValues &Values) {
  const Expr *X = Block ? blockDimension(Block, 0, At, Values) : nullptr;
  std::optional<std::int64_t> Value = X ? Values.evaluate(X, At) : std::nullopt;
  return Value && *Value > 0 && *Value % 32 == 0;
}

} // namespace

bool launchesHaveWarpRows(const FunctionDecl *Kernel,
                          llvm::ArrayRef<const FunctionDecl *> Launchers,
                          ASTContext &Context) {
  const FunctionDecl *Wanted = Kernel->getCanonicalDecl();
  bool Any = false, All = true;
  for (const FunctionDecl *Caller : Launchers) {
    std::optional<HostValues> Values;
    auto Here = [&]() -> HostValues & {
      if (!Values)
        Values.emplace(Caller, Context);
      return *Values;
    };
    // A block read where the kernel is launched, in the caller.
    auto Check = [&](const Expr *Block,
                     llvm::SmallVectorImpl<const FieldDecl *> &Path,
                     const Stmt *At) {
      int Param = -1;
      const Expr *Value =
          Block ? followValue(Block, Path, At, Here(), Caller, Param) : nullptr;
      if (!Value || !warpRows(Value, At, Here()))
        All = false;
    };
    // The launches a function the kernel is passed to makes of parameter
    // \p Index, with a block read from its parameters: checked with the
    // arguments of \p Call.
    auto CheckWrapper = [&](const CallExpr *Call, const FunctionDecl *Wrapper,
                            unsigned Index) {
      const FunctionDecl *Definition = nullptr;
      if (!Wrapper->hasBody(Definition) || Index >= Definition->getNumParams())
        return;
      const ParmVarDecl *Pointer = Definition->getParamDecl(Index);
      std::optional<HostValues> Inner;
      auto Launched = [&](const Expr *Callee, const Expr *Block,
                          llvm::SmallVectorImpl<const FieldDecl *> &Path,
                          const Stmt *At) {
        const auto *Ref = dyn_cast<DeclRefExpr>(Callee->IgnoreParenCasts());
        if (!Ref || Ref->getDecl() != Pointer)
          return;
        Any = true;
        if (!Inner)
          Inner.emplace(Definition, Context);
        int Param = -1;
        const Expr *Value =
            Block ? followValue(Block, Path, At, *Inner, Definition, Param)
                  : nullptr;
        if (Value) {
          if (!warpRows(Value, At, *Inner))
            All = false;
          return;
        }
        if (Param < 0 || unsigned(Param) >= Call->getNumArgs()) {
          All = false;
          return;
        }
        Check(Call->getArg(Param), Path, Call);
      };
      forEachLaunch(
          Definition,
          [&](const CUDAKernelCallExpr *Launch) {
            llvm::SmallVector<const FieldDecl *, 4> Path;
            Launched(Launch->getCallee(),
                     Launch->getConfig()->getNumArgs() > 1
                         ? Launch->getConfig()->getArg(1)
                         : nullptr,
                     Path, Launch);
          },
          [&](const CallExpr *CE) {
            const Expr *Block = nullptr;
            llvm::SmallVector<const FieldDecl *, 4> Path;
            if (const Expr *Callee = apiLaunch(CE, Block, Path))
              Launched(Callee, Block, Path, CE);
          });
    };
    forEachLaunch(
        Caller,
        [&](const CUDAKernelCallExpr *Launch) {
          const FunctionDecl *Target = Launch->getDirectCallee();
          if (!Target || Target->getCanonicalDecl() != Wanted)
            return;
          Any = true;
          llvm::SmallVector<const FieldDecl *, 4> Path;
          Check(Launch->getConfig()->getNumArgs() > 1
                    ? Launch->getConfig()->getArg(1)
                    : nullptr,
                Path, Launch);
        },
        [&](const CallExpr *CE) {
          const Expr *Block = nullptr;
          llvm::SmallVector<const FieldDecl *, 4> Path;
          if (const Expr *Callee = apiLaunch(CE, Block, Path)) {
            if (namesFunction(Callee, Wanted)) {
              Any = true;
              Check(Block, Path, CE);
            }
            return;
          }
          const FunctionDecl *Wrapper = CE->getDirectCallee();
          for (unsigned I = 0; I < CE->getNumArgs(); ++I)
            if (namesFunction(CE->getArg(I), Wanted) && Wrapper &&
                !isa<CXXMethodDecl>(Wrapper))
              CheckWrapper(CE, Wrapper, I);
        });
    if (!All)
      return false;
  }
  return Any && All;
}

void KernelLaunches::registerMatchers(
    ast_matchers::MatchFinder *Finder,
    ast_matchers::MatchFinder::MatchCallback *Check) {
  using namespace ast_matchers;
  Finder->addMatcher(functionDecl(isDefinition(), hasAttr(attr::CUDAGlobal),
                                  unless(isExpansionInSystemHeader()))
                         .bind("kernel"),
                     Check);
  Finder->addMatcher(functionDecl(isDefinition(),
                                  unless(hasAttr(attr::CUDAGlobal)),
                                  unless(isExpansionInSystemHeader()))
                         .bind("host"),
                     Check);
}

void KernelLaunches::collect(
    const ast_matchers::MatchFinder::MatchResult &Result) {
  if (Result.Context->getDiagnostics().hasUncompilableErrorOccurred())
    return;
  if (const auto *Host = Result.Nodes.getNodeAs<FunctionDecl>("host")) {
    if (!Host->isDependentContext()) {
      std::optional<HostValues> Values;
      forEachLaunch(
          Host,
          [&](const CUDAKernelCallExpr *Launch) {
            if (!Values)
              Values.emplace(Host, *Result.Context);
            addLaunch(Launch, Host, *Values);
          },
          [&](const CallExpr *Call) { addCall(Call, Host); });
    }
    return;
  }
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (Kernel && !Kernel->isDependentContext() && !Kernel->isInvalidDecl()) {
    addKernel(Kernel);
    // A launch from device code is a launch too, whose arguments the
    // relations of the host's launches do not describe.
    forEachLaunch(Kernel, [&](const CUDAKernelCallExpr *Launch) {
      if (const FunctionDecl *Child = Launch->getDirectCallee())
        dropRelations(definitionOf(Child));
    });
  }
}

} // namespace clang::tidy::cuda_tidy
