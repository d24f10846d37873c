//===--- LaunchModel.cpp - The launches of a program's kernels ------------===//
//
// See LaunchModel.h for the design. Following a block through the members
// that hold it, and the barrier check's questions, are in LaunchExtents.cpp.
//
//===----------------------------------------------------------------------===//

#include "model/LaunchModel.h"
#include "analysis/BlockShapeInference.h"
#include "model/LaunchSites.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/Support/Path.h"

namespace clang::cuda_tidy {

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
    if (const FunctionDecl *Kernel = kernelNamed(E))
      Kernels.push_back(Kernel);
  }

  /// The kernels \p Pointer, a local of \p Function, is initialised or set
  /// to, in that order.
  static llvm::SmallVector<const FunctionDecl *, 4>
  of(const VarDecl *Pointer, const FunctionDecl *Function) {
    PointerTargets Finder(Pointer);
    if (Pointer->getInit())
      Finder.add(Pointer->getInit());
    Finder.TraverseStmt(const_cast<Stmt *>(Function->getBody()));
    return Finder.Kernels;
  }

private:
  const VarDecl *Pointer;
};

/// The local function pointer \p E names (through `&` and casts), if any.
const VarDecl *localPointer(const Expr *E, const FunctionDecl *Function) {
  E = E->IgnoreParenCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(E);
      UO && UO->getOpcode() == UO_AddrOf)
    E = UO->getSubExpr()->IgnoreParenCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(E);
  const auto *Pointer = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!Pointer || !Pointer->hasLocalStorage() || !Function->getBody())
    return nullptr;
  return Pointer;
}

const Expr *withDefault(const Expr *E) {
  if (const auto *Default = dyn_cast_or_null<CXXDefaultArgExpr>(E))
    return Default->getExpr();
  return E;
}

/// `cfg.Member = Value;` before \p Before in \p Body: the last such value.
class MemberAssignments : public RecursiveASTVisitor<MemberAssignments> {
public:
  MemberAssignments(const VarDecl *Config, llvm::StringRef Member,
                    SourceLocation Before, const SourceManager &SM)
      : Config(Config), Member(Member), Before(Before), SM(SM) {}
  const Expr *Value = nullptr;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() == BO_Assign)
      assigned(BO->getLHS(), BO->getRHS(), BO->getBeginLoc());
    return true;
  }
  // `config.blockDim = dim3(128);` assigns a class: an operator call.
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
      assigned(OCE->getArg(0), OCE->getArg(1), OCE->getBeginLoc());
    return true;
  }

  /// The last value \p Config's \p Member is assigned in \p Function's body
  /// before \p Before.
  static const Expr *last(const VarDecl *Config, llvm::StringRef Member,
                          const Expr *Before, const FunctionDecl *Function) {
    MemberAssignments Finder(Config, Member, Before->getBeginLoc(),
                             Function->getASTContext().getSourceManager());
    Finder.TraverseStmt(const_cast<Stmt *>(Function->getBody()));
    return Finder.Value;
  }

private:
  void assigned(const Expr *LHS, const Expr *RHS, SourceLocation Loc) {
    if (!SM.isBeforeInTranslationUnit(Loc, Before))
      return;
    const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
    if (!ME || ME->getMemberDecl()->getName() != Member)
      return;
    const auto *Base =
        dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
    if (Base && Base->getDecl() == Config)
      Value = RHS;
  }

  const VarDecl *Config;
  llvm::StringRef Member;
  SourceLocation Before;
  const SourceManager &SM;
};

/// The configuration variable a cudaLaunchKernelEx call is given
/// (`&config`), if it names one.
const VarDecl *configVariable(const CallExpr *Call) {
  const Expr *Config = Call->getArg(0)->IgnoreParenImpCasts();
  if (const auto *UO = dyn_cast<UnaryOperator>(Config))
    Config = UO->getSubExpr()->IgnoreParenImpCasts();
  const auto *Ref = dyn_cast<DeclRefExpr>(Config);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// Reads a cudaFuncSetAttribute call that sets the dynamic shared memory
/// limit of kernels defined in the unit: the kernel named, or each kernel
/// a local function pointer of \p Caller is set to (`auto fn = k<T>;
/// cudaFuncSetAttribute(fn, ...); fn<<<g, b, bytes>>>(...)`, CUTLASS's
/// attention examples), as the launches through it are read.
llvm::SmallVector<SharedSizeAttribute, 1>
readSharedSizeAttributes(const CallExpr *CE, const FunctionDecl *Caller) {
  llvm::SmallVector<SharedSizeAttribute, 1> Found;
  const FunctionDecl *Callee = CE->getDirectCallee();
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "cudaFuncSetAttribute" || CE->getNumArgs() != 3)
    return Found;
  const auto *Attr =
      dyn_cast<DeclRefExpr>(CE->getArg(1)->IgnoreParenImpCasts());
  if (!Attr || !Attr->getDecl()->getIdentifier() ||
      Attr->getDecl()->getName() !=
          "cudaFuncAttributeMaxDynamicSharedMemorySize")
    return Found;
  llvm::SmallVector<const FunctionDecl *, 4> Kernels;
  if (const FunctionDecl *Named = kernelNamed(CE->getArg(0)))
    Kernels.push_back(Named);
  else if (const VarDecl *Pointer = localPointer(CE->getArg(0), Caller))
    Kernels = PointerTargets::of(Pointer, Caller);
  for (const FunctionDecl *Kernel : Kernels)
    if (Kernel && Kernel->hasBody())
      Found.push_back({CE, Kernel, CE->getArg(2)});
  return Found;
}

} // namespace

LaunchModel::LaunchModel(ASTContext &Context) : Context(Context) {}

LaunchModel::~LaunchModel() = default;

void LaunchModel::registerMatchers(
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

void LaunchModel::collect(
    const ast_matchers::MatchFinder::MatchResult &Result) {
  if (Result.Context->getDiagnostics().hasUncompilableErrorOccurred())
    return;
  const auto *Function = Result.Nodes.getNodeAs<FunctionDecl>("host");
  const auto *Kernel = Result.Nodes.getNodeAs<FunctionDecl>("kernel");
  if (Function && !Function->isDependentContext() && !Function->isInvalidDecl())
    addFunction(Function);
  if (Kernel && !Kernel->isDependentContext() && !Kernel->isInvalidDecl())
    addKernel(Kernel);
}

void LaunchModel::addKernel(const FunctionDecl *Kernel) {
  Kernels.push_back(Kernel);
}

void LaunchModel::addFunction(const FunctionDecl *Function) {
  Functions.push_back(Function);
}

llvm::ArrayRef<LaunchModel::Site>
LaunchModel::sitesOf(const FunctionDecl *Function) {
  auto [It, Inserted] = Sites.try_emplace(Function);
  std::vector<Site> &Found = It->second;
  if (Inserted)
    forEachCall(Function, [&](const CallExpr *Call) {
      if (isa<CUDAKernelCallExpr>(Call)) {
        Found.push_back({Call, LaunchKind::Chevron});
        return;
      }
      std::optional<LaunchKind> Kind = apiLaunchKind(Call);
      if (Kind || handsFunctionOn(Call))
        Found.push_back({Call, Kind});
    });
  return Found;
}

HostValues &LaunchModel::valuesIn(const FunctionDecl *Function) {
  auto &Slot = Values[Function];
  if (!Slot)
    Slot = std::make_unique<HostValues>(Function, Context);
  return *Slot;
}

std::string LaunchModel::where(const Expr *E) const {
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(E->getBeginLoc());
  OptionalFileEntryRef File = SM.getFileEntryRefForID(SM.getFileID(At));
  if (!File)
    return "";
  return llvm::sys::path::filename(File->getName()).str() + ":" +
         std::to_string(SM.getExpansionLineNumber(At));
}

void LaunchModel::resolve(const ProgramLaunches *Index) {
  if (Resolved)
    return;
  Resolved = true;
  resolveLaunches();
  resolveHelperLaunches();
  if (Index)
    addIndexed(*Index);
}

void LaunchModel::resolveLaunches() {
  if (LaunchesResolved)
    return;
  LaunchesResolved = true;
  // A launch from device code is a launch too, whose arguments the
  // relations of the host's launches do not describe.
  for (const FunctionDecl *Kernel : Kernels)
    for (const Site &S : sitesOf(Kernel))
      if (S.Launch == LaunchKind::Chevron)
        if (const FunctionDecl *Child =
                chevronKernel(cast<CUDAKernelCallExpr>(S.Call)))
          dropRelations(Child);
  for (const FunctionDecl *Caller : Functions)
    for (const Site &S : sitesOf(Caller)) {
      if (S.Launch == LaunchKind::Chevron) {
        resolveChevron(cast<CUDAKernelCallExpr>(S.Call), Caller);
        continue;
      }
      if (S.Launch)
        resolveApiLaunch(S.Call, *S.Launch, Caller);
      else
        for (const SharedSizeAttribute &Attribute :
             readSharedSizeAttributes(S.Call, Caller))
          SizeAttributes.push_back(Attribute);
      readHandOff(S.Call);
      // A call that may hand a kernel to a launch helper.
      if (!isa<CXXOperatorCallExpr, CXXMemberCallExpr>(S.Call) &&
          S.Call->getDirectCallee() &&
          llvm::any_of(S.Call->arguments(), [](const Expr *Arg) {
            return Arg->getType()->isFunctionPointerType();
          }))
        PointerCalls.push_back({S.Call, Caller});
    }
}

void LaunchModel::readHandOff(const CallExpr *Call) {
  // A kernel handed to a call (a launch helper, cudaLaunchKernel) may be
  // launched with arguments no relation describes.
  for (const Expr *Arg : Call->arguments())
    if (const FunctionDecl *Kernel = kernelNamed(Arg))
      dropRelations(Kernel);
}

void LaunchModel::resolveChevron(const CUDAKernelCallExpr *Launch,
                                 const FunctionDecl *Caller) {
  const CallExpr *Config = Launch->getConfig();
  KernelLaunch Base;
  Base.Kind = LaunchKind::Chevron;
  Base.Call = Launch;
  Base.Caller = Caller;
  Base.From = where(Launch);
  Base.Grid = Config->getNumArgs() > 0 ? Config->getArg(0) : nullptr;
  Base.Block = Config->getNumArgs() > 1 ? Config->getArg(1) : nullptr;
  Base.Bytes =
      Config->getNumArgs() > 2 ? withDefault(Config->getArg(2)) : nullptr;
  Base.Args.append(Launch->arg_begin(), Launch->arg_end());
  Base.ArgsKnown = true;

  llvm::SmallVector<const FunctionDecl *, 4> Targets;
  if (const FunctionDecl *Kernel = chevronKernel(Launch)) {
    Targets.push_back(Kernel);
  } else if (std::optional<unsigned> Parameter =
                 kernelParameter(Launch->getCallee(), Caller)) {
    // A launch helper: the kernel and perhaps the block come from its
    // callers (resolveHelperLaunches).
    addHelperLaunch(Base, *Parameter);
    return;
  } else if (const VarDecl *Pointer =
                 localPointer(Launch->getCallee(), Caller)) {
    Targets = PointerTargets::of(Pointer, Caller);
    Base.Route = LaunchRoute::LocalPointer;
    if (Targets.empty())
      Unnamed.push_back({Launch, nullptr,
                         "the local pointer '" + Pointer->getNameAsString() +
                             "' is set to no kernel in '" +
                             Caller->getNameAsString() + "'"});
  } else {
    Unnamed.push_back({Launch, nullptr,
                       "the launched kernel is neither named nor a local "
                       "pointer or parameter of the launching function"});
  }
  if (Targets.empty())
    return;
  HostValues &Here = valuesIn(Caller);
  // A launch on a branch's edge that the branch's known condition rules
  // out never runs: it is no launch of the kernel.
  if (!Here.reachable(Launch))
    return;
  // One launch, evaluated once for all the kernels it may launch.
  llvm::SmallVector<const FieldDecl *, 2> Path;
  std::optional<unsigned> Param;
  std::optional<BlockShape> Shape =
      readBlock(Base.Block, Path, Launch, Caller, Param);
  Base.ConstantBytes = Base.Bytes ? Here.evaluate(Base.Bytes, Launch)
                                  : std::optional<std::int64_t>(0);
  if (!Shape)
    Base.Unresolved =
        Base.Block ? Here.whyUnknown(Base.Block, Launch) : "it passes no block";
  for (const FunctionDecl *Kernel : Targets) {
    KernelLaunch L = Base;
    L.Kernel = Kernel;
    L.Shape = Shape;
    // The integer arguments whose values reach the launch as constants.
    if (L.Shape && !L.From.empty()) {
      for (unsigned I = 0;
           I < Launch->getNumArgs() && I < Kernel->getNumParams(); ++I) {
        const ParmVarDecl *Param = Kernel->getParamDecl(I);
        if (!Param->getType()->isIntegralOrEnumerationType())
          continue;
        if (std::optional<std::int64_t> Value =
                Here.evaluate(Launch->getArg(I), Launch))
          L.Shape->Arguments.push_back({Param, *Value});
      }
      L.Shape->ArgumentsFrom = L.From;
    }
    if (!L.From.empty())
      L.Relations = launchRelations(Kernel, Launch, L.From, Context);
    add(std::move(L));
  }
}

void LaunchModel::resolveApiLaunch(const CallExpr *Call, LaunchKind Kind,
                                   const FunctionDecl *Caller) {
  KernelLaunch L;
  L.Kind = Kind;
  L.Call = Call;
  L.Caller = Caller;
  L.From = where(Call);
  L.Kernel = kernelNamed(apiKernelArgument(Call, Kind));
  std::optional<unsigned> KernelParameter =
      L.Kernel ? std::nullopt
               : kernelParameter(apiKernelArgument(Call, Kind), Caller);
  if (!L.Kernel && !KernelParameter) {
    Unnamed.push_back(
        {Call, nullptr, "the launched kernel is not named at the call"});
    return;
  }
  if (Kind == LaunchKind::LaunchKernel ||
      Kind == LaunchKind::CooperativeKernel) {
    L.Grid = Call->getArg(1);
    L.Block = Call->getArg(2);
    if (Call->getNumArgs() > 4)
      L.Bytes = withDefault(Call->getArg(4));
  } else if (const VarDecl *Config = configVariable(Call)) {
    L.Grid = MemberAssignments::last(Config, "gridDim", Call, Caller);
    L.Block = MemberAssignments::last(Config, "blockDim", Call, Caller);
    L.Bytes = MemberAssignments::last(Config, "dynamicSmemBytes", Call, Caller);
    if (!L.Block)
      L.Unresolved = "'" + Config->getNameAsString() +
                     ".blockDim' is not assigned before the launch";
  } else {
    L.Unresolved = "its configuration is not a variable";
  }
  // The C++ cudaLaunchKernelEx passes the kernel's arguments one by one,
  // whatever its configuration is (ggml's `&pdl_cfg.cfg`).
  if (Kind == LaunchKind::LaunchKernelEx) {
    L.Args.append(Call->arg_begin() + 2, Call->arg_end());
    L.ArgsKnown = true;
  }
  if (KernelParameter) {
    // A launch helper's, as for a `<<<...>>>` launch of a parameter.
    addHelperLaunch(L, *KernelParameter);
    return;
  }
  HostValues &Here = valuesIn(Caller);
  if (!Here.reachable(Call))
    return;
  L.ConstantBytes =
      L.Bytes ? Here.evaluate(L.Bytes, Call) : std::optional<std::int64_t>(0);
  if (L.Block) {
    llvm::SmallVector<const FieldDecl *, 2> Path;
    std::optional<unsigned> Param;
    L.Shape = readBlock(L.Block, Path, Call, Caller, Param);
    if (!L.Shape)
      L.Unresolved = Here.whyUnknown(L.Block, Call);
  }
  add(std::move(L));
}

void LaunchModel::addHelperLaunch(const KernelLaunch &Written,
                                  unsigned KernelParameter) {
  HelperLaunch Helper;
  Helper.Helper = definitionOf(Written.Caller);
  Helper.KernelParameter = KernelParameter;
  Helper.Written = Written;
  // The arguments are the helper's own: no relation or value of them
  // describes the kernel's parameters.
  Helper.Written.HelperArgs = Written.Args;
  Helper.Written.Args.clear();
  Helper.Written.ArgsKnown = false;
  HostValues &Here = valuesIn(Written.Caller);
  if (Written.Block) {
    Helper.Shape = readBlock(Written.Block, Helper.BlockPath, Written.Call,
                             Written.Caller, Helper.BlockParameter);
    if (!Helper.Shape && !Helper.BlockParameter)
      Helper.Why = Here.whyUnknown(Written.Block, Written.Call);
  } else {
    Helper.Why =
        Written.Unresolved.empty() ? "it passes no block" : Written.Unresolved;
  }
  Helper.ConstantBytes = Written.Bytes
                             ? Here.evaluate(Written.Bytes, Written.Call)
                             : std::optional<std::int64_t>(0);
  if (!Helper.ConstantBytes)
    Helper.BytesParameter = parameterNamed(Written.Bytes, Written.Caller);
  HelperLaunches.push_back(std::move(Helper));
}

void LaunchModel::resolveHelperLaunches() {
  // Helpers found while resolving (a caller passing on its own parameter)
  // are appended and resolved in turn.
  for (size_t I = 0; I < HelperLaunches.size(); ++I) {
    const HelperLaunch Launch = HelperLaunches[I];
    for (const auto &[Call, Caller] : PointerCalls) {
      if (definitionOf(Call->getDirectCallee()) != Launch.Helper ||
          Launch.KernelParameter >= Call->getNumArgs())
        continue;
      HelperLaunch Outer = Launch;
      Outer.Helper = Caller;
      Outer.Depth = Launch.Depth + 1;
      Outer.BlockParameter.reset();
      if (!Launch.Shape && Launch.BlockParameter) {
        const Expr *Block = *Launch.BlockParameter < Call->getNumArgs()
                                ? Call->getArg(*Launch.BlockParameter)
                                : nullptr;
        Outer.Shape = readBlock(Block, Outer.BlockPath, Call, Caller,
                                Outer.BlockParameter);
        if (!Outer.Shape && !Outer.BlockParameter)
          Outer.Why = Block ? valuesIn(Caller).whyUnknown(Block, Call)
                            : "the helper's call passes no block";
      }
      Outer.BytesParameter.reset();
      if (!Launch.ConstantBytes && Launch.BytesParameter &&
          *Launch.BytesParameter < Call->getNumArgs()) {
        const Expr *Bytes = Call->getArg(*Launch.BytesParameter);
        Outer.ConstantBytes = valuesIn(Caller).evaluate(Bytes, Call);
        if (!Outer.ConstantBytes)
          Outer.BytesParameter = parameterNamed(Bytes, Caller);
      }
      const Expr *Argument = Call->getArg(Launch.KernelParameter);
      if (std::optional<unsigned> Passed = parameterNamed(Argument, Caller)) {
        Outer.KernelParameter = *Passed;
        // A helper called several times with the same parameters is one
        // helper launch of its caller.
        bool Known = llvm::any_of(HelperLaunches, [&](const HelperLaunch &H) {
          return H.Helper == Outer.Helper &&
                 H.KernelParameter == Outer.KernelParameter &&
                 H.BlockParameter == Outer.BlockParameter &&
                 H.BlockPath == Outer.BlockPath &&
                 H.Shape.has_value() == Outer.Shape.has_value() &&
                 (!H.Shape || H.Shape->Dim == Outer.Shape->Dim) &&
                 H.BytesParameter == Outer.BytesParameter &&
                 H.ConstantBytes == Outer.ConstantBytes;
        });
        if (Launch.Depth < 4 && !Known)
          HelperLaunches.push_back(Outer);
        continue;
      }
      llvm::SmallVector<const FunctionDecl *, 4> Targets;
      if (const VarDecl *Pointer = localPointer(Argument, Caller))
        Targets = PointerTargets::of(Pointer, Caller);
      else if (const FunctionDecl *Kernel = kernelNamed(Argument))
        Targets.push_back(Kernel);
      for (const FunctionDecl *Kernel : Targets) {
        KernelLaunch L = Launch.Written;
        L.Kernel = Kernel;
        L.Route = LaunchRoute::Helper;
        L.HelperCall = Call;
        L.HelperCaller = Caller;
        L.HelperFrom = where(Call);
        L.Shape = Outer.Shape;
        L.ConstantBytes = Outer.ConstantBytes;
        if (!L.Shape)
          L.Unresolved = Outer.BlockParameter
                             ? valuesIn(Caller).whyUnknown(
                                   Call->getArg(*Launch.BlockParameter), Call)
                             : Outer.Why;
        add(std::move(L));
      }
    }
  }
  HelperLaunches.clear();
}

void LaunchModel::addIndexed(const ProgramLaunches &Index) {
  llvm::StringRef MainFile = mainFileName(Context.getSourceManager());
  for (const FunctionDecl *Kernel : Kernels)
    for (const IndexedLaunch *Indexed :
         Index.launchesOf(kernelKey(Kernel), MainFile)) {
      KernelLaunch L;
      L.Kernel = Kernel;
      L.Route = LaunchRoute::OtherFile;
      L.From = Indexed->where();
      L.Shape = Indexed->Block;
      L.ConstantBytes = Indexed->Bytes;
      if (L.Shape)
        L.Shape->Origin = "launched in " + L.From;
      else
        L.Unresolved = "the launch index holds no constant block for it";
      add(std::move(L));
    }
}

void LaunchModel::add(KernelLaunch Launch) {
  KernelFacts &Known = Facts[Launch.Kernel];
  Known.Launches.push_back(Launches.size());
  switch (Launch.Route) {
  case LaunchRoute::Named:
  case LaunchRoute::LocalPointer:
    addShape(Known, Launch);
    // An API launch passes its arguments through a buffer or a pack that
    // no relation is read from.
    if (Launch.Kind == LaunchKind::Chevron)
      addRelations(Known, Launch);
    else
      Known.RelationsKnown = false;
    break;
  case LaunchRoute::Helper:
    addShape(Known, Launch);
    Known.RelationsKnown = false;
    break;
  case LaunchRoute::OtherFile:
    // The index holds no arguments: another file's launch may pass
    // anything.
    Known.RelationsKnown = false;
    break;
  }
  Launches.push_back(std::move(Launch));
}

void LaunchModel::addShape(KernelFacts &Known, const KernelLaunch &Launch) {
  const std::optional<BlockShape> &Shape = Launch.Shape;
  if (!Shape) {
    Known.AnyUnknownShape = true;
    return;
  }
  auto Same = llvm::find_if(Known.Shapes, [&](const BlockShape &Other) {
    return Other.Dim == Shape->Dim;
  });
  if (Same != Known.Shapes.end()) {
    // Only values every launch of the shape passes stay bound.
    llvm::erase_if(Same->Arguments, [&](const auto &Argument) {
      return Shape->argument(Argument.first) != Argument.second;
    });
    return;
  }
  if (Known.Shapes.size() < 4)
    Known.Shapes.push_back(*Shape);
}

void LaunchModel::addRelations(KernelFacts &Known, const KernelLaunch &Launch) {
  if (!Known.Launched) {
    Known.Launched = true;
    Known.Relations = Launch.Relations;
    return;
  }
  // Only a relation every launch gives stays.
  llvm::erase_if(Known.Relations, [&](ArgumentRelation &R) {
    const auto *Same =
        llvm::find_if(Launch.Relations,
                      [&](const ArgumentRelation &F) { return F.sameForm(R); });
    if (Same == Launch.Relations.end())
      return true;
    if (!llvm::is_contained(llvm::split(R.From, ", "), Same->From))
      R.From += ", " + Same->From;
    return false;
  });
}

const LaunchModel::KernelFacts *
LaunchModel::factsOf(const FunctionDecl *Kernel) const {
  auto It = Facts.find(Kernel);
  return It == Facts.end() ? nullptr : &It->second;
}

std::vector<const KernelLaunch *>
LaunchModel::launchesOf(const FunctionDecl *Kernel) const {
  std::vector<const KernelLaunch *> Result;
  if (const KernelFacts *Known = factsOf(Kernel))
    for (unsigned I : Known->Launches)
      Result.push_back(&Launches[I]);
  return Result;
}

std::vector<const KernelLaunch *>
LaunchModel::unevaluatedLaunchesOf(const FunctionDecl *Kernel) const {
  std::vector<const KernelLaunch *> Result = launchesOf(Kernel);
  llvm::erase_if(Result, [](const KernelLaunch *L) { return L->Shape; });
  return Result;
}

std::vector<UnresolvedLaunch> LaunchModel::unresolved() const {
  std::vector<UnresolvedLaunch> Result;
  for (const KernelLaunch &L : Launches)
    if (!L.Shape)
      Result.push_back({L.Call, L.Kernel, L.Unresolved});
  Result.insert(Result.end(), Unnamed.begin(), Unnamed.end());
  return Result;
}

std::optional<BlockShape> LaunchModel::grid(const KernelLaunch &Launch) {
  if (!Launch.Grid || !Launch.Caller)
    return std::nullopt;
  return valuesIn(Launch.Caller).blockShape(Launch.Grid, Launch.Call);
}

llvm::ArrayRef<BlockShape>
LaunchModel::shapesOf(const FunctionDecl *Kernel) const {
  const KernelFacts *Known = factsOf(Kernel);
  if (!Known || Known->AnyUnknownShape)
    return {};
  return Known->Shapes;
}

llvm::SmallVector<ArgumentRelation, 1>
LaunchModel::relationsOf(const FunctionDecl *Kernel) const {
  const KernelFacts *Known = factsOf(Kernel);
  if (!Known || !Known->RelationsKnown || !Known->Launched)
    return {};
  return Known->Relations;
}

llvm::SmallVector<BlockShape, 2>
LaunchModel::shapesFor(const FunctionDecl *Kernel,
                       ThreadDependenceAnalysis &Dependence,
                       const AssumedShapes &Assumed) const {
  llvm::SmallVector<BlockShape, 2> Launched;
  const KernelFacts *Known = factsOf(Kernel);
  bool AnyUnknown = Known && Known->AnyUnknownShape;
  if (Known)
    Launched.append(Known->Shapes.begin(), Known->Shapes.end());
  for (const KernelLaunch *L : launchesOf(Kernel)) {
    if (L->Route != LaunchRoute::OtherFile)
      continue;
    if (!L->Shape) {
      AnyUnknown = true;
      continue;
    }
    auto Same = llvm::find_if(Launched, [&](const BlockShape &Other) {
      return Other.Dim == L->Shape->Dim;
    });
    // The index holds no argument values: another file's launch of the
    // same shape may pass anything.
    if (Same != Launched.end())
      Same->Arguments.clear();
    else if (Launched.size() < 4)
      Launched.push_back(*L->Shape);
  }
  llvm::SmallVector<ArgumentRelation, 1> Related = relationsOf(Kernel);
  auto WithRelations = [&](llvm::ArrayRef<BlockShape> Shapes) {
    llvm::SmallVector<BlockShape, 2> Out(Shapes.begin(), Shapes.end());
    for (BlockShape &Shape : Out)
      Shape.Relations = Related;
    return Out;
  };
  // A launch whose shape is not a constant may have any shape: as before,
  // the kernel is then analysed as if no launch were known.
  if (!Launched.empty() && !AnyUnknown)
    return WithRelations(Launched);
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  if (!Deps)
    return {};
  SharedAccessCollector Collector(Dependence, *Deps);
  Collector.collect();
  return WithRelations(inferBlockShapes(Collector, Assumed));
}

std::vector<const KernelLaunch *> LaunchModel::byteCountLaunches() const {
  std::vector<const KernelLaunch *> Result;
  for (const KernelLaunch &L : Launches) {
    if (L.Route == LaunchRoute::OtherFile) {
      if (L.Shape && L.ConstantBytes)
        Result.push_back(&L);
      continue;
    }
    if (L.Block && L.Kernel->hasBody())
      Result.push_back(&L);
  }
  return Result;
}

bool LaunchModel::writeIndex(llvm::StringRef Dir) {
  resolve();
  const SourceManager &SM = Context.getSourceManager();
  llvm::StringRef MainFile = mainFileName(SM);
  if (MainFile.empty())
    return false;
  std::vector<IndexedLaunch> Seen;
  for (const KernelLaunch &L : Launches) {
    // A helper's launch is recorded where the helper is handed the kernel:
    // there its block is decided.
    bool Helper = L.Route == LaunchRoute::Helper;
    if ((Helper ? L.HelperFrom : L.From).empty())
      continue;
    SourceLocation At =
        SM.getExpansionLoc((Helper ? L.HelperCall : L.Call)->getBeginLoc());
    IndexedLaunch Indexed;
    Indexed.Kernel = kernelKey(L.Kernel);
    Indexed.Name = L.Kernel->getNameAsString();
    Indexed.File =
        SM.getFileManager()
            .getCanonicalName(*SM.getFileEntryRefForID(SM.getFileID(At)))
            .str();
    Indexed.Line = SM.getExpansionLineNumber(At);
    Indexed.Block = L.Shape;
    Indexed.Bytes = L.ConstantBytes;
    if (!Indexed.Kernel.empty())
      Seen.push_back(std::move(Indexed));
  }
  return ProgramLaunches::write(Dir, MainFile, Seen);
}

std::string
describeShapeOrigin(const BlockShape &Shape,
                    llvm::ArrayRef<const KernelLaunch *> Unevaluated) {
  if (!Shape.Assumed)
    return Shape.Origin.empty() ? "" : " (" + Shape.Origin + ")";
  std::string Why = "no launch of this kernel was found";
  if (!Unevaluated.empty()) {
    std::string At;
    for (const KernelLaunch *L : Unevaluated) {
      const std::string &From =
          L->Route == LaunchRoute::Helper ? L->HelperFrom : L->From;
      if (From.empty() || llvm::is_contained(llvm::split(At, ", "), From))
        continue;
      At += (At.empty() ? "" : ", ") + From;
    }
    bool One = Unevaluated.size() == 1 || At.find(',') == std::string::npos;
    Why = At.empty() ? "the launches of this kernel have no constant block"
          : One ? "the block of the launch at " + At + " is not a constant"
                : "the blocks of the launches at " + At + " are not constants";
  }
  if (Shape.Origin.empty())
    return " (assumed: " + Why + ")";
  return " (assumed " + Shape.Origin + ": " + Why + ")";
}

} // namespace clang::cuda_tidy
