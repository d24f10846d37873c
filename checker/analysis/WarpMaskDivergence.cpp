//===--- WarpMaskDivergence.cpp - Masks naming lanes that leave -----------===//
//
// See WarpMaskDivergence.h for the question and what it assumes.
//
//===----------------------------------------------------------------------===//

#include "analysis/WarpMaskDivergence.h"
#include "analysis/SymbolicIndex.h"
#include "analysis/race/WarpUniformity.h"
#include "model/SyncEvents.h"
#include "clang/AST/ASTContext.h"
#include "clang/Basic/Builtins.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringExtras.h"
#include <functional>
#include <map>

namespace clang::cuda_tidy {

WarpMaskHandler::~WarpMaskHandler() = default;

namespace {

constexpr unsigned WarpSize = 32;

/// A branch the collective's block is control dependent on, with the side
/// that leads to the collective.
struct Guard {
  const CFGBlock *Block = nullptr;
  const Expr *Condition = nullptr;
  SymId Id = -1;
  bool Side = true;
  /// May differ between the lanes of a warp.
  bool Varies = false;
  /// Varies, and can be asked about: translated, on one side, free of a
  /// helper's parameters.
  bool Decidable = false;
  /// Reads a loop counter. A uniform guard that does is the same in both
  /// threads of the question and left out: a counter the solver knows only
  /// through its loop condition (`o /= 2`) would make every answer
  /// approximate.
  bool ReadsLoopCounter = false;
};

/// Which side of the two-way branch at \p C leads to \p B: the true side
/// (the first successor) or the false one; none when both or neither do.
std::optional<bool> sideOf(const FunctionDependence &Deps, const CFGBlock *C,
                           const CFGBlock *B) {
  if (C->succ_size() != 2 ||
      isa_and_nonnull<SwitchStmt>(C->getTerminatorStmt()))
    return std::nullopt;
  bool Reaches[2] = {false, false};
  unsigned Index = 0;
  for (const CFGBlock *Succ : C->succs())
    Reaches[Index++] = Succ && Deps.reaches(Succ, B, C);
  if (Reaches[0] == Reaches[1])
    return std::nullopt;
  return Reaches[0];
}

ConditionKind kindOf(const CFGBlock *C) {
  const Stmt *T = C->getTerminatorStmt();
  if (isa_and_nonnull<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(T))
    return ConditionKind::Loop;
  return ConditionKind::Branch;
}

/// Whether the tree of \p Id has a node of kind \p K (with value \p Value,
/// when given: a dimension, an atom).
bool contains(const SymbolicTranslator &Sym, SymId Id, SymNode::Kind K,
              std::optional<std::int64_t> Value = std::nullopt) {
  if (Id < 0)
    return false;
  const SymNode &N = Sym.node(Id);
  if (N.K == K && (!Value || N.Value == *Value))
    return true;
  return contains(Sym, N.A, K, Value) || contains(Sym, N.B, K, Value) ||
         contains(Sym, N.C, K, Value);
}

/// "16-31", "0, 2, 4-7".
std::string laneList(std::uint32_t Lanes) {
  std::string Out;
  for (unsigned L = 0; L < WarpSize;) {
    if (!(Lanes >> L & 1)) {
      ++L;
      continue;
    }
    unsigned End = L;
    while (End + 1 < WarpSize && (Lanes >> (End + 1) & 1))
      ++End;
    if (!Out.empty())
      Out += ", ";
    Out += std::to_string(L);
    if (End > L)
      Out += "-" + std::to_string(End);
    L = End + 1;
  }
  return Out;
}

std::string spelling(const Expr *E, const ASTContext &Context) {
  const SourceManager &SM = Context.getSourceManager();
  return Lexer::getSourceText(SM.getExpansionRange(E->getSourceRange()), SM,
                              Context.getLangOpts())
      .str();
}

/// The mask, in hexadecimal when it is a constant, else as written.
std::string maskText(const SyncEvent &Event, const ASTContext &Context) {
  if (std::optional<std::uint64_t> Value = Event.Mask.value(Context))
    return "0x" + llvm::utohexstr(*Value, /*LowerCase=*/true);
  return spelling(Event.Mask.E, Context);
}

/// The preconditions the author states among the statements of \p FD's
/// body itself (not under a branch or a loop: `assert(c)`,
/// `__builtin_assume(c)`, `[[assume(c)]]`, HostFacts.h's statedCondition)
/// that are the same in every thread: facts about the unknowns (`n % 32 ==
/// 0`, llm.c's `assert(blockDim.x == bdx)`). A launch that breaks one stops
/// at it, so no witness may.
llvm::SmallVector<SymId, 2> statedFacts(const FunctionDecl *FD,
                                        SymbolicTranslator &Sym) {
  llvm::SmallVector<SymId, 2> Found;
  const auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
  if (!Body)
    return Found;
  // Only the statements before the first that synchronises: a collective
  // before a precondition runs with whatever values break it.
  // A call of the program's own helpers may synchronise too.
  const SourceManager &SM = FD->getASTContext().getSourceManager();
  std::function<bool(const Stmt *)> Synchronises = [&](const Stmt *S) {
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (classifySync(Call).Kind != SyncKind::None ||
          (Callee && Callee->hasBody() &&
           !SM.isInSystemHeader(Callee->getLocation())))
        return true;
    }
    return llvm::any_of(S->children(), [&](const Stmt *Child) {
      return Child && Synchronises(Child);
    });
  };
  for (const Stmt *S : Body->body()) {
    if (Synchronises(S))
      break;
    bool Holds = true;
    const Expr *Stated = statedCondition(S, Holds);
    if (!Stated)
      continue;
    SymId Id = Sym.translate(Stated);
    if (!Holds && !Sym.isUnknown(Id))
      Id = Sym.binary(SymNode::Eq, Id, Sym.constant(0));
    if (!Sym.isUnknown(Id) && !Sym.usesThread(Id))
      Found.push_back(Id);
  }
  return Found;
}

/// What a question about \p FD assumes: its stated preconditions
/// (statedFacts), then the multiples its launches establish for its
/// parameters (HostFacts.h).
llvm::SmallVector<SymId, 2>
assumptions(const FunctionDecl *FD, SymbolicTranslator &Sym,
            llvm::ArrayRef<ParameterMultiple> Multiples) {
  llvm::SmallVector<SymId, 2> Found = statedFacts(FD, Sym);
  for (const ParameterMultiple &Fact : Multiples)
    Found.push_back(
        Sym.binary(SymNode::Eq,
                   Sym.binary(SymNode::Rem, Sym.parameter(Fact.Param),
                              Sym.constant(Fact.Multiple)),
                   Sym.constant(0)));
  return Found;
}

/// One collective's question (see the file comment).
class CollectiveQuestion {
public:
  /// \p CollectiveOf gives the collective a call is or always reaches.
  CollectiveQuestion(
      ASTContext &Context, const FunctionDependence &Deps,
      SymbolicTranslator &Sym, llvm::ArrayRef<SymId> Assumed,
      const WarpMaskOptions &Opts, SolverPool &Solvers,
      llvm::function_ref<const CallExpr *(const CallExpr *)> CollectiveOf,
      bool BlockWide = false)
      : Context(Context), Deps(Deps), Sym(Sym), Assumed(Assumed), Opts(Opts),
        Solvers(Solvers), CollectiveOf(CollectiveOf), BlockWide(BlockWide) {}

  /// For a block barrier in \p B: whether two threads of one block may
  /// disagree on a guard that leads to it (true, with the point in
  /// \p Report), certainly may not under the stated preconditions (false),
  /// or none when a guard that varies cannot be decided. Needs BlockWide.
  std::optional<bool> decideBarrier(const CFGBlock *B,
                                    DivergentWarpCollective &Report) {
    collectGuards(B, SyncEvent());
    bool Varies = false;
    for (const Guard &G : Guards) {
      if (!G.Varies)
        continue;
      Varies = true;
      if (!G.Decidable)
        return std::nullopt;
      // The question compares two threads at one point. A loop's condition
      // also differs for threads that left the loop in an earlier pass,
      // through an exit that need not lead to the barrier (a `break` after
      // it): each exit on a varying condition must be asked too. A guard
      // elsewhere whose terms are the same in every thread varies through
      // something the solver does not see.
      llvm::SmallPtrSet<const CFGBlock *, 16> Body = loopOf(G.Block);
      if (Body.empty() ? !Sym.usesThread(G.Id) : !exitsAsked(G.Block, Body))
        return std::nullopt;
      std::optional<bool> Found = ask(G, -1, Report);
      if (!Found)
        return std::nullopt;
      if (*Found) {
        describe(G, Report);
        return true;
      }
    }
    if (!Varies)
      return std::nullopt;
    return false;
  }

  /// The report for the collective \p Call in \p B (of \p Event, with
  /// \p Mask translated), if its mask may name lanes that do not reach it.
  std::optional<DivergentWarpCollective> decide(const CallExpr *Call,
                                                const SyncEvent &Event,
                                                SymId Mask, const CFGBlock *B) {
    // Only masks of constants, thread indices and extents are read. An atom
    // would be a free unknown to the solver, though a ballot taken before
    // the branch (uniform under the lane rules) names exactly the lanes
    // that stay; an arithmetic shift of a mask's high bit is not what `>>`
    // of an unsigned mask computes.
    llvm::SmallVector<unsigned, 2> MaskAtoms;
    Sym.collectAtoms(Mask, MaskAtoms);
    if (Sym.isUnknown(Mask) || !MaskAtoms.empty() ||
        (Sym.node(Mask).K != SymNode::Const &&
         contains(Sym, Mask, SymNode::Shr)))
      return std::nullopt;
    collectGuards(B, Event);
    DivergentWarpCollective Report;
    Report.Function = Deps.getFunction();
    Report.Call = Call;
    Report.Name = Event.Name;
    Report.Mask = maskText(Event, Context);
    const Guard *Undecided = nullptr;
    for (const Guard &G : Guards) {
      if (!G.Varies)
        continue;
      if (!G.Decidable) {
        Undecided = Undecided ? Undecided : &G;
        continue;
      }
      std::optional<bool> Found = ask(G, Mask, Report);
      if (!Found) {
        Undecided = Undecided ? Undecided : &G;
        continue;
      }
      if (*Found) {
        describe(G, Report);
        return Report;
      }
    }
    if (!Undecided || !Opts.ReportUndecided)
      return std::nullopt;
    describe(*Undecided, Report);
    Report.Undecided = true;
    return Report;
  }

private:
  /// The blocks of the loop \p H heads (those on a way from \p H back to
  /// it), \p H among them; empty when \p H heads none.
  llvm::SmallPtrSet<const CFGBlock *, 16> loopOf(const CFGBlock *H) {
    llvm::SmallPtrSet<const CFGBlock *, 16> Forward, Backward, Body;
    llvm::SmallVector<const CFGBlock *, 16> Work;
    for (const CFGBlock *Succ : H->succs())
      if (Succ)
        Work.push_back(Succ);
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (B == H || !Forward.insert(B).second)
        continue;
      for (const CFGBlock *Succ : B->succs())
        if (Succ)
          Work.push_back(Succ);
    }
    for (const CFGBlock *Pred : H->preds())
      if (Pred)
        Work.push_back(Pred);
    bool Loops = false;
    while (!Work.empty()) {
      const CFGBlock *B = Work.pop_back_val();
      if (B == H) {
        Loops = true;
        continue;
      }
      if (!Forward.contains(B) || !Backward.insert(B).second)
        continue;
      for (const CFGBlock *Pred : B->preds())
        if (Pred)
          Work.push_back(Pred);
    }
    if (!Loops && Backward.empty())
      return Body;
    Body = Backward;
    Body.insert(H);
    return Body;
  }

  /// Whether every branch of the loop \p Body (headed by \p H) that may
  /// leave it on a condition threads disagree on is one of the guards
  /// asked, and decidable.
  bool exitsAsked(const CFGBlock *H,
                  const llvm::SmallPtrSet<const CFGBlock *, 16> &Body) {
    for (const CFGBlock *C : Body) {
      if (C == H || C->succ_size() < 2)
        continue;
      bool Leaves = llvm::any_of(C->succs(), [&](const CFGBlock *Succ) {
        return Succ && !Body.contains(Succ);
      });
      if (!Leaves || !(Deps.getConditionDeps(C) & (dep::Thread | dep::Lane)))
        continue;
      if (!llvm::any_of(Guards, [&](const Guard &G) {
            return G.Block == C && G.Decidable;
          }))
        return false;
    }
    return true;
  }

  /// Whether the arm of the branch at \p C that \p Side does not take,
  /// before the arms join, calls a collective of \p Event's kind with the
  /// same constant mask. On sm_70 and later the lanes of a mask may meet at
  /// different instructions (PTX ISA: only sm_6x and below require the
  /// same one), so `if (lane < 16) __syncwarp(); else __syncwarp();` is
  /// correct.
  bool otherArmMeets(const CFGBlock *C, bool Side, const SyncEvent &Event) {
    std::optional<std::uint64_t> Mask = Event.Mask.value(Context);
    if (!Mask || C->succ_size() != 2)
      return false;
    const CFGBlock *Join = Deps.getImmediatePostDominator(C);
    const CFGBlock *Other = *(C->succ_begin() + (Side ? 1 : 0));
    llvm::SmallVector<const CFGBlock *, 8> Work;
    llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
    if (Other)
      Work.push_back(Other);
    while (!Work.empty() && Seen.size() < 64) {
      const CFGBlock *Arm = Work.pop_back_val();
      if (Arm == Join || Arm == C || !Seen.insert(Arm).second)
        continue;
      for (const CFGElement &Element : *Arm)
        if (auto Statement = Element.getAs<CFGStmt>())
          if (const auto *Call = dyn_cast<CallExpr>(Statement->getStmt()))
            if (const CallExpr *Collective = CollectiveOf(Call)) {
              SyncEvent Met = classifySync(Collective);
              if (Met.Kind == Event.Kind && Met.Mask.value(Context) == Mask)
                return true;
            }
      for (const CFGBlock *Succ : Arm->succs())
        if (Succ)
          Work.push_back(Succ);
    }
    return false;
  }

  void collectGuards(const CFGBlock *B, const SyncEvent &Event) {
    Guards.clear();
    bool Kernel = Deps.isKernel();
    WarpUniformity Uniformity(Context, Deps);
    for (const CFGBlock *C : Deps.getControlClosure(B)) {
      Guard G;
      G.Block = C;
      G.Condition = dyn_cast_or_null<Expr>(C->getTerminatorCondition());
      DepSet Conditions = Deps.getConditionDeps(C);
      G.Varies =
          (Conditions & (dep::Thread | dep::Lane)) && G.Condition &&
          (BlockWide || !Uniformity.isWarpUniform(G.Condition, C, C->size()));
      std::optional<bool> Side = sideOf(Deps, C, B);
      G.Id = G.Condition ? Sym.translate(G.Condition) : -1;
      bool Translated = Side && !Sym.isUnknown(G.Id);
      if (Side)
        G.Side = *Side;
      if (!BlockWide && G.Varies && Side && otherArmMeets(C, *Side, Event))
        G.Varies = false;
      // A helper's parameter is an atom of the translation, the same in
      // both threads, though the caller may pass each lane its own value.
      llvm::SmallVector<unsigned, 4> Atoms;
      Sym.collectAtoms(G.Id, Atoms);
      G.ReadsLoopCounter = llvm::any_of(
          Atoms, [&](unsigned A) { return Sym.atoms()[A].isLoopCounter(); });
      G.Decidable =
          G.Varies && Translated && (Kernel || !(Conditions & ~dep::Scopes));
      // A guard that cannot be translated constrains nothing: the lane that
      // reaches the call is taken to have passed it.
      if (Translated || G.Varies)
        Guards.push_back(G);
    }
  }

  /// Whether two lanes of one warp exist, the first reaching the call and
  /// naming the second in its mask, the second on the other side of \p G;
  /// none when the solver cannot tell. Fills the lanes of \p Report.
  std::optional<bool> ask(const Guard &G, SymId Mask,
                          DivergentWarpCollective &Report) {
    // A guard of no thread index has one value in both threads of the
    // question: its loop counters are taken in the same iteration of
    // their loops (a thread that left a loop earlier is the question of
    // the loop's exits, exitsAsked), everything else is the block's. No
    // solver needed.
    if (!Sym.usesThread(G.Id))
      return false;
    ExactQuery Q(Sym, Opts.QueryResourceLimit, &Solvers);
    llvm::SMTSolver &S = Q.solver();
    Q.setSymbolicShape();
    llvm::SMTExprRef Lanes = Q.constant(WarpSize - 1);
    std::optional<std::int64_t> FixedX = fixedExtent(0),
                                FixedY = fixedExtent(1);
    bool NarrowRows = FixedX && *FixedX > 0 && *FixedX % WarpSize != 0;
    if (!NarrowRows && !BlockWide)
      Q.require(S.mkEqual(S.mkBVAnd(Q.blockDim(0), Lanes), Q.constant(0)));
    unsigned First = Q.addThread(), Second = Q.addThread();
    llvm::SMTExprRef SecondLane = nullptr;
    if (BlockWide) {
      // Any two threads of the block.
    } else if (NarrowRows) {
      // The author fixed rows narrower than a warp (llm.c's
      // `assert(blockDim.x == 4); assert(blockDim.y == 8);`): a warp is 32
      // consecutive linear ids, which with constant extents are no product
      // of unknowns. With y's extent unknown, the two threads are looked
      // for in the first z plane: a witness there is one all the same.
      auto Linear = [&](unsigned T) {
        llvm::SMTExprRef Row = Q.threadIndex(T, 1);
        if (FixedY && *FixedY > 0)
          Row = S.mkBVAdd(Row,
                          S.mkBVMul(Q.constant(*FixedY), Q.threadIndex(T, 2)));
        else
          Q.require(S.mkEqual(Q.threadIndex(T, 2), Q.constant(0)));
        return S.mkBVAdd(Q.threadIndex(T, 0),
                         S.mkBVMul(Q.constant(*FixedX), Row));
      };
      Q.require(S.mkEqual(S.mkBVAshr(Linear(First), Q.constant(5)),
                          S.mkBVAshr(Linear(Second), Q.constant(5))));
      SecondLane = S.mkBVAnd(Linear(Second), Lanes);
    } else {
      // With whole warps in each row, two threads share a warp when they
      // share y, z and x / 32: no product of extents for the solver.
      Q.require(S.mkEqual(Q.threadIndex(First, 1), Q.threadIndex(Second, 1)));
      Q.require(S.mkEqual(Q.threadIndex(First, 2), Q.threadIndex(Second, 2)));
      Q.require(S.mkEqual(S.mkBVAshr(Q.threadIndex(First, 0), Q.constant(5)),
                          S.mkBVAshr(Q.threadIndex(Second, 0), Q.constant(5))));
      SecondLane = S.mkBVAnd(Q.threadIndex(Second, 0), Lanes);
    }
    for (SymId Fact : Assumed)
      Q.require(Q.holds(Fact, First));
    for (const Guard &H : Guards)
      if (onTheWay(H)) {
        llvm::SMTExprRef Holds = Q.holds(H.Id, First);
        Q.require(H.Side ? Holds : S.mkNot(Holds));
      }
    llvm::SMTExprRef Away = Q.holds(G.Id, Second);
    Q.require(G.Side ? S.mkNot(Away) : Away);
    if (!BlockWide) {
      llvm::SMTExprRef MaskValue = Q.value(Mask, First);
      Q.require(S.mkNot(
          S.mkEqual(S.mkBVAnd(S.mkBVLshr(MaskValue, SecondLane), Q.constant(1)),
                    Q.constant(0))));
    }
    llvm::SmallVector<unsigned, 4> Atoms;
    Sym.collectAtoms(G.Id, Atoms);
    for (unsigned Atom : Atoms)
      if (Sym.atoms()[Atom].isLoopCounter())
        Q.relate(Atom, First, Second, IterationRelation::Same);
    if (!BlockWide)
      Sym.collectAtoms(Mask, Atoms);

    // What the lanes are evaluated at.
    llvm::SmallVector<std::pair<unsigned, llvm::SMTExprRef>, 4> SeenAtoms;
    for (unsigned Atom : Atoms)
      SeenAtoms.push_back({Atom, Q.observe(Sym.atoms()[Atom].isLoopCounter()
                                               ? Q.counter(Atom, First)
                                               : Q.uniform(Atom))});
    llvm::SMTExprRef SeenDims[3];
    for (unsigned D = 0; D < 3; ++D)
      SeenDims[D] = Q.observe(Q.blockDim(D));
    llvm::SMTExprRef SeenFirst[3],
        SeenSecondLane = SecondLane ? Q.observe(SecondLane) : nullptr;
    for (unsigned D = 0; D < 3; ++D)
      SeenFirst[D] = Q.observe(Q.threadIndex(First, D));

    std::vector<std::int64_t> AtomValues(Sym.atoms().size(), 0);
    SymEnv Env;
    std::int64_t FirstThread[3] = {0, 0, 0}, SecondLaneValue = 0;
    std::optional<ExactQuery::Answer> Answer = Q.decide([&] {
      for (const auto &[Atom, Seen] : SeenAtoms)
        AtomValues[Atom] = Q.modelValue(Seen);
      for (unsigned D = 0; D < 3; ++D)
        Env.Dim[D] = Q.modelValue(SeenDims[D]);
      for (unsigned D = 0; D < 3; ++D)
        FirstThread[D] = Q.modelValue(SeenFirst[D]);
      if (SeenSecondLane)
        SecondLaneValue = Q.modelValue(SeenSecondLane);
    });
    if (!Answer)
      return std::nullopt;
    // A block barrier is kept unless the solver rules the pair out; an
    // uncertain witness decides nothing.
    if (BlockWide && Answer->Found && !Answer->Certain)
      return std::nullopt;
    if (!Answer->Found || (!Answer->Certain && !Opts.ReportUndecided))
      return false;
    Env.Atoms = AtomValues.data();
    for (unsigned D = 0; D < 3; ++D)
      Env.Tid[D] = FirstThread[D];
    if (!BlockWide)
      Report.Lanes = awayLanes(G, Mask, Env, SecondLaneValue);
    Report.When = when(G, Atoms, AtomValues, Env);
    for (unsigned D = 0; D < 3; ++D) {
      Report.Block[D] = Env.Dim[D];
      Report.ReadsBlockDim |= contains(Sym, G.Id, SymNode::BlockDim, D) ||
                              (!BlockWide && contains(Sym, Mask,
                                                      SymNode::BlockDim, D));
    }
    completePoint(G, Atoms, AtomValues, Env, Report);
    for (const auto &[Atom, Seen] : SeenAtoms) {
      const SymAtom &A = Sym.atoms()[Atom];
      if (const auto *Param = dyn_cast_or_null<ParmVarDecl>(A.Var))
        Report.Values.push_back({Param, AtomValues[Atom]});
      else if (A.isBlockIndex() && A.Name.size() == 10)
        Report.BlockIndex[A.Name.back() - 'x'] = AtomValues[Atom];
      else if (!A.Var && llvm::StringRef(A.Name).starts_with("gridDim.") &&
               A.Name.size() == 9)
        Report.Grid[A.Name.back() - 'x'] = AtomValues[Atom];
    }
    return true;
  }

  /// Whether a question requires the first thread to pass \p H on its way
  /// to the collective: a guard the solver decides, or a uniform one. A
  /// guard that reads a loop counter is left out unless it also reads a
  /// thread index (`c < iterations_C` of an inner loop is not): the first
  /// thread's counter can be taken where it holds, and the solver would
  /// know the counter only through its loop condition.
  bool onTheWay(const Guard &H) const {
    if (!H.ReadsLoopCounter)
      return H.Decidable || !H.Varies;
    return H.Decidable && Sym.usesThread(H.Id);
  }

  /// Adds to \p Report the values of the parameters that the stated
  /// preconditions and the other guards on the way read but \p G does not,
  /// at the point \p Env and \p AtomValues of the atoms \p Seen: a
  /// reproducer launched with other values of those (the program's `C =
  /// 1600` where the kernel traps unless `C % 256 == 0`) would stop before
  /// the collective or not reach it. A second, small question: the
  /// preconditions alone, the point's values fixed, the others in [2, 4096]
  /// where the solver can, anywhere else. Asked apart from the first so
  /// that its unknowns do not enter that question's generic region.
  void completePoint(const Guard &G, llvm::ArrayRef<unsigned> Seen,
                     llvm::ArrayRef<std::int64_t> AtomValues,
                     const SymEnv &Env, DivergentWarpCollective &Report) {
    llvm::SmallVector<unsigned, 4> Others;
    for (SymId Fact : Assumed)
      Sym.collectAtoms(Fact, Others);
    for (const Guard &H : Guards)
      if (&H != &G && (H.Decidable || onTheWay(H)))
        Sym.collectAtoms(H.Id, Others);
    llvm::erase_if(Others, [&](unsigned Atom) {
      return llvm::is_contained(Seen, Atom) ||
             !isa_and_nonnull<ParmVarDecl>(Sym.atoms()[Atom].Var);
    });
    if (Others.empty())
      return;
    ExactQuery Q(Sym, Opts.QueryResourceLimit, &Solvers);
    llvm::SMTSolver &S = Q.solver();
    Q.setSymbolicShape();
    for (unsigned D = 0; D < 3; ++D)
      Q.require(S.mkEqual(Q.blockDim(D), Q.constant(Env.Dim[D])));
    unsigned Thread = Q.addThread();
    for (SymId Fact : Assumed)
      Q.require(Q.holds(Fact, Thread));
    for (unsigned Atom : Seen)
      if (!Sym.atoms()[Atom].isLoopCounter())
        Q.require(
            S.mkEqual(Q.uniform(Atom), Q.constant(AtomValues[Atom])));
    llvm::SmallVector<llvm::SMTExprRef, 4> Observed;
    for (unsigned Atom : Others)
      Observed.push_back(Q.observe(Q.uniform(Atom)));
    Q.push();
    for (unsigned Atom : Others) {
      Q.require(S.mkBVSge(Q.uniform(Atom), Q.constant(2)));
      Q.require(S.mkBVSle(Q.uniform(Atom), Q.constant(4096)));
    }
    std::optional<bool> Found = Q.check();
    if (Found != true) {
      Q.pop();
      Found = Q.check();
      if (Found != true)
        return;
    }
    for (unsigned I = 0; I < Others.size(); ++I)
      Report.Values.push_back(
          {cast<ParmVarDecl>(Sym.atoms()[Others[I]].Var),
           Q.modelValue(Observed[I])});
  }

  /// The extent of dimension \p Dim that a stated precondition fixes
  /// (`assert(blockDim.x == 4)`), if one does.
  std::optional<std::int64_t> fixedExtent(unsigned Dim) const {
    for (SymId Fact : Assumed) {
      const SymNode &N = Sym.node(Fact);
      if (N.K != SymNode::Eq)
        continue;
      for (auto [A, B] : {std::pair(N.A, N.B), std::pair(N.B, N.A)}) {
        const SymNode &L = Sym.node(A), &R = Sym.node(B);
        if (L.K == SymNode::BlockDim && L.Value == Dim && R.K == SymNode::Const)
          return R.Value;
      }
    }
    return std::nullopt;
  }

  /// The lanes of the warp of the thread at \p Env that its mask names and
  /// \p G sends away; the second thread's lane alone when they cannot be
  /// evaluated.
  std::string awayLanes(const Guard &G, SymId Mask, SymEnv Env,
                        std::int64_t SecondLane) {
    std::string Fallback = "lane " + std::to_string(SecondLane);
    std::optional<std::int64_t> MaskValue = Sym.evaluate(Mask, Env);
    if (!MaskValue)
      return Fallback;
    std::uint32_t Away = 0;
    // The warp's lanes in the block's linear order, x fastest.
    const std::int64_t *D = Env.Dim;
    std::int64_t Linear = Env.Tid[0] + D[0] * (Env.Tid[1] + D[1] * Env.Tid[2]);
    std::int64_t Base = Linear - Linear % WarpSize;
    for (unsigned L = 0; L < WarpSize; ++L) {
      std::int64_t Id = Base + L;
      if (D[0] <= 0 || D[1] <= 0 || Id >= D[0] * D[1] * D[2])
        break;
      Env.Tid[0] = Id % D[0];
      Env.Tid[1] = Id / D[0] % D[1];
      Env.Tid[2] = Id / (D[0] * D[1]);
      std::optional<std::int64_t> Holds = Sym.evaluate(G.Id, Env);
      if (!Holds)
        return Fallback;
      if ((*Holds != 0) != G.Side && (*MaskValue >> L & 1))
        Away |= std::uint32_t(1) << L;
    }
    if (!Away)
      return Fallback;
    return (Away & (Away - 1) ? "lanes " : "lane ") + laneList(Away);
  }

  /// The values of the unknowns, block indices and extents \p G reads
  /// ("'n' is 2 and 'blockDim.x' is 32"), when it reads any.
  std::string when(const Guard &G, llvm::ArrayRef<unsigned> Atoms,
                   llvm::ArrayRef<std::int64_t> AtomValues, const SymEnv &Env) {
    llvm::SmallVector<std::string, 4> Parts;
    llvm::SmallVector<unsigned, 4> Read;
    Sym.collectAtoms(G.Id, Read);
    for (unsigned Atom : Atoms)
      if (llvm::is_contained(Read, Atom) && !Sym.atoms()[Atom].isLoopCounter())
        Parts.push_back("'" + Sym.atoms()[Atom].Name + "' is " +
                        std::to_string(AtomValues[Atom]));
    for (unsigned D = 0; D < 3; ++D)
      if (contains(Sym, G.Id, SymNode::BlockDim, D))
        Parts.push_back(std::string("'blockDim.") + char('x' + D) + "' is " +
                        std::to_string(Env.Dim[D]));
    std::string Out;
    for (unsigned I = 0; I < Parts.size(); ++I)
      Out += (I == 0 ? "" : I + 1 == Parts.size() ? " and " : ", ") + Parts[I];
    return Out;
  }

  void describe(const Guard &G, DivergentWarpCollective &Report) {
    Report.Condition = G.Condition;
    Report.Kind = kindOf(G.Block);
    Report.Reason = Deps.getConditionWitness(G.Block).render();
  }

  ASTContext &Context;
  const FunctionDependence &Deps;
  SymbolicTranslator &Sym;
  llvm::ArrayRef<SymId> Assumed;
  const WarpMaskOptions &Opts;
  SolverPool &Solvers;
  llvm::function_ref<const CallExpr *(const CallExpr *)> CollectiveOf;
  /// Two threads of one block, not one warp, and no mask: the question of
  /// a block barrier.
  bool BlockWide = false;
  llvm::SmallVector<Guard, 4> Guards;
};

} // namespace

std::optional<bool>
WarpMaskAnalysis::decideBarrier(const FunctionDecl *FD, const Stmt *Site,
                                llvm::ArrayRef<ParameterMultiple> Multiples,
                                DivergentWarpCollective &Report) {
  const FunctionDependence *Deps = FD ? Dependence.analyze(FD) : nullptr;
  if (!Deps)
    return std::nullopt;
  const CFGBlock *Where = nullptr;
  for (const CFGBlock *B : Deps->getCFG())
    for (const CFGElement &Element : *B)
      if (auto Statement = Element.getAs<CFGStmt>())
        if (Statement->getStmt() == Site)
          Where = B;
  if (!Where)
    return std::nullopt;
  SymbolicTranslator Sym(Dependence.getContext(), Deps->getFunction(), Deps);
  llvm::SmallVector<SymId, 2> Assumed =
      assumptions(Deps->getFunction(), Sym, Multiples);
  auto CollectiveOf = [this](const CallExpr *Other) {
    return collectiveOf(Other);
  };
  CollectiveQuestion Question(Dependence.getContext(), *Deps, Sym, Assumed,
                              Options, Solvers, CollectiveOf,
                              /*BlockWide=*/true);
  Report.Function = FD;
  return Question.decideBarrier(Where, Report);
}

const CallExpr *WarpMaskAnalysis::collectiveOf(const CallExpr *Call) {
  SyncEvent Event = classifySync(Call);
  if (Event.ordersWarp() && Event.Mask.E)
    return Call;
  const FunctionDecl *Callee = Call->getDirectCallee();
  return Event.Modelled || !Callee ? nullptr : unguardedCollective(Callee);
}

const CallExpr *WarpMaskAnalysis::unguardedCollective(const FunctionDecl *FD) {
  const FunctionDecl *Definition = nullptr;
  if (!FD->hasBody(Definition) || !Definition)
    return nullptr;
  auto [It, New] = Unguarded.try_emplace(Definition, nullptr);
  if (!New)
    return It->second;
  const FunctionDependence *Deps = Dependence.analyze(Definition);
  if (!Deps)
    return nullptr;
  for (const CFGBlock *B : Deps->getCFG())
    for (const CFGElement &Element : *B) {
      auto Statement = Element.getAs<CFGStmt>();
      const auto *Call =
          Statement ? dyn_cast<CallExpr>(Statement->getStmt()) : nullptr;
      if (!Call)
        continue;
      SyncEvent Event = classifySync(Call);
      if (!Event.ordersWarp() || !Event.Mask.E ||
          !Event.Mask.value(Dependence.getContext()))
        continue;
      // The CFG keeps the arm of `if (width == 32)` that the template
      // argument rules out, unreachable from the entry.
      if (Deps->reaches(&Deps->getCFG().getEntry(), B) &&
          llvm::all_of(Deps->getControlClosure(B), [&](const CFGBlock *C) {
            return Deps->getConditionDeps(C) == 0;
          }))
        return Unguarded[Definition] = Call;
    }
  return nullptr;
}

void WarpMaskAnalysis::analyze(const FunctionDecl *FD,
                               llvm::ArrayRef<ParameterMultiple> Multiples) {
  const FunctionDependence *Deps = Dependence.analyze(FD);
  if (!Deps)
    return;
  std::optional<SymbolicTranslator> Sym;
  llvm::SmallVector<SymId, 2> Assumed;
  // The collectives under the same guards, on the same sides, with masks
  // of one shape get one answer: an unrolled butterfly asks once.
  std::map<std::string, std::optional<DivergentWarpCollective>> Answers;
  for (const CFGBlock *B : Deps->getCFG()) {
    for (const CFGElement &Element : *B) {
      auto Statement = Element.getAs<CFGStmt>();
      const auto *Call =
          Statement ? dyn_cast<CallExpr>(Statement->getStmt()) : nullptr;
      if (!Call)
        continue;
      if (Deps->getControlClosure(B).empty())
        continue;
      const CallExpr *Collective = collectiveOf(Call);
      if (!Collective)
        continue;
      SyncEvent Event = classifySync(Collective);
      const CallExpr *Inner = Collective == Call ? nullptr : Collective;
      if (!Sym) {
        Sym.emplace(Dependence.getContext(), Deps->getFunction(), Deps);
        Assumed = assumptions(Deps->getFunction(), *Sym, Multiples);
      }
      // A helper's mask is a constant (unguardedCollective): the caller's
      // translator cannot read the helper's expressions.
      SymId Mask =
          Inner ? Sym->constant(*Event.Mask.value(Dependence.getContext()))
                : Sym->translate(Event.Mask.E);
      std::string Key = std::to_string(static_cast<int>(Event.Kind)) + " " +
                        ExactQuery::shapeKey(*Sym, Mask);
      for (const CFGBlock *C : Deps->getControlClosure(B)) {
        std::optional<bool> Side = sideOf(*Deps, C, B);
        Key += " " + std::to_string(C->getBlockID()) +
               (Side ? (*Side ? "t" : "f") : "?");
      }
      auto [Answer, New] = Answers.try_emplace(Key);
      if (New) {
        auto CollectiveOf = [this](const CallExpr *Other) {
          return collectiveOf(Other);
        };
        CollectiveQuestion Question(Dependence.getContext(), *Deps, *Sym,
                                    Assumed, Options, Solvers, CollectiveOf);
        Answer->second = Question.decide(Call, Event, Mask, B);
      }
      if (!Answer->second)
        continue;
      DivergentWarpCollective Report = *Answer->second;
      Report.Call = Call;
      Report.Name = Event.Name;
      Report.Mask = maskText(Event, Dependence.getContext());
      Report.Collective = Inner;
      Report.Callee = Inner ? Call->getDirectCallee() : nullptr;
      Handler.handleDivergentWarpCollective(Report);
    }
  }
}

} // namespace clang::cuda_tidy
