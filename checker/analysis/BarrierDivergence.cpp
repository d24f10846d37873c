//===--- BarrierDivergence.cpp - Barriers under divergent control ---------===//

#include "analysis/BarrierDivergence.h"
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

const ParmVarDecl *parameterOfBit(const FunctionDecl *FD, unsigned Bit) {
  if (Bit < dep::FirstParamBit)
    return nullptr;
  unsigned Index = Bit - dep::FirstParamBit;
  return Index < FD->getNumParams() ? FD->getParamDecl(Index) : nullptr;
}

} // namespace

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
        // A grid barrier waits for exited threads too.
        Report.ThroughEarlyReturn = Site.Scope != BarrierScope::Grid &&
                                    !Deps->isKernel() &&
                                    Deps->isEarlyReturn(C, Site.Block);
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
    for (unsigned Bit = 1; Bit < 64; ++Bit) {
      auto Found = Callee->ByBit.find(Bit);
      if (Found == Callee->ByBit.end())
        continue;
      const ParameterCondition &Inner = Found->second;
      DepSet Here = instantiate(DepSet(1) << Bit, Args, Object);
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
