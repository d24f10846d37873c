//===--- HostValues.cpp - Host values that reach a launch -----------------===//
//
// See HostValues.h for the design.
//
//===----------------------------------------------------------------------===//

#include "model/HostValues.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Analysis/Analyses/PostOrderCFGView.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "clang/Lex/Lexer.h"

namespace clang::cuda_tidy {

namespace {

/// More definitions of one variable than this and the variable is not
/// followed: one bit each in a 64-bit set.
constexpr unsigned MaxDefinitions = 64;
/// How deep values are followed through other variables.
constexpr unsigned MaxDepth = 6;

const VarDecl *referencedVar(const Expr *E) {
  const auto *Ref =
      dyn_cast_or_null<DeclRefExpr>(E ? E->IgnoreParenImpCasts() : nullptr);
  return Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
}

/// How element \p S changes \p Var: not at all (false), or a definition
/// whose value is \p Value (null when not readable).
bool defines(const Stmt *S, const VarDecl *Var, const Expr *&Value) {
  Value = nullptr;
  if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    for (const Decl *D : DS->decls())
      if (D == Var) {
        Value = Var->getInit();
        return true;
      }
    return false;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (!BO->isAssignmentOp())
      return false;
    const Expr *LHS = BO->getLHS()->IgnoreParenImpCasts();
    if (referencedVar(LHS) == Var) {
      if (BO->getOpcode() == BO_Assign)
        Value = BO->getRHS();
      return true;
    }
    // `v.x = 32` or `v[0] = 32`: changed, in a way not followed.
    while (true) {
      if (const auto *ME = dyn_cast<MemberExpr>(LHS))
        LHS = ME->getBase()->IgnoreParenImpCasts();
      else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(LHS))
        LHS = ASE->getBase()->IgnoreParenImpCasts();
      else
        break;
    }
    return referencedVar(LHS) == Var;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
           referencedVar(UO->getSubExpr()) == Var;
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(S)) {
    if (OCE->getNumArgs() >= 1 && OCE->isAssignmentOp() &&
        referencedVar(OCE->getArg(0)) == Var) {
      if (OCE->getOperator() == OO_Equal && OCE->getNumArgs() == 2)
        Value = OCE->getArg(1);
      return true;
    }
  }
  if (const auto *MCE = dyn_cast<CXXMemberCallExpr>(S)) {
    const CXXMethodDecl *Method = MCE->getMethodDecl();
    if (referencedVar(MCE->getImplicitObjectArgument()) == Var && Method &&
        !Method->isConst())
      return true;
  }
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    // Passed by non-const reference: the callee may change it.
    const FunctionDecl *Callee = CE->getDirectCallee();
    for (unsigned I = 0; I < CE->getNumArgs(); ++I) {
      if (referencedVar(CE->getArg(I)) != Var)
        continue;
      if (!Callee || I >= Callee->getNumParams())
        return !isa<CUDAKernelCallExpr>(CE);
      QualType Param = Callee->getParamDecl(I)->getType();
      if (Param->isReferenceType() &&
          !Param->getPointeeType().isConstQualified())
        return true;
    }
  }
  return false;
}

} // namespace

HostValues::HostValues(
    const FunctionDecl *Function, ASTContext &Context,
    llvm::DenseMap<const ParmVarDecl *, std::int64_t> BoundValues)
    : Function(Function), Context(Context), Bound(std::move(BoundValues)) {
  Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body)
    return;
  CFG::BuildOptions Options;
  Graph = CFG::buildCFG(Function, Body, &Context, Options);
  Parents = std::make_unique<ParentMap>(Body);
  if (!Graph)
    return;
  for (const CFGBlock *B : *Graph) {
    unsigned Index = 0;
    for (const CFGElement &E : *B) {
      if (auto S = E.getAs<CFGStmt>())
        Where.try_emplace(S->getStmt(), B, Index);
      ++Index;
    }
  }
}

HostValues::~HostValues() = default;

bool HostValues::mayChange(const VarDecl *Var) {
  Stmt *Body = Function ? Function->getBody() : nullptr;
  if (!Body)
    return false;
  auto [It, Inserted] = Changed.try_emplace(Var, false);
  if (!Inserted)
    return It->second;
  if (!Mutations)
    Mutations = std::make_unique<ExprMutationAnalyzer>(*Body, Context);
  return It->second = Mutations->isMutated(Var);
}

const Stmt *HostValues::elementOf(const Stmt *S) {
  for (unsigned Depth = 0; S && Depth < 64; ++Depth) {
    if (Where.count(S))
      return S;
    S = Parents->getParent(S);
  }
  return nullptr;
}

std::optional<llvm::SmallVector<HostValues::Definition, 2>>
HostValues::reaching(const VarDecl *Var, const Stmt *At) {
  const Stmt *Element = elementOf(At);
  if (!Graph || !Element)
    return std::nullopt;
  // Every definition of Var, numbered.
  llvm::SmallVector<Definition, 8> Defs;
  llvm::DenseMap<const Stmt *, unsigned> DefIndex;
  for (const CFGBlock *B : *Graph)
    for (const CFGElement &E : *B)
      if (auto S = E.getAs<CFGStmt>()) {
        const Expr *Value;
        if (!defines(S->getStmt(), Var, Value))
          continue;
        if (Defs.size() == MaxDefinitions)
          return std::nullopt;
        DefIndex[S->getStmt()] = Defs.size();
        Defs.push_back({S->getStmt(), Value});
      }
  // The last definition in a block kills the others; a block with none
  // passes on what reaches it.
  auto Transfer = [&](const CFGBlock *B, std::uint64_t In,
                      unsigned Until) -> std::uint64_t {
    unsigned Index = 0;
    for (const CFGElement &E : *B) {
      if (Index++ == Until)
        break;
      if (auto S = E.getAs<CFGStmt>()) {
        auto It = DefIndex.find(S->getStmt());
        if (It != DefIndex.end())
          In = std::uint64_t(1) << It->second;
      }
    }
    return In;
  };
  llvm::DenseMap<const CFGBlock *, std::uint64_t> Out;
  PostOrderCFGView Order(Graph.get());
  ForwardDataflowWorklist Worklist(*Graph, &Order);
  Worklist.enqueueBlock(&Graph->getEntry());
  auto InOf = [&](const CFGBlock *B) {
    std::uint64_t In = 0;
    for (const CFGBlock *Pred : B->preds())
      if (Pred && !isDead(Pred, B))
        In |= Out.lookup(Pred);
    return In;
  };
  while (const CFGBlock *B = Worklist.dequeue()) {
    std::uint64_t New = Transfer(B, InOf(B), ~0u);
    auto [It, Inserted] = Out.try_emplace(B, New);
    if (!Inserted && It->second == New)
      continue;
    It->second = New;
    Worklist.enqueueSuccessors(B);
  }
  auto [Block, Index] = Where.lookup(Element);
  std::uint64_t Reach = Transfer(Block, InOf(Block), Index);
  // A definition under a stable condition's other arm than the point's
  // cannot reach it along a way that runs: the condition has one value
  // (`if (zeroflux) bytes = a; else bytes = b;` and later `if (zeroflux)
  // k1<<<g, b, bytes>>>()`: only `a` reaches the launch).
  auto Arms = stableArms(At);
  llvm::SmallVector<Definition, 2> Result;
  for (unsigned I = 0; I < Defs.size(); ++I) {
    if (!(Reach & (std::uint64_t(1) << I)))
      continue;
    bool Contradicts = false;
    if (!Arms.empty())
      for (const auto &[Cond, Then] : stableArms(Defs[I].Element))
        for (const auto &[AtCond, AtThen] : Arms)
          Contradicts |= Cond == AtCond && Then != AtThen;
    if (!Contradicts)
      Result.push_back(Defs[I]);
  }
  return Result;
}

const llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> &
HostValues::deadEdges() {
  if (Dead)
    return *Dead;
  Dead.emplace();
  if (!Graph)
    return *Dead;
  // The conditions are evaluated with the graph unpruned: a condition
  // whose value needs pruning first stays unknown, which prunes nothing.
  ComputingDead = true;
  llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> Found;
  for (const CFGBlock *B : *Graph) {
    if (!B || B->succ_size() != 2 ||
        !isa_and_nonnull<IfStmt>(B->getTerminatorStmt()))
      continue;
    const Expr *Cond = dyn_cast_or_null<Expr>(B->getTerminatorCondition());
    if (!Cond)
      continue;
    std::optional<std::int64_t> Value = evaluate(Cond, Cond);
    if (Value)
      Found.insert({B, *Value ? 1u : 0u});
  }
  ComputingDead = false;
  *Dead = std::move(Found);
  return *Dead;
}

bool HostValues::isDead(const CFGBlock *Pred, const CFGBlock *Succ) {
  if (ComputingDead)
    return false;
  const auto &Edges = deadEdges();
  if (Edges.empty())
    return false;
  unsigned Index = 0;
  for (const CFGBlock *S : Pred->succs()) {
    if (S == Succ && Edges.count({Pred, Index}))
      return true;
    ++Index;
  }
  return false;
}

bool HostValues::reachable(const Stmt *At) {
  const Stmt *Element = elementOf(At);
  if (!Graph || !Element)
    return true;
  const CFGBlock *Target = Where.lookup(Element).first;
  llvm::SmallPtrSet<const CFGBlock *, 32> Seen{&Graph->getEntry()};
  llvm::SmallVector<const CFGBlock *, 32> Work{&Graph->getEntry()};
  while (!Work.empty()) {
    const CFGBlock *B = Work.pop_back_val();
    if (B == Target)
      return true;
    for (const CFGBlock *Succ : B->succs())
      if (Succ && !isDead(B, Succ) && Seen.insert(Succ).second)
        Work.push_back(Succ);
  }
  return false;
}

bool HostValues::isStableCondition(const Expr *Cond) {
  auto [It, Inserted] = StableConditions.try_emplace(Cond, false);
  if (!Inserted)
    return It->second;
  if (Cond->HasSideEffects(Context))
    return false;
  bool Stable = true;
  llvm::SmallVector<const Stmt *, 8> Work{Cond};
  while (!Work.empty() && Stable) {
    const Stmt *S = Work.pop_back_val();
    if (!S)
      continue;
    if (isa<CallExpr>(S))
      Stable = false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S))
      if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl())) {
        if (!Var->hasLocalStorage()) {
          Stable &= Var->getType().isConstQualified();
        } else {
          unsigned Definitions = 0;
          for (const CFGBlock *B : *Graph)
            for (const CFGElement &E : *B)
              if (auto CS = E.getAs<CFGStmt>()) {
                const Expr *Value;
                if (defines(CS->getStmt(), Var, Value))
                  ++Definitions;
              }
          // A parameter is never defined in the body; a local once, by its
          // declaration.
          Stable &= isa<ParmVarDecl>(Var) ? Definitions == 0
                                          : Definitions == 1 && Var->getInit();
        }
      }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  StableConditions[Cond] = Stable;
  return Stable;
}

llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, bool>, 2>
HostValues::stableArms(const Stmt *S) {
  llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, bool>, 2> Arms;
  if (!Parents || !Graph)
    return Arms;
  for (const Stmt *Child = S, *P = Parents->getParent(S); P;
       Child = P, P = Parents->getParent(P)) {
    const auto *If = dyn_cast<IfStmt>(P);
    if (!If || Child == If->getCond() || If->getConditionVariable() ||
        If->getInit())
      continue;
    bool Then = Child == If->getThen();
    if (!Then && Child != If->getElse())
      continue;
    const Expr *Cond = If->getCond()->IgnoreParenImpCasts();
    // `if (!c)` is `if (c)` with the arms swapped.
    while (const auto *Not = dyn_cast<UnaryOperator>(Cond)) {
      if (Not->getOpcode() != UO_LNot)
        break;
      Cond = Not->getSubExpr()->IgnoreParenImpCasts();
      Then = !Then;
    }
    if (!isStableCondition(Cond))
      continue;
    llvm::FoldingSetNodeID ID;
    Cond->Profile(ID, Context, /*Canonical=*/true);
    Arms.push_back({std::move(ID), Then});
  }
  return Arms;
}

const Expr *HostValues::reachingValue(const VarDecl *Var, const Stmt *At) {
  auto Defs = reaching(Var, At);
  if (!Defs || Defs->size() != 1)
    return nullptr;
  return Defs->front().Value;
}

std::optional<std::int64_t> HostValues::evaluate(const Expr *E,
                                                 const Stmt *At) {
  return evaluate(E, At, 0);
}

std::optional<std::int64_t> HostValues::evaluate(const Expr *E, const Stmt *At,
                                                 unsigned Depth) {
  if (!E || Depth > MaxDepth || E->isValueDependent())
    return std::nullopt;
  E = E->IgnoreParenImpCasts();
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return evaluate(Default->getExpr(), At, Depth + 1);
  Expr::EvalResult Folded;
  if (E->getType()->isIntegralOrEnumerationType() &&
      E->EvaluateAsInt(Folded, Context))
    return Folded.Val.getInt().getExtValue();
  if (const VarDecl *Var = referencedVar(E)) {
    if (const auto *Param = dyn_cast<ParmVarDecl>(Var)) {
      auto It = Bound.find(Param);
      if (It == Bound.end() || mayChange(Param))
        return std::nullopt;
      return It->second;
    }
    if (!Var->hasLocalStorage())
      return Var->getInit() ? evaluate(Var->getInit(), At, Depth + 1)
                            : std::nullopt;
    auto Defs = reaching(Var, At);
    if (!Defs || Defs->empty())
      return std::nullopt;
    std::optional<std::int64_t> Value;
    for (const Definition &D : *Defs) {
      auto Here =
          D.Value ? evaluate(D.Value, D.Element, Depth + 1) : std::nullopt;
      if (!Here || (Value && *Value != *Here))
        return std::nullopt;
      Value = Here;
    }
    return Value;
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    // `work[0]` of `size_t work[3] = {BLOCK, 1, 1}`, never changed.
    const VarDecl *Array = referencedVar(ASE->getBase());
    auto Index = evaluate(ASE->getIdx(), At, Depth + 1);
    if (!Array || !Index || isa<ParmVarDecl>(Array) || !Array->getInit())
      return std::nullopt;
    const auto *Init =
        dyn_cast<InitListExpr>(Array->getInit()->IgnoreParenImpCasts());
    if (!Init || *Index < 0)
      return std::nullopt;
    if (Array->hasLocalStorage() && mayChange(Array))
      return std::nullopt;
    if (static_cast<std::uint64_t>(*Index) >= Init->getNumInits())
      return Init->hasArrayFiller()
                 ? evaluate(Init->getArrayFiller(), At, Depth + 1)
                 : std::nullopt;
    return evaluate(Init->getInit(*Index), At, Depth + 1);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    auto L = evaluate(BO->getLHS(), At, Depth + 1);
    auto R = L ? evaluate(BO->getRHS(), At, Depth + 1) : std::nullopt;
    if (!R)
      return std::nullopt;
    switch (BO->getOpcode()) {
    case BO_Add:
      return *L + *R;
    case BO_Sub:
      return *L - *R;
    case BO_Mul:
      return *L * *R;
    case BO_Div:
      return *R ? std::optional<std::int64_t>(*L / *R) : std::nullopt;
    case BO_Rem:
      return *R ? std::optional<std::int64_t>(*L % *R) : std::nullopt;
    default:
      return std::nullopt;
    }
  }
  return std::nullopt;
}

std::optional<BlockShape> HostValues::blockShape(const Expr *Block,
                                                 const Stmt *At) {
  return blockShape(Block, At, 0);
}

std::optional<BlockShape>
HostValues::blockShape(const Expr *Block, const Stmt *At, unsigned Depth) {
  if (Depth > MaxDepth)
    return std::nullopt;
  // A dim3 variable stands for the value that reaches the launch; each
  // component is then evaluated where that value was made.
  const Stmt *Point = At;
  auto Parts = blockArgumentComponents(Block, [&](const VarDecl *Var) {
    if (!Var->hasLocalStorage())
      return true;
    auto Defs = reaching(Var, Point);
    if (!Defs || Defs->size() != 1 || Defs->front().Value != Var->getInit())
      return false;
    Point = Defs->front().Element;
    return true;
  });
  if (!Parts) {
    // `b = dim3(32, 8)` reaching the launch: follow the assignment.
    const VarDecl *Var = referencedVar(Block);
    if (!Var || !Var->hasLocalStorage() || isa<ParmVarDecl>(Var))
      return std::nullopt;
    auto Defs = reaching(Var, At);
    if (!Defs || Defs->size() != 1 || !Defs->front().Value)
      return std::nullopt;
    return blockShape(Defs->front().Value, Defs->front().Element, Depth + 1);
  }
  BlockShape Shape;
  for (unsigned I = 0; I < 3; ++I) {
    if (!(*Parts)[I])
      continue;
    auto Value = evaluate((*Parts)[I], Point);
    if (!Value)
      return std::nullopt;
    Shape.Dim[I] = *Value;
  }
  return Shape;
}

std::string HostValues::text(const Stmt *S) const {
  const SourceManager &SM = Context.getSourceManager();
  CharSourceRange Range = CharSourceRange::getTokenRange(
      SM.getExpansionRange(S->getSourceRange()).getAsRange());
  std::string Text =
      Lexer::getSourceText(Range, SM, Context.getLangOpts()).str();
  if (Text.size() > 40)
    Text = Text.substr(0, 37) + "...";
  return Text;
}

std::string HostValues::whyUnknown(const Expr *E, const Stmt *At) {
  return whyUnknown(E, At, 0);
}

std::string HostValues::whyUnknown(const Expr *E, const Stmt *At,
                                   unsigned Depth) {
  if (!E)
    return "it is not written at the launch";
  if (Depth > MaxDepth)
    return "'" + text(E) + "' is not followed that far";
  // Copies of a block say nothing of why.
  for (;;) {
    E = E->IgnoreImplicit()->IgnoreParenImpCasts();
    if (const auto *Cast = dyn_cast<CXXFunctionalCastExpr>(E)) {
      E = Cast->getSubExpr();
      continue;
    }
    if (const auto *Copy = dyn_cast<CXXConstructExpr>(E);
        Copy && Copy->getNumArgs() == 1 &&
        Copy->getArg(0)->getType()->isRecordType()) {
      E = Copy->getArg(0);
      continue;
    }
    break;
  }
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(E))
    return whyUnknown(Default->getExpr(), At, Depth + 1);
  // A block built here: the first extent that is no constant says why.
  if (!referencedVar(E))
    if (auto Parts =
            blockArgumentComponents(E, [](const VarDecl *) { return false; })) {
      for (const Expr *Part : *Parts)
        if (Part && Part != E && !evaluate(Part, At))
          return whyUnknown(Part, At, Depth + 1);
      if ((*Parts)[0] != E)
        return "'" + text(E) + "' is not a constant";
    }
  if (const VarDecl *Var = referencedVar(E)) {
    std::string Name = "'" + Var->getNameAsString() + "'";
    if (isa<ParmVarDecl>(Var))
      return "it comes from parameter " + Name + " of '" +
             Function->getNameAsString() + "'";
    if (!Var->hasLocalStorage())
      return Var->getInit() ? whyUnknown(Var->getInit(), At, Depth + 1)
                            : Name + " is a global without an initialiser";
    auto Defs = reaching(Var, At);
    if (!Defs)
      return "the value of " + Name + " that reaches it is not known";
    if (Defs->empty())
      return Name + " is read before it is given a value";
    for (const Definition &D : *Defs)
      if (!D.Value)
        return Name + " is changed in a way that is not followed ('" +
               text(D.Element) + "')";
    if (Defs->size() > 1)
      return Name + " has different values on the paths that reach it";
    // A variable initialised from itself (`dim3 b(b)`) has no definition
    // reaching its initialiser: read before it is given a value, above.
    const Definition &Only = Defs->front();
    return whyUnknown(Only.Value, Only.Element, Depth + 1);
  }
  if (isa<MemberExpr, ArraySubscriptExpr>(E) ||
      (isa<UnaryOperator>(E) &&
       cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    return "it is read from memory ('" + text(E) + "')";
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && Callee->getIdentifier()
               ? "it is the result of a call to '" + Callee->getNameAsString() +
                     "'"
               : "it is the result of a call";
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    for (const Expr *Side : {BO->getLHS(), BO->getRHS()})
      if (!evaluate(Side, At))
        return whyUnknown(Side, At, Depth + 1);
  return "'" + text(E) + "' is not a constant";
}

} // namespace clang::cuda_tidy
