//===--- LaunchExtents.cpp - The block extents a launch gives ------------===//
//
// The launch model's reading of a block through the members that hold it
// (LaunchModel::readBlock: a struct's member, set by its aggregate
// initialiser or copied by its constructor from the caller's values), and
// the barrier check's two questions (LaunchModel.h): whether every launch of
// a kernel gives it warps of one row, and whether every launch's block is
// exactly an early exit's bound. Both ask of each resolved launch, and read
// one dimension of the block where the whole shape is not known, following
// it through the launching function's locals (HostValues.h).
//
//===----------------------------------------------------------------------===//

#include "model/LaunchModel.h"
#include "model/LaunchSites.h"

namespace clang::cuda_tidy {

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
                                 HostValues &Values) {
  const auto *Ref =
      E ? dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts()) : nullptr;
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || VD->getType()->isReferenceType() ||
      !Caller->getBody())
    return nullptr;
  return Values.mayChange(VD) ? nullptr : VD;
}

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
    // An aggregate's member is its initialiser (`Params p{dim3(64, 4)}`),
    // at the field's index when no base or union shifts it.
    if (const auto *List = dyn_cast<InitListExpr>(E)) {
      const FieldDecl *Field = Path.front();
      const CXXRecordDecl *Record = List->getType()->getAsCXXRecordDecl();
      Record = Record ? Record->getDefinition() : nullptr;
      if (!Record || Record->isUnion() || Record->getNumBases() ||
          Field->getParent()->getCanonicalDecl() !=
              Record->getCanonicalDecl() ||
          Field->getFieldIndex() >= List->getNumInits())
        return nullptr;
      E = List->getInit(Field->getFieldIndex());
      Path.erase(Path.begin());
      continue;
    }
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

/// The block of the launch API call \p Call of kind \p Kind, with \p Path
/// the members to read of it; null when it cannot be read.
const Expr *apiBlock(const CallExpr *Call, LaunchKind Kind,
                     llvm::SmallVectorImpl<const FieldDecl *> &Path) {
  if (Kind == LaunchKind::LaunchKernel || Kind == LaunchKind::CooperativeKernel)
    return Call->getArg(2);
  const Expr *Config = Call->getArg(0)->IgnoreParenImpCasts();
  const FieldDecl *Field = pointeeField(Config->getType(), "blockDim");
  const auto *Address = dyn_cast<UnaryOperator>(Config);
  if (!Field || !Address || Address->getOpcode() != UO_AddrOf)
    return nullptr;
  Path.assign(1, Field);
  return Address->getSubExpr();
}

/// Whether \p Block's x extent at \p At is a constant multiple of 32.
bool warpRows(const Expr *Block, const Stmt *At, HostValues &Values) {
  const Expr *X = Block ? blockDimension(Block, 0, At, Values) : nullptr;
  std::optional<std::int64_t> Value = X ? Values.evaluate(X, At) : std::nullopt;
  return Value && *Value > 0 && *Value % 32 == 0;
}

} // namespace

std::optional<BlockShape>
LaunchModel::readBlock(const Expr *Block,
                       llvm::SmallVectorImpl<const FieldDecl *> &Path,
                       const Stmt *At, const FunctionDecl *Function,
                       std::optional<unsigned> &Param) {
  Param.reset();
  if (!Block)
    return std::nullopt;
  HostValues &Values = valuesIn(Function);
  if (Path.empty())
    if (std::optional<BlockShape> Shape = Values.blockShape(Block, At))
      return Shape;
  int Parameter = -1;
  llvm::SmallVector<const FieldDecl *, 4> Members(Path.begin(), Path.end());
  const Expr *Value =
      followValue(Block, Members, At, Values, Function, Parameter);
  if (Parameter >= 0) {
    Param = Parameter;
    Path.assign(Members.begin(), Members.end());
    return std::nullopt;
  }
  if (Value && Value != Block)
    if (std::optional<BlockShape> Shape = Values.blockShape(Value, At))
      return Shape;
  // `k<<<g, n>>>` with `int n` a parameter: the dim3 built from it.
  if (Path.empty())
    Param = parameterNamed(Block, Function);
  return std::nullopt;
}

bool LaunchModel::hasWarpRows(const KernelLaunch &Launch) {
  if (Launch.Shape && Launch.Shape->Dim[0] > 0 &&
      Launch.Shape->Dim[0] % 32 == 0)
    return true;
  if (!Launch.Call || !Launch.Caller)
    return false;
  // The x extent alone, which a block whose other extents are unknown still
  // gives, read from the block as written.
  llvm::SmallVector<const FieldDecl *, 4> Path;
  const Expr *Block = Launch.Kind == LaunchKind::Chevron
                          ? Launch.Block
                          : apiBlock(Launch.Call, Launch.Kind, Path);
  int Param = -1;
  HostValues &Values = valuesIn(Launch.Caller);
  const Expr *Value = Block ? followValue(Block, Path, Launch.Call, Values,
                                          Launch.Caller, Param)
                            : nullptr;
  if (Value)
    return warpRows(Value, Launch.Call, Values);
  // Read from a parameter of the helper it is written in: from the argument
  // of the call that hands the kernel to that helper.
  const CallExpr *Call = Launch.HelperCall;
  if (Param < 0 || !Call || unsigned(Param) >= Call->getNumArgs() ||
      definitionOf(Call->getDirectCallee()) != definitionOf(Launch.Caller))
    return false;
  int Outer = -1;
  HostValues &Up = valuesIn(Launch.HelperCaller);
  Value = followValue(Call->getArg(Param), Path, Call, Up, Launch.HelperCaller,
                      Outer);
  return Value && warpRows(Value, Call, Up);
}

bool LaunchModel::bindsExitBound(const KernelLaunch &Launch, unsigned Dim,
                                 std::optional<std::int64_t> Value,
                                 const ParmVarDecl *Parameter) {
  if (!Launch.Call || !Launch.Caller)
    return false;
  HostValues &Values = valuesIn(Launch.Caller);
  const Expr *Size =
      Launch.Block ? blockDimension(Launch.Block, Dim, Launch.Call, Values)
                   : nullptr;
  std::optional<std::int64_t> SizeValue =
      Size ? Values.evaluate(Size, Launch.Call) : std::nullopt;
  // Followed where the block as written is not: through a struct's members
  // or a helper's parameters.
  if (!SizeValue && Launch.Shape)
    SizeValue = Launch.Shape->Dim[Dim];
  if (!Size && !SizeValue)
    return false;
  const VarDecl *Var =
      Size ? unchangedVariable(Size, Launch.Caller, Values) : nullptr;
  if (Value)
    return SizeValue == Value ||
           (Var && underCase(Launch.Caller->getBody(), Launch.Call, Var, *Value,
                             Context));
  unsigned Index = Parameter->getFunctionScopeIndex();
  if (!Launch.ArgsKnown || Index >= Launch.Args.size())
    return false;
  const Expr *Passed = Launch.Args[Index];
  std::optional<std::int64_t> PassedValue =
      Values.evaluate(Passed, Launch.Call);
  if (SizeValue && PassedValue == SizeValue)
    return true;
  return Var && Var == unchangedVariable(Passed, Launch.Caller, Values);
}

bool LaunchModel::launchesBindExitBound(const FunctionDecl *Kernel,
                                        unsigned Dim,
                                        std::optional<std::int64_t> Value,
                                        const ParmVarDecl *Parameter) {
  if (Dim > 2 || (!Value && !Parameter))
    return false;
  resolve();
  std::vector<const KernelLaunch *> Launched = launchesOf(definitionOf(Kernel));
  return !Launched.empty() &&
         llvm::all_of(Launched, [&](const KernelLaunch *L) {
           return bindsExitBound(*L, Dim, Value, Parameter);
         });
}

bool LaunchModel::launchesHaveWarpRows(const FunctionDecl *Kernel) {
  resolve();
  std::vector<const KernelLaunch *> Launched = launchesOf(definitionOf(Kernel));
  return !Launched.empty() &&
         llvm::all_of(Launched,
                      [&](const KernelLaunch *L) { return hasWarpRows(*L); });
}

bool launchesAreOneWarp(LaunchModel &Launches, const FunctionDecl *Kernel,
                        const ASTContext &Context) {
  const FunctionDecl *Definition = definitionOf(Kernel);
  if (const auto *Bounds =
          Definition ? Definition->getAttr<CUDALaunchBoundsAttr>() : nullptr)
    if (std::optional<llvm::APSInt> Max =
            Bounds->getMaxThreads()->isValueDependent()
                ? std::nullopt
                : Bounds->getMaxThreads()->getIntegerConstantExpr(Context))
      if (*Max > 0 && *Max <= 32)
        return true;
  Launches.resolve();
  std::vector<const KernelLaunch *> Launched = Launches.launchesOf(Definition);
  return !Launched.empty() && llvm::all_of(Launched, [](const KernelLaunch *L) {
    return L->Shape && L->Shape->Dim[0] > 0 && L->Shape->Dim[1] > 0 &&
           L->Shape->Dim[2] > 0 &&
           L->Shape->Dim[0] * L->Shape->Dim[1] * L->Shape->Dim[2] <= 32;
  });
}

} // namespace clang::cuda_tidy
