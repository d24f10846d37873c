//===--- DependenceFixpoint.cpp - The dataflow over one body --------------===//
//
// See DependenceFixpoint.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/DependenceFixpoint.h"
#include "analysis/dependence/ControlFacts.h"
#include "analysis/dependence/UniformityProofs.h"
#include "model/SyncEvents.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "llvm/ADT/BitVector.h"

namespace clang::cuda_tidy {

namespace {

template <typename Map> bool sameMap(const Map &A, const Map &B) {
  if (A.size() != B.size())
    return false;
  for (const auto &[Key, Value] : A) {
    auto It = B.find(Key);
    if (It == B.end() || It->second != Value)
      return false;
  }
  return true;
}

/// Whether a parameter lets the callee write into the caller's storage.
bool isOutParameter(QualType T) {
  if (T->isReferenceType())
    return !T.getNonReferenceType().isConstQualified();
  if (T->isPointerType())
    return !T->getPointeeType().isConstQualified();
  return false;
}

} // namespace

/// The witness of the nearest branch deciding whether \p B runs that
/// explains \p Bits, marked as coming through control.
static ThreadWitness
controlWitness(llvm::ArrayRef<const CFGBlock *> Closure, DepSet Bits,
               const llvm::DenseMap<const CFGBlock *, ThreadWitness> &Known) {
  for (const CFGBlock *C : Closure) {
    auto It = Known.find(C);
    if (It != Known.end() && It->second.AcrossBlocks == !(Bits & dep::Thread)) {
      ThreadWitness W = It->second;
      W.ViaControl = true;
      return W;
    }
  }
  return {};
}

void DependenceFixpoint::addMemberWrite(const FieldDecl *Field, DepSet Value) {
  if (!Value)
    return;
  auto &Writes = R.Summary.ObjectMemberWrites;
  Field = Field->getCanonicalDecl();
  auto It =
      llvm::find_if(Writes, [&](const auto &W) { return W.first == Field; });
  if (It == Writes.end())
    Writes.push_back({Field, Value});
  else
    It->second |= Value;
}

bool DependenceFixpoint::construct(const VarDecl *VD, const Expr *Init,
                                   LocalState &S) {
  const auto *Construct =
      Init ? dyn_cast<CXXConstructExpr>(Init->IgnoreImplicit()) : nullptr;
  const CXXConstructorDecl *Ctor =
      Construct ? Construct->getConstructor() : nullptr;
  if (!Ctor || Ctor->isCopyOrMoveConstructor() ||
      VD->getType()->isReferenceType() || isa<ParmVarDecl>(VD))
    return false;
  const FunctionSummary *Summary = Analysis.getSummary(Ctor);
  if (!Summary)
    return false;
  llvm::SmallVector<DepSet, 4> Args;
  DepSet All = 0;
  for (const Expr *Arg : Construct->arguments()) {
    Args.push_back(widenLane(Values.valueDeps(Arg, S)));
    All |= Args.back();
  }
  // What the constructor reads of the object it builds is what it wrote
  // there, which comes from the arguments and the thread's own sources.
  DepSet Built = All | (Summary->ObjectWrites & dep::Scopes);
  for (const auto &[Field, Value] : Summary->ObjectMemberWrites)
    Built |= Value & dep::Scopes;
  DepSet Whole = instantiate(Summary->ObjectWrites, Args, Built);
  setVar(VD, Whole | CurrentControl, /*Strong=*/true, S, Init);
  for (const auto &[Field, Value] : Summary->ObjectMemberWrites) {
    unsigned Path = Paths.child(0, Field);
    setVar(VD, instantiate(Value, Args, Built) | CurrentControl,
           /*Strong=*/false, S, Init, Path);
  }
  return true;
}

void DependenceFixpoint::allFields(
    const CXXRecordDecl *Record,
    llvm::SmallVectorImpl<const FieldDecl *> &Fields) const {
  if (!Record || !Record->hasDefinition() || Fields.size() > 256)
    return;
  Record = Record->getDefinition();
  for (const FieldDecl *Field : Record->fields())
    Fields.push_back(Field);
  for (const CXXBaseSpecifier &Base : Record->bases())
    allFields(Base.getType()->getAsCXXRecordDecl(), Fields);
}

void DependenceFixpoint::initialize(const CXXCtorInitializer *Init,
                                    LocalState &S) {
  const Expr *InitExpr = Init->getInit();
  DepSet Value =
      (InitExpr ? Values.valueDeps(InitExpr, S) : 0) | CurrentEscaping;
  if (const FieldDecl *Field = Init->getMember()) {
    if (Field->getParent()->isUnion())
      R.Summary.ObjectWrites |= Value;
    else
      addMemberWrite(Field, Value);
    return;
  }
  llvm::SmallVector<const FieldDecl *, 16> BaseFields;
  if (Init->isBaseInitializer())
    allFields(Init->getBaseClass()->getAsCXXRecordDecl(), BaseFields);
  auto WriteWhole = [&](DepSet Whole) {
    if (!Init->isBaseInitializer() || BaseFields.size() > 256)
      R.Summary.ObjectWrites |= Whole;
    else
      for (const FieldDecl *Field : BaseFields)
        addMemberWrite(Field, Whole);
  };
  const auto *Construct =
      InitExpr ? dyn_cast<CXXConstructExpr>(InitExpr->IgnoreImplicit())
               : nullptr;
  const FunctionSummary *Summary =
      Construct && !Construct->getConstructor()->isCopyOrMoveConstructor()
          ? Analysis.getSummary(Construct->getConstructor())
          : nullptr;
  if (!Summary) {
    WriteWhole(Value);
    return;
  }
  llvm::SmallVector<DepSet, 4> Args;
  DepSet Built = CurrentEscaping;
  for (const Expr *Arg : Construct->arguments()) {
    Args.push_back(Values.valueDeps(Arg, S));
    Built |= Args.back();
  }
  // As in construct(): what the target reads of the object it built.
  Built |= Summary->ObjectWrites & dep::Scopes;
  for (const auto &[Field, Written] : Summary->ObjectMemberWrites)
    Built |= Written & dep::Scopes;
  if (DepSet Whole = instantiate(Summary->ObjectWrites, Args, Built))
    WriteWhole(Whole | CurrentEscaping);
  for (const auto &[Field, Written] : Summary->ObjectMemberWrites)
    addMemberWrite(Field, instantiate(Written, Args, Built) | CurrentEscaping);
}

void DependenceFixpoint::setVar(const VarDecl *VD, DepSet Value, bool Strong,
                                LocalState &S, const Expr *Source,
                                unsigned Path) {
  for (DepSet Bits : {dep::Thread, dep::Block | dep::Cluster}) {
    auto &Known = Values.origins(Bits);
    if (!(widenLane(Value) & Bits) || Known.count(VD))
      continue;
    // Explain the value in the state before the assignment, so that
    // `k += threadIdx.x` is not explained by `k` itself.
    ThreadWitness W =
        Source ? Values.witness(Source, S, Bits) : ThreadWitness();
    if (W.empty() && CurrentBlock)
      // The value itself is uniform: the dependence came from the branch
      // that decides whether this assignment runs.
      W = controlWitness(R.Control->closure(CurrentBlock), Bits,
                         R.ConditionWitnesses);
    if (!W.empty())
      Known[VD] = W;
  }
  // Only variables that depend on something are kept: the states stay as
  // small as the set of such variables, not as the set of all locals.
  auto It = S.find(VD);
  if (It == S.end()) {
    if (!Value)
      return;
    It = S.try_emplace(VD).first;
  }
  Paths.writePart(It->second, Path, Value, Strong);
  if (It->second.empty())
    S.erase(It);
}

void DependenceFixpoint::applyWrite(const LValueRoot &Root, DepSet Value,
                                    bool Strong, LocalState &S,
                                    const Expr *Source) {
  if (Root.Var) {
    bool IsStrong = Strong && Root.Exact;
    setVar(Root.Var, Value | CurrentControl | (IsStrong ? 0 : Root.IndexDeps),
           IsStrong, S, Source, Root.Path);
    return;
  }
  Value |= CurrentEscaping;
  if (Root.Param >= 0) {
    auto &Writes = R.Summary.PointeeWrites;
    if (Writes.size() <= unsigned(Root.Param))
      Writes.resize(Root.Param + 1);
    Writes[Root.Param] |= Value;
  }
  if (Root.Object && Root.ObjectMember)
    addMemberWrite(Root.ObjectMember, Value);
  else if (Root.Object)
    R.Summary.ObjectWrites |= Value;
}

void DependenceFixpoint::assign(const Expr *LHS, DepSet Value, bool Strong,
                                LocalState &S, const Expr *Source) {
  applyWrite(Values.lvalueRoot(LHS, S), Value, Strong, S, Source);
}

void DependenceFixpoint::callEffects(const CallExpr *CE, LocalState &S,
                                     DepSet Control) {
  CallShape Shape = getCallShape(CE);
  auto &Record = R.Calls[CE];
  Record.Args.clear();
  Record.ArgWitnesses.clear();
  DepSet All = 0;
  for (const Expr *Arg : Shape.Args) {
    Record.Args.push_back(widenLane(Values.valueDeps(Arg, S)));
    Record.ArgWitnesses.push_back(Values.witness(Arg, S));
    All |= Record.Args.back();
  }
  Record.Object =
      Shape.Object ? widenLane(Values.valueDeps(Shape.Object, S)) : 0;
  All |= Record.Object;

  SyncEvent Event = classifySync(CE);
  // A CUB block primitive is read by its contract, not its body: what it
  // stores through its arguments (a BlockLoad's items, a BlockScan's
  // output) differs between threads.
  bool BlockPrimitive =
      Event.Modelled && Event.Kind == SyncKind::Collective && Event.Storage;
  if (Event.Modelled && !BlockPrimitive)
    return;
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionSummary *Summary =
      Callee && !BlockPrimitive ? Analysis.getSummary(Callee) : nullptr;
  if (Summary && Shape.Object)
    Record.ObjectMembers =
        Values.objectMemberDeps(Shape.Object, Summary->ObjectMembers, S);
  DepSet Unknown =
      All |
      (Analysis.getOptions().UnknownCallsAreThreadDependent || BlockPrimitive
           ? dep::Thread
           : 0);
  for (unsigned I = 0; I < Shape.Args.size(); ++I) {
    const ParmVarDecl *Param = Callee && I < Callee->getNumParams()
                                   ? Callee->getParamDecl(I)
                                   : nullptr;
    if (Param && !isOutParameter(Param->getType()))
      continue;
    DepSet Written = Unknown;
    if (Summary)
      Written = I < Summary->PointeeWrites.size()
                    ? instantiate(Summary->PointeeWrites[I], Record.Args,
                                  Record.Object, Record.ObjectMembers)
                    : 0;
    if (!Written)
      continue;
    const Expr *Arg = Shape.Args[I];
    LValueRoot Root = Param && Param->getType()->isReferenceType()
                          ? Values.lvalueRoot(Arg, S)
                          : Values.pointerRoot(Arg, S);
    // A reference to an element reaches its neighbours by arithmetic.
    Root.Path = Paths.withoutElements(Root.Path);
    for (DepSet Bits : {dep::Thread, dep::Block | dep::Cluster}) {
      auto &Known = Values.origins(Bits);
      if (Root.Var && (Written & Bits) && !Known.count(Root.Var) && Callee) {
        Known[Root.Var].Source =
            "the value that '" + Callee->getNameAsString() + "' stores";
        Known[Root.Var].AcrossBlocks = !(Bits & dep::Thread);
      }
    }
    applyWrite(Root, Written, /*Strong=*/false, S, nullptr);
  }
  if (Shape.Object) {
    const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
    if (Method && !Method->isConst()) {
      DepSet Written = Summary
                           ? instantiate(Summary->ObjectWrites, Record.Args,
                                         Record.Object, Record.ObjectMembers)
                           : Unknown;
      LValueRoot Root = Shape.Object->getType()->isPointerType()
                            ? Values.pointerRoot(Shape.Object, S)
                            : Values.lvalueRoot(Shape.Object, S);
      if (Written)
        applyWrite(Root, Written, /*Strong=*/false, S, nullptr);
      // What it writes into single members goes to those members of the
      // object: of a local, or of the caller's own object.
      bool OwnObject = isa<CXXThisExpr>(Shape.Object->IgnoreParenImpCasts());
      for (const auto &[Field, Value] :
           Summary ? Summary->ObjectMemberWrites
                   : decltype(Summary->ObjectMemberWrites)()) {
        DepSet Member = instantiate(Value, Record.Args, Record.Object,
                                    Record.ObjectMembers);
        LValueRoot Part = Root;
        if (Part.Var && Part.Exact)
          Part.Path = Paths.child(Part.Path, Field);
        else if (OwnObject && isOwnMember(R.Function, Field))
          Part.ObjectMember = Field;
        applyWrite(Part, Member, /*Strong=*/false, S, nullptr);
      }
    }
  }
}

void DependenceFixpoint::transfer(const Stmt *St, LocalState &S,
                                  DepSet Control) {
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !Values.isTracked(VD))
        continue;
      const Expr *Init = VD->getInit();
      if (VD->getType()->isReferenceType() && Init) {
        LValueRoot Root = Values.lvalueRoot(Init, S);
        if (Root.Var && Root.Exact && Root.Path == 0) {
          Values.bindAlias(VD, Root.Var);
          continue;
        }
        setVar(VD, Values.addressDeps(Init, S) | Control, true, S, Init);
        continue;
      }
      if (!construct(VD, Init, S))
        setVar(VD, (Init ? Values.valueDeps(Init, S) : 0) | Control, true, S,
               Init);
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->getOpcode() == BO_Assign)
      assign(BO->getLHS(), Values.valueDeps(BO->getRHS(), S), true, S,
             BO->getRHS());
    else if (BO->isCompoundAssignmentOp())
      assign(BO->getLHS(),
             Values.loadDeps(BO->getLHS(), S) |
                 Values.valueDeps(BO->getRHS(), S),
             true, S, BO);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
    if (UO->isIncrementDecrementOp())
      assign(UO->getSubExpr(), Values.loadDeps(UO->getSubExpr(), S), true, S,
             UO->getSubExpr());
    return;
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(St)) {
    if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2) {
      DepSet Value = Values.valueDeps(OCE->getArg(1), S);
      bool Plain = OCE->getOperator() == OO_Equal;
      if (!Plain)
        Value |= Values.loadDeps(OCE->getArg(0), S);
      assign(OCE->getArg(0), Value, Plain, S, OCE->getArg(1));
      return;
    }
    if ((OCE->getOperator() == OO_PlusPlus ||
         OCE->getOperator() == OO_MinusMinus) &&
        OCE->getNumArgs() >= 1) {
      assign(OCE->getArg(0), Values.loadDeps(OCE->getArg(0), S), true, S,
             OCE->getArg(0));
      return;
    }
  }
  if (const auto *CE = dyn_cast<CallExpr>(St)) {
    callEffects(CE, S, Control);
    return;
  }
  if (const auto *RS = dyn_cast<ReturnStmt>(St)) {
    if (const Expr *Value = RS->getRetValue())
      R.Summary.Return |= widenLane(Values.valueDeps(Value, S));
    R.Summary.Return |= CurrentEscaping;
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(St)) {
    DepSet In = 0;
    for (const Expr *Input : Asm->inputs())
      In |= widenLane(Values.valueDeps(Input, S));
    if (asmReadsThreadRegister(Asm->getAsmString()))
      In |= dep::Thread;
    if (asmReadsBlockRegister(Asm->getAsmString()))
      In |= dep::Block;
    if (asmReadsClusterRegister(Asm->getAsmString()))
      In |= dep::Cluster;
    for (const Expr *Output : Asm->outputs()) {
      LValueRoot Root = Values.lvalueRoot(Output, S);
      for (DepSet Bits : {dep::Thread, dep::Block | dep::Cluster}) {
        auto &Known = Values.origins(Bits);
        if (Root.Var && (In & Bits) && !Known.count(Root.Var)) {
          Known[Root.Var].Source = "a register read by inline asm";
          Known[Root.Var].AcrossBlocks = !(Bits & dep::Thread);
        }
      }
      applyWrite(Root, In, /*Strong=*/true, S, nullptr);
    }
    return;
  }
}

void DependenceFixpoint::transferBlock(const CFGBlock *B, LocalState &S) {
  CurrentBlock = B;
  CurrentControl = ControlTaint.lookup(B);
  CurrentEscaping = EscapingTaint.lookup(B);
  for (const CFGElement &E : *B) {
    if (auto CS = E.getAs<CFGStmt>())
      transfer(CS->getStmt(), S, CurrentControl);
    if (auto CI = E.getAs<CFGInitializer>())
      initialize(CI->getInitializer(), S);
  }
  if (const auto *Cond = dyn_cast_or_null<Expr>(B->getTerminatorCondition())) {
    DepSet Deps = widenLane(Values.valueDeps(Cond, S));
    if (Deps & dep::Thread)
      Deps = widenLane(uniformLoopConditionDeps(B, Deps, S));
    R.ConditionDeps[B] = Deps;
    DepSet Bits = witnessBits(Deps);
    auto Known = R.ConditionWitnesses.find(B);
    // A witness across blocks gives way to one across threads.
    if (Bits && (Known == R.ConditionWitnesses.end() ||
                 (Known->second.AcrossBlocks && (Bits & dep::Thread)))) {
      ThreadWitness W = Values.witness(Cond, S, Bits);
      if (W.empty())
        // Only reachable through control taint: name the outer condition.
        W = controlWitness(R.Control->closure(B), Bits, R.ConditionWitnesses);
      R.ConditionWitnesses[B] = W;
    }
  }
  CurrentBlock = nullptr;
  CurrentControl = CurrentEscaping = 0;
}

DepSet DependenceFixpoint::uniformLoopConditionDeps(const CFGBlock *B,
                                                    DepSet Deps,
                                                    const LocalState &S) {
  auto Terms =
      uniformTripCountTerms(dyn_cast_or_null<ForStmt>(B->getTerminatorStmt()));
  if (!Terms)
    return Deps;
  DepSet Arithmetic = 0;
  for (const Expr *Term : *Terms)
    Arithmetic |= Values.valueDeps(Term, S);
  return Arithmetic & dep::Thread ? Deps : Arithmetic;
}

DepSet DependenceFixpoint::controlTaint(const CFGBlock *B, bool Escaping) {
  DepSet Taint = 0;
  for (const CFGBlock *C : R.Control->closure(B))
    if (DepSet Deps = R.getConditionDeps(C))
      if (Escaping || !R.Control->isEarlyExit(C, B))
        Taint |= Deps;
  return Taint;
}

void DependenceFixpoint::findBarrierSites() {
  llvm::BitVector WarpSyncBlocks(R.Graph->getNumBlockIDs());
  for (const CFGBlock *B : *R.Graph) {
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const auto *CE = dyn_cast<CallExpr>(CS->getStmt());
      if (!CE)
        continue;
      SyncEvent Event = classifySync(CE);
      BarrierSite Site;
      Site.Call = CE;
      Site.Block = B;
      const FunctionDecl *Callee = CE->getDirectCallee();
      const FunctionSummary *Summary =
          !Event.Modelled && Callee ? Analysis.getSummary(Callee) : nullptr;
      if (Event.ordersWarp() || Event.isBarrier() ||
          (Summary && Summary->AlwaysSyncsWarp)) {
        WarpSyncBlocks.set(B->getBlockID());
        if (!R.Summary.WarpSync)
          R.Summary.WarpSync = CE;
      } else if (Summary && Summary->WarpSync && !R.Summary.WarpSync) {
        R.Summary.WarpSync = Summary->WarpSync;
      }
      if (Event.isBarrier()) {
        Site.Barrier = CE;
        Site.BarrierName = Event.Name;
        Site.Scope = *Event.Scope;
      } else if (!Event.Modelled) {
        if (!Summary || !Summary->Barrier)
          continue;
        Site.Callee = Callee;
        Site.Barrier = Summary->Barrier;
        Site.BarrierName = Summary->BarrierName;
        Site.Scope = Summary->Scope;
      } else {
        continue;
      }
      R.BarrierSites.push_back(Site);
      R.Control->markBarrierBlock(B);
      if (!R.Summary.Barrier || Site.Scope > R.Summary.Scope) {
        R.Summary.Barrier = Site.Barrier;
        R.Summary.BarrierName = Site.BarrierName;
        R.Summary.Scope = Site.Scope;
      }
    }
  }
  // The lanes are ordered at every call when no path from the entry reaches
  // the exit around the blocks that sync them.
  const CFGBlock &Entry = R.Graph->getEntry(), &Exit = R.Graph->getExit();
  llvm::BitVector Seen(R.Graph->getNumBlockIDs());
  llvm::SmallVector<const CFGBlock *, 16> Work{&Entry};
  Seen.set(Entry.getBlockID());
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (WarpSyncBlocks.test(B->getBlockID()))
      continue;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && !Seen.test(Succ->getBlockID())) {
        Seen.set(Succ->getBlockID());
        Work.push_back(Succ);
      }
  }
  R.Summary.AlwaysSyncsWarp = !Seen.test(Exit.getBlockID());
}

void DependenceFixpoint::run() {
  const CFG &Graph = *R.Graph;
  findBarrierSites();

  LocalState EntryState;
  if (!R.Kernel)
    for (const ParmVarDecl *P : R.Function->parameters())
      EntryState[P].Whole = dep::param(P->getFunctionScopeIndex());

  // Outer fixpoint: the control taint depends on the branch conditions,
  // which depend on the values the dataflow computes.
  constexpr unsigned MaxRounds = 16;
  for (unsigned Round = 0; Round < MaxRounds; ++Round) {
    ControlTaint.clear();
    EscapingTaint.clear();
    for (const CFGBlock *B : Graph) {
      if (DepSet Taint = controlTaint(B, false))
        ControlTaint[B] = Taint;
      if (DepSet Taint = controlTaint(B, true))
        EscapingTaint[B] = Taint;
    }
    auto OldConditions = R.ConditionDeps;

    R.Summary.Return = 0;
    R.Summary.PointeeWrites.clear();
    R.Summary.ObjectWrites = 0;
    R.Summary.ObjectMemberWrites.clear();
    llvm::DenseMap<const CFGBlock *, LocalState> In;
    In[&Graph.getEntry()] = EntryState;
    ForwardDataflowWorklist Worklist(Graph, AC);
    Worklist.enqueueBlock(&Graph.getEntry());
    llvm::DenseMap<const CFGBlock *, LocalState> Out;
    while (const CFGBlock *B = Worklist.dequeue()) {
      LocalState S = In[B];
      transferBlock(B, S);
      auto OutIt = Out.find(B);
      if (OutIt != Out.end() && sameMap(OutIt->second, S))
        continue;
      Out[B] = S;
      for (const CFGBlock *Succ : B->succs()) {
        if (!Succ)
          continue;
        LocalState &SuccIn = In[Succ];
        bool Changed = false;
        for (const auto &[VD, Deps] : S) {
          VarState &Slot = SuccIn[VD];
          VarState Joined = Paths.join(Slot, Deps);
          if (Joined != Slot) {
            Slot = std::move(Joined);
            Changed = true;
          }
        }
        if (Changed || !Out.count(Succ))
          Worklist.enqueueBlock(Succ);
      }
    }
    bool Stable = sameMap(OldConditions, R.ConditionDeps);
    if (Stable || Round + 1 == MaxRounds) {
      R.VariableDeps.clear();
      for (const auto &[Block, BlockState] : Out)
        for (const auto &[VD, Deps] : BlockState)
          R.VariableDeps[VD] |= widenLane(Paths.readPart(Deps, 0));
      // Writes through pointers and into the object left the function.
      for (DepSet &Written : R.Summary.PointeeWrites)
        Written = widenLane(Written);
      R.Summary.ObjectWrites = widenLane(R.Summary.ObjectWrites);
      for (auto &Write : R.Summary.ObjectMemberWrites)
        Write.second = widenLane(Write.second);
      break;
    }
  }
}

} // namespace clang::cuda_tidy
