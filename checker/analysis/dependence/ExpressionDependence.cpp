//===--- ExpressionDependence.cpp - What an expression depends on ---------===//
//
// See ExpressionDependence.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/ExpressionDependence.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "model/SyncEvents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

namespace clang::cuda_tidy {

namespace {

/// The value a shuffle moves between lanes (`__shfl_sync(mask, v, lane)`,
/// `tile.shfl(v, lane)`), or null if \p CE is no shuffle.
const Expr *shuffledValue(const SyncEvent &Event) {
  return Event.Kind == SyncKind::Shuffle ? Event.Value : nullptr;
}

DepSet builtinIndexDeps(BuiltinIndexKind Kind) {
  switch (Kind) {
  case BuiltinIndexKind::ThreadIdx:
    return dep::Thread;
  case BuiltinIndexKind::BlockIdx:
    return dep::Block;
  default:
    return 0;
  }
}

/// The variable an lvalue such as `s[i].x` or `flag` names, if any.
const VarDecl *rootVariable(const Expr *E) {
  while (true) {
    E = E->IgnoreParenImpCasts();
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
      E = ASE->getBase();
    else if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow())
      E = ME->getBase();
    else
      break;
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

} // namespace

CallShape getCallShape(const CallExpr *CE) {
  CallShape Shape;
  unsigned First = 0;
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(CE)) {
    Shape.Object = MCE->getImplicitObjectArgument();
  } else if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE)) {
    if (isa_and_nonnull<CXXMethodDecl>(OCE->getDirectCallee()) &&
        OCE->getNumArgs() > 0) {
      Shape.Object = OCE->getArg(0);
      First = 1;
    }
  }
  for (unsigned I = First; I < CE->getNumArgs(); ++I)
    Shape.Args.push_back(CE->getArg(I));
  return Shape;
}

bool isOwnMember(const FunctionDecl *Method, const FieldDecl *Field) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Method);
  if (!MD || MD->isStatic())
    return false;
  const CXXRecordDecl *Own = MD->getParent()->getCanonicalDecl();
  const auto *Owner = dyn_cast<CXXRecordDecl>(Field->getParent());
  return Owner && (Owner->getCanonicalDecl() == Own ||
                   (Own->hasDefinition() && Own->isDerivedFrom(Owner)));
}

bool ExpressionDependence::isTracked(const VarDecl *VD) const {
  return VD->hasLocalStorage() && !isCaptured(VD);
}

bool ExpressionDependence::isCaptured(const VarDecl *VD) const {
  // A local of an enclosing function, seen from a lambda's body.
  return VD->hasLocalStorage() &&
         VD->getParentFunctionOrMethod() != R.Function && !isa<ParmVarDecl>(VD);
}

const VarDecl *ExpressionDependence::resolveAlias(const VarDecl *VD) const {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    auto It = Aliases.find(VD);
    if (It == Aliases.end())
      break;
    VD = It->second;
  }
  return VD;
}

int ExpressionDependence::paramIndex(const VarDecl *VD) const {
  const auto *PVD = dyn_cast<ParmVarDecl>(VD);
  if (!PVD || PVD->getParentFunctionOrMethod() != R.Function)
    return -1;
  return PVD->getFunctionScopeIndex();
}

DepSet ExpressionDependence::varDeps(const VarDecl *VD, const LocalState &S) {
  if (auto Kind = getBuiltinIndexKind(VD))
    return builtinIndexDeps(*Kind);
  if (isCaptured(VD)) {
    const FieldDecl *Field = captureField(VD);
    return Field ? memberBit(Field) : dep::Object;
  }
  if (isSharedVariable(VD))
    return dep::Block; // Each block has its own copy.
  if (!isTracked(VD))
    return 0; // Global or constant memory at a fixed address.
  auto It = S.find(resolveAlias(VD));
  return It == S.end() ? 0 : Paths.readPart(It->second, 0);
}

DepSet ExpressionDependence::valueDeps(const Expr *E, const LocalState &S) {
  E = E->IgnoreParens();
  if (auto Kind = getBuiltinIndexRef(E, nullptr))
    return builtinIndexDeps(*Kind);

  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
      return loadDeps(Cast->getSubExpr(), S);
    case CK_ArrayToPointerDecay:
      return addressDeps(Cast->getSubExpr(), S);
    default:
      return valueDeps(Cast->getSubExpr(), S);
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return varDeps(VD, S);
    return 0;
  }
  if (isa<MemberExpr, ArraySubscriptExpr>(E))
    return loadDeps(E, S);
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    switch (UO->getOpcode()) {
    case UO_AddrOf:
      return addressDeps(UO->getSubExpr(), S);
    case UO_Deref:
      return loadDeps(E, S);
    default:
      return valueDeps(UO->getSubExpr(), S);
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return valueDeps(BO->getRHS(), S);
    if (BO->getOpcode() == BO_Assign)
      return valueDeps(BO->getRHS(), S);
    if (laneRules() && isLaneOfThreadIdxX(BO, AC.getASTContext()))
      return dep::Lane;
    return valueDeps(BO->getLHS(), S) | valueDeps(BO->getRHS(), S);
  }
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return valueDeps(CO->getCond(), S) | valueDeps(CO->getTrueExpr(), S) |
           valueDeps(CO->getFalseExpr(), S);
  if (const auto *CE = dyn_cast<CallExpr>(E))
    return callDeps(CE, S);
  if (isa<CXXThisExpr>(E))
    return dep::Object;
  if (isa<UnaryExprOrTypeTraitExpr>(E))
    return 0;
  if (const auto *OVE = dyn_cast<OpaqueValueExpr>(E))
    return OVE->getSourceExpr() ? valueDeps(OVE->getSourceExpr(), S) : 0;
  if (const auto *DAE = dyn_cast<CXXDefaultArgExpr>(E))
    return valueDeps(DAE->getExpr(), S);
  if (const auto *DIE = dyn_cast<CXXDefaultInitExpr>(E))
    return valueDeps(DIE->getExpr(), S);
  if (const auto *POE = dyn_cast<PseudoObjectExpr>(E))
    return POE->getResultExpr() ? valueDeps(POE->getResultExpr(), S) : 0;
  if (const auto *LE = dyn_cast<LambdaExpr>(E)) {
    DepSet Deps = 0;
    for (const Expr *Init : LE->capture_inits())
      if (Init)
        Deps |= valueDeps(Init, S);
    return Deps;
  }
  DepSet Deps = 0;
  for (const Stmt *Child : E->children())
    if (const auto *CE = dyn_cast_or_null<Expr>(Child))
      Deps |= valueDeps(CE, S);
  // A constructor other than a copy may do anything with a lane-only value.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && !Construct->getConstructor()->isCopyOrMoveConstructor())
    return widenLane(Deps);
  return Deps;
}

DepSet ExpressionDependence::memberBit(const FieldDecl *Field) {
  auto &Members = R.Summary.ObjectMembers;
  Field = Field->getCanonicalDecl();
  auto It = llvm::find(Members, Field);
  if (It != Members.end())
    return dep::objectMember(It - Members.begin());
  if (Members.size() == dep::MemberBits)
    return dep::Object;
  Members.push_back(Field);
  return dep::objectMember(Members.size() - 1);
}

const FieldDecl *ExpressionDependence::captureField(const VarDecl *VD) {
  if (!CaptureFields) {
    CaptureFields.emplace();
    const auto *Method = dyn_cast<CXXMethodDecl>(R.Function);
    if (Method && Method->getParent()->isLambda()) {
      FieldDecl *ThisCapture = nullptr;
      Method->getParent()->getCaptureFields(*CaptureFields, ThisCapture);
    }
  }
  return CaptureFields->lookup(VD);
}

llvm::SmallVector<DepSet, 2> ExpressionDependence::objectMemberDeps(
    const Expr *Object, llvm::ArrayRef<const FieldDecl *> Members,
    const LocalState &S) {
  llvm::SmallVector<DepSet, 2> Deps;
  if (Members.empty())
    return Deps;
  const Expr *Bare = Object->IgnoreImplicit()->IgnoreParens();
  // A lambda called where it is written: each capture is its initialiser.
  if (const auto *LE = dyn_cast<LambdaExpr>(Bare)) {
    for (const FieldDecl *Member : Members) {
      DepSet Value = valueDeps(Object, S);
      unsigned Index = 0;
      for (const FieldDecl *Field : LE->getLambdaClass()->fields()) {
        if (Field->getCanonicalDecl() == Member && Index < LE->capture_size()) {
          const Expr *Init = *(LE->capture_init_begin() + Index);
          Value = Init ? valueDeps(Init, S) : 0;
          break;
        }
        ++Index;
      }
      Deps.push_back(Value);
    }
    return Deps;
  }
  // The caller's own object: its members have their own bits.
  if (isa<CXXThisExpr>(Bare)) {
    for (const FieldDecl *Member : Members)
      Deps.push_back(isOwnMember(R.Function, Member) ? memberBit(Member)
                                                     : dep::Object);
    return Deps;
  }
  PartRead Read =
      Object->getType()->isPointerType() ? PartRead() : partRead(Object, S);
  if (!Read.Var || !Read.Exact) {
    Deps.assign(Members.size(), valueDeps(Object, S));
    return Deps;
  }
  auto It = S.find(Read.Var);
  for (const FieldDecl *Member : Members) {
    unsigned Path = Paths.child(Read.Path, Member);
    Deps.push_back(It == S.end() ? 0 : Paths.readPart(It->second, Path));
  }
  return Deps;
}

const void *ExpressionDependence::memberStep(const MemberExpr *ME) {
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field || Field->getType()->isReferenceType() ||
      Field->getParent()->isUnion())
    return nullptr;
  return Field->getCanonicalDecl();
}

ExpressionDependence::PartRead
ExpressionDependence::partRead(const Expr *E, const LocalState &S) {
  E = E->IgnoreParens();
  PartRead Read;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !isTracked(VD) || getBuiltinIndexKind(VD))
      return Read;
    const VarDecl *Target = resolveAlias(VD);
    if (Target == VD && VD->getType()->isReferenceType())
      return Read; // A reference parameter: not one of our locals.
    Read.Var = Target;
    return Read;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E); ME && !ME->isArrow()) {
    Read = partRead(ME->getBase(), S);
    const void *Step = memberStep(ME);
    if (Read.Var && Read.Exact && Step)
      Read.Path = Paths.child(Read.Path, Step);
    else
      Read.Exact = false;
    return Read;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Cast =
        dyn_cast<ImplicitCastExpr>(ASE->getBase()->IgnoreParens());
    if (!Cast || Cast->getCastKind() != CK_ArrayToPointerDecay)
      return Read;
    Read = partRead(Cast->getSubExpr(), S);
    if (!Read.Var)
      return Read;
    auto Index = constantValue(ASE->getIdx(), AC.getASTContext());
    if (Read.Exact && Index && !Index->isNegative() &&
        Index->getActiveBits() < 32) {
      Read.Path = Paths.child(Read.Path,
                              MemberPaths::elementStep(Index->getZExtValue()));
    } else {
      Read.Exact = false;
      Read.IndexDeps |= valueDeps(ASE->getIdx(), S);
    }
    return Read;
  }
  return Read;
}

DepSet ExpressionDependence::loadDeps(const Expr *E, const LocalState &S) {
  E = E->IgnoreParens();
  if (auto Kind = getBuiltinIndexRef(E, nullptr))
    return builtinIndexDeps(*Kind);
  if (isa<MemberExpr, ArraySubscriptExpr>(E)) {
    // A member or constant element of a local aggregate has its own value.
    PartRead Read = partRead(E, S);
    if (Read.Var && Read.Path) {
      auto It = S.find(Read.Var);
      return (It == S.end() ? 0 : Paths.readPart(It->second, Read.Path)) |
             Read.IndexDeps;
    }
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return varDeps(VD, S);
    return 0;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // A member of the object the method is called on has a bit of its own.
    if (ME->isArrow() && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const void *Step = memberStep(ME))
        return memberBit(static_cast<const FieldDecl *>(Step));
    return ME->isArrow() ? widenLane(valueDeps(ME->getBase(), S))
                         : loadDeps(ME->getBase(), S);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    DepSet Deps = valueDeps(ASE->getBase(), S) | valueDeps(ASE->getIdx(), S) |
                  (isSharedVariable(rootVariable(ASE)) ? dep::Block : 0);
    // Memory that other threads may write holds lane-only data only where
    // SettledSharedReads says so.
    return Deps & dep::Lane && !keepsLane(ASE) ? widenLane(Deps) : Deps;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return widenLane(valueDeps(UO->getSubExpr(), S));
  if (const auto *CO = dyn_cast<AbstractConditionalOperator>(E))
    return valueDeps(CO->getCond(), S) | loadDeps(CO->getTrueExpr(), S) |
           loadDeps(CO->getFalseExpr(), S);
  return valueDeps(E, S);
}

DepSet ExpressionDependence::addressDeps(const Expr *E, const LocalState &S) {
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return isTracked(VD) || isCaptured(VD) ? varDeps(VD, S) : 0;
    return 0;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // The elements of a member array of the object: the member's own bit.
    if (ME->isArrow() && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
      if (const void *Step = memberStep(ME))
        return memberBit(static_cast<const FieldDecl *>(Step));
    return ME->isArrow() ? valueDeps(ME->getBase(), S)
                         : addressDeps(ME->getBase(), S);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return valueDeps(ASE->getBase(), S) | valueDeps(ASE->getIdx(), S);
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return valueDeps(UO->getSubExpr(), S);
  return valueDeps(E, S);
}

DepSet ExpressionDependence::callDeps(const CallExpr *CE, const LocalState &S) {
  SyncEvent Event = classifySync(CE);
  if (Event.UniformResult)
    return (Event.BlockDependentResult ? dep::Block : 0) |
           (Event.ClusterDependentResult ? dep::Cluster : 0);
  if (laneRules())
    if (const Expr *Reduced = reducedArgument(CE)) {
      // Every warp reduces the same 32 values the same way.
      DepSet Value = valueDeps(Reduced, S);
      if ((Value & dep::Lane) && !(Value & dep::Thread)) {
        R.UsedLaneRule = true;
        return Value & ~dep::Lane;
      }
      // In a block of one warp the lanes are the block.
      if (oneWarpRule() && (Value & (dep::Lane | dep::Thread))) {
        R.UsedOneWarpRule = true;
        return Value & ~(dep::Lane | dep::Thread);
      }
    }
  if (const Expr *Shuffled = shuffledValue(Event)) {
    // Every lane gets some lane's value: one value in all lanes stays one.
    DepSet Value = valueDeps(Shuffled, S);
    if (!(Value & (dep::Thread | dep::Lane)))
      return Value;
  }
  if (Event.ThreadDependentResult)
    return dep::Thread;
  CallShape Shape = getCallShape(CE);
  llvm::SmallVector<DepSet, 4> Args;
  DepSet All = 0;
  for (const Expr *Arg : Shape.Args) {
    Args.push_back(widenLane(valueDeps(Arg, S)));
    All |= Args.back();
  }
  DepSet Object = Shape.Object ? widenLane(valueDeps(Shape.Object, S)) : 0;
  All |= Object;
  if (Event.Modelled)
    return All;
  if (const FunctionDecl *Callee = CE->getDirectCallee())
    if (const FunctionSummary *Summary = Analysis.getSummary(Callee))
      return instantiate(
          Summary->Return, Args, Object,
          Shape.Object
              ? objectMemberDeps(Shape.Object, Summary->ObjectMembers, S)
              : llvm::SmallVector<DepSet, 2>());
  if (Analysis.getOptions().UnknownCallsAreThreadDependent)
    All |= dep::Thread;
  // Calls through pointers: the callee is as thread-dependent as the pointer.
  return All | valueDeps(CE->getCallee(), S);
}

bool ExpressionDependence::keepsLane(const ArraySubscriptExpr *ASE) {
  const VarDecl *VD = namedVariable(ASE->getBase());
  if (!VD || !VD->getType()->isArrayType())
    return false;
  if (isTracked(VD))
    return true; // The thread's own registers.
  return laneRules() && isSharedVariable(VD) && SharedReads.isSettled(ASE);
}

ThreadWitness ExpressionDependence::witness(const Expr *E, const LocalState &S,
                                            DepSet Bits, unsigned Depth) {
  ThreadWitness W;
  W.AcrossBlocks = !(Bits & dep::Thread);
  if (!E || !Bits || Depth > 32)
    return W;
  E = E->IgnoreParens();
  std::string Spelling;
  if (auto Kind = getBuiltinIndexRef(E, &Spelling)) {
    if (builtinIndexDeps(*Kind) & Bits)
      W.Source = "'" + Spelling + "'";
    return W;
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !(widenLane(varDeps(VD, S)) & Bits))
      return W;
    if (getBuiltinIndexKind(VD)) {
      W.Source = "'" + VD->getName().str() + "'";
      return W;
    }
    if (isSharedVariable(VD)) {
      W.Source = "'" + VD->getName().str() + "' in shared memory";
      return W;
    }
    const VarDecl *Target = resolveAlias(VD);
    const auto &Known = Bits & dep::Thread ? Origins : BlockOrigins;
    auto It = Known.find(Target);
    if (It != Known.end())
      W = It->second;
    else
      W.Source = "'" + Target->getName().str() + "'";
    if (W.Via.empty() || W.Via.back() != Target)
      if (W.Via.size() < 6)
        W.Via.push_back(Target);
    return W;
  }
  if ((Bits & dep::Block) && isa<ArraySubscriptExpr, MemberExpr>(E))
    if (const VarDecl *Root = rootVariable(E); isSharedVariable(Root)) {
      W.Source = "'" + Root->getName().str() + "' in shared memory";
      return W;
    }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    SyncEvent Event = classifySync(CE);
    DepSet Result = 0;
    if (Event.ThreadDependentResult)
      Result = dep::Thread;
    else if (Event.UniformResult)
      Result = (Event.BlockDependentResult ? dep::Block : 0) |
               (Event.ClusterDependentResult ? dep::Cluster : 0);
    if (Result & Bits) {
      W.Source = "the result of '" + Event.Name + "'";
      // A vote or reduction over a warp's lanes: what differs is the warp
      // (or the lanes outside its mask), not the lane.
      if (Event.isLaneReduction())
        W.Source += ", which the lanes of its mask share but other warps "
                    "need not";
      return W;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Event.Modelled && Callee) {
      const FunctionSummary *Summary = Analysis.getSummary(Callee);
      if (Summary && (Summary->Return & Bits)) {
        W.Source = "the result of '" + Callee->getNameAsString() + "'";
        return W;
      }
      if (!Summary && (Bits & dep::Thread) &&
          Analysis.getOptions().UnknownCallsAreThreadDependent) {
        // Name a thread-dependent argument if there is one, else the call.
        for (const Expr *Arg : CE->arguments())
          if (widenLane(valueDeps(Arg, S)) & dep::Thread)
            return witness(Arg, S, Bits, Depth + 1);
        W.Source = "the result of '" + Callee->getNameAsString() + "'";
        return W;
      }
    }
  }
  for (const Stmt *Child : E->children()) {
    const auto *ChildExpr = dyn_cast_or_null<Expr>(Child);
    if (ChildExpr && (widenLane(valueDeps(ChildExpr, S)) & Bits)) {
      W = witness(ChildExpr, S, Bits, Depth + 1);
      if (!W.empty())
        return W;
    }
  }
  return W;
}

LValueRoot ExpressionDependence::pointerRoot(const Expr *E,
                                             const LocalState &S) {
  LValueRoot Root;
  E = E->IgnoreParenCasts();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      Root.Param = paramIndex(VD);
    return Root;
  }
  if (isa<CXXThisExpr>(E)) {
    Root.Object = true;
    return Root;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf) {
      // Pointer arithmetic may take it to the neighbours of the part.
      Root = lvalueRoot(UO->getSubExpr(), S);
      Root.Path = 0;
      Root.Exact = false;
      return Root;
    }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    if (BO->isAdditiveOp()) {
      const Expr *Ptr = BO->getLHS()->getType()->isPointerType() ? BO->getLHS()
                                                                 : BO->getRHS();
      const Expr *Offset = Ptr == BO->getLHS() ? BO->getRHS() : BO->getLHS();
      Root = pointerRoot(Ptr, S);
      Root.Exact = false;
      Root.IndexDeps |= valueDeps(Offset, S);
      return Root;
    }
  return Root;
}

LValueRoot ExpressionDependence::lvalueRoot(const Expr *E,
                                            const LocalState &S) {
  LValueRoot Root;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD)
      return Root;
    if (isCaptured(VD)) {
      Root.Object = true;
      return Root;
    }
    if (!isTracked(VD))
      return Root;
    if (VD->getType()->isReferenceType()) {
      const VarDecl *Target = resolveAlias(VD);
      if (Target != VD) {
        Root.Var = Target;
        Root.Exact = true;
      } else {
        Root.Param = paramIndex(VD);
      }
      return Root;
    }
    Root.Var = VD;
    Root.Exact = true;
    return Root;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    if (ME->isArrow()) {
      Root = pointerRoot(ME->getBase(), S);
      if (Root.Object && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts()))
        Root.ObjectMember = static_cast<const FieldDecl *>(memberStep(ME));
      return Root;
    }
    Root = lvalueRoot(ME->getBase(), S);
    const void *Step = memberStep(ME);
    unsigned Part = Root.Var && Root.Exact && Step
                        ? Paths.child(Root.Path, Step)
                        : Root.Path;
    // Past MemberPaths::MaxDepth the part stands for its parent: a store
    // to it is no longer exact.
    Root.Exact = Root.Exact && Part != Root.Path;
    Root.Path = Part;
    return Root;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const Expr *Base = ASE->getBase()->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Base);
        Cast && Cast->getCastKind() == CK_ArrayToPointerDecay) {
      Root = lvalueRoot(Cast->getSubExpr(), S);
      auto Index = constantValue(ASE->getIdx(), AC.getASTContext());
      unsigned Part =
          Root.Var && Root.Exact && Index && !Index->isNegative() &&
                  Index->getActiveBits() < 32
              ? Paths.child(Root.Path,
                            MemberPaths::elementStep(Index->getZExtValue()))
              : Root.Path;
      if (Part != Root.Path) {
        Root.Path = Part;
        return Root;
      }
    } else {
      Root = pointerRoot(Base, S);
    }
    Root.Exact = false;
    Root.IndexDeps |= valueDeps(ASE->getIdx(), S);
    return Root;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return pointerRoot(UO->getSubExpr(), S);
  return Root;
}

} // namespace clang::cuda_tidy
