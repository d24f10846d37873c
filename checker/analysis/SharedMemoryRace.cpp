//===--- SharedMemoryRace.cpp - Unordered shared-memory accesses ----------===//
//
// See SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/SharedMemoryRace.h"
#include "analysis/CudaModel.h"
#include "analysis/SymbolicIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <chrono>
#include <deque>
#include <functional>
#include <iterator>

namespace clang::cuda_tidy {

SharedRaceHandler::~SharedRaceHandler() = default;

namespace {

/// One access to shared memory.
struct Access {
  const Expr *E = nullptr;     // The lvalue (or pointer for atomics).
  const CallExpr *Via = nullptr; // The call when E is inside a callee.
  const Stmt *Anchor = nullptr; // The element that performs it.
  const CFGBlock *Block = nullptr;
  unsigned Index = 0;          // Position in the block.
  const void *Object = nullptr; // The variable, or the dynamic pool.
  const VarDecl *Var = nullptr;
  SymId Offset = -1;
  std::int64_t Width = 0;
  AccessKind Kind = AccessKind::Read;
  bool Volatile = false;
  llvm::SmallVector<std::pair<SymId, bool>, 2> Guards;
  bool UnknownGuard = false;
  /// For each access: reached from this one without a block barrier
  /// (bit 1: in the same pass of the enclosing loops; bit 2: after going
  /// round a loop), and the same without any warp-level sync either.
  std::vector<std::uint8_t> Reach, WarpReach;

  bool writes() const { return Kind != AccessKind::Read; }
};

/// Where an lvalue lives in shared memory.
struct Location {
  const void *Object = nullptr;
  const VarDecl *Var = nullptr;
  SymId Offset = -1;
};

// The dynamic pool: every `extern __shared__` declaration names it.
const char DynamicPool = 0;

bool isShared(const VarDecl *VD) { return VD && VD->hasAttr<CUDASharedAttr>(); }

class KernelRaceFinder {
public:
  KernelRaceFinder(ThreadDependenceAnalysis &Dependence,
                   const FunctionDependence &Deps, SharedRaceHandler &Handler,
                   const RaceOptions &Options, const FunctionDecl *Kernel)
      : Context(Dependence.getContext()), Deps(Deps), Handler(Handler),
        Options(Options), Kernel(Kernel),
        Sym(Dependence.getContext(), Kernel, &Deps),
        Parents(const_cast<Stmt *>(Kernel->getBody())) {}

  void run(llvm::ArrayRef<BlockShape> Shapes);

private:
  // Collection.
  std::optional<Location> locate(const Expr *LValue, unsigned Depth = 0);
  std::optional<Location> locatePointer(const Expr *Pointer,
                                        unsigned Depth = 0);
  SymId plus(SymId Base, const Expr *Index, QualType Element, bool Negate);
  void collect();
  void addAccess(const Expr *LValue, const Stmt *Anchor, const CFGBlock *B,
                 unsigned Index, AccessKind Kind, bool ThroughPointer,
                 const CallExpr *Via = nullptr, bool InsideCondition = false);
  void inlineCall(const CallExpr *CE, const CFGBlock *B, unsigned Index);
  void computeGuards(Access &A);
  void computeConcurrency();
  void walk(const CFGBlock *From, unsigned FromIndex, bool StopAtWarpSync,
            std::vector<std::uint8_t> &Out) const;

  // Deciding.
  struct Scenario {
    /// Per loop atom: 0 same iteration, +1 B one later, -1 B one earlier,
    /// 2 any two iterations, 3 both in the first, 6/7 A in the last/first
    /// (B anywhere), 8/9 B in the last/first (A anywhere).
    llvm::SmallVector<int, 4> Relation;
    /// +1 when B comes second, -1 when A does, 0 when either may.
    int Order = 0;
    /// The second access is reached by going round a loop from the first.
    bool LaterIteration = false;
    bool DifferentWarpsOnly = false;
  };
  struct Witness {
    std::int64_t ThreadA = 0, ThreadB = 0, Byte = 0;
    llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> LoopA, LoopB;
  };
  enum class Verdict { None, Possible, Definite, Skip };
  Verdict decide(const Access &A, const Access &B, const BlockShape &Shape,
                 const Scenario &S, llvm::ArrayRef<unsigned> Atoms,
                 Witness &W);
  void checkPair(Access &A, Access &B, const BlockShape &Shape);
  std::string describeElement(const Access &A, std::int64_t Byte) const;
  std::string describeThread(std::int64_t Linear, const BlockShape &S) const;
  const Stmt *certainBarrierPlace(const Access &First, const Access &Second);
  bool isInside(const Stmt *S, const Stmt *Outer) const {
    for (const Stmt *Cur = S; Cur; Cur = Parents.getParent(Cur))
      if (Cur == Outer)
        return true;
    return false;
  }
  bool loopHasBarrier(const Stmt *Loop) const {
    for (const Start &St : Starts)
      if (St.Block && isInside(St.Call, Loop))
        return true;
    return false;
  }
  bool isBefore(const Access &A, const Access &B) const;

  ASTContext &Context;
  const FunctionDependence &Deps;
  SharedRaceHandler &Handler;
  const RaceOptions &Options;
  const FunctionDecl *Kernel;
  SymbolicTranslator Sym;
  ParentMap Parents;
  std::vector<Access> Accesses;
  // Synchronisation points: block barriers and warp-level syncs.
  struct Start {
    const Stmt *Call = nullptr;
    bool Block = false; // A block barrier (else a warp-level sync).
  };
  std::vector<Start> Starts;
  llvm::DenseMap<const Stmt *, unsigned> StartOf;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 1>> AccessesAt;
  /// Parameters of the callee being inlined that point into shared memory.
  llvm::DenseMap<const VarDecl *, Location> Bindings;
  /// Thread-dependent branches, and for each side the accesses reached from
  /// it without a block barrier (and without a warp sync), as in Reach.
  struct Divergence {
    const CFGBlock *Branch = nullptr;
    std::vector<std::vector<std::uint8_t>> Sides, WarpSides;
  };
  std::vector<Divergence> Divergences;
  llvm::SmallPtrSet<const Expr *, 16> Reported;
  std::uint64_t Budget = 40'000'000; // Evaluations per kernel.
};

SymId KernelRaceFinder::plus(SymId Base, const Expr *Index, QualType Element,
                             bool Negate) {
  if (Element->isIncompleteType() || Element->isDependentType())
    return Sym.translate(nullptr);
  std::int64_t Size = Context.getTypeSizeInChars(Element).getQuantity();
  SymId Scaled =
      Sym.binary(SymNode::Mul, Sym.translate(Index), Sym.constant(Size));
  return Sym.binary(Negate ? SymNode::Sub : SymNode::Add, Base, Scaled);
}

std::optional<Location> KernelRaceFinder::locate(const Expr *E,
                                                 unsigned Depth) {
  if (Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    auto Bound = VD ? Bindings.find(VD) : Bindings.end();
    if (Bound != Bindings.end() && VD->getType()->isReferenceType())
      return Bound->second;
    if (isShared(VD)) {
      Location L;
      L.Var = VD;
      L.Object = VD->getType()->isIncompleteArrayType()
                     ? static_cast<const void *>(&DynamicPool)
                     : static_cast<const void *>(VD->getCanonicalDecl());
      L.Offset = Sym.constant(0);
      return L;
    }
    // A reference bound once to shared memory.
    if (VD && VD->getType()->isReferenceType() && VD->hasLocalStorage() &&
        VD->getInit() && Sym.assignmentsTo(VD) == 0)
      return locate(VD->getInit(), Depth + 1);
    return std::nullopt;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    auto L = locatePointer(ASE->getBase(), Depth + 1);
    if (L)
      L->Offset = plus(L->Offset, ASE->getIdx(), ASE->getType(), false);
    return L;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field || Field->isBitField())
      return std::nullopt;
    auto L = ME->isArrow() ? locatePointer(ME->getBase(), Depth + 1)
                           : locate(ME->getBase(), Depth + 1);
    if (L)
      L->Offset = Sym.binary(
          SymNode::Add, L->Offset,
          Sym.constant(Context.getFieldOffset(Field) /
                       Context.getCharWidth()));
    return L;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return locatePointer(UO->getSubExpr(), Depth + 1);
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    if (Cast->getCastKind() == CK_NoOp || Cast->getCastKind() == CK_LValueBitCast)
      return locate(Cast->getSubExpr(), Depth + 1);
  return std::nullopt;
}

std::optional<Location> KernelRaceFinder::locatePointer(const Expr *E,
                                                        unsigned Depth) {
  if (Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *Full = dyn_cast<FullExpr>(E))
    E = Full->getSubExpr()->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return locate(Cast->getSubExpr(), Depth + 1);
    case CK_LValueToRValue: {
      // A local pointer variable set once.
      const auto *DRE =
          dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
      const auto *VD = DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
      auto Bound = VD ? Bindings.find(VD) : Bindings.end();
      if (Bound != Bindings.end())
        return Bound->second;
      if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
          VD->getInit() && Sym.assignmentsTo(VD) == 0)
        return locatePointer(VD->getInit(), Depth + 1);
      return std::nullopt;
    }
    case CK_NoOp:
    case CK_BitCast:
    case CK_UserDefinedConversion:
      return locatePointer(Cast->getSubExpr(), Depth + 1);
    default:
      return std::nullopt;
    }
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (!BO->isAdditiveOp())
      return std::nullopt;
    bool LeftIsPointer = BO->getLHS()->getType()->isPointerType();
    const Expr *Ptr = LeftIsPointer ? BO->getLHS() : BO->getRHS();
    const Expr *Idx = LeftIsPointer ? BO->getRHS() : BO->getLHS();
    auto L = locatePointer(Ptr, Depth + 1);
    if (L)
      L->Offset = plus(L->Offset, Idx, Ptr->getType()->getPointeeType(),
                       BO->getOpcode() == BO_Sub);
    return L;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return locate(UO->getSubExpr(), Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // An accessor such as SharedMemory<T>::operator T*(): no parameters,
    // declarations and one return of a pointer into shared memory.
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || Callee->getNumParams() != 0 || !Callee->hasBody())
      return std::nullopt;
    const auto *Body = dyn_cast<CompoundStmt>(Callee->getBody());
    if (!Body || Body->size() == 0)
      return std::nullopt;
    for (const Stmt *S : Body->body())
      if (S != Body->body_back() && !isa<DeclStmt>(S))
        return std::nullopt;
    const auto *Ret = dyn_cast<ReturnStmt>(Body->body_back());
    if (!Ret || !Ret->getRetValue())
      return std::nullopt;
    return locatePointer(Ret->getRetValue(), Depth + 1);
  }
  return std::nullopt;
}

void KernelRaceFinder::addAccess(const Expr *LValue, const Stmt *Anchor,
                                 const CFGBlock *B, unsigned Index,
                                 AccessKind Kind, bool ThroughPointer,
                                 const CallExpr *Via, bool InsideCondition) {
  auto L = ThroughPointer ? locatePointer(LValue) : locate(LValue);
  if (!L)
    return;
  QualType T = ThroughPointer ? LValue->getType()->getPointeeType()
                              : LValue->getType();
  if (T->isIncompleteType() || T->isDependentType())
    return;
  Access A;
  A.E = LValue;
  A.Anchor = Anchor;
  A.Block = B;
  A.Index = Index;
  A.Object = L->Object;
  A.Var = L->Var;
  A.Offset = L->Offset;
  A.Width = Context.getTypeSizeInChars(T).getQuantity();
  A.Kind = Kind;
  A.Volatile = T.isVolatileQualified();
  A.Via = Via;
  if (A.Width <= 0)
    return;
  computeGuards(A);
  // A condition inside the callee is not modelled: stay undecided.
  A.UnknownGuard |= InsideCondition;
  Accesses.push_back(std::move(A));
}

void KernelRaceFinder::computeGuards(Access &A) {
  for (const CFGBlock *C : Deps.getControlClosure(A.Block)) {
    if (!(Deps.getConditionDeps(C) & dep::Thread))
      continue;
    const auto *Cond = dyn_cast_or_null<Expr>(C->getTerminatorCondition());
    if (!Cond || C->succ_size() != 2) {
      A.UnknownGuard = true;
      continue;
    }
    const CFGBlock *True = *C->succ_begin();
    const CFGBlock *False = *(C->succ_begin() + 1);
    bool ViaTrue = True && Deps.reaches(True, A.Block, C);
    bool ViaFalse = False && Deps.reaches(False, A.Block, C);
    if (ViaTrue == ViaFalse)
      continue;
    SymId Guard = Sym.translate(Cond);
    if (Sym.isUnknown(Guard)) {
      A.UnknownGuard = true;
      continue;
    }
    A.Guards.push_back({Guard, ViaTrue});
  }
}

void KernelRaceFinder::collect() {
  for (const BarrierSite &Site : Deps.getBarrierSites()) {
    StartOf[Site.Call] = Starts.size() + 1;
    Starts.push_back({Site.Call, true});
  }
  const CFG &Graph = Deps.getCFG();
  for (const CFGBlock *B : Graph) {
    unsigned Index = 0;
    for (const CFGElement &Element : *B) {
      ++Index;
      auto CS = Element.getAs<CFGStmt>();
      if (!CS)
        continue;
      const Stmt *S = CS->getStmt();
      if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
        if (Cast->getCastKind() == CK_LValueToRValue)
          addAccess(Cast->getSubExpr(), S, B, Index, AccessKind::Read, false);
        continue;
      }
      if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
        if (BO->isAssignmentOp())
          addAccess(BO->getLHS(), S, B, Index,
                    BO->isCompoundAssignmentOp() ? AccessKind::ReadWrite
                                                 : AccessKind::Write,
                    false);
        continue;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->isIncrementDecrementOp())
          addAccess(UO->getSubExpr(), S, B, Index, AccessKind::ReadWrite,
                    false);
        continue;
      }
      const auto *CE = dyn_cast<CallExpr>(S);
      if (!CE)
        continue;
      CallModel Model = classifyCall(CE);
      if (Model.IsWarpSync && !StartOf.count(CE)) {
        StartOf[CE] = Starts.size() + 1;
        Starts.push_back({CE, false});
      }
      if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE)) {
        if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2)
          addAccess(OCE->getArg(0), S, B, Index,
                    OCE->getOperator() == OO_Equal ? AccessKind::Write
                                                   : AccessKind::ReadWrite,
                    false);
        continue;
      }
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (Callee && Callee->getIdentifier() &&
          (Callee->getName().starts_with("atomic") ||
           Callee->getName().starts_with("__atomic")) &&
          CE->getNumArgs() > 0 && CE->getArg(0)->getType()->isPointerType())
        addAccess(CE->getArg(0), S, B, Index, AccessKind::Atomic, true);
      else if (!Model.Modelled && Callee && Callee->hasBody())
        inlineCall(CE, B, Index);
    }
  }
}

namespace {

/// Finds the reads, writes and atomics in a callee's body, and whether each
/// sits under a condition or loop of the callee.
class CalleeAccessFinder : public RecursiveASTVisitor<CalleeAccessFinder> {
public:
  struct Found {
    const Expr *LValue;
    AccessKind Kind;
    bool ThroughPointer;
  };
  std::vector<Found> Accesses;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      Accesses.push_back({BO->getLHS(),
                          BO->isCompoundAssignmentOp() ? AccessKind::ReadWrite
                                                       : AccessKind::Write,
                          false});
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp())
      Accesses.push_back({UO->getSubExpr(), AccessKind::ReadWrite, false});
    return true;
  }
  bool VisitImplicitCastExpr(ImplicitCastExpr *Cast) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      Accesses.push_back({Cast->getSubExpr(), AccessKind::Read, false});
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (Callee && Callee->getIdentifier() &&
        Callee->getName().starts_with("atomic") && CE->getNumArgs() > 0 &&
        CE->getArg(0)->getType()->isPointerType())
      Accesses.push_back({CE->getArg(0), AccessKind::Atomic, true});
    return true;
  }
};

bool isUnderCondition(const Stmt *S, const ParentMap &Parents) {
  for (const Stmt *Cur = Parents.getParent(S); Cur;
       Cur = Parents.getParent(Cur)) {
    if (isa<IfStmt, ForStmt, WhileStmt, DoStmt, SwitchStmt, CXXForRangeStmt,
            AbstractConditionalOperator>(Cur))
      return true;
    if (const auto *BO = dyn_cast<BinaryOperator>(Cur))
      if (BO->isLogicalOp())
        return true;
  }
  return false;
}

} // namespace

void KernelRaceFinder::inlineCall(const CallExpr *CE, const CFGBlock *B,
                                  unsigned Index) {
  // A callee that reaches a barrier splits its accesses into intervals the
  // call site cannot show; leave it alone.
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee->hasBody(Definition) || !Definition ||
      Definition->isDependentContext() || isa<CXXMethodDecl>(Definition))
    return;
  for (const BarrierSite &Site : Deps.getBarrierSites())
    if (Site.Call == CE)
      return;
  llvm::SmallVector<SymId, 4> Arguments;
  for (unsigned I = 0; I < Definition->getNumParams() && I < CE->getNumArgs();
       ++I) {
    const ParmVarDecl *Param = Definition->getParamDecl(I);
    const Expr *Arg = CE->getArg(I);
    std::optional<Location> L;
    if (Param->getType()->isPointerType())
      L = locatePointer(Arg);
    else if (Param->getType()->isReferenceType())
      L = locate(Arg);
    if (L) {
      Bindings[Param] = *L;
      Arguments.push_back(-1);
    } else {
      Arguments.push_back(Param->getType()->isIntegralOrEnumerationType()
                              ? Sym.translate(Arg)
                              : -1);
    }
  }
  if (Bindings.empty())
    return;
  Sym.enterCallee(Definition, Arguments);
  CalleeAccessFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Definition->getBody()));
  ParentMap CalleeParents(const_cast<Stmt *>(Definition->getBody()));
  for (const auto &F : Finder.Accesses)
    addAccess(F.LValue, CE, B, Index, F.Kind, F.ThroughPointer, CE,
              isUnderCondition(F.LValue, CalleeParents));
  Sym.leaveCallee();
  Bindings.clear();
}

void KernelRaceFinder::walk(const CFGBlock *From, unsigned FromIndex,
                            bool StopAtWarpSync,
                            std::vector<std::uint8_t> &Out) const {
  // Breadth-first over (block, went round a loop) from just after element
  // FromIndex of From, stopping at barriers.
  llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> Seen;
  struct Item {
    const CFGBlock *Block;
    unsigned Index;
    bool Crossed;
  };
  std::deque<Item> Queue{{From, FromIndex, false}};
  while (!Queue.empty()) {
    Item Cur = Queue.front();
    Queue.pop_front();
    bool Stopped = false;
    unsigned Index = 0;
    for (const CFGElement &Element : *Cur.Block) {
      if (++Index <= Cur.Index)
        continue;
      auto CS = Element.getAs<CFGStmt>();
      if (!CS)
        continue;
      auto At = AccessesAt.find(CS->getStmt());
      if (At != AccessesAt.end())
        for (unsigned I : At->second)
          Out[I] |= Cur.Crossed ? 2 : 1;
      auto Sync = StartOf.find(CS->getStmt());
      if (Sync != StartOf.end() &&
          (Starts[Sync->second - 1].Block || StopAtWarpSync)) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    bool Crossed = Cur.Crossed || Cur.Block->getLoopTarget() != nullptr;
    for (const CFGBlock *Succ : Cur.Block->succs()) {
      if (!Succ || !Seen.insert({Succ, Crossed ? 1u : 0u}).second)
        continue;
      Queue.push_back({Succ, 0, Crossed});
    }
  }
}

void KernelRaceFinder::computeConcurrency() {
  for (unsigned I = 0; I < Accesses.size(); ++I)
    AccessesAt[Accesses[I].Anchor].push_back(I);
  for (Access &A : Accesses) {
    A.Reach.assign(Accesses.size(), 0);
    A.WarpReach.assign(Accesses.size(), 0);
    walk(A.Block, A.Index, false, A.Reach);
    walk(A.Block, A.Index, true, A.WarpReach);
  }
  for (const CFGBlock *B : Deps.getCFG()) {
    if (B->succ_size() < 2 || !(Deps.getConditionDeps(B) & dep::Thread))
      continue;
    Divergence D;
    D.Branch = B;
    for (const CFGBlock *Succ : B->succs()) {
      D.Sides.emplace_back(Accesses.size(), 0);
      D.WarpSides.emplace_back(Accesses.size(), 0);
      if (!Succ)
        continue;
      walk(Succ, 0, false, D.Sides.back());
      walk(Succ, 0, true, D.WarpSides.back());
    }
    Divergences.push_back(std::move(D));
  }
}

std::string KernelRaceFinder::describeThread(std::int64_t Linear,
                                             const BlockShape &S) const {
  std::int64_t X = Linear % S.Dim[0];
  std::int64_t Y = (Linear / S.Dim[0]) % S.Dim[1];
  std::int64_t Z = Linear / (S.Dim[0] * S.Dim[1]);
  return "(" + std::to_string(X) + "," + std::to_string(Y) + "," +
         std::to_string(Z) + ")";
}

std::string KernelRaceFinder::describeElement(const Access &A,
                                              std::int64_t Byte) const {
  std::string Text = A.Var->getName().str();
  QualType T = A.Var->getType();
  std::int64_t Offset = Byte;
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    const ArrayType *AT = Context.getAsArrayType(T);
    if (!AT)
      break;
    QualType Element = AT->getElementType();
    if (Element->isIncompleteType())
      break;
    std::int64_t Size = Context.getTypeSizeInChars(Element).getQuantity();
    if (Size <= 0)
      break;
    Text += "[" + std::to_string(Offset / Size) + "]";
    Offset %= Size;
    T = Element;
  }
  if (const auto *RD = T->getAsRecordDecl()) {
    for (const FieldDecl *Field : RD->fields()) {
      std::int64_t Start =
          Context.getFieldOffset(Field) / Context.getCharWidth();
      std::int64_t Size =
          Context.getTypeSizeInChars(Field->getType()).getQuantity();
      if (Offset >= Start && Offset < Start + Size) {
        Text += "." + Field->getName().str();
        Offset -= Start;
        break;
      }
    }
  }
  return Text;
}

bool KernelRaceFinder::isBefore(const Access &A, const Access &B) const {
  return Context.getSourceManager().isBeforeInTranslationUnit(
      A.E->getBeginLoc(), B.E->getBeginLoc());
}

KernelRaceFinder::Verdict
KernelRaceFinder::decide(const Access &A, const Access &B,
                         const BlockShape &Shape, const Scenario &S,
                         llvm::ArrayRef<unsigned> Atoms, Witness &W) {
  const auto &AllAtoms = Sym.atoms();
  llvm::SmallVector<unsigned, 4> AtomsOfA, AtomsOfB;
  Sym.collectAtoms(A.Offset, AtomsOfA);
  Sym.collectAtoms(B.Offset, AtomsOfB);
  SymEnv DimsOnly;
  for (unsigned D = 0; D < 3; ++D)
    DimsOnly.Dim[D] = Shape.Dim[D];

  // Listed loop counters are existential; everything else is sampled and
  // must race for every sample.
  struct Axis {
    unsigned Atom;
    std::vector<std::int64_t> Values;
    int Relation;
  };
  std::vector<Axis> Loops;
  std::vector<unsigned> Sampled;
  for (unsigned I = 0; I < Atoms.size(); ++I) {
    std::vector<std::int64_t> Values =
        AllAtoms[Atoms[I]].isLoopCounter() ? Sym.loopValues(Atoms[I], DimsOnly)
                                           : std::vector<std::int64_t>();
    if (!Values.empty())
      Loops.push_back({Atoms[I], std::move(Values), S.Relation[I]});
    else
      Sampled.push_back(Atoms[I]);
  }
  // Unknown uniform values are sampled: small, odd, past a warp, past a
  // typical block. A race that shows for every sample does not depend on
  // them.
  static const std::int64_t Samples[] = {0, 7, 33, 100, 1000};
  constexpr unsigned NumSamples = std::size(Samples);
  if (Sampled.size() > 2)
    return Verdict::Skip;
  unsigned SampleCombos = 1;
  for (unsigned I = 0; I < Sampled.size(); ++I)
    SampleCombos *= NumSamples;

  std::vector<std::int64_t> AtomsA(AllAtoms.size(), 0),
      AtomsB(AllAtoms.size(), 0);
  const std::int64_t Threads = Shape.threads();
  unsigned Raced = 0;

  // Which threads touch which byte, for access A: up to two threads per
  // byte, the second from another warp than the first when possible.
  llvm::DenseMap<std::int64_t, std::pair<std::int64_t, std::int64_t>> Touch;

  auto Executes = [&](const Access &X, const SymEnv &Env) -> std::optional<bool> {
    for (const auto &[Guard, Polarity] : X.Guards) {
      auto V = Sym.evaluate(Guard, Env);
      if (!V)
        return std::nullopt;
      if ((*V != 0) != Polarity)
        return false;
    }
    return true;
  };
  auto EnvFor = [&](std::int64_t T, const std::vector<std::int64_t> &Atoms) {
    SymEnv Env = DimsOnly;
    Env.Tid[0] = T % Shape.Dim[0];
    Env.Tid[1] = (T / Shape.Dim[0]) % Shape.Dim[1];
    Env.Tid[2] = T / (Shape.Dim[0] * Shape.Dim[1]);
    Env.Atoms = Atoms.data();
    return Env;
  };
  std::int64_t Size = -1;
  if (A.Var && !A.Var->getType()->isIncompleteType())
    Size = Context.getTypeSizeInChars(A.Var->getType()).getQuantity();

  for (unsigned Combo = 0; Combo < SampleCombos; ++Combo) {
    unsigned C = Combo;
    for (unsigned Atom : Sampled) {
      AtomsA[Atom] = AtomsB[Atom] = Samples[C % NumSamples];
      C /= NumSamples;
    }
    // Loop combinations.
    std::vector<std::pair<unsigned, unsigned>> Picks; // Value index for A, B.
    std::function<bool(unsigned)> Loop = [&](unsigned L) -> bool {
      if (L == Loops.size()) {
        // Evaluate.
        if (Budget < std::uint64_t(2 * Threads))
          return false;
        Budget -= 2 * Threads;
        Touch.clear();
        for (std::int64_t T = 0; T < Threads; ++T) {
          SymEnv Env = EnvFor(T, AtomsA);
          auto Runs = Executes(A, Env);
          if (!Runs)
            return false;
          if (!*Runs)
            continue;
          auto Addr = Sym.evaluate(A.Offset, Env);
          if (!Addr)
            return false;
          if (*Addr < 0 || (Size >= 0 && *Addr + A.Width > Size)) {
            if (Shape.Assumed)
              return false;
            continue;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + A.Width; ++Byte) {
            auto &Slot = Touch.try_emplace(Byte, T, -1).first->second;
            if (Slot.first != T && Slot.second < 0 &&
                (Slot.first / 32 != T / 32 || !S.DifferentWarpsOnly))
              Slot.second = T;
          }
        }
        for (std::int64_t T = 0; T < Threads; ++T) {
          SymEnv Env = EnvFor(T, AtomsB);
          auto Runs = Executes(B, Env);
          if (!Runs)
            return false;
          if (!*Runs)
            continue;
          auto Addr = Sym.evaluate(B.Offset, Env);
          if (!Addr)
            return false;
          if (*Addr < 0 || (Size >= 0 && *Addr + B.Width > Size)) {
            if (Shape.Assumed)
              return false;
            continue;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + B.Width; ++Byte) {
            auto It = Touch.find(Byte);
            if (It == Touch.end())
              continue;
            for (std::int64_t Other : {It->second.first, It->second.second}) {
              if (Other < 0 || Other == T)
                continue;
              if (S.DifferentWarpsOnly && Other / 32 == T / 32)
                continue;
              W.ThreadA = Other;
              W.ThreadB = T;
              W.Byte = Byte;
              W.LoopA.clear();
              W.LoopB.clear();
              for (const Axis &Ax : Loops) {
                if (llvm::is_contained(AtomsOfA, Ax.Atom))
                  W.LoopA.push_back({Ax.Atom, AtomsA[Ax.Atom]});
                if (llvm::is_contained(AtomsOfB, Ax.Atom))
                  W.LoopB.push_back({Ax.Atom, AtomsB[Ax.Atom]});
              }
              return true;
            }
          }
        }
        return false;
      }
      const Axis &Ax = Loops[L];
      unsigned N = Ax.Values.size();
      for (unsigned I = 0; I < N; ++I) {
        for (unsigned J = 0; J < N; ++J) {
          unsigned Last = N - 1;
          bool Related;
          switch (Ax.Relation) {
          case 2:
            Related = true;
            break;
          case 3:
            Related = I == 0 && J == 0;
            break;
          case 6:
            Related = I == Last;
            break;
          case 7:
            Related = I == 0;
            break;
          case 8:
            Related = J == Last;
            break;
          case 9:
            Related = J == 0;
            break;
          default:
            Related = static_cast<int>(J) - static_cast<int>(I) == Ax.Relation;
          }
          if (!Related)
            continue;
          AtomsA[Ax.Atom] = Ax.Values[I];
          AtomsB[Ax.Atom] = Ax.Values[J];
          if (Loop(L + 1))
            return true;
        }
      }
      return false;
    };
    if (Loop(0))
      ++Raced;
    else if (Combo == 0 && Raced == 0 && SampleCombos == 1)
      return Verdict::None;
  }
  if (Raced == 0)
    return Verdict::None;
  return Raced == SampleCombos ? Verdict::Definite : Verdict::Possible;
}

const Stmt *KernelRaceFinder::certainBarrierPlace(const Access &First,
                                                  const Access &Second) {
  // Both accesses must sit in statements that are siblings in one compound
  // statement, the first before the second, under no thread-dependent
  // condition, outside macros: then `__syncthreads();` right before the
  // second statement is where it belongs.
  auto StatementOf = [&](const Stmt *S) -> std::pair<const Stmt *, const CompoundStmt *> {
    const Stmt *Cur = S;
    while (const Stmt *P = Parents.getParent(Cur)) {
      if (const auto *CS = dyn_cast<CompoundStmt>(P))
        return {Cur, CS};
      Cur = P;
    }
    return {nullptr, nullptr};
  };
  auto [S1, C1] = StatementOf(First.E);
  auto [S2, C2] = StatementOf(Second.E);
  if (!S1 || !S2 || C1 != C2 || S1 == S2)
    return nullptr;
  if (!Context.getSourceManager().isBeforeInTranslationUnit(S1->getBeginLoc(),
                                                            S2->getBeginLoc()))
    return nullptr;
  if (S2->getBeginLoc().isMacroID())
    return nullptr;
  for (const CFGBlock *C : Deps.getControlClosure(Second.Block))
    if (Deps.getConditionDeps(C) & dep::Thread)
      return nullptr;
  return S2;
}

void KernelRaceFinder::checkPair(Access &A, Access &B, const BlockShape &Shape) {
  if (A.Object != B.Object || (!A.writes() && !B.writes()))
    return;
  if (A.Kind == AccessKind::Atomic && B.Kind == AccessKind::Atomic)
    return;
  if (Reported.count(B.E) || Reported.count(A.E))
    return;
  if (Sym.isUnknown(A.Offset) || Sym.isUnknown(B.Offset))
    return;
  if (A.UnknownGuard || B.UnknownGuard)
    return;

  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(A.Offset, Atoms);
  Sym.collectAtoms(B.Offset, Atoms);
  for (const Access *X : {&A, &B})
    for (const auto &Guard : X->Guards)
      Sym.collectAtoms(Guard.first, Atoms);

  // How the two accesses can be in flight at once: the same statement in
  // two threads, one reached from the other with no barrier between, or
  // the two sides of a thread-dependent branch.
  unsigned IA = &A - Accesses.data(), IB = &B - Accesses.data();
  enum PathKind { Self, AThenB, BThenA, Diverged };
  struct Path {
    PathKind Kind;
    unsigned CrossA = 0, CrossB = 0; // Went round a loop to get there.
    const CFGBlock *Branch = nullptr;
    bool Warp = false; // Also with no warp-level sync between.
  };
  llvm::SmallVector<Path, 6> Paths;
  if (IA == IB)
    Paths.push_back({Self, 0, 0, nullptr, true});
  else if (A.Anchor == B.Anchor) // Two accesses inside one inlined call.
    Paths.push_back({AThenB, 0, 0, nullptr, true});
  for (unsigned Bit = 1; Bit <= 2; ++Bit) {
    if (A.Reach[IB] & Bit)
      Paths.push_back({AThenB, 0, Bit - 1, nullptr,
                       (A.WarpReach[IB] & Bit) != 0});
    if (IA != IB && (B.Reach[IA] & Bit))
      Paths.push_back({BThenA, Bit - 1, 0, nullptr,
                       (B.WarpReach[IA] & Bit) != 0});
  }
  for (const Divergence &D : Divergences)
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = 0; SB < D.Sides.size(); ++SB) {
        if (SA == SB)
          continue;
        for (unsigned BitA = 1; BitA <= 2; ++BitA)
          for (unsigned BitB = 1; BitB <= 2; ++BitB)
            if ((D.Sides[SA][IA] & BitA) && (D.Sides[SB][IB] & BitB))
              Paths.push_back({Diverged, BitA - 1, BitB - 1, D.Branch,
                               (D.WarpSides[SA][IA] & BitA) &&
                                   (D.WarpSides[SB][IB] & BitB)});
      }
  if (Paths.empty())
    return;
  bool AnyWarpPath = llvm::any_of(Paths, [](const Path &P) { return P.Warp; });

  llvm::SmallVector<Scenario, 4> Scenarios;
  // Going round a loop that does not hold both accesses says nothing about
  // their order.
  bool SharedLoop = false;
  for (const Stmt *Cur = Parents.getParent(A.E); Cur && !SharedLoop;
       Cur = Parents.getParent(Cur))
    if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(Cur) &&
        isInside(B.E, Cur))
      SharedLoop = true;
  if (!SharedLoop)
    for (Path &P : Paths)
      P.CrossA = P.CrossB = 0;

  for (const Path &P : Paths) {
    Scenario S;
    S.DifferentWarpsOnly = !AnyWarpPath;
    S.Order = P.Kind == AThenB   ? 1
              : P.Kind == BThenA ? -1
              : static_cast<int>(P.CrossB) - static_cast<int>(P.CrossA);
    S.LaterIteration = P.Kind == AThenB   ? P.CrossB
                       : P.Kind == BThenA ? P.CrossA
                                          : P.CrossA != P.CrossB;
    for (unsigned Atom : Atoms) {
      const SymAtom &Info = Sym.atoms()[Atom];
      int Relation = 2;
      if (Info.isLoopCounter() && loopHasBarrier(Info.Loop)) {
        bool InA = isInside(A.E, Info.Loop), InB = isInside(B.E, Info.Loop);
        switch (P.Kind) {
        case Self:
          Relation = 0;
          break;
        case AThenB:
          Relation = InA && InB ? static_cast<int>(P.CrossB)
                     : InA      ? 6
                     : InB      ? 9
                                : 2;
          break;
        case BThenA:
          Relation = InA && InB ? -static_cast<int>(P.CrossA)
                     : InB      ? 8
                     : InA      ? 7
                                : 2;
          break;
        case Diverged: {
          bool InBranch = isInside(P.Branch->getTerminatorStmt(), Info.Loop);
          if (InA && InB && InBranch)
            Relation = static_cast<int>(P.CrossB) - static_cast<int>(P.CrossA);
          else if (InA && InB && !P.CrossA && !P.CrossB)
            Relation = 3;
          break;
        }
        }
      }
      S.Relation.push_back(Relation);
    }
    bool Seen = false;
    for (const Scenario &Other : Scenarios)
      if (Other.Relation == S.Relation && Other.Order == S.Order &&
          Other.LaterIteration == S.LaterIteration &&
          Other.DifferentWarpsOnly == S.DifferentWarpsOnly)
        Seen = true;
    if (!Seen)
      Scenarios.push_back(S);
  }

  for (const Scenario &S : Scenarios) {
    Witness W;
    Verdict V = decide(A, B, Shape, S, Atoms, W);
    if (V == Verdict::None || V == Verdict::Skip)
      continue;
    if (V == Verdict::Possible && !Options.ReportPossibleRaces)
      continue;

    // Which access comes second: the one in the later iteration, else the
    // later one in the source.
    bool BSecond = S.Order != 0 ? S.Order > 0 : (isBefore(A, B) || IA == IB);
    const Access &First = BSecond ? A : B;
    const Access &Second = BSecond ? B : A;
    std::int64_t FirstThread = BSecond ? W.ThreadA : W.ThreadB;
    std::int64_t SecondThread = BSecond ? W.ThreadB : W.ThreadA;

    SharedRace Race;
    Race.Kernel = Kernel;
    Race.Variable = First.Var;
    Race.First = First.E;
    Race.Second = Second.E;
    Race.FirstVia = First.Via;
    Race.SecondVia = Second.Via;
    Race.FirstKind = First.Kind;
    Race.SecondKind = Second.Kind;
    Race.Order = !Second.writes()  ? SharedRace::ReadAfterWrite
                 : !First.writes() ? SharedRace::WriteAfterRead
                                   : SharedRace::WriteAfterWrite;
    Race.Possible = V == Verdict::Possible;
    Race.WarpSynchronous = A.Volatile && B.Volatile &&
                           W.ThreadA / 32 == W.ThreadB / 32;
    Race.Shape = Shape;
    auto Verb = [](AccessKind K) {
      switch (K) {
      case AccessKind::Read:
        return "reads";
      case AccessKind::Write:
        return "writes";
      case AccessKind::ReadWrite:
        return "updates";
      case AccessKind::Atomic:
        return "atomically updates";
      }
      return "accesses";
    };
    std::string Element = "'" + describeElement(First, W.Byte) + "'";
    auto Values = [&](const llvm::SmallVectorImpl<std::pair<unsigned, std::int64_t>> &Loop) {
      std::string Text;
      for (const auto &[Atom, Value] : Loop)
        Text += (Text.empty() ? " (with '" : ", '") + Sym.atoms()[Atom].Name +
                "' = " + std::to_string(Value);
      return Text.empty() ? Text : Text + ")";
    };
    Race.Witness = "thread " + describeThread(FirstThread, Shape) + " " +
                   Verb(First.Kind) + " " + Element +
                   Values(BSecond ? W.LoopA : W.LoopB) + " and thread " +
                   describeThread(SecondThread, Shape) + " " +
                   Verb(Second.Kind) + " it" +
                   Values(BSecond ? W.LoopB : W.LoopA);
    if (S.LaterIteration)
      Race.Witness += " one iteration of the enclosing loop later";
    if (!S.DifferentWarpsOnly && !Race.WarpSynchronous &&
        !llvm::is_contained(S.Relation, 2))
      Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
    Reported.insert(Second.E);
    Handler.handleRace(Race);
    return;
  }
}

void KernelRaceFinder::run(llvm::ArrayRef<BlockShape> Shapes) {
  collect();
  bool AnyWrite = false;
  for (const Access &A : Accesses)
    AnyWrite |= A.writes();
  if (!AnyWrite)
    return;
  computeConcurrency();

  llvm::SmallVector<BlockShape, 3> Candidates(Shapes.begin(), Shapes.end());
  if (Candidates.empty()) {
    unsigned HighestDim = Sym.highestThreadDimension();
    BlockShape Shape = Options.Assumed[HighestDim];
    if (const auto *Bounds = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
      Expr::EvalResult Max;
      if (HighestDim == 0 && Bounds->getMaxThreads() &&
          Bounds->getMaxThreads()->EvaluateAsInt(Max, Context))
        Shape = BlockShape{{Max.Val.getInt().getExtValue(), 1, 1}, false};
    }
    Candidates.push_back(Shape);
  }
  for (const BlockShape &Shape : Candidates) {
    if (Shape.threads() <= 0 || Shape.threads() > 1024)
      continue;
    for (unsigned I = 0; I < Accesses.size(); ++I)
      for (unsigned J = I; J < Accesses.size(); ++J)
        checkPair(Accesses[I], Accesses[J], Shape);
  }
}

} // namespace

void SharedMemoryRaceAnalysis::analyzeKernel(const FunctionDecl *Kernel,
                                             llvm::ArrayRef<BlockShape> Shapes) {
  auto Begin = std::chrono::steady_clock::now();
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  if (!Deps)
    return;
  KernelRaceFinder(Dependence, *Deps, Handler, Options, Deps->getFunction())
      .run(Shapes);
  double Seconds = std::chrono::duration<double>(
                       std::chrono::steady_clock::now() - Begin)
                       .count();
  if (Seconds > Slowest) {
    Slowest = Seconds;
    SlowestKernel = Kernel;
  }
}

std::optional<BlockShape> evaluateBlockShape(const Expr *Block,
                                             ASTContext &Context) {
  if (!Block)
    return std::nullopt;
  const Expr *E = Block->IgnoreImplicit();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->getInit())
      return std::nullopt;
    E = VD->getInit()->IgnoreImplicit();
  }
  while (const auto *Temp = dyn_cast<CXXFunctionalCastExpr>(E))
    E = Temp->getSubExpr()->IgnoreImplicit();
  BlockShape Shape;
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
    if (Construct->getNumArgs() > 3)
      return std::nullopt;
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
      const Expr *Arg = Construct->getArg(I);
      if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
        Arg = Default->getExpr();
      Expr::EvalResult Value;
      if (Arg->isValueDependent() || !Arg->EvaluateAsInt(Value, Context))
        return std::nullopt;
      Shape.Dim[I] = Value.Val.getInt().getExtValue();
    }
    if (Construct->getNumArgs() == 1 &&
        Construct->getArg(0)->getType()->isRecordType())
      return std::nullopt; // A copy of something else.
    return Shape;
  }
  Expr::EvalResult Value;
  if (!E->isValueDependent() && E->getType()->isIntegerType() &&
      E->EvaluateAsInt(Value, Context)) {
    Shape.Dim[0] = Value.Val.getInt().getExtValue();
    return Shape;
  }
  return std::nullopt;
}

} // namespace clang::cuda_tidy
