//===--- ControlFacts.cpp - Control dependence, reachability, exits -------===//
//
// See ControlFacts.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/ControlFacts.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "model/SyncEvents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/PostOrderIterator.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <algorithm>

namespace clang::cuda_tidy {

/// Whether destroying an object of type \p T runs no code: its destructor
/// is trivial, or has an empty body and so do those of its bases and
/// members.
static bool destructionDoesNothing(QualType T, unsigned Depth = 0) {
  const auto *RD = T->getBaseElementTypeUnsafe()->getAsCXXRecordDecl();
  if (!RD || !(RD = RD->getDefinition()) || RD->hasTrivialDestructor())
    return true;
  const CXXDestructorDecl *Destructor = RD->getDestructor();
  if (!Destructor || Depth > 8)
    return false;
  // An implicit or defaulted destructor that Sema has not defined has no
  // body, and its code is that of the bases' and members' destructors.
  const FunctionDecl *Definition = nullptr;
  if (Destructor->hasBody(Definition)) {
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
    if (!Body || !Body->body_empty())
      return false;
  } else if (!Destructor->isDefaulted()) {
    return false;
  }
  for (const CXXBaseSpecifier &Base : RD->bases())
    if (!destructionDoesNothing(Base.getType(), Depth + 1))
      return false;
  for (const FieldDecl *Field : RD->fields())
    if (!destructionDoesNothing(Field->getType(), Depth + 1))
      return false;
  return true;
}

/// Whether leaving the scope of \p VD runs no code: no destructor of its
/// own, and none of a temporary its reference binds to.
static bool leavingScopeDoesNothing(const VarDecl *VD) {
  if (!VD->hasLocalStorage())
    return true;
  if (VD->getType()->isReferenceType()) {
    const auto *Temporary = dyn_cast_or_null<MaterializeTemporaryExpr>(
        VD->getInit() ? VD->getInit()->IgnoreImplicit() : nullptr);
    return !Temporary || destructionDoesNothing(Temporary->getType());
  }
  return destructionDoesNothing(VD->getType());
}

/// Whether \p E is code a thread runs: a statement other than `return`, or
/// the destruction of an object whose destructor runs code. The CFG lists
/// the destructors of locals where their scopes end (on every way out,
/// `return` included), after the statements.
static bool isCodeElement(const CFGElement &E) {
  if (auto CS = E.getAs<CFGStmt>())
    return !isa<ReturnStmt>(CS->getStmt());
  if (auto Auto = E.getAs<CFGAutomaticObjDtor>())
    return !leavingScopeDoesNothing(Auto->getVarDecl());
  if (auto Base = E.getAs<CFGBaseDtor>())
    return !destructionDoesNothing(Base->getBaseSpecifier()->getType());
  if (auto Member = E.getAs<CFGMemberDtor>())
    return !destructionDoesNothing(Member->getFieldDecl()->getType());
  if (auto Temporary = E.getAs<CFGTemporaryDtor>())
    return !destructionDoesNothing(
        Temporary->getBindTemporaryExpr()->getType());
  return E.getAs<CFGImplicitDtor>().has_value();
}

/// A compiler builtin or a function of the toolkit's or the C++ library's
/// headers (`fmaxf`, `__builtin_inff`): they neither wait nor touch shared
/// memory that the caller did not pass them.
static bool isLibraryCall(const CallExpr *CE) {
  const FunctionDecl *FD = CE->getDirectCallee();
  if (!FD)
    return false;
  return FD->getBuiltinID() != 0 ||
         FD->getASTContext().getSourceManager().isInSystemHeader(
             FD->getLocation());
}

static bool touchesOtherThreads(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return isSharedVariable(VD);
  if (isa<AsmStmt>(S))
    return true;
  if (const auto *CE = dyn_cast<CallExpr>(S))
    if (!classifySync(CE).Modelled && !isLibraryCall(CE))
      return true;
  for (const Stmt *Child : S->children())
    if (touchesOtherThreads(Child))
      return true;
  return false;
}

/// Whether \p S only reads locals, constants and the built-in indices,
/// and computes from them: no call, no load through a pointer, no store.
/// Run again, it gives the same value while none of its variables is
/// written.
static bool isPureComputation(const Stmt *S) {
  if (!S)
    return true;
  if (const auto *E = dyn_cast<Expr>(S); E && getBuiltinIndexRef(E, nullptr))
    return true;
  if (isa<CallExpr, CXXConstructExpr, AsmStmt, LambdaExpr, ArraySubscriptExpr,
          StmtExpr>(S))
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(S); ME && ME->isArrow())
    return false;
  if (const auto *UO = dyn_cast<UnaryOperator>(S);
      UO && (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_Deref))
    return false;
  if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->isAssignmentOp())
    return false;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return !isSharedVariable(VD) && !VD->getType().isVolatileQualified() &&
             (VD->hasLocalStorage() || VD->isConstexpr());
  for (const Stmt *Child : S->children())
    if (!isPureComputation(Child))
      return false;
  return true;
}

static bool containsDecl(const Stmt *S, const VarDecl *VD) {
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    return llvm::is_contained(DS->decls(), VD);
  for (const Stmt *Child : S->children())
    if (Child && containsDecl(Child, VD))
      return true;
  return false;
}

/// Whether \p Cond has the same value in every iteration of \p Loop: the
/// variables it reads are not written in the loop, or are declared in its
/// body from values that are the same in every iteration.
static bool isLoopInvariant(const Expr *Cond, const Stmt *Loop,
                            unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 8> Read;
  collectVariables(Cond, Read);
  for (const VarDecl *VD : Read) {
    if (getBuiltinIndexKind(VD))
      continue; // `blockIdx.x` names the variable without writing it.
    llvm::SmallPtrSet<const VarDecl *, 1> One{VD};
    if (writesAny(Loop, One))
      return false;
    bool DeclaredInside = false;
    for (const Stmt *Child : Loop->children())
      if (Child && containsDecl(Child, VD))
        DeclaredInside = true;
    if (DeclaredInside &&
        (!VD->getInit() || !isLoopInvariant(VD->getInit(), Loop, Depth + 1)))
      return false;
  }
  return true;
}

/// Whether \p S is, or is part of, a call without arguments to a function
/// whose definition has an empty body: no action. CUTLASS's kernels end with
/// `cutlass::arch::synclog_print()`, empty unless a debug macro is set.
static bool isEmptyCallPart(const Stmt *S) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    return isa<FunctionDecl>(Ref->getDecl());
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S))
    return Cast->getCastKind() == CK_FunctionToPointerDecay;
  const auto *Call = dyn_cast<CallExpr>(S);
  if (!Call || Call->getNumArgs() != 0 || isa<CXXMemberCallExpr>(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee || !Callee->hasBody(Definition))
    return false;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  return Body && Body->body_empty();
}

/// Whether \p S destroys a temporary whose destructor runs code: the end of
/// a full expression.
static bool destroysTemporaryWithCode(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(S))
    if (!destructionDoesNothing(Bind->getType()))
      return true;
  for (const Stmt *Child : S->children())
    if (destroysTemporaryWithCode(Child))
      return true;
  return false;
}

ControlFacts::ControlFacts(CFG *Graph, const Stmt *Body)
    : Graph(Graph), PostDom(Graph), Blocks(Graph->getNumBlockIDs()),
      Frontier(Graph->getNumBlockIDs()), BarrierBlocks(Graph->getNumBlockIDs()),
      Body(Body) {
  for (const CFGBlock *B : *Graph)
    Blocks[B->getBlockID()] = B;
  computeFrontiers();
}

void ControlFacts::computeFrontiers() {
  auto &Tree = PostDom.getBase();
  Tree.updateDFSNumbers();
  constexpr unsigned None = ~0u;
  std::vector<unsigned> ListedFor(Blocks.size(), None);
  for (DomTreeNode *Node : llvm::post_order(Tree.getRootNode())) {
    const CFGBlock *B = Node->getBlock();
    if (!B)
      continue; // The virtual root of a tree with several exits.
    unsigned Level = Node->getLevel(), ID = B->getBlockID();
    auto &List = Frontier[ID];
    auto Add = [&](const CFGBlock *P) {
      const DomTreeNode *PNode = Tree.getNode(P);
      if (!PNode || PNode->getLevel() > Level ||
          ListedFor[P->getBlockID()] == ID)
        return;
      ListedFor[P->getBlockID()] = ID;
      List.push_back(P);
    };
    for (const CFGBlock *P : B->preds())
      if (P)
        Add(P);
    for (auto It = Node->end(); It != Node->begin();) {
      --It;
      for (const CFGBlock *P : Frontier[(*It)->getBlock()->getBlockID()])
        Add(P);
    }
  }
}

const llvm::SmallVector<const CFGBlock *, 4> &
ControlFacts::closure(const CFGBlock *B) {
  auto It = Closure.find(B);
  if (It != Closure.end())
    return It->second;
  llvm::SmallVector<const CFGBlock *, 4> Order;
  const auto &Tree = PostDom.getBase();
  using Key = std::pair<unsigned, unsigned>;
  auto KeyOf = [&](const CFGBlock *X) {
    const DomTreeNode *Node = Tree.getNode(X);
    return Key(Node->getLevel(), Node->getDFSNumIn());
  };
  auto Deeper = [](const std::pair<Key, const CFGBlock *> &A,
                   const std::pair<Key, const CFGBlock *> &B) {
    return A.first < B.first;
  };
  llvm::SmallVector<std::pair<Key, const CFGBlock *>, 8> Queue;
  llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
  if (Tree.getNode(B))
    Queue.push_back({KeyOf(B), B});
  while (!Queue.empty()) {
    std::pop_heap(Queue.begin(), Queue.end(), Deeper);
    const CFGBlock *Root = Queue.pop_back_val().second;
    for (const CFGBlock *Dep : Frontier[Root->getBlockID()]) {
      if (!Seen.insert(Dep).second || Dep == B)
        continue;
      Order.push_back(Dep);
      Queue.push_back({KeyOf(Dep), Dep});
      std::push_heap(Queue.begin(), Queue.end(), Deeper);
    }
  }
  return Closure[B] = std::move(Order);
}

void ControlFacts::computeComponents() {
  unsigned N = Blocks.size();
  constexpr unsigned Unvisited = ~0u;
  ComponentOf.assign(N, Unvisited);
  std::vector<unsigned> Index(N, Unvisited), LowLink(N, 0);
  std::vector<unsigned> Stack;
  std::vector<bool> OnStack(N, false);
  std::vector<std::vector<unsigned>> Members;
  unsigned NextIndex = 0;
  auto Successors = [&](unsigned ID) {
    llvm::SmallVector<unsigned, 2> Result;
    if (const CFGBlock *B = Blocks[ID])
      for (const CFGBlock *S : B->succs())
        if (S)
          Result.push_back(S->getBlockID());
    return Result;
  };
  struct Frame {
    unsigned ID;
    llvm::SmallVector<unsigned, 2> Succs;
    unsigned Next = 0;
  };
  for (unsigned Start = 0; Start < N; ++Start) {
    if (Index[Start] != Unvisited)
      continue;
    std::vector<Frame> Frames;
    auto Enter = [&](unsigned ID) {
      Index[ID] = LowLink[ID] = NextIndex++;
      Stack.push_back(ID);
      OnStack[ID] = true;
      Frames.push_back({ID, Successors(ID)});
    };
    Enter(Start);
    while (!Frames.empty()) {
      Frame &F = Frames.back();
      if (F.Next < F.Succs.size()) {
        unsigned S = F.Succs[F.Next++];
        if (Index[S] == Unvisited)
          Enter(S);
        else if (OnStack[S])
          LowLink[F.ID] = std::min(LowLink[F.ID], Index[S]);
        continue;
      }
      unsigned ID = F.ID;
      Frames.pop_back();
      if (!Frames.empty())
        LowLink[Frames.back().ID] =
            std::min(LowLink[Frames.back().ID], LowLink[ID]);
      if (LowLink[ID] != Index[ID])
        continue;
      unsigned Component = Members.size();
      Members.emplace_back();
      unsigned Member;
      do {
        Member = Stack.back();
        Stack.pop_back();
        OnStack[Member] = false;
        ComponentOf[Member] = Component;
        Members.back().push_back(Member);
      } while (Member != ID);
    }
  }
  ComponentReach.assign(Members.size(), llvm::BitVector());
  for (unsigned Component = 0; Component < Members.size(); ++Component) {
    llvm::BitVector Reach(N);
    for (unsigned Member : Members[Component]) {
      Reach.set(Member);
      for (unsigned S : Successors(Member))
        if (ComponentOf[S] != Component)
          Reach |= ComponentReach[ComponentOf[S]];
    }
    ComponentReach[Component] = std::move(Reach);
  }
}

const llvm::BitVector &ControlFacts::reach(const CFGBlock *From) {
  if (ComponentOf.empty())
    computeComponents();
  return ComponentReach[ComponentOf[From->getBlockID()]];
}

bool ControlFacts::onCycle(const CFGBlock *B) {
  return llvm::any_of(B->succs(), [&](const CFGBlock *N) {
    return N && reach(N).test(B->getBlockID());
  });
}

llvm::BitVector ControlFacts::reachableFrom(const CFGBlock *From,
                                            const CFGBlock *Avoid) {
  if (From != Avoid && !reach(From).test(Avoid->getBlockID()))
    return reach(From);
  auto Key = std::make_pair(From, Avoid);
  auto It = ReachAvoiding.find(Key);
  if (It != ReachAvoiding.end())
    return It->second;
  llvm::BitVector Seen(Graph->getNumBlockIDs());
  llvm::SmallVector<const CFGBlock *, 16> Work{From};
  Seen.set(From->getBlockID());
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    for (const CFGBlock *Succ : B->succs()) {
      if (!Succ || Succ == Avoid || Seen.test(Succ->getBlockID()))
        continue;
      Seen.set(Succ->getBlockID());
      Work.push_back(Succ);
    }
  }
  return ReachAvoiding[Key] = std::move(Seen);
}

bool ControlFacts::reachesAvoiding(const CFGBlock *From, const CFGBlock *To,
                                   const CFGBlock *Avoid) {
  if (!reach(From).test(To->getBlockID()))
    return false;
  if (From == To)
    return true;
  return reachableFrom(From, Avoid).test(To->getBlockID());
}

bool ControlFacts::isObservable(const CFGBlock *B) {
  auto It = Observable.find(B);
  if (It != Observable.end())
    return It->second;
  bool Result = false;
  for (const CFGElement &E : *B) {
    auto CS = E.getAs<CFGStmt>();
    if (CS ? touchesOtherThreads(CS->getStmt()) : isCodeElement(E)) {
      Result = true;
      break;
    }
  }
  return Observable[B] = Result;
}

bool ControlFacts::isNoisy(const CFGBlock *R) {
  return BarrierBlocks.test(R->getBlockID()) ||
         !reach(R).test(Graph->getExit().getBlockID()) || isObservable(R) ||
         onCycle(R);
}

bool ControlFacts::isExitRegion(const CFGBlock *S) {
  if (!ExitRegionsKnown) {
    reach(S);
    ReachesNoisyBlock.resize(ComponentReach.size());
    std::vector<std::vector<unsigned>> Members(ComponentReach.size());
    for (unsigned ID = 0; ID < Blocks.size(); ++ID)
      Members[ComponentOf[ID]].push_back(ID);
    const CFGBlock *Exit = &Graph->getExit();
    for (unsigned Component = 0; Component < Members.size(); ++Component) {
      bool Noisy = false;
      for (unsigned ID : Members[Component]) {
        const CFGBlock *R = Blocks[ID];
        if (!R)
          continue;
        if (R != Exit && isNoisy(R))
          Noisy = true;
        for (const CFGBlock *Succ : R->succs())
          if (Succ && ReachesNoisyBlock.test(ComponentOf[Succ->getBlockID()]))
            Noisy = true;
      }
      if (Noisy)
        ReachesNoisyBlock.set(Component);
    }
    ExitRegionsKnown = true;
  }
  return !ReachesNoisyBlock.test(ComponentOf[S->getBlockID()]);
}

bool ControlFacts::isEarlyExit(const CFGBlock *C, const CFGBlock *X) {
  auto Key = std::make_pair(C, X);
  auto It = EarlyExit.find(Key);
  if (It != EarlyExit.end())
    return It->second;
  bool AnyAvoiding = false;
  bool AllExit = true;
  llvm::BitVector AfterX; // Blocks X reaches without passing through C.
  for (const CFGBlock *S : C->succs()) {
    if (!S || reach(S).test(X->getBlockID()))
      continue;
    AnyAvoiding = true;
    if (!isExitRegion(S)) {
      AllExit = false;
      break;
    }
    // The leaving threads may share the way out with the threads that
    // went on to X (the end of a guard that wraps the rest of the body),
    // but not run code there while the others wait at X.
    if (AfterX.empty())
      AfterX = reachableFrom(X, C);
    llvm::BitVector Shared = reach(S);
    Shared &= AfterX;
    for (unsigned ID : Shared.set_bits())
      if (llvm::any_of(*Blocks[ID], isCodeElement)) {
        AllExit = false;
        break;
      }
    if (!AllExit)
      break;
  }
  bool Result = (AnyAvoiding && AllExit) || isLoopGuardExit(C, X);
  return EarlyExit[Key] = Result;
}

void ControlFacts::findGuardedLoops(const Stmt *S) {
  if (!S)
    return;
  const Stmt *LoopBody = nullptr;
  if (const auto *For = dyn_cast<ForStmt>(S))
    LoopBody = For->getBody();
  else if (const auto *While = dyn_cast<WhileStmt>(S))
    LoopBody = While->getBody();
  const IfStmt *Guard = dyn_cast_or_null<IfStmt>(LoopBody);
  if (const auto *Compound = dyn_cast_or_null<CompoundStmt>(LoopBody);
      Compound && !Compound->body_empty()) {
    Guard = dyn_cast<IfStmt>(Compound->body_back());
    for (const Stmt *Before : llvm::drop_end(Compound->body()))
      if (!isa<DeclStmt>(Before) || !isPureComputation(Before))
        Guard = nullptr;
  }
  if (Guard && !Guard->getElse() && !Guard->getInit() &&
      !Guard->hasVarStorage() && !Guard->isConsteval() &&
      isPureComputation(Guard->getCond()))
    GuardedLoops[Guard] = S;
  for (const Stmt *Child : S->children())
    findGuardedLoops(Child);
}

bool ControlFacts::isLoopGuardExit(const CFGBlock *C, const CFGBlock *X) {
  const auto *If = dyn_cast_or_null<IfStmt>(C->getTerminatorStmt());
  if (!If || C->succ_size() != 2)
    return false;
  if (!GuardedLoopsKnown) {
    findGuardedLoops(Body);
    GuardedLoopsKnown = true;
  }
  auto Found = GuardedLoops.find(If);
  if (Found == GuardedLoops.end())
    return false;
  const Stmt *Loop = Found->second;
  const CFGBlock *Then = *C->succ_begin(), *Skip = *(C->succ_begin() + 1);
  const CFGBlock *Header = nullptr;
  for (const CFGBlock *B : Blocks)
    if (B && B->getTerminatorStmt() == Loop)
      Header = B;
  if (!Then || !Skip || !Header || Header->succ_size() != 2 ||
      !isLoopInvariant(If->getCond(), Loop))
    return false;
  const CFGBlock *After = *(Header->succ_begin() + 1);
  if (!After || !reachesAvoiding(Then, X, Header) ||
      reachesAvoiding(Skip, X, Header) || isObservable(Header) ||
      BarrierBlocks.test(Header->getBlockID()) || !isExitRegion(After))
    return false;
  // On the way back to the loop's condition, only its increment.
  // Named: a range-for over set_bits() of the temporary would outlive it.
  llvm::BitVector Round = reachableFrom(Skip, Header);
  for (unsigned ID : Round.set_bits())
    if (Blocks[ID] != Header &&
        (isObservable(Blocks[ID]) || BarrierBlocks.test(ID)))
      return false;
  // After the loop, as for any exit, no code the threads at X run later.
  llvm::BitVector Shared = reach(After);
  Shared &= reachableFrom(X, C);
  for (unsigned ID : Shared.set_bits())
    if (llvm::any_of(*Blocks[ID], isCodeElement))
      return false;
  return true;
}

const CFGBlock *ControlFacts::immediatePostDominator(const CFGBlock *B) {
  const auto *Node = PostDom.getBase().getNode(B);
  const auto *Parent = Node ? Node->getIDom() : nullptr;
  return Parent ? Parent->getBlock() : nullptr;
}

bool ControlFacts::reaches(const CFGBlock *From, const CFGBlock *To,
                           const CFGBlock *Avoid) {
  if (!Avoid)
    return reach(From).test(To->getBlockID());
  return reachesAvoiding(From, To, Avoid);
}

bool ControlFacts::isTailCall(const CallExpr *Call, const CFGBlock *B,
                              const FunctionDecl *Function) const {
  // Nothing after the call in its block but the call's own full expression,
  // calls that do nothing and a `return;`, and nothing but empty blocks on
  // to the exit. Destructors count: the locals alive at the call are
  // destroyed after it, on the way out, and one that runs code (waits at a
  // barrier, touches shared memory) is an action after the call.
  bool Seen = false;
  for (const CFGElement &E : *B) {
    auto CS = E.getAs<CFGStmt>();
    if (!CS) {
      if (Seen && isCodeElement(E))
        return false;
      continue;
    }
    if (CS->getStmt() == Call) {
      Seen = true;
      continue;
    }
    if (!Seen)
      continue;
    const auto *Ret = dyn_cast<ReturnStmt>(CS->getStmt());
    const auto *Cleanups = dyn_cast<ExprWithCleanups>(CS->getStmt());
    if (Cleanups && destroysTemporaryWithCode(Cleanups))
      return false;
    if (!(Ret && !Ret->getRetValue()) && !Cleanups &&
        !isEmptyCallPart(CS->getStmt()))
      return false;
  }
  // A by-value parameter is destroyed at the end too, and the CFG does not
  // list it.
  if (!Seen || !llvm::all_of(Function->parameters(), leavingScopeDoesNothing))
    return false;
  const CFGBlock *Exit = &Graph->getExit();
  llvm::SmallVector<const CFGBlock *, 4> Work(B->succ_begin(), B->succ_end());
  llvm::SmallPtrSet<const CFGBlock *, 8> Visited;
  while (!Work.empty()) {
    const CFGBlock *Next = Work.pop_back_val();
    if (!Next || Next == Exit || !Visited.insert(Next).second)
      continue;
    if (llvm::any_of(*Next, isCodeElement))
      return false;
    Work.append(Next->succ_begin(), Next->succ_end());
  }
  return true;
}

void ControlFacts::markBarrierBlock(const CFGBlock *B) {
  BarrierBlocks.set(B->getBlockID());
}

} // namespace clang::cuda_tidy
