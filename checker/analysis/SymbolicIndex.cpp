//===--- SymbolicIndex.cpp - Index expressions as small programs ----------===//

#include "analysis/SymbolicIndex.h"
#include "model/CudaModel.h"
#include "model/SyncEvents.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

namespace clang::cuda_tidy {

namespace {

const VarDecl *refVar(const Expr *E) {
  if (!E)
    return nullptr;
  const auto *DRE = dyn_cast<DeclRefExpr>(E->IgnoreParenImpCasts());
  return DRE ? dyn_cast<VarDecl>(DRE->getDecl()) : nullptr;
}

/// Counts writes to local variables: assignments, increments, taking the
/// address, binding to a non-const reference parameter.
class AssignmentCounter : public RecursiveASTVisitor<AssignmentCounter> {
public:
  explicit AssignmentCounter(
      llvm::DenseMap<const VarDecl *, unsigned> &Counts,
      llvm::SmallPtrSetImpl<const VarDecl *> *LaneIds = nullptr)
      : Counts(Counts), LaneIds(LaneIds) {}
  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->isAssignmentOp())
      bump(BO->getLHS());
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator *UO) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      bump(UO->getSubExpr());
    return true;
  }
  bool VisitCXXOperatorCallExpr(CXXOperatorCallExpr *OCE) {
    if ((OCE->isAssignmentOp() || OCE->getOperator() == OO_PlusPlus ||
         OCE->getOperator() == OO_MinusMinus) &&
        OCE->getNumArgs() > 0)
      bump(OCE->getArg(0));
    return true;
  }
  bool VisitCallExpr(CallExpr *CE) {
    const FunctionDecl *FD = CE->getDirectCallee();
    // A member operator's call (`v[i]` of a class's operator[]) passes the
    // object as its first argument and the parameters after it: `i` is
    // the method's first parameter, and the object is written only
    // through a method that is not const.
    unsigned First = 0;
    if (const auto *Method = dyn_cast_or_null<CXXMethodDecl>(FD);
        Method && isa<CXXOperatorCallExpr>(CE) && Method->isInstance() &&
        !Method->isExplicitObjectMemberFunction()) {
      First = 1;
      if (CE->getNumArgs() > 0 && !Method->isConst())
        bump(CE->getArg(0));
    }
    for (unsigned I = First; I < CE->getNumArgs(); ++I) {
      unsigned Param = I - First;
      const ParmVarDecl *P =
          FD && Param < FD->getNumParams() ? FD->getParamDecl(Param) : nullptr;
      if (!P || (P->getType()->isReferenceType() &&
                 !P->getType().getNonReferenceType().isConstQualified()))
        bump(CE->getArg(I));
    }
    return true;
  }
  bool VisitGCCAsmStmt(GCCAsmStmt *Asm) {
    for (const Expr *Out : Asm->outputs())
      bump(Out);
    // `asm("mov.u32 %0, %%laneid;" : "=r"(lane))`, as cub::LaneId(),
    // cuML's laneId() and hand-written kernels read the lane: the output
    // is the thread's place in its warp.
    if (LaneIds && Asm->getNumOutputs() == 1 && Asm->getNumInputs() == 0)
      if (const auto *Text =
              dyn_cast_or_null<StringLiteral>(Asm->getAsmStringExpr())) {
        llvm::StringRef S = Text->getString().trim();
        if (S.starts_with("mov.") && S.contains("%laneid") && S.count(';') <= 1)
          if (const VarDecl *VD = refVar(Asm->getOutputExpr(0)))
            LaneIds->insert(VD);
      }
    return true;
  }

private:
  void bump(const Expr *E) {
    if (const VarDecl *VD = refVar(E))
      ++Counts[VD];
  }
  llvm::DenseMap<const VarDecl *, unsigned> &Counts;
  llvm::SmallPtrSetImpl<const VarDecl *> *LaneIds;
};

std::optional<SymNode::Kind> binaryKind(BinaryOperatorKind Op) {
  switch (Op) {
  case BO_Add:
    return SymNode::Add;
  case BO_Sub:
    return SymNode::Sub;
  case BO_Mul:
    return SymNode::Mul;
  case BO_Div:
    return SymNode::Div;
  case BO_Rem:
    return SymNode::Rem;
  case BO_Shl:
    return SymNode::Shl;
  case BO_Shr:
    return SymNode::Shr;
  case BO_And:
    return SymNode::And;
  case BO_Or:
    return SymNode::Or;
  case BO_Xor:
    return SymNode::Xor;
  case BO_LT:
    return SymNode::Lt;
  case BO_LE:
    return SymNode::Le;
  case BO_GT:
    return SymNode::Gt;
  case BO_GE:
    return SymNode::Ge;
  case BO_EQ:
    return SymNode::Eq;
  case BO_NE:
    return SymNode::Ne;
  case BO_LAnd:
    return SymNode::LAnd;
  case BO_LOr:
    return SymNode::LOr;
  default:
    return std::nullopt;
  }
}

SymNode::Kind mirror(SymNode::Kind K) {
  switch (K) {
  case SymNode::Lt:
    return SymNode::Gt;
  case SymNode::Le:
    return SymNode::Ge;
  case SymNode::Gt:
    return SymNode::Lt;
  case SymNode::Ge:
    return SymNode::Le;
  default:
    return K;
  }
}

} // namespace

SymbolicTranslator::SymbolicTranslator(ASTContext &Context,
                                       const FunctionDecl *Function,
                                       const FunctionDependence *Dependence)
    : Context(Context), Function(Function), Dependence(Dependence) {
  if (const Stmt *Body = Function->getBody()) {
    AssignmentCounter(Assignments, &LaneIds)
        .TraverseStmt(const_cast<Stmt *>(Body));
    findLoopCounters(Body);
  }
}

SymId SymbolicTranslator::add(SymNode N) {
  Nodes.push_back(N);
  return static_cast<SymId>(Nodes.size() - 1);
}

SymId SymbolicTranslator::constant(std::int64_t V) {
  SymNode N;
  N.K = SymNode::Const;
  N.Value = V;
  return add(N);
}

SymId SymbolicTranslator::binary(SymNode::Kind K, SymId A, SymId B) {
  SymNode N;
  N.K = K;
  N.A = A;
  N.B = B;
  return add(N);
}

SymId SymbolicTranslator::linearThreadId() {
  auto Leaf = [&](SymNode::Kind K, unsigned Dim) {
    SymNode N;
    N.K = K;
    N.Value = Dim;
    return add(N);
  };
  SymId X = Leaf(SymNode::Thread, 0), Y = Leaf(SymNode::Thread, 1),
        Z = Leaf(SymNode::Thread, 2);
  SymId DX = Leaf(SymNode::BlockDim, 0), DY = Leaf(SymNode::BlockDim, 1);
  return binary(SymNode::Add, X,
                binary(SymNode::Mul, DX,
                       binary(SymNode::Add, Y, binary(SymNode::Mul, DY, Z))));
}

SymId SymbolicTranslator::atomFor(const VarDecl *VD, std::string Name) {
  const void *Key =
      VD ? static_cast<const void *>(VD)
         : static_cast<const void *>(Context.Idents.get(Name).getNameStart());
  auto It = AtomIds.find(Key);
  unsigned Id;
  if (It != AtomIds.end()) {
    Id = It->second;
  } else {
    Id = Atoms.size();
    SymAtom Atom;
    Atom.Var = VD;
    Atom.Name = std::move(Name);
    Atoms.push_back(Atom);
    AtomIds[Key] = Id;
  }
  SymNode N;
  N.K = SymNode::Atom;
  N.Value = Id;
  return add(N);
}

namespace {

/// How a loop steps its counter: `++i`, `i += e`, `i >>= e`, `i = i * e`...
struct CounterStep {
  const VarDecl *Counter = nullptr;
  SymNode::Kind Op = SymNode::Add;
  const Expr *Step = nullptr; // Null: one.
};

std::optional<CounterStep> counterStep(const Expr *Inc) {
  if (!Inc)
    return std::nullopt;
  Inc = Inc->IgnoreParenImpCasts();
  CounterStep Result;
  if (const auto *UO = dyn_cast<UnaryOperator>(Inc)) {
    if (!UO->isIncrementDecrementOp())
      return std::nullopt;
    Result.Counter = refVar(UO->getSubExpr());
    Result.Op = UO->isIncrementOp() ? SymNode::Add : SymNode::Sub;
  } else if (const auto *CAO = dyn_cast<CompoundAssignOperator>(Inc)) {
    auto K = binaryKind(
        BinaryOperator::getOpForCompoundAssignment(CAO->getOpcode()));
    if (!K)
      return std::nullopt;
    Result.Counter = refVar(CAO->getLHS());
    Result.Op = *K;
    Result.Step = CAO->getRHS();
  } else if (const auto *BO = dyn_cast<BinaryOperator>(Inc)) {
    const auto *RHS =
        dyn_cast<BinaryOperator>(BO->getRHS()->IgnoreParenImpCasts());
    if (BO->getOpcode() != BO_Assign || !RHS ||
        refVar(RHS->getLHS()) != refVar(BO->getLHS()))
      return std::nullopt;
    auto K = binaryKind(RHS->getOpcode());
    if (!K)
      return std::nullopt;
    Result.Counter = refVar(BO->getLHS());
    Result.Op = *K;
    Result.Step = RHS->getRHS();
  }
  if (!Result.Counter || !Result.Counter->getType()->isIntegerType())
    return std::nullopt;
  return Result;
}

/// `i < e` in either order: the comparison with the counter on the left,
/// and e.
std::optional<std::pair<SymNode::Kind, const Expr *>>
counterBound(const Expr *Cond, const VarDecl *Counter) {
  const auto *BO =
      Cond ? dyn_cast<BinaryOperator>(Cond->IgnoreParenImpCasts()) : nullptr;
  if (!BO)
    return std::nullopt;
  auto Compare = binaryKind(BO->getOpcode());
  if (!Compare || *Compare < SymNode::Lt || *Compare > SymNode::Ne)
    return std::nullopt;
  if (refVar(BO->getLHS()) == Counter)
    return std::make_pair(*Compare, BO->getRHS());
  if (refVar(BO->getRHS()) == Counter)
    return std::make_pair(mirror(*Compare), BO->getLHS());
  return std::nullopt;
}

/// Whether a `continue` of the loop whose body is \p S (not of a loop
/// nested in it) is in \p S: it would skip a step written in the body.
bool continuesOwnLoop(const Stmt *S) {
  if (!S)
    return false;
  if (isa<ContinueStmt>(S))
    return true;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S))
    return false;
  for (const Stmt *Child : S->children())
    if (continuesOwnLoop(Child))
      return true;
  return false;
}

} // namespace

void SymbolicTranslator::findLoopCounters(const Stmt *S) {
  if (!S)
    return;
  // Outer loops first, so an inner loop's bounds can name the outer counter.
  if (const auto *For = dyn_cast<ForStmt>(S))
    addLoopCounter(For);
  // A `while` loop's counter is set by a statement before the loop in the
  // same block.
  if (const auto *Compound = dyn_cast<CompoundStmt>(S))
    for (unsigned I = 0; I < Compound->size(); ++I) {
      const Stmt *Child = Compound->body_begin()[I];
      if (const auto *Attributed = dyn_cast<AttributedStmt>(Child))
        Child = Attributed->getSubStmt();
      if (const auto *While = dyn_cast<WhileStmt>(Child))
        addWhileCounter(
            While, llvm::ArrayRef<const Stmt *>(Compound->body_begin(), I));
    }
  for (const Stmt *Child : S->children())
    findLoopCounters(Child);
}

void SymbolicTranslator::addLoopCounter(const ForStmt *For) {
  if (!For->getCond() || !For->getInc())
    return;
  // init: `int i = e` or `i = e`.
  const VarDecl *Counter = nullptr;
  const Expr *Init = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(For->getInit())) {
    if (DS->isSingleDecl())
      if (const auto *VD = dyn_cast<VarDecl>(DS->getSingleDecl())) {
        Counter = VD;
        Init = VD->getInit();
      }
  } else if (const auto *BO =
                 dyn_cast_or_null<BinaryOperator>(For->getInit())) {
    if (BO->getOpcode() == BO_Assign) {
      Counter = refVar(BO->getLHS());
      Init = BO->getRHS();
    }
  }
  if (!Counter || !Init || !Counter->getType()->isIntegerType())
    return;
  auto Bound = counterBound(For->getCond(), Counter);
  std::optional<CounterStep> Step = counterStep(For->getInc());
  if (!Bound || !Step || Step->Counter != Counter)
    return;
  // The body must not write the counter: the step is its one write, and
  // the init's when it is an assignment.
  bool DeclaredInInit = isa_and_nonnull<DeclStmt>(For->getInit());
  if (Assignments.lookup(Counter) != 1u + (DeclaredInInit ? 0 : 1))
    return;
  registerCounter(For, Counter, Init, Bound->first, Bound->second, Step->Op,
                  Step->Step);
}

void SymbolicTranslator::addWhileCounter(const WhileStmt *While,
                                         llvm::ArrayRef<const Stmt *> Before) {
  // `int i = e; ... while (i < n) { ...; ++i; }`: the body's last statement
  // steps the counter and nothing else writes it, so in each iteration it
  // holds one value from the first statement of the body to the step, as a
  // `for` loop's does. A `continue` would skip the step.
  const auto *Body = dyn_cast<CompoundStmt>(While->getBody());
  if (!Body || Body->body_empty() || While->getConditionVariable() ||
      continuesOwnLoop(Body))
    return;
  std::optional<CounterStep> Step =
      counterStep(dyn_cast<Expr>(Body->body_back()));
  if (!Step)
    return;
  const VarDecl *Counter = Step->Counter;
  if (LoopCounters.count(Counter) || ThreadCounters.count(Counter))
    return;
  auto Bound = counterBound(While->getCond(), Counter);
  if (!Bound)
    return;
  // The value on entry: the nearest earlier statement of the block that
  // sets it, its declaration or an assignment; the count of writes then
  // says nothing between sets it again.
  const Expr *Init = nullptr;
  unsigned Writes = 1;
  for (const Stmt *S : llvm::reverse(Before)) {
    if (const auto *DS = dyn_cast<DeclStmt>(S)) {
      if (llvm::is_contained(DS->decls(), Counter)) {
        Init = Counter->getInit();
        break;
      }
    } else if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
      if (BO->getOpcode() == BO_Assign && refVar(BO->getLHS()) == Counter) {
        Init = BO->getRHS();
        Writes = 2;
        break;
      }
    }
  }
  if (!Init || Assignments.lookup(Counter) != Writes)
    return;
  registerCounter(While, Counter, Init, Bound->first, Bound->second, Step->Op,
                  Step->Step);
}

void SymbolicTranslator::registerCounter(
    const Stmt *Loop, const VarDecl *Counter, const Expr *Init,
    SymNode::Kind Compare, const Expr *Bound, SymNode::Kind StepOp,
    const Expr *Step) {
  unsigned Id = Atoms.size();
  SymAtom Atom;
  Atom.Var = Counter;
  Atom.Name = Counter->getName().str();
  Atom.Loop = Loop;
  Atom.Compare = Compare;
  Atom.StepOp = StepOp;
  Atoms.push_back(Atom);
  AtomIds[Counter] = Id;
  LoopCounters[Counter] = Loop;
  // Translate after registering, so a bound that mentions the counter does
  // not recurse.
  Atoms[Id].Init = translate(Init);
  Atoms[Id].Bound = translate(Bound);
  Atoms[Id].Step = Step ? translate(Step) : constant(1);
  if (usesThread(Atoms[Id].Bound) || usesThread(Atoms[Id].Step)) {
    // Thread-dependent trip counts other than through the start: unknown.
    LoopCounters.erase(Counter);
    ThreadCounters.insert(Counter);
    return;
  }
  if (usesThread(Atoms[Id].Init)) {
    if (StepOp != SymNode::Add && StepOp != SymNode::Sub) {
      LoopCounters.erase(Counter);
      ThreadCounters.insert(Counter);
      return;
    }
    Atoms[Id].IterationNumber = true;
  }
}

void SymbolicTranslator::enterCallee(const FunctionDecl *Callee,
                                     llvm::ArrayRef<SymId> Arguments) {
  if (Scanned.insert(Callee).second)
    if (const Stmt *Body = Callee->getBody()) {
      AssignmentCounter(Assignments, &LaneIds)
          .TraverseStmt(const_cast<Stmt *>(Body));
      findLoopCounters(Body);
    }
  for (unsigned I = 0; I < Callee->getNumParams() && I < Arguments.size(); ++I)
    if (Arguments[I] >= 0 && Assignments.lookup(Callee->getParamDecl(I)) == 0)
      Substitutions[Callee->getParamDecl(I)] = Arguments[I];
}

void SymbolicTranslator::leaveCallee() {
  Substitutions.clear();
  // A helper's local was translated with this call's arguments: the next
  // call of the same helper passes others.
  for (auto It = VarCache.begin(); It != VarCache.end();) {
    auto Current = It++;
    if (Current->first->getParentFunctionOrMethod() != Function)
      VarCache.erase(Current);
  }
}

void SymbolicTranslator::substituteParameter(const ParmVarDecl *Param,
                                             SymId Value) {
  if (Assignments.lookup(Param) == 0)
    EntrySubstitutions[Param] = Value;
}

SymId SymbolicTranslator::translateVar(const VarDecl *VD, const Expr *Use) {
  SymNode Unknown;
  auto Substituted = Substitutions.find(VD);
  if (Substituted != Substitutions.end())
    return Substituted->second;
  auto AtEntry = EntrySubstitutions.find(VD);
  if (AtEntry != EntrySubstitutions.end())
    return AtEntry->second;
  if (getBuiltinIndexKind(VD))
    return add(Unknown);
  if (isWarpSizeVariable(VD))
    return constant(32);
  if (ThreadCounters.count(VD))
    return add(Unknown);
  if (LaneIds.count(VD) && Assignments.lookup(VD) == 1 && !VD->getInit())
    return binary(SymNode::Rem, linearThreadId(), constant(32));
  if (LoopCounters.count(VD)) {
    SymId Atom = atomFor(VD, VD->getName().str());
    const SymAtom &Info = Atoms[Nodes[Atom].Value];
    if (!Info.IterationNumber)
      return Atom;
    // Init + iteration * Step (or minus).
    return binary(Info.StepOp, Info.Init,
                  binary(SymNode::Mul, Atom, Info.Step));
  }
  if (VD->getType()->isReferenceType())
    return add(Unknown);
  // A range-for's variable takes another value in each iteration, and two
  // threads may be in different iterations: one atom for it would let both
  // hold the same value, which no iteration gives (ggml's `for (int
  // stride_k : {32, 16, 8, 4})` read as one unknown stride).
  if (VD->isCXXForRangeDecl())
    return add(Unknown);
  bool IsParam = isa<ParmVarDecl>(VD);
  // The dependence analysis describes the kernel's own variables only: a
  // helper's local or parameter may differ between threads, so without a
  // single initialiser to follow it is unknown, never a uniform atom.
  bool InCallee =
      VD->hasLocalStorage() && VD->getParentFunctionOrMethod() != Function;
  if (VD->hasLocalStorage() && !IsParam && Assignments.lookup(VD) == 0 &&
      VD->getInit()) {
    auto It = VarCache.find(VD);
    if (It != VarCache.end())
      return It->second;
    if (Depth > 16)
      return add(Unknown);
    ++Depth;
    SymId Id = translate(VD->getInit());
    --Depth;
    // A value the translation cannot follow (a call, a load) is still one
    // value: an atom, unless it may differ between threads.
    bool Thread =
        InCallee ||
        (Dependence && (Dependence->getVariableDeps(VD) & dep::Thread) != 0);
    if (isUnknown(Id) && !Thread)
      Id = atomFor(VD, VD->getName().str());
    VarCache[VD] = Id;
    return Id;
  }
  if (!VD->hasLocalStorage())
    return atomFor(VD, VD->getName().str()); // Global memory, constants.
  // Without a dependence analysis the function is host code: nothing in it
  // differs from thread to thread.
  bool Thread =
      Dependence && (Dependence->getVariableDeps(VD) & dep::Thread) != 0;
  if (IsParam && Function->hasAttr<CUDAGlobalAttr>() && !InCallee)
    Thread = false; // Kernel parameters are the same in every thread.
  if (Thread || InCallee)
    return add(Unknown);
  return atomFor(VD, VD->getName().str());
}

SymId SymbolicTranslator::translate(const Expr *E) {
  SymNode Unknown;
  if (!E)
    return add(Unknown);
  E = E->IgnoreParens();
  if (E->isValueDependent() || E->isTypeDependent())
    return add(Unknown);
  if (E->getType()->isIntegralOrEnumerationType() ||
      E->getType()->isBooleanType()) {
    Expr::EvalResult Result;
    if (!E->HasSideEffects(Context) && E->EvaluateAsInt(Result, Context))
      return constant(Result.Val.getInt().getExtValue());
  }
  std::string Spelling;
  if (auto Kind = getBuiltinIndexRef(E, &Spelling)) {
    unsigned Dim = Spelling.back() - 'x';
    SymNode N;
    switch (*Kind) {
    case BuiltinIndexKind::ThreadIdx:
      N.K = SymNode::Thread;
      N.Value = Dim;
      HighestDim = std::max(HighestDim, Dim);
      return add(N);
    case BuiltinIndexKind::BlockDim:
      N.K = SymNode::BlockDim;
      N.Value = Dim;
      return add(N);
    default:
      return atomFor(nullptr, Spelling);
    }
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    QualType To = Cast->getType();
    if (Cast->getCastKind() == CK_LValueToRValue ||
        To->isIntegralOrEnumerationType() || To->isBooleanType())
      return translate(Cast->getSubExpr());
    return add(Unknown);
  }
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
      return translateVar(VD, E);
    return add(Unknown);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    if (BO->getOpcode() == BO_Comma)
      return translate(BO->getRHS());
    if (auto K = binaryKind(BO->getOpcode()))
      return binary(*K, translate(BO->getLHS()), translate(BO->getRHS()));
    return add(Unknown);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    SymNode N;
    N.A = translate(UO->getSubExpr());
    switch (UO->getOpcode()) {
    case UO_Plus:
      return N.A;
    case UO_Minus:
      N.K = SymNode::Neg;
      return add(N);
    case UO_Not:
      N.K = SymNode::BitNot;
      return add(N);
    case UO_LNot:
      N.K = SymNode::Not;
      return add(N);
    default:
      return add(Unknown);
    }
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
    SymNode N;
    N.K = SymNode::Select;
    N.A = translate(CO->getCond());
    N.B = translate(CO->getTrueExpr());
    N.C = translate(CO->getFalseExpr());
    return add(N);
  }
  if (const auto *ME = dyn_cast<MemberExpr>(E)) {
    // `block.thread_index().x`, `block.dim_threads().y`.
    const auto *Call = dyn_cast<CallExpr>(ME->getBase()->IgnoreParenImpCasts());
    SyncEvent Query = Call ? classifySync(Call) : SyncEvent();
    if (Query.Scope == BarrierScope::Block &&
        ME->getMemberDecl()->getIdentifier()) {
      llvm::StringRef Member = ME->getMemberDecl()->getName();
      if (Member.size() == 1 && Member[0] >= 'x' && Member[0] <= 'z') {
        SymNode N;
        N.Value = Member[0] - 'x';
        if (Query.Query == GroupQuery::ThreadIndex) {
          N.K = SymNode::Thread;
          HighestDim = std::max(HighestDim, unsigned(N.Value));
          return add(N);
        }
        if (Query.Query == GroupQuery::DimThreads) {
          N.K = SymNode::BlockDim;
          return add(N);
        }
      }
    }
    return add(Unknown);
  }
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    if (std::optional<MinMaxKind> Kind = getMinMaxCall(CE))
      return binary(*Kind == MinMaxKind::Min ? SymNode::Min : SymNode::Max,
                    translate(CE->getArg(0)), translate(CE->getArg(1)));
    if (SymId Rank = groupRank(classifySync(CE)); Rank >= 0)
      return Rank;
    if (SymId Value = inlineExpressionCall(CE); Value >= 0)
      return Value;
    return add(Unknown);
  }
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return translate(Default->getExpr());
  return add(Unknown);
}

// Index helpers are small functions that compute one value from their
// arguments and the thread's coordinates (`laneId()`, `warpId()`,
// `index(row, col)`). The dependence analysis follows calls through its
// summaries, but a value of a call stayed Unknown here, so a race whose
// index went through such a helper was undecided and silent while the same
// index written in the kernel was reported. A function whose body is local
// declarations (and `asm` that reads `%laneid`) followed by one `return`
// is translated in place, its parameters standing for the call's
// arguments. Functions with statements of any other kind (loops, branches,
// stores) keep the call Unknown: their value is not one expression.
SymId SymbolicTranslator::inlineExpressionCall(const CallExpr *CE) {
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionDecl *Definition = nullptr;
  if (!Callee || !Callee->hasBody(Definition) || !Definition ||
      Definition == Function || Definition->isVariadic() || Depth > 8)
    return -1;
  // `this` and members are not modelled; a member operator's call also
  // passes the object as its first argument.
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
      Method && !Method->isStatic())
    return -1;
  if (isa<CXXOperatorCallExpr>(CE))
    return -1;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Definition->getBody());
  if (!Body || Body->size() == 0)
    return -1;
  const auto *Return = dyn_cast<ReturnStmt>(Body->body_back());
  if (!Return || !Return->getRetValue())
    return -1;
  for (const Stmt *S : Body->body())
    if (S != Return && !isa<DeclStmt, GCCAsmStmt, NullStmt>(S))
      return -1;
  if (CE->getNumArgs() != Definition->getNumParams())
    return -1;
  if (Scanned.insert(Definition).second)
    AssignmentCounter(Assignments, &LaneIds)
        .TraverseStmt(const_cast<Stmt *>(Definition->getBody()));
  llvm::SmallVector<std::pair<const VarDecl *, std::optional<SymId>>, 4> Saved;
  for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
    const ParmVarDecl *Param = Definition->getParamDecl(I);
    if (Param->getType()->isReferenceType() || Assignments.lookup(Param) != 0)
      return restoreAfterInline(Saved, Definition, -1);
    ++Depth;
    SymId Argument = translate(CE->getArg(I));
    --Depth;
    auto Old = Substitutions.find(Param);
    Saved.push_back({Param, Old == Substitutions.end()
                                ? std::nullopt
                                : std::optional<SymId>(Old->second)});
    Substitutions[Param] = Argument;
  }
  ++Depth;
  SymId Value = translate(Return->getRetValue());
  --Depth;
  return restoreAfterInline(Saved, Definition, Value);
}

SymId SymbolicTranslator::restoreAfterInline(
    llvm::ArrayRef<std::pair<const VarDecl *, std::optional<SymId>>> Saved,
    const FunctionDecl *Definition, SymId Value) {
  for (const auto &[Param, Old] : Saved) {
    if (Old)
      Substitutions[Param] = *Old;
    else
      Substitutions.erase(Param);
  }
  // The helper's locals were translated with this call's arguments.
  for (auto It = VarCache.begin(); It != VarCache.end();) {
    auto Current = It++;
    if (Current->first->getParentFunctionOrMethod() == Definition)
      VarCache.erase(Current);
  }
  return Value;
}

SymId SymbolicTranslator::groupRank(const SyncEvent &Query) {
  if (Query.Query != GroupQuery::ThreadRank &&
      Query.Query != GroupQuery::MetaGroupRank)
    return -1;
  if (Query.Query == GroupQuery::ThreadRank &&
      Query.Scope == BarrierScope::Block)
    return linearThreadId();
  // Static tiles: the size is the first template argument of the class
  // that declares the method (thread_block_tile<N> or one of its bases).
  if (!Query.TileSize)
    return -1;
  std::uint64_t Size = *Query.TileSize;
  if (Size == 0 || Size > 32 || (Size & (Size - 1)))
    return -1;
  // A tile's rank is the thread's place in it, whatever its parent (tiles
  // split their parent in order). Its group rank is the linear id over the
  // size only when the parent is the block: certain for a tile of 32,
  // whose parent can only be the block or a tile of 32.
  if (Query.Query == GroupQuery::ThreadRank)
    return binary(SymNode::Rem, linearThreadId(), constant(Size));
  if (Size == 32)
    return binary(SymNode::Div, linearThreadId(), constant(Size));
  return -1;
}

std::optional<std::int64_t>
SymbolicTranslator::evaluateIn(SymId Id, const SymEnv &Env,
                               bool Within32) const {
  std::optional<std::int64_t> V = evaluateNode(Id, Env, Within32);
  if (V && Within32 && (*V < INT32_MIN || *V > INT32_MAX))
    return std::nullopt;
  return V;
}

std::optional<std::int64_t>
SymbolicTranslator::evaluateNode(SymId Id, const SymEnv &Env,
                                 bool Within32) const {
  if (Id < 0)
    return std::nullopt;
  const SymNode &N = Nodes[Id];
  switch (N.K) {
  case SymNode::Const:
    return N.Value;
  case SymNode::Thread:
    return Env.Tid[N.Value];
  case SymNode::BlockDim:
    return Env.Dim[N.Value];
  case SymNode::Atom:
    if (!Env.Atoms)
      return std::nullopt;
    return Env.Atoms[N.Value];
  case SymNode::Unknown:
    return std::nullopt;
  case SymNode::Select: {
    auto C = evaluateIn(N.A, Env, Within32);
    if (!C)
      return std::nullopt;
    return evaluateIn(*C ? N.B : N.C, Env, Within32);
  }
  case SymNode::LAnd: {
    auto A = evaluateIn(N.A, Env, Within32);
    if (!A)
      return std::nullopt;
    if (!*A)
      return 0;
    auto B = evaluateIn(N.B, Env, Within32);
    return B ? std::optional<std::int64_t>(*B != 0) : std::nullopt;
  }
  case SymNode::LOr: {
    auto A = evaluateIn(N.A, Env, Within32);
    if (!A)
      return std::nullopt;
    if (*A)
      return 1;
    auto B = evaluateIn(N.B, Env, Within32);
    return B ? std::optional<std::int64_t>(*B != 0) : std::nullopt;
  }
  case SymNode::Not:
  case SymNode::Neg:
  case SymNode::BitNot: {
    auto A = evaluateIn(N.A, Env, Within32);
    if (!A)
      return std::nullopt;
    return N.K == SymNode::Not ? std::int64_t(!*A)
                               : (N.K == SymNode::Neg ? -*A : ~*A);
  }
  default:
    break;
  }
  auto A = evaluateIn(N.A, Env, Within32);
  if (!A)
    return std::nullopt;
  auto B = evaluateIn(N.B, Env, Within32);
  if (!B)
    return std::nullopt;
  std::int64_t X = *A, Y = *B;
  switch (N.K) {
  case SymNode::Add:
    return X + Y;
  case SymNode::Sub:
    return X - Y;
  case SymNode::Mul:
    return X * Y;
  case SymNode::Div:
    if (Y == 0)
      return std::nullopt;
    return X / Y;
  case SymNode::Rem:
    if (Y == 0)
      return std::nullopt;
    return X % Y;
  case SymNode::Shl:
    if (Y < 0 || Y > (Within32 ? 31 : 62))
      return std::nullopt;
    return X << Y;
  case SymNode::Shr:
    if (Y < 0 || Y > 62)
      return std::nullopt;
    return X >> Y;
  case SymNode::And:
    return X & Y;
  case SymNode::Or:
    return X | Y;
  case SymNode::Xor:
    return X ^ Y;
  case SymNode::Lt:
    return X < Y;
  case SymNode::Le:
    return X <= Y;
  case SymNode::Gt:
    return X > Y;
  case SymNode::Ge:
    return X >= Y;
  case SymNode::Eq:
    return X == Y;
  case SymNode::Ne:
    return X != Y;
  case SymNode::Min:
    return std::min(X, Y);
  case SymNode::Max:
    return std::max(X, Y);
  default:
    return std::nullopt;
  }
}

std::vector<std::int64_t> SymbolicTranslator::loopValues(unsigned AtomId,
                                                         const SymEnv &Env,
                                                         bool UseAtoms) const {
  const SymAtom &Atom = Atoms[AtomId];
  std::vector<std::int64_t> Values;
  if (!Atom.isLoopCounter())
    return Values;
  SymEnv Plain = Env;
  if (!UseAtoms)
    Plain.Atoms = nullptr; // Bounds that need unknown values: not listable.
  if (Atom.IterationNumber) {
    // The most iterations any thread of the block makes.
    SymAtom Counter = Atom;
    Counter.IterationNumber = false;
    std::size_t Most = 0;
    std::int64_t Threads = Env.Dim[0] * Env.Dim[1] * Env.Dim[2];
    for (std::int64_t T = 0; T < Threads; ++T) {
      Plain.Tid[0] = T % Env.Dim[0];
      Plain.Tid[1] = (T / Env.Dim[0]) % Env.Dim[1];
      Plain.Tid[2] = T / (Env.Dim[0] * Env.Dim[1]);
      std::size_t Count = listValues(Counter, Plain).size();
      if (Count == 0 && !evaluate(Atom.Init, Plain))
        return Values;
      Most = std::max(Most, Count);
    }
    for (std::size_t I = 0; I < Most; ++I)
      Values.push_back(static_cast<std::int64_t>(I));
    return Values;
  }
  return listValues(Atom, Plain);
}

std::vector<std::int64_t>
SymbolicTranslator::listValues(const SymAtom &Atom, const SymEnv &Plain) const {
  std::vector<std::int64_t> Values;
  auto Init = evaluate(Atom.Init, Plain);
  auto Bound = evaluate(Atom.Bound, Plain);
  auto Step = evaluate(Atom.Step, Plain);
  if (!Init || !Bound || !Step)
    return Values;
  constexpr unsigned MaxValues = 256;
  std::int64_t V = *Init;
  for (unsigned I = 0; I <= MaxValues; ++I) {
    bool Continue;
    switch (Atom.Compare) {
    case SymNode::Lt:
      Continue = V < *Bound;
      break;
    case SymNode::Le:
      Continue = V <= *Bound;
      break;
    case SymNode::Gt:
      Continue = V > *Bound;
      break;
    case SymNode::Ge:
      Continue = V >= *Bound;
      break;
    case SymNode::Ne:
      Continue = V != *Bound;
      break;
    default:
      return {};
    }
    if (!Continue)
      return Values;
    if (I == MaxValues)
      return {};
    Values.push_back(V);
    std::int64_t Next;
    switch (Atom.StepOp) {
    case SymNode::Add:
      Next = V + *Step;
      break;
    case SymNode::Sub:
      Next = V - *Step;
      break;
    case SymNode::Mul:
      Next = V * *Step;
      break;
    case SymNode::Div:
      if (*Step == 0)
        return {};
      Next = V / *Step;
      break;
    case SymNode::Shl:
      Next = V << *Step;
      break;
    case SymNode::Shr:
      Next = V >> *Step;
      break;
    default:
      return {};
    }
    if (Next == V)
      return {};
    V = Next;
  }
  return {};
}

bool SymbolicTranslator::isUnknown(SymId Id) const {
  if (Id < 0)
    return true;
  const SymNode &N = Nodes[Id];
  if (N.K == SymNode::Unknown)
    return true;
  for (SymId Child : {N.A, N.B, N.C})
    if (Child >= 0 && isUnknown(Child))
      return true;
  return false;
}

bool SymbolicTranslator::usesThread(SymId Id) const {
  if (Id < 0)
    return false;
  const SymNode &N = Nodes[Id];
  if (N.K == SymNode::Thread)
    return true;
  for (SymId Child : {N.A, N.B, N.C})
    if (Child >= 0 && usesThread(Child))
      return true;
  return false;
}

void SymbolicTranslator::collectAtoms(
    SymId Id, llvm::SmallVectorImpl<unsigned> &Out) const {
  if (Id < 0)
    return;
  const SymNode &N = Nodes[Id];
  if (N.K == SymNode::Atom && !llvm::is_contained(Out, unsigned(N.Value)))
    Out.push_back(N.Value);
  for (SymId Child : {N.A, N.B, N.C})
    if (Child >= 0)
      collectAtoms(Child, Out);
}

} // namespace clang::cuda_tidy
