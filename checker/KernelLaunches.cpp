//===--- KernelLaunches.cpp - Kernels and their launch shapes -------------===//

#include "KernelLaunches.h"
#include "analysis/BlockShapeInference.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

namespace {

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
    E = E->IgnoreParenCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      if (UO->getOpcode() == UO_AddrOf)
        E = UO->getSubExpr()->IgnoreParenCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      if (const auto *FD = dyn_cast<FunctionDecl>(Ref->getDecl()))
        if (FD->hasAttr<CUDAGlobalAttr>())
          Kernels.push_back(FD->getDefinition() ? FD->getDefinition() : FD);
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

} // namespace

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
  auto Same = llvm::find_if(Known, [&](const BlockShape &Other) {
    return Other.Dim == Shape->Dim;
  });
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
      for (const FunctionDecl *Kernel : Targets.Kernels)
        addShape(Kernel, Shape, Shape);
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
  if (auto It = Shapes.find(Kernel); It != Shapes.end())
    Launched.append(It->second.begin(), It->second.end());
  if (Index) {
    const SourceManager &SM = Dependence.getContext().getSourceManager();
    OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
    llvm::StringRef MainFile =
        Main ? SM.getFileManager().getCanonicalName(*Main) : "";
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
    return Launched;
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  if (!Deps)
    return {};
  SharedAccessCollector Collector(Dependence.getContext(), *Deps);
  Collector.collect();
  return inferBlockShapes(Collector, Assumed);
}

bool KernelLaunches::writeIndex(llvm::StringRef Dir,
                                ASTContext &Context) const {
  const SourceManager &SM = Context.getSourceManager();
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  if (!Main)
    return false;
  return ProgramLaunches::write(
      Dir, SM.getFileManager().getCanonicalName(*Main), Seen);
}

std::string describeShapeOrigin(const BlockShape &Shape) {
  if (!Shape.Assumed)
    return Shape.Origin.empty() ? "" : " (" + Shape.Origin + ")";
  if (Shape.Origin.empty())
    return " (assumed: no launch of this kernel was found)";
  return " (assumed " + Shape.Origin + ": no launch of this kernel was found)";
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

std::optional<BlockShape> parseBlockShape(llvm::StringRef Text) {
  BlockShape Shape;
  Shape.Assumed = true;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  for (unsigned I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, Shape.Dim[I]) || Shape.Dim[I] <= 0)
      return std::nullopt;
  if (Shape.threads() > 1024)
    return std::nullopt;
  return Shape;
}

const char *const AssumedOptionNames[] = {
    "AssumedBlockSize", "AssumedBlockSize2D", "AssumedBlockSize3D"};

} // namespace

std::optional<std::vector<BlockShape>> parseBlockShapes(llvm::StringRef Text) {
  std::vector<BlockShape> Shapes;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    auto Shape = parseBlockShape(Part);
    if (!Shape)
      return std::nullopt;
    Shapes.push_back(*Shape);
  }
  if (Shapes.empty())
    return std::nullopt;
  return Shapes;
}

AssumedBlockSizeOptions::AssumedBlockSizeOptions(
    ClangTidyCheck::OptionsView &Options, llvm::StringRef Default1D,
    llvm::StringRef Default2D, llvm::StringRef Default3D)
    : Defaults{Default1D.str(), Default2D.str(), Default3D.str()} {
  for (unsigned I = 0; I < 3; ++I)
    Texts[I] = Options.get(AssumedOptionNames[I], Defaults[I]);
}

void AssumedBlockSizeOptions::store(ClangTidyCheck::OptionsView &Options,
                                    ClangTidyOptions::OptionMap &Opts) const {
  for (unsigned I = 0; I < 3; ++I)
    Options.store(Opts, AssumedOptionNames[I], Texts[I]);
}

AssumedShapes AssumedBlockSizeOptions::shapes(
    llvm::function_ref<void(llvm::StringRef, llvm::StringRef)> Invalid) const {
  AssumedShapes Shapes;
  for (unsigned I = 0; I < 3; ++I) {
    auto Parsed = parseBlockShapes(Texts[I]);
    if (!Parsed) {
      Invalid(AssumedOptionNames[I], Texts[I]);
      Parsed = parseBlockShapes(Defaults[I]);
    }
    Shapes[I] = *Parsed;
  }
  return Shapes;
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
  if (Kernel && !Kernel->isDependentContext() && !Kernel->isInvalidDecl())
    addKernel(Kernel);
}

} // namespace clang::tidy::cuda_tidy
