//===--- BarrierDivergence.cpp - Barriers under divergent control ---------===//

#include "analysis/BarrierDivergence.h"
#include "model/CudaModel.h"
#include "model/SyncEvents.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

namespace clang::cuda_tidy {

BarrierDivergenceHandler::~BarrierDivergenceHandler() = default;

namespace {

ConditionKind kindOf(const CFGBlock *C) {
  const Stmt *T = C->getTerminatorStmt();
  if (isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(T))
    return ConditionKind::Loop;
  if (isa_and_nonnull<SwitchStmt>(T))
    return ConditionKind::Switch;
  return ConditionKind::Branch;
}

/// What an expression's value may depend on, from the variables' dependence
/// over the whole function: enough to tell "the same in every thread" from
/// "may differ" for an index.
DepSet expressionDeps(const Expr *E, const FunctionDependence &Deps) {
  if (!E)
    return 0;
  E = E->IgnoreParenImpCasts();
  if (auto Kind = getBuiltinIndexRef(E, nullptr))
    return *Kind == BuiltinIndexKind::ThreadIdx ? dep::Thread : 0;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->hasLocalStorage() ? Deps.getVariableDeps(VD) : 0;
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    SyncEvent Event = classifySync(CE);
    if (Event.ThreadDependentResult)
      return dep::Thread;
    if (!Event.Modelled && !Event.UniformResult)
      return dep::Thread; // Not followed here: assume it may differ.
  }
  DepSet Result = 0;
  for (const Stmt *Child : E->children())
    if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
      Result |= expressionDeps(ChildExpr, Deps);
  return Result;
}

/// The `__shared__` variable \p E subscripts (`s[i]`, `s[i][j]`), with the
/// dependence of all its indices.
const VarDecl *sharedSubscript(const Expr *E, const FunctionDependence &Deps,
                               DepSet &IndexDeps) {
  IndexDeps = 0;
  const auto *ASE = dyn_cast<ArraySubscriptExpr>(E->IgnoreParens());
  if (!ASE)
    return nullptr;
  while (ASE) {
    IndexDeps |= expressionDeps(ASE->getIdx(), Deps);
    E = ASE->getBase()->IgnoreParenImpCasts();
    ASE = dyn_cast<ArraySubscriptExpr>(E);
  }
  const auto *DRE = dyn_cast<DeclRefExpr>(E);
  const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
  return VD && VD->hasAttr<CUDASharedAttr>() ? VD : nullptr;
}

/// The shared subscripts in \p S that are stored to by assignment, and
/// those read.
void collectSharedSubscripts(const Stmt *S,
                             llvm::SmallVectorImpl<const Expr *> &Stores,
                             llvm::SmallVectorImpl<const Expr *> &Loads) {
  if (!S)
    return;
  if (const auto *BO = dyn_cast<BinaryOperator>(S);
      BO && BO->getOpcode() == BO_Assign &&
      isa<ArraySubscriptExpr>(BO->getLHS()->IgnoreParens())) {
    Stores.push_back(BO->getLHS()->IgnoreParens());
    collectSharedSubscripts(BO->getRHS(), Stores, Loads);
    return;
  }
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
      Cast && Cast->getCastKind() == CK_LValueToRValue &&
      isa<ArraySubscriptExpr>(Cast->getSubExpr()->IgnoreParens())) {
    Loads.push_back(Cast->getSubExpr()->IgnoreParens());
    return;
  }
  for (const Stmt *Child : S->children())
    collectSharedSubscripts(Child, Stores, Loads);
}

/// \p E with constant locals replaced by their initialisers and
/// conditionals on constants of the instantiation by the side they take
/// (`const int k = kTemplate == 0 ? kArg : kTemplate;`).
const Expr *throughConstants(const Expr *E, const ASTContext &Context) {
  for (unsigned Depth = 0; E && Depth < 8; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() ||
          !VD->getType().isConstQualified() || !VD->getInit())
        return E;
      E = VD->getInit();
      continue;
    }
    if (const auto *Conditional = dyn_cast<ConditionalOperator>(E)) {
      bool Taken = false;
      if (Conditional->getCond()->isValueDependent() ||
          !Conditional->getCond()->EvaluateAsBooleanCondition(Taken, Context))
        return E;
      E = Taken ? Conditional->getTrueExpr() : Conditional->getFalseExpr();
      continue;
    }
    return E;
  }
  return E;
}

/// Fills the exit bound of \p Report from its exit condition when that is
/// `threadIdx.d >= bound` (or `bound <= threadIdx.d`).
void findExitBound(UnwrittenSharedRead &Report, const ASTContext &Context) {
  const auto *BO = dyn_cast_or_null<BinaryOperator>(
      Report.ExitCondition ? Report.ExitCondition->IgnoreParenImpCasts()
                           : nullptr);
  if (!BO || (BO->getOpcode() != BO_GE && BO->getOpcode() != BO_LE))
    return;
  const Expr *Thread = BO->getOpcode() == BO_GE ? BO->getLHS() : BO->getRHS();
  const Expr *Bound = BO->getOpcode() == BO_GE ? BO->getRHS() : BO->getLHS();
  std::string Component;
  auto Kind = getBuiltinIndexRef(throughConstants(Thread, Context), &Component);
  // Spelled "threadIdx.y".
  if (!Kind || *Kind != BuiltinIndexKind::ThreadIdx || Component.empty() ||
      Component.back() < 'x' || Component.back() > 'z')
    return;
  Bound = throughConstants(Bound, Context);
  Expr::EvalResult Constant;
  if (!Bound->isValueDependent() && Bound->EvaluateAsInt(Constant, Context))
    Report.ExitBoundValue = Constant.Val.getInt().getExtValue();
  else if (const auto *DRE = dyn_cast<DeclRefExpr>(Bound))
    Report.ExitBoundParameter = dyn_cast<ParmVarDecl>(DRE->getDecl());
  if (Report.ExitBoundValue || Report.ExitBoundParameter)
    Report.ExitDimension = Component.back() - 'x';
}

/// Whether the branch at \p C has two arms and every way from it to the
/// block where they join passes the same number, at least one, of block
/// barriers, each a direct call, none in a loop between the two.
///
/// Such a branch is still a fault, whatever its condition: a block barrier
/// is PTX `bar.sync 0`, that is `barrier.sync.aligned 0`, and an aligned
/// barrier in conditional code is only defined when every thread of the CTA
/// evaluates the condition identically (PTX ISA, "barrier"; LLVM's
/// NVPTXUsage says the same of `llvm.nvvm.barrier.cta.*`). Splitting the
/// block between whole warps does not help: on an H200, with each warp on
/// one arm, compute-sanitizer's synccheck reports "Barrier error detected.
/// Divergent thread(s) in block" although the results come out right
/// (runtime-tests/cuda-divergent-barrier/matched-barriers-whole-warps). The
/// shape is recognised only to say so in a note.
bool matchedBarrierArms(const CFGBlock *C, const FunctionDependence &Deps) {
  if (kindOf(C) != ConditionKind::Branch || C->succ_size() != 2)
    return false;
  const CFGBlock *Join = Deps.getImmediatePostDominator(C);
  if (!Join)
    return false;
  llvm::DenseMap<const CFGBlock *, unsigned> Barriers;
  llvm::SmallPtrSet<const CFGBlock *, 4> Uncounted;
  for (const BarrierSite &Site : Deps.getBarrierSites()) {
    if (Site.Callee || Site.Scope != BarrierScope::Block)
      Uncounted.insert(Site.Block);
    else
      ++Barriers[Site.Block];
  }
  // Each block between the branch and the join, with the number of barriers
  // passed on the way to it: a block reached with two numbers (the join
  // included) means the arms disagree, or a loop holds a barrier.
  llvm::DenseMap<const CFGBlock *, unsigned> Passed;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 16> Work;
  for (const CFGBlock *Succ : C->succs())
    if (Succ)
      Work.push_back({Succ, 0});
  while (!Work.empty()) {
    auto [B, Count] = Work.pop_back_val();
    auto [It, New] = Passed.try_emplace(B, Count);
    if (!New) {
      if (It->second != Count)
        return false;
      continue;
    }
    if (B == Join)
      continue;
    if (B == C || Uncounted.count(B))
      return false;
    unsigned After = Count + Barriers.lookup(B);
    for (const CFGBlock *Succ : B->succs())
      if (Succ)
        Work.push_back({Succ, After});
  }
  auto Joined = Passed.find(Join);
  return Joined != Passed.end() && Joined->second > 0;
}

const ParmVarDecl *parameterOfBit(const FunctionDecl *FD, unsigned Bit) {
  if (Bit < dep::FirstParamBit || Bit >= dep::FirstMemberBit)
    return nullptr;
  unsigned Index = Bit - dep::FirstParamBit;
  return Index < FD->getNumParams() ? FD->getParamDecl(Index) : nullptr;
}

} // namespace

void BarrierDivergenceAnalysis::findUnwrittenReads(
    const FunctionDependence &Deps, const BarrierSite &Site) {
  const CFGBlock *Exiting = nullptr;
  for (const CFGBlock *C : Deps.getControlClosure(Site.Block))
    if ((Deps.getConditionDeps(C) & dep::Thread) &&
        Deps.isEarlyReturn(C, Site.Block)) {
      Exiting = C;
      break;
    }
  if (!Exiting)
    return;

  // Statements before the barrier (on the way from the exit's branch) and
  // after it. Within the barrier's block, the order of its elements.
  llvm::SmallVector<const Expr *, 8> StoresBefore, LoadsAfter, Unused;
  for (const CFGBlock *B : Deps.getCFG()) {
    bool SameBlock = B == Site.Block;
    bool Before =
        SameBlock || (Deps.reaches(B, Site.Block) &&
                      llvm::is_contained(Deps.getControlClosure(B), Exiting));
    bool After = SameBlock || Deps.reaches(Site.Block, B);
    bool PastBarrier = false;
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      if (CS->getStmt() == Site.Call) {
        PastBarrier = true;
        continue;
      }
      // Every subexpression is an element too: look at full statements.
      if (isa<Expr>(CS->getStmt()) && !isa<BinaryOperator>(CS->getStmt()) &&
          !isa<ExprWithCleanups>(CS->getStmt()))
        continue;
      if (Before && !(SameBlock && PastBarrier))
        collectSharedSubscripts(CS->getStmt(), StoresBefore, Unused);
      if (After && !(SameBlock && !PastBarrier))
        collectSharedSubscripts(CS->getStmt(), Unused, LoadsAfter);
    }
  }
  for (const Expr *Load : LoadsAfter) {
    DepSet LoadIndex = 0;
    const VarDecl *Var = sharedSubscript(Load, Deps, LoadIndex);
    if (!Var || (LoadIndex & dep::Thread))
      continue;
    for (const Expr *Store : StoresBefore) {
      DepSet StoreIndex = 0;
      if (sharedSubscript(Store, Deps, StoreIndex) != Var ||
          !(StoreIndex & dep::Thread))
        continue;
      UnwrittenSharedRead Report;
      Report.Function = Deps.getFunction();
      Report.Variable = Var;
      Report.Read = Load;
      Report.Write = Store;
      Report.ExitCondition =
          dyn_cast_or_null<Expr>(Exiting->getTerminatorCondition());
      Report.Reason = Deps.getConditionWitness(Exiting).render();
      Report.Barrier = Site.Call;
      findExitBound(Report, Dependence.getContext());
      Handler.handleUnwrittenSharedRead(Report);
      return; // One report a barrier is enough to see the fault.
    }
  }
}

void BarrierDivergenceAnalysis::analyze(const FunctionDecl *FD) {
  summarize(FD);
}

bool BarrierDivergenceAnalysis::onlyCalledBeforeKernelExit(
    const FunctionDecl *FD) const {
  const FunctionDecl *Definition = nullptr;
  if (FD->hasBody(Definition) && Definition)
    FD = Definition;
  auto It = CallTails.find(FD);
  return It != CallTails.end() && !It->second.empty() &&
         llvm::all_of(It->second, [](bool Tail) { return Tail; });
}

const BarrierDivergenceAnalysis::Summary *
BarrierDivergenceAnalysis::summarize(const FunctionDecl *FD) {
  const FunctionDecl *Definition = nullptr;
  if (!FD->hasBody(Definition) || !Definition)
    return nullptr;
  FD = Definition;
  auto It = Summaries.find(FD);
  if (It != Summaries.end())
    return It->second.get(); // Done, or in progress (recursion): partial.
  Summary &Result = *(Summaries[FD] = std::make_unique<Summary>());

  const FunctionDependence *Deps = Dependence.analyze(FD);
  if (!Deps)
    return &Result;

  auto Record = [&](unsigned Bit, const ParameterCondition &Condition) {
    Result.Conditions |= DepSet(1) << Bit;
    Result.ByBit.try_emplace(Bit, Condition);
  };

  for (const BarrierSite &Site : Deps->getBarrierSites()) {
    DivergentBarrier Report;
    Report.Function = FD;
    Report.Site = Site.Call;
    Report.Callee = Site.Callee;
    Report.Barrier = Site.Barrier;
    Report.BarrierName = Site.BarrierName;
    Report.Scope = Site.Scope;
    const DepSet Divergent = dep::divergentFor(Site.Scope);
    bool Reported = false;
    if (Deps->isKernel() && !Dependence.getOptions().ExitedThreadsHoldBarriers)
      findUnwrittenReads(*Deps, Site);

    // Blame the nearest branch whose condition differs by itself; one that
    // differs only because it was computed under another such branch is the
    // weaker explanation.
    auto Controls = Deps->getDependentControl(Site.Block, Site.Scope);
    const CFGBlock *Blamed = nullptr;
    for (const CFGBlock *C : Controls)
      if ((Deps->getConditionDeps(C) & Divergent) &&
          (!Blamed || (Deps->getConditionWitness(Blamed).ViaControl &&
                       !Deps->getConditionWitness(C).ViaControl)))
        Blamed = C;
    for (const CFGBlock *C : Controls) {
      DepSet Conditions = Deps->getConditionDeps(C);
      const auto *Condition =
          dyn_cast_or_null<Expr>(C->getTerminatorCondition());
      if (C == Blamed && !Reported) {
        Report.Condition = Condition;
        Report.Kind = kindOf(C);
        Report.Reason = Deps->getConditionWitness(C).render();
        Report.AcrossBlocks = Deps->getConditionWitness(C).AcrossBlocks;
        Report.MatchedOnOtherArm = Site.Scope == BarrierScope::Block &&
                                   !Site.Callee && matchedBarrierArms(C, *Deps);
        // A grid barrier waits for exited threads too, and so does every
        // barrier under ExitedThreadsHoldBarriers (before sm_70): leaving
        // the kernel after the early return excuses nothing there.
        Report.ThroughEarlyReturn =
            Site.Scope != BarrierScope::Grid &&
            !Dependence.getOptions().ExitedThreadsHoldBarriers &&
            !Deps->isKernel() && Deps->isEarlyReturn(C, Site.Block);
        Handler.handleDivergentBarrier(Report);
        Reported = true;
      }
      for (unsigned Bit = 1; Bit < 64; ++Bit)
        if (Conditions & ~dep::Scopes & (DepSet(1) << Bit))
          Record(Bit, {Condition, kindOf(C), Site.Barrier, Site.BarrierName,
                       Site.Scope, parameterOfBit(FD, Bit)});
    }

    if (!Site.Callee)
      continue;
    const FunctionDecl *CalleeDefinition = nullptr;
    if (Site.Callee->hasBody(CalleeDefinition) && CalleeDefinition)
      CallTails[CalleeDefinition].push_back(
          Deps->isKernel() && Deps->isTailCall(Site.Call, Site.Block));
    const Summary *Callee = summarize(Site.Callee);
    if (!Callee || !Callee->Conditions)
      continue;
    llvm::ArrayRef<DepSet> Args = Deps->getArgumentDeps(Site.Call);
    DepSet Object = Deps->getObjectDeps(Site.Call);
    llvm::ArrayRef<DepSet> Members = Deps->getObjectMemberDeps(Site.Call);
    for (unsigned Bit = 1; Bit < 64; ++Bit) {
      auto Found = Callee->ByBit.find(Bit);
      if (Found == Callee->ByBit.end())
        continue;
      const ParameterCondition &Inner = Found->second;
      DepSet Here = instantiate(DepSet(1) << Bit, Args, Object, Members);
      if ((Here & dep::divergentFor(Inner.Scope)) && !Reported) {
        Report.Condition = Inner.Condition;
        Report.Kind = Inner.Kind;
        Report.Barrier = Inner.Barrier;
        Report.BarrierName = Inner.BarrierName;
        Report.Scope = Inner.Scope;
        Report.Parameter = parameterOfBit(Site.Callee, Bit);
        if (Report.Parameter) {
          unsigned Index = Report.Parameter->getFunctionScopeIndex();
          const auto *Call = Site.Call;
          unsigned First = Call->getNumArgs() > Args.size()
                               ? Call->getNumArgs() - Args.size()
                               : 0;
          if (First + Index < Call->getNumArgs())
            Report.Argument = Call->getArg(First + Index);
          ThreadWitness Witness = Deps->getArgumentWitness(Call, Index);
          Report.Reason = Witness.render();
          Report.AcrossBlocks = Witness.AcrossBlocks;
        } else {
          Report.Reason = "the object it is called on";
          const FunctionSummary *CalleeSummary =
              Dependence.getSummary(Site.Callee);
          unsigned Slot = Bit - dep::FirstMemberBit;
          if (Bit >= dep::FirstMemberBit && CalleeSummary &&
              Slot < CalleeSummary->ObjectMembers.size() &&
              !CalleeSummary->ObjectMembers[Slot]->getName().empty())
            Report.Reason =
                "member '" +
                CalleeSummary->ObjectMembers[Slot]->getNameAsString() +
                "' of " + Report.Reason;
        }
        Handler.handleDivergentBarrier(Report);
        Reported = true;
      }
      for (unsigned OuterBit = 1; OuterBit < 64; ++OuterBit)
        if (Here & ~dep::Scopes & (DepSet(1) << OuterBit))
          Record(OuterBit,
                 {Inner.Condition, Inner.Kind, Inner.Barrier, Inner.BarrierName,
                  Inner.Scope, parameterOfBit(FD, OuterBit)});
    }
  }
  return &Result;
}

} // namespace clang::cuda_tidy
