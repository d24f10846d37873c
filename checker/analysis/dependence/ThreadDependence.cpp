//===--- ThreadDependence.cpp - Which values differ between threads -------===//
//
// See ThreadDependence.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/ThreadDependence.h"
#include "analysis/dependence/ControlFacts.h"
#include "analysis/dependence/SyntaxFacts.h"
#include "analysis/dependence/UniformityProofs.h"
#include "model/CudaModel.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/FlowSensitive/DataflowWorklist.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <deque>
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

namespace {

/// The value a shuffle moves between lanes (`__shfl_sync(mask, v, lane)`,
/// `tile.shfl(v, lane)`), or null if \p CE is no shuffle.
const Expr *shuffledValue(const CallExpr *CE, const CallModel &Model) {
  llvm::StringRef Name = Model.Name;
  if (Name.starts_with("__shfl") && Name.ends_with("_sync") &&
      CE->getNumArgs() >= 2)
    return CE->getArg(1);
  if (isa<CXXMemberCallExpr>(CE) && Name.contains("::shfl") &&
      CE->getNumArgs() >= 1)
    return CE->getArg(0);
  return nullptr;
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

/// The bits a witness explains: the thread when the value differs between
/// threads, else what makes it differ between blocks or clusters.
DepSet witnessBits(DepSet Deps) {
  return Deps & dep::Thread ? dep::Thread : Deps & (dep::Block | dep::Cluster);
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

/// The arguments of \p CE that correspond to the callee's parameters, and the
/// implicit object if any. Operator calls to methods carry the object as
/// their first argument.
struct CallShape {
  const Expr *Object = nullptr;
  llvm::SmallVector<const Expr *, 4> Args;
};

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

//===----------------------------------------------------------------------===//
// The results of one body
//===----------------------------------------------------------------------===//

FunctionDependence::~FunctionDependence() = default;

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
// The dataflow
//===----------------------------------------------------------------------===//

/// Builds a FunctionDependence: the forward dataflow over the CFG, iterated
/// with the control-dependence taint to a fixpoint.
class DependenceBuilder {
public:
  DependenceBuilder(ThreadDependenceAnalysis &Analysis, FunctionDependence &R,
                    AnalysisDeclContext &AC)
      : Analysis(Analysis), R(R), AC(AC), SharedReads(R.Function, *R.Graph) {}

  void run();

private:
  /// What a tracked local may depend on: the variable as a whole, and
  /// apart from that the parts of it (members, elements at constant
  /// indices) written on their own since it was last written whole. A part
  /// has the value of its nearest listed enclosing part, else Whole, plus
  /// those of the parts listed inside it.
  struct VarState {
    DepSet Whole = 0;
    /// By path (see MemberPaths), sorted.
    llvm::SmallVector<std::pair<unsigned, DepSet>, 2> Parts;
    bool operator==(const VarState &Other) const {
      return Whole == Other.Whole && Parts == Other.Parts;
    }
    bool operator!=(const VarState &Other) const { return !(*this == Other); }
    bool empty() const {
      return !Whole &&
             llvm::all_of(Parts, [](const auto &P) { return P.second == 0; });
    }
  };
  using State = llvm::DenseMap<const VarDecl *, VarState>;

  /// Paths to parts of a local aggregate, interned: 0 is the variable
  /// itself, each other path a step (a field, or an element at a constant
  /// index) from its parent.
  struct MemberPaths {
    struct Node {
      unsigned Parent;
      const void *Step;
      unsigned Depth;
    };
    std::vector<Node> Nodes{{0, nullptr, 0}};
    llvm::DenseMap<std::pair<unsigned, const void *>, unsigned> Index;
    /// Deeper paths are not told apart: the last step that fits stands for
    /// what lies below it.
    static constexpr unsigned MaxDepth = 6;

    unsigned child(unsigned Parent, const void *Step) {
      if (Nodes[Parent].Depth >= MaxDepth)
        return Parent;
      auto [It, New] = Index.try_emplace({Parent, Step}, Nodes.size());
      if (New)
        Nodes.push_back({Parent, Step, Nodes[Parent].Depth + 1});
      return It->second;
    }
    /// Whether \p Outer is \p Inner or encloses it.
    bool encloses(unsigned Outer, unsigned Inner) const {
      while (Nodes[Inner].Depth > Nodes[Outer].Depth)
        Inner = Nodes[Inner].Parent;
      return Inner == Outer;
    }
    /// The path without trailing element steps: what a pointer or a
    /// reference to an element may reach by arithmetic.
    unsigned withoutElements(unsigned Path) const {
      while (Path && isElementStep(Nodes[Path].Step))
        Path = Nodes[Path].Parent;
      return Path;
    }
    static const void *elementStep(uint64_t Index) {
      return reinterpret_cast<const void *>(uintptr_t(Index << 1 | 1));
    }
    static bool isElementStep(const void *Step) {
      return reinterpret_cast<uintptr_t>(Step) & 1;
    }
  };

  /// What an lvalue designates: a tracked local variable (wholly or in
  /// part), or storage reached through a parameter or the implicit object.
  /// For a local, Path names the part; Exact says the lvalue is exactly
  /// that part (so a store replaces its value) rather than somewhere in it.
  struct LValueRoot {
    const VarDecl *Var = nullptr;
    unsigned Path = 0;
    bool Exact = false;
    int Param = -1;
    bool Object = false;
    /// The member of the implicit object the lvalue lies in, if one.
    const FieldDecl *ObjectMember = nullptr;
    DepSet IndexDeps = 0;
  };
  /// Where a load of \p E reads in a tracked local: the variable, the part
  /// (the innermost one known exactly) and the dependence of any index on
  /// the way that is not constant. Var is null if \p E is no such load.
  struct PartRead {
    const VarDecl *Var = nullptr;
    unsigned Path = 0;
    /// No index on the way that is not constant: Path is the part read.
    bool Exact = true;
    DepSet IndexDeps = 0;
  };
  PartRead partRead(const Expr *E, const State &S);
  /// The step from \p ME's base to the member it names, or null where the
  /// member may share storage with another (a union's) or is a reference.
  static const void *memberStep(const MemberExpr *ME);
  /// The dependence of part \p Path of \p VS, with the parts inside it.
  DepSet readPart(const VarState &VS, unsigned Path) const;
  /// The value \p VS gives part \p Path apart from the parts listed inside
  /// it: that of the nearest listed part enclosing it, else Whole.
  DepSet enclosingValue(const VarState &VS, unsigned Path) const;
  void writePart(VarState &VS, unsigned Path, DepSet Value, bool Strong);
  /// The state of a variable where two paths meet: each part holds what it
  /// holds on either path.
  VarState join(const VarState &A, const VarState &B) const;

  // Classification of variables.
  bool isTracked(const VarDecl *VD) const;
  bool isCaptured(const VarDecl *VD) const;
  const VarDecl *resolveAlias(const VarDecl *VD) const;
  int paramIndex(const VarDecl *VD) const;

  // Dependence of expressions in a state.
  DepSet valueDeps(const Expr *E, const State &S);
  DepSet loadDeps(const Expr *E, const State &S);
  DepSet addressDeps(const Expr *E, const State &S);
  DepSet callDeps(const CallExpr *CE, const State &S);
  DepSet varDeps(const VarDecl *VD, const State &S);
  /// Why \p E has the dependence bits \p Bits (dep::Thread, or Block and
  /// Cluster); empty if it has none of them.
  ThreadWitness witness(const Expr *E, const State &S, DepSet Bits,
                        unsigned Depth = 0);
  ThreadWitness witness(const Expr *E, const State &S) {
    return witness(E, S, witnessBits(widenLane(valueDeps(E, S))));
  }

  // Transfer.
  void transferBlock(const CFGBlock *B, State &S);
  void transfer(const Stmt *St, State &S, DepSet Control);
  void assign(const Expr *LHS, DepSet Value, bool Strong, State &S,
              const Expr *Source);
  LValueRoot lvalueRoot(const Expr *E, const State &S);
  LValueRoot pointerRoot(const Expr *E, const State &S);
  void applyWrite(const LValueRoot &Root, DepSet Value, bool Strong, State &S,
                  const Expr *Source);
  void callEffects(const CallExpr *CE, State &S, DepSet Control);
  /// The bit of member \p Field of the implicit object (see
  /// dep::objectMember), or dep::Object when the bits are used up.
  DepSet memberBit(const FieldDecl *Field);
  /// The field of the lambda whose body is analysed that captures \p VD,
  /// if any.
  const FieldDecl *captureField(const VarDecl *VD);
  /// The dependence of the members a callee reads of \p Object, by slot of
  /// \p Members.
  llvm::SmallVector<DepSet, 2>
  objectMemberDeps(const Expr *Object,
                   llvm::ArrayRef<const FieldDecl *> Members, const State &S);
  void addMemberWrite(const FieldDecl *Field, DepSet Value);
  /// A local declared with a constructor that has a summary: its members
  /// get what the constructor writes into each. False if \p Init is no such
  /// construction.
  bool construct(const VarDecl *VD, const Expr *Init, State &S);
  /// A constructor's initialiser: a member's writes that member; a base
  /// class's, what the base's constructor writes into each of its members
  /// (every member of the base if it has no summary); a delegating one, what
  /// the target constructor writes.
  void initialize(const CXXCtorInitializer *Init, State &S);
  /// The members of \p Record and of its bases.
  void allFields(const CXXRecordDecl *Record,
                 llvm::SmallVectorImpl<const FieldDecl *> &Fields) const;
  void setVar(const VarDecl *VD, DepSet Value, bool Strong, State &S,
              const Expr *Source, unsigned Path = 0);

  /// \p Deps, the dependence of the condition of \p B, made exact for a
  /// `for` loop whose trip count is uniform by arithmetic (see
  /// uniformTripCountTerms).
  DepSet uniformLoopConditionDeps(const CFGBlock *B, DepSet Deps,
                                  const State &S);
  void findBarrierSites();
  DepSet controlTaint(const CFGBlock *B, bool Escaping);

  // Lane-only values (see the file comment).
  bool laneRules() const { return R.Kernel && Analysis.getOptions().LaneRules; }
  /// The argument a full-warp reduction \p CE reduces.
  const Expr *reducedArgument(const CallExpr *CE) {
    return warpReducedArgument(CE, AC.getASTContext());
  }
  /// Whether \p ASE's base is an array variable that a lane-only index
  /// keeps lane-only: a local array of the thread's own, or a shared one
  /// read where SharedReads says it is settled.
  bool keepsLane(const ArraySubscriptExpr *ASE);

  ThreadDependenceAnalysis &Analysis;
  FunctionDependence &R;
  AnalysisDeclContext &AC;
  MemberPaths Paths;
  llvm::DenseMap<const VarDecl *, const VarDecl *> Aliases;
  SettledSharedReads SharedReads;
  std::optional<llvm::DenseMap<const ValueDecl *, FieldDecl *>> CaptureFields;
  /// Where a variable's thread dependence came from, and where its
  /// dependence on the block or cluster came from.
  llvm::DenseMap<const VarDecl *, ThreadWitness> Origins, BlockOrigins;
  /// The thread dependence of the branches that decide whether a block
  /// runs. For values that stay in the function's locals, branches whose
  /// other side only leaves the function are left out: the threads that
  /// leave never see those values. Values that escape (returned, stored
  /// through parameters) keep every branch.
  llvm::DenseMap<const CFGBlock *, DepSet> ControlTaint, EscapingTaint;
  /// Taint applied to the statements being transferred.
  DepSet CurrentControl = 0;
  DepSet CurrentEscaping = 0;
  const CFGBlock *CurrentBlock = nullptr;
};

bool DependenceBuilder::isTracked(const VarDecl *VD) const {
  return VD->hasLocalStorage() && !isCaptured(VD);
}

bool DependenceBuilder::isCaptured(const VarDecl *VD) const {
  // A local of an enclosing function, seen from a lambda's body.
  return VD->hasLocalStorage() &&
         VD->getParentFunctionOrMethod() != R.Function && !isa<ParmVarDecl>(VD);
}

const VarDecl *DependenceBuilder::resolveAlias(const VarDecl *VD) const {
  for (unsigned Depth = 0; Depth < 8; ++Depth) {
    auto It = Aliases.find(VD);
    if (It == Aliases.end())
      break;
    VD = It->second;
  }
  return VD;
}

int DependenceBuilder::paramIndex(const VarDecl *VD) const {
  const auto *PVD = dyn_cast<ParmVarDecl>(VD);
  if (!PVD || PVD->getParentFunctionOrMethod() != R.Function)
    return -1;
  return PVD->getFunctionScopeIndex();
}

DepSet DependenceBuilder::varDeps(const VarDecl *VD, const State &S) {
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
  return It == S.end() ? 0 : readPart(It->second, 0);
}

DepSet DependenceBuilder::enclosingValue(const VarState &VS,
                                         unsigned Path) const {
  DepSet Value = VS.Whole;
  unsigned Depth = 0;
  for (const auto &[Part, PartValue] : VS.Parts)
    if (Paths.encloses(Part, Path) && Paths.Nodes[Part].Depth >= Depth) {
      Value = PartValue;
      Depth = Paths.Nodes[Part].Depth;
    }
  return Value;
}

DepSet DependenceBuilder::readPart(const VarState &VS, unsigned Path) const {
  DepSet Deps = enclosingValue(VS, Path);
  for (const auto &[Part, Value] : VS.Parts)
    if (Part != Path && Paths.encloses(Path, Part))
      Deps |= Value;
  return Deps;
}

DependenceBuilder::VarState DependenceBuilder::join(const VarState &A,
                                                    const VarState &B) const {
  VarState Joined;
  Joined.Whole = A.Whole | B.Whole;
  for (const VarState *Side : {&A, &B})
    for (const auto &[Part, Value] : Side->Parts)
      if (!llvm::is_contained(llvm::make_first_range(Joined.Parts), Part))
        Joined.Parts.push_back(
            {Part, enclosingValue(A, Part) | enclosingValue(B, Part)});
  llvm::sort(Joined.Parts,
             [](const auto &X, const auto &Y) { return X.first < Y.first; });
  return Joined;
}

void DependenceBuilder::writePart(VarState &VS, unsigned Path, DepSet Value,
                                  bool Strong) {
  if (Path == 0 && Strong) {
    VS.Whole = Value;
    VS.Parts.clear();
    return;
  }
  if (Path == 0) {
    VS.Whole |= Value;
    for (auto &Part : VS.Parts)
      Part.second |= Value;
    return;
  }
  // A store to the part replaces what lies inside it; a weak one adds to
  // every value inside it, and lists the part with what it held before.
  DepSet Before = Strong ? 0 : enclosingValue(VS, Path);
  llvm::SmallVector<std::pair<unsigned, DepSet>, 2> Parts;
  for (const auto &[Part, Old] : VS.Parts) {
    if (Part == Path || !Paths.encloses(Path, Part))
      Parts.push_back({Part, Old});
    else if (!Strong)
      Parts.push_back({Part, Old | Value});
  }
  auto Slot =
      llvm::find_if(Parts, [&](const auto &P) { return P.first == Path; });
  if (Slot == Parts.end()) {
    Parts.push_back({Path, 0});
    Slot = Parts.end() - 1;
  }
  Slot->second = Strong ? Value : Before | Value;
  llvm::sort(Parts,
             [](const auto &A, const auto &B) { return A.first < B.first; });
  VS.Parts = std::move(Parts);
}

DepSet DependenceBuilder::valueDeps(const Expr *E, const State &S) {
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

DepSet DependenceBuilder::memberBit(const FieldDecl *Field) {
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

const FieldDecl *DependenceBuilder::captureField(const VarDecl *VD) {
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

/// Whether \p Field is a member of the object \p Method is called on.
static bool isOwnMember(const FunctionDecl *Method, const FieldDecl *Field) {
  const auto *MD = dyn_cast<CXXMethodDecl>(Method);
  if (!MD || MD->isStatic())
    return false;
  const CXXRecordDecl *Own = MD->getParent()->getCanonicalDecl();
  const auto *Owner = dyn_cast<CXXRecordDecl>(Field->getParent());
  return Owner && (Owner->getCanonicalDecl() == Own ||
                   (Own->hasDefinition() && Own->isDerivedFrom(Owner)));
}

llvm::SmallVector<DepSet, 2>
DependenceBuilder::objectMemberDeps(const Expr *Object,
                                    llvm::ArrayRef<const FieldDecl *> Members,
                                    const State &S) {
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
    Deps.push_back(It == S.end() ? 0 : readPart(It->second, Path));
  }
  return Deps;
}

void DependenceBuilder::addMemberWrite(const FieldDecl *Field, DepSet Value) {
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

bool DependenceBuilder::construct(const VarDecl *VD, const Expr *Init,
                                  State &S) {
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
    Args.push_back(widenLane(valueDeps(Arg, S)));
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

void DependenceBuilder::allFields(
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

void DependenceBuilder::initialize(const CXXCtorInitializer *Init, State &S) {
  const Expr *InitExpr = Init->getInit();
  DepSet Value = (InitExpr ? valueDeps(InitExpr, S) : 0) | CurrentEscaping;
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
    Args.push_back(valueDeps(Arg, S));
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

const void *DependenceBuilder::memberStep(const MemberExpr *ME) {
  const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!Field || Field->getType()->isReferenceType() ||
      Field->getParent()->isUnion())
    return nullptr;
  return Field->getCanonicalDecl();
}

DependenceBuilder::PartRead DependenceBuilder::partRead(const Expr *E,
                                                        const State &S) {
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

DepSet DependenceBuilder::loadDeps(const Expr *E, const State &S) {
  E = E->IgnoreParens();
  if (auto Kind = getBuiltinIndexRef(E, nullptr))
    return builtinIndexDeps(*Kind);
  if (isa<MemberExpr, ArraySubscriptExpr>(E)) {
    // A member or constant element of a local aggregate has its own value.
    PartRead Read = partRead(E, S);
    if (Read.Var && Read.Path) {
      auto It = S.find(Read.Var);
      return (It == S.end() ? 0 : readPart(It->second, Read.Path)) |
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
    // isSettledSharedRead says so.
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

DepSet DependenceBuilder::addressDeps(const Expr *E, const State &S) {
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

DepSet DependenceBuilder::callDeps(const CallExpr *CE, const State &S) {
  CallModel Model = classifyCall(CE);
  if (Model.UniformResult)
    return (Model.BlockDependentResult ? dep::Block : 0) |
           (Model.ClusterDependentResult ? dep::Cluster : 0);
  if (laneRules())
    if (const Expr *Reduced = reducedArgument(CE)) {
      // Every warp reduces the same 32 values the same way.
      DepSet Value = valueDeps(Reduced, S);
      if ((Value & dep::Lane) && !(Value & dep::Thread)) {
        R.UsedLaneRule = true;
        return Value & ~dep::Lane;
      }
    }
  if (const Expr *Shuffled = shuffledValue(CE, Model)) {
    // Every lane gets some lane's value: one value in all lanes stays one.
    DepSet Value = valueDeps(Shuffled, S);
    if (!(Value & (dep::Thread | dep::Lane)))
      return Value;
  }
  if (Model.ThreadDependentResult)
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
  if (Model.Modelled)
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

bool DependenceBuilder::keepsLane(const ArraySubscriptExpr *ASE) {
  const VarDecl *VD = namedVariable(ASE->getBase());
  if (!VD || !VD->getType()->isArrayType())
    return false;
  if (isTracked(VD))
    return true; // The thread's own registers.
  return laneRules() && isSharedVariable(VD) && SharedReads.isSettled(ASE);
}

ThreadWitness DependenceBuilder::witness(const Expr *E, const State &S,
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
    CallModel Model = classifyCall(CE);
    DepSet Result = 0;
    if (Model.ThreadDependentResult)
      Result = dep::Thread;
    else if (Model.UniformResult)
      Result = (Model.BlockDependentResult ? dep::Block : 0) |
               (Model.ClusterDependentResult ? dep::Cluster : 0);
    if (Result & Bits) {
      W.Source = "the result of '" + Model.Name + "'";
      return W;
    }
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Model.Modelled && Callee) {
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

void DependenceBuilder::setVar(const VarDecl *VD, DepSet Value, bool Strong,
                               State &S, const Expr *Source, unsigned Path) {
  for (DepSet Bits : {dep::Thread, dep::Block | dep::Cluster}) {
    auto &Known = Bits & dep::Thread ? Origins : BlockOrigins;
    if (!(widenLane(Value) & Bits) || Known.count(VD))
      continue;
    // Explain the value in the state before the assignment, so that
    // `k += threadIdx.x` is not explained by `k` itself.
    ThreadWitness W = Source ? witness(Source, S, Bits) : ThreadWitness();
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
  writePart(It->second, Path, Value, Strong);
  if (It->second.empty())
    S.erase(It);
}

DependenceBuilder::LValueRoot DependenceBuilder::pointerRoot(const Expr *E,
                                                             const State &S) {
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

DependenceBuilder::LValueRoot DependenceBuilder::lvalueRoot(const Expr *E,
                                                            const State &S) {
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

void DependenceBuilder::applyWrite(const LValueRoot &Root, DepSet Value,
                                   bool Strong, State &S, const Expr *Source) {
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

void DependenceBuilder::assign(const Expr *LHS, DepSet Value, bool Strong,
                               State &S, const Expr *Source) {
  applyWrite(lvalueRoot(LHS, S), Value, Strong, S, Source);
}

void DependenceBuilder::callEffects(const CallExpr *CE, State &S,
                                    DepSet Control) {
  CallShape Shape = getCallShape(CE);
  auto &Record = R.Calls[CE];
  Record.Args.clear();
  Record.ArgWitnesses.clear();
  DepSet All = 0;
  for (const Expr *Arg : Shape.Args) {
    Record.Args.push_back(widenLane(valueDeps(Arg, S)));
    Record.ArgWitnesses.push_back(witness(Arg, S));
    All |= Record.Args.back();
  }
  Record.Object = Shape.Object ? widenLane(valueDeps(Shape.Object, S)) : 0;
  All |= Record.Object;

  CallModel Model = classifyCall(CE);
  if (Model.Modelled)
    return;
  const FunctionDecl *Callee = CE->getDirectCallee();
  const FunctionSummary *Summary =
      Callee ? Analysis.getSummary(Callee) : nullptr;
  if (Summary && Shape.Object)
    Record.ObjectMembers =
        objectMemberDeps(Shape.Object, Summary->ObjectMembers, S);
  DepSet Unknown =
      All |
      (Analysis.getOptions().UnknownCallsAreThreadDependent ? dep::Thread : 0);
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
                          ? lvalueRoot(Arg, S)
                          : pointerRoot(Arg, S);
    // A reference to an element reaches its neighbours by arithmetic.
    Root.Path = Paths.withoutElements(Root.Path);
    for (DepSet Bits : {dep::Thread, dep::Block | dep::Cluster}) {
      auto &Known = Bits & dep::Thread ? Origins : BlockOrigins;
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
                            ? pointerRoot(Shape.Object, S)
                            : lvalueRoot(Shape.Object, S);
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

void DependenceBuilder::transfer(const Stmt *St, State &S, DepSet Control) {
  if (const auto *DS = dyn_cast<DeclStmt>(St)) {
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD || !isTracked(VD))
        continue;
      const Expr *Init = VD->getInit();
      if (VD->getType()->isReferenceType() && Init) {
        LValueRoot Root = lvalueRoot(Init, S);
        if (Root.Var && Root.Exact && Root.Path == 0) {
          Aliases[VD] = Root.Var;
          continue;
        }
        setVar(VD, addressDeps(Init, S) | Control, true, S, Init);
        continue;
      }
      if (!construct(VD, Init, S))
        setVar(VD, (Init ? valueDeps(Init, S) : 0) | Control, true, S, Init);
    }
    return;
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(St)) {
    if (BO->getOpcode() == BO_Assign)
      assign(BO->getLHS(), valueDeps(BO->getRHS(), S), true, S, BO->getRHS());
    else if (BO->isCompoundAssignmentOp())
      assign(BO->getLHS(),
             loadDeps(BO->getLHS(), S) | valueDeps(BO->getRHS(), S), true, S,
             BO);
    return;
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(St)) {
    if (UO->isIncrementDecrementOp())
      assign(UO->getSubExpr(), loadDeps(UO->getSubExpr(), S), true, S,
             UO->getSubExpr());
    return;
  }
  if (const auto *OCE = dyn_cast<CXXOperatorCallExpr>(St)) {
    if (OCE->isAssignmentOp() && OCE->getNumArgs() == 2) {
      DepSet Value = valueDeps(OCE->getArg(1), S);
      bool Plain = OCE->getOperator() == OO_Equal;
      if (!Plain)
        Value |= loadDeps(OCE->getArg(0), S);
      assign(OCE->getArg(0), Value, Plain, S, OCE->getArg(1));
      return;
    }
    if ((OCE->getOperator() == OO_PlusPlus ||
         OCE->getOperator() == OO_MinusMinus) &&
        OCE->getNumArgs() >= 1) {
      assign(OCE->getArg(0), loadDeps(OCE->getArg(0), S), true, S,
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
      R.Summary.Return |= widenLane(valueDeps(Value, S));
    R.Summary.Return |= CurrentEscaping;
    return;
  }
  if (const auto *Asm = dyn_cast<GCCAsmStmt>(St)) {
    DepSet In = 0;
    for (const Expr *Input : Asm->inputs())
      In |= widenLane(valueDeps(Input, S));
    if (asmReadsThreadRegister(Asm->getAsmString()))
      In |= dep::Thread;
    if (asmReadsBlockRegister(Asm->getAsmString()))
      In |= dep::Block;
    if (asmReadsClusterRegister(Asm->getAsmString()))
      In |= dep::Cluster;
    for (const Expr *Output : Asm->outputs()) {
      LValueRoot Root = lvalueRoot(Output, S);
      for (DepSet Bits : {dep::Thread, dep::Block | dep::Cluster}) {
        auto &Known = Bits & dep::Thread ? Origins : BlockOrigins;
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

void DependenceBuilder::transferBlock(const CFGBlock *B, State &S) {
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
    DepSet Deps = widenLane(valueDeps(Cond, S));
    if (Deps & dep::Thread)
      Deps = widenLane(uniformLoopConditionDeps(B, Deps, S));
    R.ConditionDeps[B] = Deps;
    DepSet Bits = witnessBits(Deps);
    auto Known = R.ConditionWitnesses.find(B);
    // A witness across blocks gives way to one across threads.
    if (Bits && (Known == R.ConditionWitnesses.end() ||
                 (Known->second.AcrossBlocks && (Bits & dep::Thread)))) {
      ThreadWitness W = witness(Cond, S, Bits);
      if (W.empty())
        // Only reachable through control taint: name the outer condition.
        W = controlWitness(R.Control->closure(B), Bits, R.ConditionWitnesses);
      R.ConditionWitnesses[B] = W;
    }
  }
  CurrentBlock = nullptr;
  CurrentControl = CurrentEscaping = 0;
}

DepSet DependenceBuilder::uniformLoopConditionDeps(const CFGBlock *B,
                                                   DepSet Deps,
                                                   const State &S) {
  auto Terms =
      uniformTripCountTerms(dyn_cast_or_null<ForStmt>(B->getTerminatorStmt()));
  if (!Terms)
    return Deps;
  DepSet Arithmetic = 0;
  for (const Expr *Term : *Terms)
    Arithmetic |= valueDeps(Term, S);
  return Arithmetic & dep::Thread ? Deps : Arithmetic;
}

DepSet DependenceBuilder::controlTaint(const CFGBlock *B, bool Escaping) {
  DepSet Taint = 0;
  for (const CFGBlock *C : R.Control->closure(B))
    if (DepSet Deps = R.getConditionDeps(C))
      if (Escaping || !R.Control->isEarlyExit(C, B))
        Taint |= Deps;
  return Taint;
}

void DependenceBuilder::findBarrierSites() {
  llvm::BitVector WarpSyncBlocks(R.Graph->getNumBlockIDs());
  for (const CFGBlock *B : *R.Graph) {
    for (const CFGElement &E : *B) {
      auto CS = E.getAs<CFGStmt>();
      if (!CS)
        continue;
      const auto *CE = dyn_cast<CallExpr>(CS->getStmt());
      if (!CE)
        continue;
      CallModel Model = classifyCall(CE);
      BarrierSite Site;
      Site.Call = CE;
      Site.Block = B;
      const FunctionDecl *Callee = CE->getDirectCallee();
      const FunctionSummary *Summary =
          !Model.Modelled && Callee ? Analysis.getSummary(Callee) : nullptr;
      if (Model.IsWarpSync || Model.IsBlockBarrier ||
          (Summary && Summary->AlwaysSyncsWarp)) {
        WarpSyncBlocks.set(B->getBlockID());
        if (!R.Summary.WarpSync)
          R.Summary.WarpSync = CE;
      } else if (Summary && Summary->WarpSync && !R.Summary.WarpSync) {
        R.Summary.WarpSync = Summary->WarpSync;
      }
      if (Model.IsBlockBarrier) {
        Site.Barrier = CE;
        Site.BarrierName = Model.Name;
        Site.Scope = Model.Scope;
      } else if (!Model.Modelled) {
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

void DependenceBuilder::run() {
  const CFG &Graph = *R.Graph;
  findBarrierSites();

  State EntryState;
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
    llvm::DenseMap<const CFGBlock *, State> In;
    In[&Graph.getEntry()] = EntryState;
    ForwardDataflowWorklist Worklist(Graph, AC);
    Worklist.enqueueBlock(&Graph.getEntry());
    llvm::DenseMap<const CFGBlock *, State> Out;
    while (const CFGBlock *B = Worklist.dequeue()) {
      State S = In[B];
      transferBlock(B, S);
      auto OutIt = Out.find(B);
      if (OutIt != Out.end() && sameMap(OutIt->second, S))
        continue;
      Out[B] = S;
      for (const CFGBlock *Succ : B->succs()) {
        if (!Succ)
          continue;
        State &SuccIn = In[Succ];
        bool Changed = false;
        for (const auto &[VD, Deps] : S) {
          VarState &Slot = SuccIn[VD];
          VarState Joined = join(Slot, Deps);
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
          R.VariableDeps[VD] |= widenLane(readPart(Deps, 0));
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
  DependenceBuilder(*this, *Result, *AC).run();
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
