//===--- SharedAccesses.cpp - The shared-memory accesses of a kernel -----===//

#include "analysis/SharedAccesses.h"
#include "analysis/CalleeBodies.h"
#include "analysis/SharedAddresses.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "model/SyncEvents.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include <functional>

namespace clang::cuda_tidy {

namespace {

// The dynamic pool: every `extern __shared__` declaration names it.
const char DynamicPool = 0;

} // namespace

llvm::SmallVector<BlockShape, 3>
SharedAccessCollector::candidateShapes(llvm::ArrayRef<BlockShape> Launches,
                                       const AssumedShapes &Assumed) const {
  auto Fits = [](const BlockShape &Shape) {
    return Shape.threads() > 0 && Shape.threads() <= 1024;
  };
  llvm::SmallVector<BlockShape, 3> Candidates;
  for (const BlockShape &Shape : Launches)
    if (Fits(Shape))
      Candidates.push_back(Shape);
  if (!Launches.empty())
    return Candidates;
  unsigned HighestDim = Sym.highestThreadDimension();
  if (const auto *Bounds = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult Max;
    if (HighestDim == 0 && Bounds->getMaxThreads() &&
        !Bounds->getMaxThreads()->isValueDependent() &&
        Bounds->getMaxThreads()->EvaluateAsInt(Max, Context)) {
      BlockShape Shape{{Max.Val.getInt().getExtValue(), 1, 1}, false};
      if (Fits(Shape))
        Candidates.push_back(Shape);
      return Candidates;
    }
  }
  for (const BlockShape &Shape : Assumed[HighestDim])
    if (Fits(Shape))
      Candidates.push_back(Shape);
  return Candidates;
}

SymEnv SharedAccessCollector::envFor(std::int64_t Linear,
                                     const BlockShape &Shape,
                                     const std::int64_t *Atoms) {
  SymEnv Env;
  for (unsigned D = 0; D < 3; ++D)
    Env.Dim[D] = Shape.Dim[D];
  Env.Tid[0] = Linear % Shape.Dim[0];
  Env.Tid[1] = (Linear / Shape.Dim[0]) % Shape.Dim[1];
  Env.Tid[2] = Linear / (Shape.Dim[0] * Shape.Dim[1]);
  Env.Atoms = Atoms;
  return Env;
}

std::int64_t SharedAccessCollector::sizeOf(const VarDecl *Var) const {
  if (!Var || Var->getType()->isIncompleteType())
    return -1;
  return Context.getTypeSizeInChars(Var->getType()).getQuantity();
}

const SyncPoint *SharedAccessCollector::syncAt(const Stmt *S) const {
  auto It = SyncIndex.find(S);
  return It == SyncIndex.end() ? nullptr : &Syncs[It->second];
}

bool SharedAccess::isDynamic() const {
  return Var && Var->getType()->isIncompleteArrayType();
}

namespace {

/// Whether \p S certainly runs a warp-level sync: one outside any branch
/// (loops count: the helpers that do this loop over constant offsets), in
/// it or in a helper it calls.
bool syncsWarp(const Stmt *S, unsigned Depth) {
  if (!S || isa<IfStmt, SwitchStmt, ConditionalOperator>(S))
    return false;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    SyncEvent Event = classifySync(CE);
    if (Event.ordersWarp())
      return true;
    if (!Event.Modelled && Depth < 3)
      if (const FunctionDecl *Callee = CE->getDirectCallee()) {
        const FunctionDecl *Definition = nullptr;
        if (Callee->hasBody(Definition) && Definition &&
            syncsWarp(Definition->getBody(), Depth + 1))
          return true;
      }
  }
  for (const Stmt *Child : S->children())
    if (syncsWarp(Child, Depth))
      return true;
  return false;
}

} // namespace

bool SharedAccessCollector::helperSyncsWarp(const FunctionDecl *Callee) {
  if (!Callee)
    return false;
  const FunctionDecl *Definition = nullptr;
  if (!Callee->hasBody(Definition) || !Definition)
    return false;
  auto [It, Inserted] = WarpSyncingHelpers.try_emplace(Definition, false);
  if (Inserted)
    It->second = syncsWarp(Definition->getBody(), 0);
  return It->second;
}

bool ordersWarp(SharedAccessCollector &Col, const SyncEvent &Event,
                const Stmt *S) {
  if (isa<GCCAsmStmt>(S))
    return Event.Kind == SyncKind::WarpSync;
  const auto *CE = dyn_cast<CallExpr>(S);
  return Event.ordersWarp() ||
         (CE && !Event.Modelled && Col.helperSyncsWarp(CE->getDirectCallee()));
}

SharedAccessCollector::SharedAccessCollector(ThreadDependenceAnalysis &Analysis,
                                             const FunctionDependence &Deps)
    : Analysis(Analysis), Context(Analysis.getContext()), Deps(Deps),
      Kernel(Deps.getFunction()), Sym(Context, Deps.getFunction(), &Deps),
      Parents(const_cast<Stmt *>(Deps.getFunction()->getBody())) {}

void SharedAccessCollector::bindParameter(const ParmVarDecl *Param,
                                          const VarDecl *Shared) {
  // A parameter the body assigns points elsewhere by then.
  if (!isSharedVariable(Shared) || Sym.assignmentsTo(Param) != 0)
    return;
  Location L;
  L.Var = Shared;
  L.Object = Shared->getType()->isIncompleteArrayType()
                 ? static_cast<const void *>(&DynamicPool)
                 : static_cast<const void *>(Shared->getCanonicalDecl());
  L.Offset = Sym.constant(0);
  EntryBindings[Param] = L;
}

const SharedAccessCollector::Location *
SharedAccessCollector::boundTo(const VarDecl *VD) const {
  if (!VD)
    return nullptr;
  auto Bound = Bindings.find(VD);
  if (Bound != Bindings.end())
    return &Bound->second;
  auto Entry = EntryBindings.find(VD);
  return Entry != EntryBindings.end() ? &Entry->second : nullptr;
}

SymId SharedAccessCollector::plus(SymId Base, const Expr *Index,
                                  QualType Element, bool Negate) {
  if (Element->isIncompleteType() || Element->isDependentType())
    return Sym.translate(nullptr);
  std::int64_t Size = Context.getTypeSizeInChars(Element).getQuantity();
  SymId Scaled =
      Sym.binary(SymNode::Mul, Sym.translate(Index), Sym.constant(Size));
  return Sym.binary(Negate ? SymNode::Sub : SymNode::Add, Base, Scaled);
}

namespace {

/// The power of two (up to 2^20) that \p Id is known to be a multiple of
/// from its form alone: 16 for `16 * i + 32`, 1 for `2 * n + 1` or `n`.
std::int64_t knownAlignment(const SymbolicTranslator &Sym, SymId Id,
                            unsigned Depth = 0) {
  constexpr std::int64_t Most = std::int64_t(1) << 20;
  if (Id < 0 || Depth > 16)
    return 1;
  const SymNode &N = Sym.node(Id);
  switch (N.K) {
  case SymNode::Const:
    return N.Value == 0 ? Most
                        : std::min<std::int64_t>(Most, N.Value & -N.Value);
  case SymNode::Add:
  case SymNode::Sub:
    return std::min(knownAlignment(Sym, N.A, Depth + 1),
                    knownAlignment(Sym, N.B, Depth + 1));
  case SymNode::Mul:
    return std::min(Most, knownAlignment(Sym, N.A, Depth + 1) *
                              knownAlignment(Sym, N.B, Depth + 1));
  case SymNode::Neg:
    return knownAlignment(Sym, N.A, Depth + 1);
  default:
    return 1;
  }
}

} // namespace

void SharedAccessCollector::noteCast(Location &L, QualType To) {
  if (!L.Var || To.isNull() || To->isIncompleteType() || To->isDependentType())
    return;
  // A pointer to T formed from another type's (`reinterpret_cast<float4
  // *>(bytes + off)`) is only usable at a multiple of T's alignment: the
  // hardware faults on a misaligned access. Relative to the object that is
  // as far as the object's own alignment goes: its declared one (its
  // element type's, or an `alignas`), and for the dynamic pool the 16 bytes
  // the CUDA runtime gives its base at least. Both are the same in the host
  // and device passes.
  std::int64_t Base = std::max<std::int64_t>(
      Context.getTypeAlignInChars(Context.getBaseElementType(L.Var->getType()))
          .getQuantity(),
      L.Var->getMaxAlignment() / Context.getCharWidth());
  if (L.Var->getType()->isIncompleteArrayType())
    Base = std::max<std::int64_t>(Base, 16);
  std::int64_t Align = std::min<std::int64_t>(
      Context.getTypeAlignInChars(To).getQuantity(), Base);
  // The cast nearest the access decides; one to bytes asks nothing, nor
  // one at an offset whose form makes it aligned (`float4` over a float4
  // array), which would only cost the solver time.
  L.CastOffset = L.Offset;
  L.CastAlign = knownAlignment(Sym, L.Offset) % Align == 0
                    ? 1
                    : std::max<std::int64_t>(Align, 1);
}

std::optional<SharedAccessCollector::Location>
SharedAccessCollector::locate(const Expr *E, unsigned Depth) {
  if (Depth > 16)
    return std::nullopt;
  E = E->IgnoreParens();
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (const Location *Bound = boundTo(VD);
        Bound && VD->getType()->isReferenceType())
      return *Bound;
    if (isSharedVariable(VD)) {
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
    if (!L)
      return L;
    // `V[Row]` where V is a declared array of rows: remember the row index
    // and the row size, for padding what-ifs.
    const auto *Decayed = dyn_cast<ImplicitCastExpr>(ASE->getBase());
    const auto *Base =
        Decayed && Decayed->getCastKind() == CK_ArrayToPointerDecay
            ? dyn_cast<DeclRefExpr>(Decayed->getSubExpr()->IgnoreParens())
            : nullptr;
    if (Base && Base->getDecl() == L->Var &&
        Context.getAsConstantArrayType(L->Var->getType()))
      L->Outer = Sym.translate(ASE->getIdx());
    else if (L->Row < 0)
      L->Outer = -1; // A pointer indexed past the element it points to.
    if (Base && Base->getDecl() == L->Var && ASE->getType()->isArrayType() &&
        !ASE->getType()->isIncompleteType()) {
      L->Row = Sym.translate(ASE->getIdx());
      L->RowBytes = Context.getTypeSizeInChars(ASE->getType()).getQuantity();
      L->WithinRow = Sym.constant(0);
      L->Offset = plus(L->Offset, ASE->getIdx(), ASE->getType(), false);
      return L;
    }
    if (L->Row >= 0)
      L->WithinRow = plus(L->WithinRow, ASE->getIdx(), ASE->getType(), false);
    L->Offset = plus(L->Offset, ASE->getIdx(), ASE->getType(), false);
    return L;
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
    if (!Field || Field->isBitField())
      return std::nullopt;
    auto L = ME->isArrow() ? locatePointer(ME->getBase(), Depth + 1)
                           : locate(ME->getBase(), Depth + 1);
    if (L) {
      SymId FieldOffset =
          Sym.constant(Context.getFieldOffset(Field) / Context.getCharWidth());
      L->Offset = Sym.binary(SymNode::Add, L->Offset, FieldOffset);
      if (L->Row >= 0)
        L->WithinRow = Sym.binary(SymNode::Add, L->WithinRow, FieldOffset);
    }
    return L;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_Deref)
      return locatePointer(UO->getSubExpr(), Depth + 1);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    if (Cast->getCastKind() == CK_NoOp)
      return locate(Cast->getSubExpr(), Depth + 1);
    if (Cast->getCastKind() == CK_LValueBitCast) {
      auto L = locate(Cast->getSubExpr(), Depth + 1);
      if (L)
        noteCast(*L, Cast->getType());
      return L;
    }
  }
  return std::nullopt;
}

std::optional<SharedAccessCollector::Location>
SharedAccessCollector::locatePointer(const Expr *E, unsigned Depth) {
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
      if (const Location *Bound = boundTo(VD))
        return *Bound;
      if (VD && VD->hasLocalStorage() && !isa<ParmVarDecl>(VD) &&
          VD->getInit() && Sym.assignmentsTo(VD) == 0) {
        // The pointer nearest the access names the carving.
        auto L = locatePointer(VD->getInit(), Depth + 1);
        if (L)
          L->Carved = VD;
        return L;
      }
      return std::nullopt;
    }
    case CK_NoOp:
    case CK_UserDefinedConversion:
      return locatePointer(Cast->getSubExpr(), Depth + 1);
    case CK_BitCast: {
      auto L = locatePointer(Cast->getSubExpr(), Depth + 1);
      if (L)
        noteCast(*L, Cast->getType()->getPointeeType());
      return L;
    }
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
    if (L) {
      L->Offset = plus(L->Offset, Idx, Ptr->getType()->getPointeeType(),
                       BO->getOpcode() == BO_Sub);
      L->Row = -1;
      L->Outer = -1;
    }
    return L;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    if (UO->getOpcode() == UO_AddrOf)
      return locate(UO->getSubExpr(), Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    // Another block's copy of the variable (distributed shared memory):
    // `cluster.map_shared_rank(p, rank)`, `__cluster_map_shared_rank(p,
    // rank)`.
    const FunctionDecl *Mapper = CE->getDirectCallee();
    if (Mapper && Mapper->getIdentifier() && CE->getNumArgs() >= 1 &&
        (Mapper->getName() == "__cluster_map_shared_rank" ||
         (Mapper->getName() == "map_shared_rank" &&
          isInCooperativeGroups(Mapper))) &&
        CE->getArg(0)->getType()->isPointerType()) {
      auto L = locatePointer(CE->getArg(0), Depth + 1);
      if (L)
        L->Remote = true;
      return L;
    }
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

void SharedAccessCollector::addAccess(const Expr *LValue, const Stmt *Anchor,
                                      const CFGBlock *B, unsigned Index,
                                      AccessKind Kind, bool ThroughPointer,
                                      const CallExpr *Via,
                                      const CalleeConditions *Conditions) {
  auto L = ThroughPointer ? locatePointer(LValue) : locate(LValue);
  if (!L)
    return;
  QualType T =
      ThroughPointer ? LValue->getType()->getPointeeType() : LValue->getType();
  if (T->isIncompleteType() || T->isDependentType())
    return;
  SharedAccess A;
  A.E = LValue;
  A.Anchor = Anchor;
  A.Block = B;
  A.Index = Index;
  A.Object = L->Object;
  A.Var = L->Var;
  A.Offset = L->Offset;
  A.Width = Context.getTypeSizeInChars(T).getQuantity();
  A.AlignedOffset = L->CastOffset;
  A.Align = L->CastAlign;
  A.Kind = Kind;
  A.Volatile = T.isVolatileQualified();
  A.Via = Via;
  A.Row = L->Row;
  A.Carved = L->Carved;
  A.WithinRow = L->WithinRow;
  A.RowBytes = L->RowBytes;
  A.Outer = L->Outer;
  A.Remote = L->Remote;
  if (A.Width <= 0)
    return;
  computeGuards(A);
  if (Conditions) {
    A.Guards.append(Conditions->Guards.begin(), Conditions->Guards.end());
    A.UnknownGuard |= Conditions->Unknown;
  }
  Accesses.push_back(std::move(A));
}

void SharedAccessCollector::computeGuards(SharedAccess &A) {
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
      if (isInputTest(Cond, Kernel, Sym, Parents, Context, ReadOnlyInputs))
        A.InputGuards.push_back({Cond, ViaTrue});
      else
        A.UnknownGuard = true;
      continue;
    }
    A.Guards.push_back({Guard, ViaTrue});
  }
}

void SharedAccessCollector::addWrappedEvent(const CallExpr *CE,
                                            const CFGBlock *B, unsigned Index) {
  const FunctionDecl *Definition = nullptr;
  if (!CE->getDirectCallee() || !CE->getDirectCallee()->hasBody(Definition))
    return;
  auto [Cached, Inserted] = WrappedEvents.try_emplace(Definition);
  if (Inserted)
    Cached->second = wrappedEvent(Definition, Context);
  const std::optional<WrappedEvent> &Wrapped = Cached->second;
  if (!Wrapped)
    return;
  SyncEvent Event = Wrapped->Event;
  if (Event.Kind != SyncKind::AsyncCopy) {
    addEvent(Event, CE, B, Index, Wrapped->Site);
    return;
  }
  // The copy's destination in the caller's terms: a pointer argument, or
  // the 32-bit shared address the caller passed (`tile32 + off`).
  SharedAddress Target;
  bool AddressOf = false;
  const Expr *Operand =
      Addresses.callerOperand(Event.Destination, CE, Definition, AddressOf);
  if (Operand && (AddressOf || isa<CallExpr>(Wrapped->Site)))
    Target.Pointer = beforeVoidCast(Operand);
  else if (Operand)
    Target = Addresses.addressOf(Operand);
  bool SizeOperand = false;
  if (Event.Size)
    Event.Size =
        Addresses.callerOperand(Event.Size, CE, Definition, SizeOperand);
  if (!Target.Pointer)
    Event.Destination = nullptr;
  addEvent(Event, CE, B, Index, Wrapped->Site,
           Target.Pointer ? &Target : nullptr);
}

SyncPoint &SharedAccessCollector::syncPointAt(const Stmt *S) {
  auto [It, Inserted] = SyncIndex.try_emplace(S, Syncs.size());
  if (Inserted) {
    Syncs.emplace_back();
    Syncs.back().Call = S;
  }
  return Syncs[It->second];
}

void SharedAccessCollector::addEvent(const SyncEvent &Event, const Stmt *S,
                                     const CFGBlock *B, unsigned Index,
                                     const Stmt *Origin,
                                     const SharedAddress *Target) {
  if (!Origin)
    Origin = S;
  AccessOrder Order = Event.accessOrder(Context);
  if (Order.ordersAnything()) {
    SyncPoint &Point = syncPointAt(S);
    Point.Block |= Order.Barrier;
    Point.Named |= Order.Barrier && Event.Kind == SyncKind::Barrier &&
                   Event.ThreadCount.present();
    bool Wide = Event.Scope == BarrierScope::Cluster ||
                Event.Scope == BarrierScope::Grid;
    Point.Cluster |= Wide && Order.Barrier;
    Point.ClusterArrive |= Wide && Order.Arrive;
    Point.ClusterWait |= Wide && Order.Wait;
    Point.Order.Arrive |= Order.Arrive;
    Point.Order.Wait |= Order.Wait;
    // One event commits or completes on one track.
    if (Order.Commit) {
      Point.Order.Commit = true;
      Point.Order.Track = Order.Track;
    }
    if (Order.Completes >= 0) {
      Point.Order.Completes = Order.Completes;
      Point.Order.Track = Order.Track;
    }
  }
  const auto *Call = dyn_cast<CallExpr>(Origin);
  if (Event.Kind == SyncKind::AsyncCopy && (Event.Destination || Target)) {
    // The write of the copy, of its size where that folds (else the
    // element's, which the copy covers at least).
    const Expr *Pointer = nullptr;
    std::optional<std::int64_t> Bytes;
    // The counted form (`cg::memcpy_async(g, dst, n, src, n)`) counts
    // elements.
    bool Counted = false;
    SharedAddress Address;
    if (Target)
      Address = *Target;
    std::optional<std::uint64_t> SizeValue;
    Expr::EvalResult Size;
    if (Event.Size && !Event.Size->isValueDependent() &&
        Event.Size->EvaluateAsInt(Size, Context) &&
        Size.Val.getInt().isStrictlyPositive())
      SizeValue = Size.Val.getInt().getLimitedValue(1 << 16);
    if (!Call) {
      // Inline PTX names the destination by its 32-bit shared address: the
      // pointer is the argument of the conversion that made it. A bulk
      // copy may move up to the size of shared memory, the per-thread one
      // 16 bytes.
      if (!Target)
        Address = Addresses.addressOf(Event.Destination);
      Pointer = Address.Pointer;
      std::optional<std::uint64_t> AsmBytes =
          Event.AsmBytes ? Event.AsmBytes : SizeValue;
      std::uint64_t Most = Event.OnMbarrier ? 1 << 16 : 16;
      if (AsmBytes && *AsmBytes > 0 && *AsmBytes <= Most)
        Bytes = static_cast<std::int64_t>(*AsmBytes);
    } else {
      // The destination as written, before its conversion to `void *`.
      Pointer = Target ? Address.Pointer : Event.Destination->IgnoreParens();
      while (const auto *Cast = dyn_cast<CastExpr>(Pointer)) {
        if (Cast->getCastKind() != CK_BitCast && Cast->getCastKind() != CK_NoOp)
          break;
        Pointer = Cast->getSubExpr()->IgnoreParens();
      }
      if (SizeValue)
        Bytes = static_cast<std::int64_t>(*SizeValue);
      Counted = Event.Group && !Event.Storage && Call->getNumArgs() == 5;
    }
    size_t Before = Accesses.size();
    if (Pointer)
      addAccess(Pointer, S, B, Index, AccessKind::Write,
                /*ThroughPointer=*/true);
    if (Accesses.size() == Before)
      return;
    SharedAccess &A = Accesses.back();
    if (Address.ByteOffset) {
      SymId Offset = Sym.translate(Address.ByteOffset);
      A.Offset = Sym.isUnknown(Offset)
                     ? Offset
                     : Sym.binary(SymNode::Add, A.Offset, Offset);
    }
    A.Means = Event.Group ? AccessMeans::GroupCopy : AccessMeans::AsyncCopy;
    A.Operation = Event.Name;
    A.Track = Event.copyTrack();
    if (Bytes)
      A.Width =
          std::min<std::int64_t>(Counted ? *Bytes * A.Width : *Bytes, 1 << 16);
    if (A.Means == AccessMeans::GroupCopy)
      A.Guards.push_back(
          {Sym.binary(SymNode::Eq, Sym.linearThreadId(), Sym.constant(0)),
           true});
    return;
  }
  if (!Call)
    return;
  if (Event.Kind == SyncKind::Collective && Event.Storage && !Event.Group) {
    size_t Before = Accesses.size();
    addAccess(Event.Storage, S, B, Index, AccessKind::ReadWrite,
              /*ThroughPointer=*/false);
    if (Accesses.size() == Before)
      return;
    SharedAccess &A = Accesses.back();
    A.Means = AccessMeans::Collective;
    A.Operation = Event.Name;
    // Which bytes of the storage the primitive uses is its own business;
    // its first ones stand for them, so that a thread's later use of the
    // storage, or another primitive's, meets it.
    A.Width = std::min<std::int64_t>(A.Width, 64);
  }
}

void SharedAccessCollector::collect() {
  for (const BarrierSite &Site : Deps.getBarrierSites()) {
    SyncPoint &Point = syncPointAt(Site.Call);
    // The second half of a split barrier, called directly, orders only what
    // the threads did before their first half.
    SyncEvent Event = Site.Callee ? SyncEvent() : classifySync(Site.Call);
    if (Event.Kind == SyncKind::BarrierWait)
      Point.Order.Wait = true;
    else
      Point.Block = true;
  }
  const CFG &Graph = Deps.getCFG();
  for (const CFGBlock *B : Graph) {
    // Code that cannot run (a branch pruned on a template argument, say)
    // has no accesses.
    if (B != &Graph.getEntry() && !Deps.reaches(&Graph.getEntry(), B))
      continue;
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
        if (BO->isAssignmentOp()) {
          addAccess(BO->getLHS(), S, B, Index,
                    BO->isCompoundAssignmentOp() ? AccessKind::ReadWrite
                                                 : AccessKind::Write,
                    false);
          if (BO->getOpcode() == BO_Assign && !Accesses.empty() &&
              Accesses.back().Anchor == S)
            Accesses.back().Stored = BO->getRHS();
        }
        continue;
      }
      if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
        if (UO->isIncrementDecrementOp())
          addAccess(UO->getSubExpr(), S, B, Index, AccessKind::ReadWrite,
                    false);
        continue;
      }
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
        // A struct copied out of shared memory (`float4 v = s[i]`).
        if (Construct->getNumArgs() == 1 && Construct->getArg(0)->isGLValue() &&
            Construct->getConstructor()->isCopyOrMoveConstructor())
          addAccess(Construct->getArg(0), S, B, Index, AccessKind::Read, false);
        continue;
      }
      if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
        SyncEvent Event = classifyAsm(Asm);
        if (ordersWarp(*this, Event, S))
          syncPointAt(S).Warp = true;
        addEvent(Event, S, B, Index);
        continue;
      }
      const auto *CE = dyn_cast<CallExpr>(S);
      if (!CE)
        continue;
      SyncEvent Event = classifySync(CE);
      if (ordersWarp(*this, Event, CE))
        syncPointAt(CE).Warp = true;
      addEvent(Event, S, B, Index);
      if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(CE)) {
        if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2) {
          addAccess(OCE->getArg(0), S, B, Index,
                    OCE->getOperator() == OO_Equal ? AccessKind::Write
                                                   : AccessKind::ReadWrite,
                    false);
          // A struct's implicit copy or move assignment stores its right
          // side, as `=` does on a scalar; a user-written one may do
          // anything.
          const auto *Method =
              dyn_cast_or_null<CXXMethodDecl>(OCE->getDirectCallee());
          if (OCE->getOperator() == OO_Equal && Method &&
              (Method->isCopyAssignmentOperator() ||
               Method->isMoveAssignmentOperator()) &&
              Method->isTrivial() && !Accesses.empty() &&
              Accesses.back().Anchor == S &&
              Accesses.back().Kind == AccessKind::Write)
            Accesses.back().Stored = OCE->getArg(1);
          // `x = s[i]` on a struct type reads through a reference.
          if (OCE->getArg(1)->isGLValue())
            addAccess(OCE->getArg(1), S, B, Index, AccessKind::Read, false);
        }
        continue;
      }
      const FunctionDecl *Callee = CE->getDirectCallee();
      if (Event.AtomicTarget) {
        addAccess(Event.AtomicTarget, S, B, Index, AccessKind::Atomic, true);
      } else if (!Event.Modelled && Callee && Callee->hasBody()) {
        addWrappedEvent(CE, B, Index);
        inlineCall(CE, B, Index);
      }
    }
  }
}

namespace {

/// The loops of the function \p F whose every iteration passes one of its
/// barriers.
llvm::SmallPtrSet<const Stmt *, 4> syncingLoops(const FunctionDependence &F) {
  llvm::SmallPtrSet<const Stmt *, 4> Loops;
  for (const auto &Entry : syncingLoopTests(F))
    if (const Stmt *Loop = Entry.first->getTerminatorStmt())
      Loops.insert(Loop);
  return Loops;
}

/// Records in \p X, a helper's access (\p LValue in the helper's body)
/// placed before or after its call's barriers, the counters of \p Syncing
/// loops around it that its offset and guards read
/// (SharedAccess::FirstIterationOf).
void noteSyncingLoops(SharedAccess &X, const Expr *LValue,
                      const llvm::SmallPtrSetImpl<const Stmt *> &Syncing,
                      const SymbolicTranslator &Sym, const ParentMap &PM) {
  if (Syncing.empty() || (X.Segment != CallSegment::BeforeBarrier &&
                          X.Segment != CallSegment::AfterBarrier))
    return;
  auto Inside = [&](const Stmt *Loop) {
    for (const Stmt *S = LValue; S; S = PM.getParent(S))
      if (S == Loop)
        return true;
    return false;
  };
  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(X.Offset, Atoms);
  for (const auto &Guard : X.Guards)
    Sym.collectAtoms(Guard.first, Atoms);
  auto &Of = X.Segment == CallSegment::BeforeBarrier ? X.FirstIterationOf
                                                     : X.LastIterationOf;
  for (unsigned Atom : Atoms) {
    const SymAtom &Info = Sym.atoms()[Atom];
    if (Info.isLoopCounter() && Syncing.count(Info.Loop) && Inside(Info.Loop) &&
        !llvm::is_contained(Of, Atom))
      Of.push_back(Atom);
  }
}

} // namespace

void SharedAccessCollector::inlineCall(const CallExpr *CE, const CFGBlock *B,
                                       unsigned Index) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee->hasBody(Definition) || !Definition ||
      Definition->isDependentContext())
    return;
  // A method's parameters are the call's arguments, as a free function's,
  // except in an operator call, whose first argument is the object.
  const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
  if (Method && Method->isInstance() && isa<CXXOperatorCallExpr>(CE))
    return;
  const FunctionDependence *CalleeDeps = Analysis.analyze(Definition);
  // A callee that reaches a barrier splits its accesses into the intervals
  // CalleeIntervals computes: what may run before its first barrier is
  // before the call's barrier, what may run after its last is after it, and
  // what lies between is ordered against everything outside by the
  // callee's own barriers.
  std::optional<CalleeIntervals> Intervals;
  for (const BarrierSite &Site : Deps.getBarrierSites())
    if (Site.Call == CE && !Intervals) {
      if (!CalleeDeps || CalleeDeps->getBarrierSites().empty())
        return;
      Intervals.emplace(*CalleeDeps);
    }
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
  if (Bindings.empty() && !mentionsShared(Definition->getBody()))
    return;
  Sym.enterCallee(Definition, Arguments);
  CalleeAccessFinder Finder;
  Finder.TraverseStmt(const_cast<Stmt *>(Definition->getBody()));
  ParentMap CalleeParents(const_cast<Stmt *>(Definition->getBody()));
  llvm::SmallPtrSet<const Stmt *, 4> SyncingLoops;
  if (Intervals)
    SyncingLoops = syncingLoops(*CalleeDeps);
  auto SegmentOf = [](unsigned char Bits) {
    if (Bits == CalleeIntervals::First)
      return CallSegment::BeforeBarrier;
    if (Bits == CalleeIntervals::Last)
      return CallSegment::AfterBarrier;
    return CallSegment::Whole;
  };
  for (const auto &F : Finder.Accesses) {
    // Where the access runs relative to the call's barriers: by the ways
    // that run the helper's syncing loops; and, when possible races are
    // wanted, once more where a zero-trip way through one of them puts it
    // (SharedAccess::ZeroTripHelperLoop), so that a race the first
    // placement makes stays certain.
    llvm::SmallVector<std::pair<CallSegment, bool>, 2> Placements;
    if (Intervals) {
      std::optional<unsigned char> Found =
          Intervals->of(F.LValue, CalleeParents);
      if (!Found)
        continue;
      unsigned char Bits =
          *Found & (CalleeIntervals::First | CalleeIntervals::Last);
      unsigned char All = Bits | (*Found >> 2);
      if (Bits)
        Placements.push_back({SegmentOf(Bits), false});
      if (FollowZeroTripPaths && All != Bits)
        Placements.push_back({SegmentOf(All), true});
      if (Placements.empty())
        continue;
    } else {
      Placements.push_back({CallSegment::Whole, false});
    }
    CalleeConditions Conditions =
        calleeConditions(Sym, F.LValue, CalleeParents, CE, CalleeDeps, Deps);
    if (Conditions.Never)
      continue;
    for (const auto &[Segment, ZeroTrip] : Placements) {
      std::size_t Before = Accesses.size();
      addAccess(F.LValue, CE, B, Index, F.Kind, F.ThroughPointer, CE,
                &Conditions);
      if (Accesses.size() > Before) {
        Accesses.back().Segment = Segment;
        Accesses.back().SkipsHelperBarriers =
            Intervals && Segment == CallSegment::Whole;
        Accesses.back().ZeroTripHelperLoop = ZeroTrip;
        if (!ZeroTrip)
          noteSyncingLoops(Accesses.back(), F.LValue, SyncingLoops, Sym,
                           CalleeParents);
      }
    }
  }
  Sym.leaveCallee();
  Bindings.clear();
}

std::string SharedAccessCollector::describeThread(std::int64_t Linear,
                                                  const BlockShape &S) {
  std::int64_t X = Linear % S.Dim[0];
  std::int64_t Y = (Linear / S.Dim[0]) % S.Dim[1];
  std::int64_t Z = Linear / (S.Dim[0] * S.Dim[1]);
  return BlockShape{{X, Y, Z}}.str();
}

std::string SharedAccessCollector::describeElement(const VarDecl *Var,
                                                   std::int64_t Byte) const {
  std::string Text = Var->getName().str();
  QualType T = Var->getType();
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

std::optional<std::array<const Expr *, 3>>
blockArgumentComponents(const Expr *Block,
                        llvm::function_ref<bool(const VarDecl *)> FollowVar) {
  const Expr *E = Block;
  for (unsigned Depth = 0; E && Depth <= 8; ++Depth) {
    E = E->IgnoreImplicit()->IgnoreParens();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(E)) {
      if (Construct->getNumArgs() == 1 &&
          Construct->getArg(0)->getType()->isRecordType()) {
        E = Construct->getArg(0); // A copy.
        continue;
      }
      if (Construct->getNumArgs() > 3)
        return std::nullopt;
      std::array<const Expr *, 3> Parts = {nullptr, nullptr, nullptr};
      for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
        Parts[I] = Construct->getArg(I);
        if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Parts[I]))
          Parts[I] = Default->getExpr();
      }
      return Parts;
    }
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      if (VD && !isa<ParmVarDecl>(VD) && VD->getInit() && FollowVar(VD)) {
        E = VD->getInit();
        continue;
      }
    }
    if (E->getType()->isIntegerType())
      return std::array<const Expr *, 3>{E, nullptr, nullptr};
    return std::nullopt;
  }
  return std::nullopt;
}

namespace {

/// The load (the lvalue-to-rvalue cast) that \p E is, through the usual
/// arithmetic conversions; null when it is none.
const Expr *loadThroughConversions(const Expr *E) {
  E = E->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      return E;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  return nullptr;
}

/// The parameter of \p Kernel whose memory \p E, a load, reads as `P[i]`;
/// null otherwise.
const ParmVarDecl *subscriptedParameter(const Expr *E,
                                        const FunctionDecl *Kernel) {
  const auto *Load = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!Load || Load->getCastKind() != CK_LValueToRValue)
    return nullptr;
  const auto *Subscript =
      dyn_cast<ArraySubscriptExpr>(Load->getSubExpr()->IgnoreParens());
  const auto *Ref =
      Subscript
          ? dyn_cast<DeclRefExpr>(Subscript->getBase()->IgnoreParenImpCasts())
          : nullptr;
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return Param && Param->getDeclContext() == Kernel ? Param : nullptr;
}

/// The parameter of \p Kernel whose memory \p E loads (`P[i]`), if every
/// use of it in the kernel is such a load. \p ReadOnly keeps each
/// parameter's answer: the scan is of the whole body, and every access
/// under every untranslated guard asks.
const ParmVarDecl *readOnlyInput(const Expr *E, const FunctionDecl *Kernel,
                                 const ParentMap &Parents,
                                 ReadOnlyParams &ReadOnly) {
  const ParmVarDecl *Param = subscriptedParameter(E, Kernel);
  if (!Param || !Param->getType()->isPointerType() || !Kernel->getBody())
    return nullptr;
  if (auto Known = ReadOnly.find(Param); Known != ReadOnly.end())
    return Known->second ? Param : nullptr;
  // Every use: the base of a subscript whose value is loaded. A store, an
  // address taken, a call that gets the pointer or a new value of P make
  // the memory something the kernel may write.
  struct Uses : RecursiveASTVisitor<Uses> {
    const ParmVarDecl *Param;
    const ParentMap &Parents;
    bool OnlyLoads = true;
    Uses(const ParmVarDecl *Param, const ParentMap &Parents)
        : Param(Param), Parents(Parents) {}
    bool VisitDeclRefExpr(DeclRefExpr *Use) {
      if (Use->getDecl() != Param)
        return true;
      const Stmt *Up = Parents.getParentIgnoreParenImpCasts(Use);
      const auto *ASE = dyn_cast_or_null<ArraySubscriptExpr>(Up);
      const auto *Read = ASE && ASE->getBase()->IgnoreParenImpCasts() == Use
                             ? dyn_cast_or_null<ImplicitCastExpr>(
                                   Parents.getParentIgnoreParens(ASE))
                             : nullptr;
      if (!Read || Read->getCastKind() != CK_LValueToRValue)
        OnlyLoads = false;
      return OnlyLoads;
    }
  } Visitor(Param, Parents);
  Visitor.TraverseStmt(const_cast<Stmt *>(Kernel->getBody()));
  ReadOnly[Param] = Visitor.OnlyLoads;
  return Visitor.OnlyLoads ? Param : nullptr;
}

} // namespace

bool isInputTest(const Expr *Cond, const FunctionDecl *Kernel,
                 SymbolicTranslator &Sym, const ParentMap &Parents,
                 ASTContext &Context, ReadOnlyParams &ReadOnly) {
  if (!Cond || !Kernel || !Kernel->hasAttr<CUDAGlobalAttr>())
    return false;
  const Expr *E = Cond->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
      Cast && Cast->getCastKind() != CK_LValueToRValue)
    E = Cast->getSubExpr()->IgnoreParens(); // To bool.
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    return isInputTest(Not->getSubExpr(), Kernel, Sym, Parents, Context,
                       ReadOnly);
  const auto *Compare = dyn_cast<BinaryOperator>(E);
  // `k < steps && work[i] > 0`: the condition of the block that tests the
  // last operand is the whole expression; every operand is an input test
  // or uniform (the branch on a uniform operand guards no access, as any
  // uniform branch).
  if (Compare && Compare->isLogicalOp()) {
    for (const Expr *Side : {Compare->getLHS(), Compare->getRHS()}) {
      SymId Value = Sym.translate(Side);
      if ((Sym.isUnknown(Value) || Sym.usesThread(Value)) &&
          !isInputTest(Side, Kernel, Sym, Parents, Context, ReadOnly))
        return false;
    }
    return true;
  }
  if (!Compare || !Compare->isComparisonOp())
    return readOnlyInput(E, Kernel, Parents, ReadOnly) != nullptr;
  const Expr *LHS = Compare->getLHS()->IgnoreParens();
  const Expr *RHS = Compare->getRHS()->IgnoreParens();
  const Expr *Load = loadThroughConversions(LHS);
  const Expr *Other = RHS;
  if (!Load || !readOnlyInput(Load, Kernel, Parents, ReadOnly)) {
    Load = loadThroughConversions(RHS);
    Other = LHS;
    if (!Load || !readOnlyInput(Load, Kernel, Parents, ReadOnly))
      return false;
  }
  SymId Bound = Sym.translate(Other);
  if (Sym.isUnknown(Bound) || Sym.usesThread(Bound))
    return false;
  // `x > INT_MAX` holds for no element, `x <= INT_MAX` for every one.
  QualType Element = Load->getType();
  Expr::EvalResult Value;
  if (Element->isIntegerType() && Other->EvaluateAsInt(Value, Context)) {
    const llvm::APSInt &V = Value.Val.getInt();
    unsigned Bits = Context.getIntWidth(Element);
    bool Unsigned = !Element->isSignedIntegerType();
    if (llvm::APSInt::isSameValue(V,
                                  llvm::APSInt::getMaxValue(Bits, Unsigned)) ||
        llvm::APSInt::isSameValue(V, llvm::APSInt::getMinValue(Bits, Unsigned)))
      return false;
  }
  return true;
}

namespace {

/// The kernel parameter whose memory \p E loads as `P[i]`, through the
/// usual arithmetic conversions; null otherwise.
const ParmVarDecl *loadedParameter(const Expr *E, const FunctionDecl *Kernel) {
  const Expr *Load = loadThroughConversions(E);
  return Load ? subscriptedParameter(Load, Kernel) : nullptr;
}

bool mentionsInput(const Expr *E, const FunctionDecl *Kernel) {
  if (!E)
    return false;
  if (loadedParameter(E, Kernel))
    return true;
  for (const Stmt *Child : E->children())
    if (const auto *Sub = dyn_cast_or_null<Expr>(Child);
        Sub && mentionsInput(Sub, Kernel))
      return true;
  return false;
}

bool addFill(const ParmVarDecl *Param, std::int64_t Value,
             llvm::SmallVectorImpl<InputFill> &Fills) {
  for (const InputFill &F : Fills)
    if (F.Param == Param)
      return F.Value == Value;
  Fills.push_back({Param, Value});
  return true;
}

} // namespace

bool inputFills(const Expr *Cond, bool Holds, const FunctionDecl *Kernel,
                ASTContext &Context, llvm::SmallVectorImpl<InputFill> &Fills) {
  if (!Cond)
    return false;
  const Expr *E = Cond->IgnoreParens();
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E);
      Cast && Cast->getCastKind() != CK_LValueToRValue)
    E = Cast->getSubExpr()->IgnoreParens(); // To bool.
  if (const auto *Not = dyn_cast<UnaryOperator>(E);
      Not && Not->getOpcode() == UO_LNot)
    return inputFills(Not->getSubExpr(), !Holds, Kernel, Context, Fills);
  if (const ParmVarDecl *Param = loadedParameter(E, Kernel))
    return addFill(Param, Holds ? 1 : 0, Fills);
  const auto *Binary = dyn_cast<BinaryOperator>(E);
  if (!Binary)
    return false;
  if (Binary->isLogicalOp()) {
    // Every input operand of `a && b` holds when it does, or of `a || b`
    // fails when it does; otherwise one operand decides, the first that
    // tests input.
    bool Every = (Binary->getOpcode() == BO_LAnd) == Holds;
    bool Any = false;
    for (const Expr *Side : {Binary->getLHS(), Binary->getRHS()}) {
      if (!mentionsInput(Side, Kernel))
        continue;
      if (!inputFills(Side, Holds, Kernel, Context, Fills))
        return false;
      Any = true;
      if (!Every)
        break;
    }
    return Any;
  }
  if (!Binary->isComparisonOp())
    return false;
  BinaryOperatorKind Op = Binary->getOpcode();
  const Expr *Other = Binary->getRHS();
  const ParmVarDecl *Param = loadedParameter(Binary->getLHS(), Kernel);
  if (!Param) {
    Param = loadedParameter(Binary->getRHS(), Kernel);
    Other = Binary->getLHS();
    Op = BinaryOperator::reverseComparisonOp(Op);
  }
  if (!Param)
    return false;
  if (!Holds)
    Op = BinaryOperator::negateComparisonOp(Op);
  Expr::EvalResult Bound;
  if (Other->isValueDependent() || !Other->EvaluateAsInt(Bound, Context) ||
      Bound.Val.getInt().getSignificantBits() > 62)
    return false;
  std::int64_t C = Bound.Val.getInt().getExtValue();
  switch (Op) {
  case BO_GT:
  case BO_NE:
    return addFill(Param, C + 1, Fills);
  case BO_LT:
    return addFill(Param, C - 1, Fills);
  case BO_GE:
  case BO_LE:
  case BO_EQ:
    return addFill(Param, C, Fills);
  default:
    return false;
  }
}

} // namespace clang::cuda_tidy
