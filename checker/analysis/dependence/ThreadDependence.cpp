//===--- ThreadDependence.cpp - Which values differ between threads -------===//
//
// See ThreadDependence.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/ThreadDependence.h"
#include "analysis/dependence/ControlFacts.h"
#include "analysis/dependence/DependenceFixpoint.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include <mutex>

namespace clang::cuda_tidy {

//===----------------------------------------------------------------------===//
// Small helpers
//===----------------------------------------------------------------------===//

std::string ThreadWitness::render() const {
  std::string Text = Source;
  for (size_t I = 0; I < Via.size(); ++I) {
    Text += I == 0 ? " through '" : (I + 1 == Via.size() ? " and '" : ", '");
    Text += Via[I]->getName();
    Text += "'";
  }
  return Text;
}

DepSet instantiate(DepSet Callee, llvm::ArrayRef<DepSet> ArgDeps,
                   DepSet ObjectDeps, llvm::ArrayRef<DepSet> ObjectMemberDeps) {
  DepSet Result = Callee & dep::Scopes;
  if (Callee & dep::Object)
    Result |= ObjectDeps;
  for (unsigned I = 0; I < ArgDeps.size(); ++I)
    if (Callee & dep::param(I))
      Result |= ArgDeps[I];
  for (unsigned Slot = 0; Slot < dep::MemberBits; ++Slot)
    if (Callee & dep::objectMember(Slot))
      Result |=
          Slot < ObjectMemberDeps.size() ? ObjectMemberDeps[Slot] : ObjectDeps;
  return Result;
}

//===----------------------------------------------------------------------===//
// The results of one body
//===----------------------------------------------------------------------===//

FunctionDependence::~FunctionDependence() = default;

std::unique_ptr<FunctionDependence>
FunctionDependence::atCall(const FunctionDependence &Caller,
                           const CallExpr *CE) const {
  llvm::ArrayRef<DepSet> Args = Caller.getArgumentDeps(CE);
  DepSet Object = Caller.getObjectDeps(CE);
  llvm::ArrayRef<DepSet> Members = Caller.getObjectMemberDeps(CE);
  auto At = [&](DepSet D) { return instantiate(D, Args, Object, Members); };
  std::unique_ptr<FunctionDependence> R(new FunctionDependence());
  R->Function = Function;
  R->Kernel = false;
  R->EarlyExitsAreBenign = false;
  R->UsedLaneRule = UsedLaneRule;
  R->UsedOneWarpRule = UsedOneWarpRule;
  R->Graph = Graph;
  R->Summary = Summary;
  R->BarrierSites = BarrierSites;
  for (const auto &[B, D] : ConditionDeps)
    R->ConditionDeps[B] = At(D);
  for (const auto &[VD, D] : VariableDeps)
    R->VariableDeps[VD] = At(D);
  R->ConditionWitnesses = ConditionWitnesses;
  for (const auto &[Call, Record] : Calls) {
    CallRecord &Out = R->Calls[Call];
    Out = Record;
    for (DepSet &D : Out.Args)
      D = At(D);
    Out.Object = At(Out.Object);
    for (DepSet &D : Out.ObjectMembers)
      D = At(D);
  }
  R->Control = Control;
  return R;
}

const CFGBlock *
FunctionDependence::getTerminatorBlock(const Stmt *Terminator) const {
  if (!TerminatorBlocks) {
    TerminatorBlocks.emplace();
    for (const CFGBlock *B : *Graph)
      if (B && B->getTerminatorStmt())
        TerminatorBlocks->try_emplace(B->getTerminatorStmt(), B);
  }
  return TerminatorBlocks->lookup(Terminator);
}

DepSet FunctionDependence::getConditionDeps(const CFGBlock *B) const {
  return ConditionDeps.lookup(B);
}

const ThreadWitness &
FunctionDependence::getConditionWitness(const CFGBlock *B) const {
  static const ThreadWitness None;
  auto It = ConditionWitnesses.find(B);
  return It == ConditionWitnesses.end() ? None : It->second;
}

llvm::SmallVector<const CFGBlock *, 4>
FunctionDependence::getDependentControl(const CFGBlock *B,
                                        BarrierScope Scope) const {
  llvm::SmallVector<const CFGBlock *, 4> Result;
  for (const CFGBlock *C : Control->closure(B)) {
    if (!getConditionDeps(C))
      continue;
    if (EarlyExitsAreBenign && Scope != BarrierScope::Grid &&
        Control->isEarlyExit(C, B))
      continue;
    Result.push_back(C);
  }
  return Result;
}

llvm::ArrayRef<const CFGBlock *>
FunctionDependence::getControlClosure(const CFGBlock *B) const {
  return Control->closure(B);
}

const CFGBlock *
FunctionDependence::getImmediatePostDominator(const CFGBlock *B) const {
  return Control->immediatePostDominator(B);
}

bool FunctionDependence::reaches(const CFGBlock *From, const CFGBlock *To,
                                 const CFGBlock *Avoid) const {
  return Control->reaches(From, To, Avoid);
}

bool FunctionDependence::isEarlyReturn(const CFGBlock *C,
                                       const CFGBlock *B) const {
  return Control->isEarlyExit(C, B);
}

bool FunctionDependence::isTailCall(const CallExpr *Call,
                                    const CFGBlock *B) const {
  return Control->isTailCall(Call, B, Function);
}

DepSet FunctionDependence::getVariableDeps(const VarDecl *VD) const {
  return VariableDeps.lookup(VD);
}

llvm::ArrayRef<DepSet>
FunctionDependence::getArgumentDeps(const CallExpr *CE) const {
  auto It = Calls.find(CE);
  if (It == Calls.end())
    return {};
  return It->second.Args;
}

DepSet FunctionDependence::getObjectDeps(const CallExpr *CE) const {
  auto It = Calls.find(CE);
  return It == Calls.end() ? 0 : It->second.Object;
}

llvm::ArrayRef<DepSet>
FunctionDependence::getObjectMemberDeps(const CallExpr *CE) const {
  auto It = Calls.find(CE);
  if (It == Calls.end())
    return {};
  return It->second.ObjectMembers;
}

ThreadWitness FunctionDependence::getArgumentWitness(const CallExpr *CE,
                                                     unsigned Index) const {
  auto It = Calls.find(CE);
  if (It == Calls.end() || Index >= It->second.ArgWitnesses.size())
    return {};
  return It->second.ArgWitnesses[Index];
}

//===----------------------------------------------------------------------===//
// The cache
//===----------------------------------------------------------------------===//

/// The results of one translation unit under one set of options.
struct ThreadDependenceAnalysis::Store {
  Store(ASTContext &Context, const DependenceOptions &Options)
      : Context(&Context), Options(Options), Manager(Context) {
    Manager.getCFGBuildOptions().setAllAlwaysAdd();
    // Constructors' member initialisers, as elements of their CFGs.
    Manager.getCFGBuildOptions().AddInitializers = true;
    // The destructors of locals where their scopes end: code a thread runs
    // on its way out of the kernel (ControlFacts). Only classes whose
    // destructor is not trivial add elements.
    Manager.getCFGBuildOptions().AddImplicitDtors = true;
  }

  const ASTContext *Context;
  DependenceOptions Options;
  AnalysisDeclContextManager Manager;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<FunctionDependence>>
      Results;
  llvm::DenseMap<const FunctionDecl *, bool> InProgress;
  /// The bodies past the size limit, and for each analysed body those its
  /// analysis met (itself or callees, transitively), so that a later asker
  /// of a cached body hears of them too.
  llvm::DenseMap<const FunctionDecl *, unsigned> Oversized;
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<const FunctionDecl *, 1>>
      Met;
  /// The bodies being built, innermost last: each collects what it meets.
  llvm::SmallVector<llvm::SmallVector<const FunctionDecl *, 1>, 4> Building;
};

namespace {
/// The live stores. A check's analysis holds its store; the registry only
/// finds it for the other checks of the same translation unit, which may run
/// on another thread's translation unit in clangd, hence the lock. An
/// expired entry is dropped when met, so that an ASTContext allocated later
/// at the same address starts afresh.
struct StoreRegistry {
  std::mutex Lock;
  std::vector<std::weak_ptr<ThreadDependenceAnalysis::Store>> Stores;
};
StoreRegistry &registry() {
  static StoreRegistry R;
  return R;
}
} // namespace

ThreadDependenceAnalysis::ThreadDependenceAnalysis(ASTContext &Context,
                                                   DependenceOptions Options)
    : Context(Context), Options(Options) {
  StoreRegistry &R = registry();
  std::lock_guard<std::mutex> Guard(R.Lock);
  llvm::erase_if(R.Stores, [](const auto &W) { return W.expired(); });
  for (const auto &W : R.Stores)
    if (std::shared_ptr<Store> S = W.lock())
      if (S->Context == &Context && S->Options == Options) {
        Shared = std::move(S);
        return;
      }
  Shared = std::make_shared<Store>(Context, Options);
  R.Stores.push_back(Shared);
}

ThreadDependenceAnalysis::~ThreadDependenceAnalysis() {
  // Release the store under the lock: the last release destroys it, and
  // another thread must not lock() it half-destroyed.
  std::lock_guard<std::mutex> Guard(registry().Lock);
  Shared.reset();
}

void ThreadDependenceAnalysis::noteOversized(const FunctionDecl *FD,
                                             unsigned Blocks) {
  if (OversizedSeen.insert(FD).second)
    OversizedBodies.push_back({FD, Blocks});
}

const FunctionDependence *
ThreadDependenceAnalysis::analyze(const FunctionDecl *FD) {
  const FunctionDecl *Definition = nullptr;
  if (!FD->hasBody(Definition) || !Definition)
    return nullptr;
  FD = Definition;
  Store &S = *Shared;
  // What this body's analysis met, for this asker and for the bodies being
  // built around the question.
  auto Replay = [&](const FunctionDecl *Body) {
    auto It = S.Met.find(Body);
    if (It == S.Met.end())
      return;
    for (const FunctionDecl *Big : It->second) {
      noteOversized(Big, S.Oversized.lookup(Big));
      for (auto &Frame : S.Building)
        if (!llvm::is_contained(Frame, Big))
          Frame.push_back(Big);
    }
  };
  auto It = S.Results.find(FD);
  if (It != S.Results.end()) {
    Replay(FD);
    return It->second.get();
  }
  if (S.InProgress.lookup(FD))
    return nullptr;
  if (FD->isDependentContext())
    return nullptr;

  AnalysisDeclContext *AC = S.Manager.getContext(FD);
  CFG *Graph = AC ? AC->getCFG() : nullptr;
  if (!Graph) {
    S.Results[FD] = nullptr;
    return nullptr;
  }
  // The reach sets are quadratic in memory (a bit per pair of blocks), so
  // there is a limit; the checks tell the user about every body past it.
  if (Graph->getNumBlockIDs() > Options.MaxBlocks) {
    S.Results[FD] = nullptr;
    S.Oversized[FD] = Graph->getNumBlockIDs();
    S.Met[FD].push_back(FD);
    Replay(FD);
    return nullptr;
  }

  S.InProgress[FD] = true;
  S.Building.emplace_back();
  std::unique_ptr<FunctionDependence> Result(new FunctionDependence());
  Result->Function = FD;
  Result->Kernel = FD->hasAttr<CUDAGlobalAttr>();
  Result->EarlyExitsAreBenign =
      Result->Kernel && !Options.ExitedThreadsHoldBarriers;
  Result->Graph = Graph;
  Result->Control = std::make_unique<ControlFacts>(Graph, FD->getBody());
  DependenceFixpoint(*this, *Result, *AC).run();
  S.InProgress[FD] = false;
  llvm::SmallVector<const FunctionDecl *, 1> Met = S.Building.pop_back_val();
  if (!Met.empty())
    S.Met[FD] = std::move(Met);
  Replay(FD);
  return (S.Results[FD] = std::move(Result)).get();
}

const FunctionSummary *
ThreadDependenceAnalysis::getSummary(const FunctionDecl *FD) {
  const FunctionDependence *Result = analyze(FD);
  return Result ? &Result->getSummary() : nullptr;
}

} // namespace clang::cuda_tidy
