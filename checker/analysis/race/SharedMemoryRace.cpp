//===--- SharedMemoryRace.cpp - Unordered shared-memory accesses ----------===//
//
// See SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/SharedMemoryRace.h"
#include "model/CudaModel.h"
#include "analysis/ExactQuery.h"
#include "analysis/SharedAccesses.h"
#include "analysis/dependence/UniformityProofs.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/ExprMutationAnalyzer.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <deque>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace clang::cuda_tidy {

SharedRaceHandler::~SharedRaceHandler() = default;

namespace {

/// What setting up one solver query costs beyond the resource units Z3
/// counts (a fresh context, encoding, bit-blasting the terms), in those
/// units: measured on GROMACS's foreign-lambda kernels, whose queries are
/// mostly small.
constexpr std::uint64_t QueryWork = 20'000;

/// Which threads touch each byte, for finding two different threads on one
/// byte: up to two threads per byte, the second from another warp than the
/// first when possible. That is enough to find, for any thread, another
/// thread on the byte when there is one (of another warp when asked).
class ByteTouchers {
public:
  explicit ByteTouchers(bool DifferentWarpsOnly)
      : DifferentWarpsOnly(DifferentWarpsOnly) {}
  void add(std::int64_t Byte, std::int64_t Thread) {
    auto &Slot = Slots.try_emplace(Byte, Thread, -1).first->second;
    if (Slot.first != Thread && Slot.second < 0 &&
        (Slot.first / 32 != Thread / 32 || !DifferentWarpsOnly))
      Slot.second = Thread;
  }
  /// A thread other than \p Thread (of another warp when asked) that
  /// touches \p Byte; -1 when none does.
  std::int64_t other(std::int64_t Byte, std::int64_t Thread) const {
    auto It = Slots.find(Byte);
    if (It == Slots.end())
      return -1;
    for (std::int64_t Other : {It->second.first, It->second.second})
      if (Other >= 0 && Other != Thread &&
          (!DifferentWarpsOnly || Other / 32 != Thread / 32))
        return Other;
    return -1;
  }
  bool empty() const { return Slots.empty(); }
  void clear() { Slots.clear(); }

private:
  bool DifferentWarpsOnly;
  llvm::DenseMap<std::int64_t, std::pair<std::int64_t, std::int64_t>> Slots;
};

class KernelRaceFinder {
public:
  KernelRaceFinder(SharedAccessCollector &Collector, SharedRaceHandler &Handler,
                   const RaceOptions &Options, const FunctionDecl *Kernel,
                   SharedMemoryRaceAnalysis::AnswerCache &Shared)
      : Col(Collector), Context(Collector.context()),
        Deps(Collector.dependence()), Handler(Handler), Options(Options),
        Kernel(Kernel), Shared(Shared), Sym(Collector.symbols()),
        Accesses(Collector.accesses()), Parents(Collector.parents()),
        ImpliedBranches(branchesImpliedByLoops(Kernel->getBody())) {}

  void run(llvm::ArrayRef<BlockShape> Shapes,
           llvm::ArrayRef<ArgumentRelation> Relations);

private:
  void computeConcurrency();
  /// Accesses reached from a point, each with bit 1 (in the same pass of
  /// the enclosing loops) and bit 2 (after going round a loop). Sparse: an
  /// access reaches the few accesses of its barrier interval, so the sets
  /// stay linear in the kernel's size.
  using ReachSet = llvm::DenseMap<unsigned, std::uint8_t>;
  /// With a ClosedEdge's loop: reached after going round that loop (or one
  /// that is not inside it).
  static constexpr std::uint8_t MovedBit = 4;
  /// With a ClosedEdge's loop: reached after going round inner loops only.
  static constexpr std::uint8_t StayedBit = 8;
  static std::uint8_t bits(const ReachSet &Set, unsigned I) {
    auto It = Set.find(I);
    return It == Set.end() ? 0 : It->second;
  }
  /// A uniform branch one of whose successors holds a block barrier, on a
  /// condition over loop counters only (`if (dividedAt > warpSize / 2)
  /// __syncthreads(); else __syncwarp();` in a loop over `divideBy`):
  /// whether the barrier runs is decided per iteration.
  struct BarrierBranch {
    const CFGBlock *Branch = nullptr;
    SymId Condition = -1;
    /// The innermost loop whose counter the condition reads, and that
    /// counter: outer loops' counters keep their values round it.
    const Stmt *Innermost = nullptr;
    unsigned Counter = 0;
  };
  /// A barrier branch's condition and the value it must have, in the
  /// iteration of the access the way starts from (A's, or B's when OnB),
  /// for the two accesses to be in different iterations of the loop of
  /// Counter with no barrier between: every way between them that goes
  /// round that loop takes the barrier-free side of the branch first.
  struct BarrierSkip {
    SymId Condition = -1;
    bool Polarity = false;
    unsigned Counter = 0;
    bool OnB = false;
    bool operator==(const BarrierSkip &O) const {
      return Condition == O.Condition && Polarity == O.Polarity &&
             Counter == O.Counter && OnB == O.OnB;
    }
  };
  /// What barrierSkip() found on the ways to an access.
  struct SkipCut {
    BarrierSkip Skip;
    /// Some way goes round an inner loop only, in the same iteration of
    /// the loop of Skip.Counter.
    bool SameIterationToo = false;
    /// Some way round that loop passes no warp-level sync either.
    bool WarpRound = false;
  };
  /// An edge (a branch and one of its successors) a walk does not take
  /// while the counters of Loop keep their values: before going round Loop
  /// or a loop that is not inside it.
  /// (Members without initialisers: `= {}`, which zeroes them, is the
  /// default argument of walk() inside this class.)
  struct ClosedEdge {
    const CFGBlock *Branch, *Succ;
    const Stmt *Loop;
  };
  void walk(const CFGBlock *From, unsigned FromIndex, bool StopAtWarpSync,
            ReachSet &Out, ClosedEdge Closed = {}) const;
  /// The barrier branches that every barrier-free way from element
  /// \p FromIndex of \p From to access \p To that goes round the
  /// branch's loop passes before it does, with the value that takes the
  /// barrier-free side, to hold in the iteration of \p Anchor (the access
  /// the way starts in: B's when \p OnB).
  std::optional<SkipCut> barrierSkip(const CFGBlock *From, unsigned FromIndex,
                                     const Stmt *Anchor, unsigned To,
                                     bool OnB) const;

public:
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
    /// The way between the accesses skips a barrier only where this holds.
    std::optional<BarrierSkip> Skip;
  };
  struct Witness {
    std::int64_t ThreadA = 0, ThreadB = 0, Byte = 0;
    llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> LoopA, LoopB;
    /// Values of the unknown uniform values the witness needs.
    llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Uniform;
    /// Values of the parameters that launch relations give in terms of
    /// those (BlockShape::Relations).
    llvm::SmallVector<std::pair<unsigned, std::int64_t>, 1> Related;
  };
  enum class Verdict { None, Possible, Definite, Skip };

private:
  Verdict decide(const SharedAccess &A, const SharedAccess &B,
                 const BlockShape &Shape, const Scenario &S,
                 llvm::ArrayRef<unsigned> Atoms, Witness &W);
  Verdict decideExactly(const SharedAccess &A, const SharedAccess &B,
                        const BlockShape &Shape, const Scenario &S,
                        llvm::ArrayRef<unsigned> Atoms, Witness &W);
  Verdict cachedDecide(const SharedAccess &A, const SharedAccess &B,
                       const BlockShape &Shape, const Scenario &S,
                       llvm::ArrayRef<unsigned> Atoms, Witness &W);
  /// Whether no two threads of the block (of two warps when \p S says so)
  /// can touch a common byte through \p A's and \p B's offsets at all,
  /// whatever their guards, bounds, loop relations and the scenario's skip
  /// condition: a cheap test before decideExactly, whose None it implies.
  /// The offsets may use only the atoms of \p Bound and the listed loop
  /// counters of \p Listed; false (undecided) otherwise.
  bool offsetsApart(
      const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
      const Scenario &S,
      llvm::ArrayRef<std::pair<unsigned, std::int64_t>> Bound,
      llvm::ArrayRef<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>>
          Listed);
  /// Whether the row lemma alone, with the threads, guards and loop
  /// relations of the scenario but no offset, already keeps \p A and \p B
  /// apart: a cheap pre-query of decideExactly, whose None it implies.
  bool rowsApart(const SharedAccess &A, const SharedAccess &B,
                 const BlockShape &Shape, const Scenario &S,
                 llvm::ArrayRef<unsigned> Atoms, SolverPool &Solvers);
  /// What a plain store writes: a symbolic value, or an index into an
  /// array that is read (directly, or through a pure helper given a pointer
  /// into it), or a pure helper's argument. Two stores of equal keys and
  /// equal values store one value.
  struct StoredValue {
    const VarDecl *Array = nullptr;     // The array read, if any.
    const FunctionDecl *Helper = nullptr; // The pure helper called, if any.
    SymId Value = -1;                   // -1: no symbolic form.
    /// Value is the bit pattern of a floating-point constant.
    bool FloatBits = false;
    bool sameKey(const StoredValue &Other) const {
      return Array == Other.Array && Helper == Other.Helper &&
             FloatBits == Other.FloatBits;
    }
  };
  StoredValue storedValue(const Expr *Stored);
  /// The value of \p E as an integer or as a pointer into an array that
  /// holds the same values for every thread (Array set, Value the element
  /// index); Value -1 when neither.
  StoredValue argumentValue(const Expr *E) const;
  /// Whether \p Array names memory that is not shared and is the same
  /// array in every thread.
  bool isSameArrayInEveryThread(const VarDecl *Array) const;
  /// Whether the thread that runs access \p I may leave the kernel after it
  /// without meeting a barrier or warp-level sync: nothing the other lanes
  /// sync on afterwards orders it then (the exited lane takes no part).
  bool leavesUnsynced(unsigned I);
  llvm::DenseMap<unsigned, bool> LeavesUnsynced;
  /// Pure helpers found so far (isPureFunction).
  llvm::DenseMap<const FunctionDecl *, bool> PureFunctions;
  bool leavesVariable(const SharedAccess &X, const BlockShape &Shape,
                      const Witness &W, SolverPool &Solvers);
  bool overBudget();
  /// Adds what \p Q cost to Work.
  void charge(const ExactQuery &Q);
  /// The constraints decideExactly, rowsApart and leavesVariable share, in
  /// the order each asserts them: \p X's guards hold in \p Thread; the
  /// scenario's loop relations and skip condition hold of threads \p TA
  /// and \p TB; the two threads differ (and lie in two warps when the
  /// scenario says so).
  void requireGuards(ExactQuery &Q, const SharedAccess &X, unsigned Thread);
  void requireScenario(ExactQuery &Q, const Scenario &S,
                       llvm::ArrayRef<unsigned> Atoms, unsigned TA,
                       unsigned TB);
  void requireDistinct(ExactQuery &Q, const Scenario &S,
                       const llvm::SMTExprRef &LinearA,
                       const llvm::SMTExprRef &LinearB);
  void checkPair(unsigned IA, unsigned IB, const BlockShape &Shape);
  /// An atomic whose index is data reduced into a range
  /// (`atomicAdd(&counts[in[i] % 64], 1u)`): the index expression, how many
  /// values it takes (0 .. Values - 1) and the element size.
  struct DataIndex {
    const Expr *Index = nullptr;
    std::int64_t Values = 0;
    std::int64_t ElementBytes = 0;
  };
  std::optional<DataIndex> dataIndex(const SharedAccess &Atomic) const;
  struct DataWitness {
    std::int64_t Writer = 0, Atomic = 0, Element = 0;
    llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Uniform;
  };
  Verdict decideDataIndexed(const SharedAccess &Plain,
                            const SharedAccess &Atomic, const DataIndex &Index,
                            const BlockShape &Shape, bool DifferentWarpsOnly,
                            DataWitness &W);
  /// Judges a plain access against an atomic at a data index; false when
  /// the pair is not of that form.
  bool checkDataIndexedPair(unsigned IA, unsigned IB, const BlockShape &Shape);
  const Stmt *certainBarrierPlace(const SharedAccess &First,
                                  const SharedAccess &Second);
  bool isBefore(const SharedAccess &A, const SharedAccess &B) const;
  /// The race between \p First and \p Second, in this order, under \p Shape:
  /// the fields both kinds of pair (plain and data-indexed) fill alike.
  SharedRace raceBetween(const SharedAccess &First, const SharedAccess &Second,
                         Verdict V, const BlockShape &Shape) const;
  bool isWarpUniform(const Expr *E, const CFGBlock *Block, unsigned Index,
                     unsigned Depth = 0) const;
  /// Whether the value \p Target (a local variable, or an element of a
  /// local array at an index every lane agrees on) last received before
  /// position \p Index of \p Block is the same in every lane, on every path
  /// that reaches there. \p Path holds the blocks of the path walked back so
  /// far, \p Steps bounds the walk.
  bool lastValueIsWarpUniform(const Expr *Target, const CFGBlock *Block,
                              unsigned Index, unsigned Depth,
                              llvm::SmallPtrSetImpl<const CFGBlock *> &Path,
                              unsigned &Steps) const;
  /// Whether every variable \p E reads is the same in every thread of the
  /// block (constants, uniform locals and parameters).
  bool isBlockUniformIndex(const Expr *E) const;
  /// Whether \p E reads a by-value parameter of the kernel, or a member of
  /// one, that nothing in the kernel changes: the same in every thread.
  bool isUnchangedParameter(const Expr *E) const {
    E = E->IgnoreParenImpCasts();
    while (const auto *Member = dyn_cast<MemberExpr>(E)) {
      if (Member->isArrow())
        return false;
      E = Member->getBase()->IgnoreParenImpCasts();
    }
    const auto *Ref = dyn_cast<DeclRefExpr>(E);
    const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
    if (!Param || Param->getType()->isReferenceType() ||
        dyn_cast<FunctionDecl>(Param->getDeclContext()) != Kernel ||
        !Kernel->getBody())
      return false;
    // ExprMutationAnalyzer runs AST matchers over the whole body (10 ms a
    // parameter on bisectKernelLarge): asked once per parameter, and only
    // when a syntactic test finds a use of it that is not a plain load.
    auto [It, Inserted] = UnchangedParameters.try_emplace(Param, false);
    if (Inserted)
      It->second =
          onlyLoaded(Kernel->getBody(), Param) ||
          !ExprMutationAnalyzer(*Kernel->getBody(), Context).isMutated(Param);
    return It->second;
  }
  /// Whether every use of \p Param in \p S is a load of it or of one of its
  /// members (under an lvalue-to-rvalue conversion).
  static bool onlyLoaded(const Stmt *S, const ParmVarDecl *Param) {
    if (!S)
      return true;
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
        Cast && Cast->getCastKind() == CK_LValueToRValue) {
      const Expr *E = Cast->getSubExpr()->IgnoreParens();
      while (const auto *Member = dyn_cast<MemberExpr>(E)) {
        if (Member->isArrow())
          break;
        E = Member->getBase()->IgnoreParens();
      }
      if (const auto *Ref = dyn_cast<DeclRefExpr>(E);
          Ref && Ref->getDecl() == Param)
        return true;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
      return Ref->getDecl() != Param;
    for (const Stmt *Child : S->children())
      if (!onlyLoaded(Child, Param))
        return false;
    return true;
  }
  mutable llvm::DenseMap<const ParmVarDecl *, bool> UnchangedParameters;
  /// The constant the launches of \p Shape pass for the kernel parameter
  /// \p Atom stands for, if any.
  std::optional<std::int64_t> boundValue(unsigned Atom,
                                         const BlockShape &Shape) const {
    const SymAtom &Info = Sym.atoms()[Atom];
    if (!Info.Var || Info.isLoopCounter())
      return std::nullopt;
    if (std::optional<std::int64_t> Value = Shape.argument(Info.Var))
      return Value;
    return relatedConstant(Info.Var, Shape);
  }
  /// The value of a parameter whose launch relation this shape makes a
  /// constant (`tilew` = blockDim.x + 2 with blockDim.x = 16), when the
  /// kernel leaves it and the relation's parameters as they are.
  std::optional<std::int64_t> relatedConstant(const VarDecl *Param,
                                              const BlockShape &Shape) const {
    const ArgumentRelation *R = Shape.relation(Param);
    if (!R || !R->holdsIn(Sym))
      return std::nullopt;
    return Shape.relatedValue(Param);
  }
  static std::string boundArguments(const BlockShape &Shape) {
    std::string Text;
    for (const auto &[Param, Value] : Shape.Arguments)
      Text += "," + Param->getNameAsString() + "=" + std::to_string(Value);
    // Relations name their parameters, which are this kernel's: the key
    // names the kernel too, so that no other kernel shares the answer.
    for (const ArgumentRelation &R : Shape.Relations) {
      char Address[32];
      std::snprintf(Address, sizeof(Address), "%p",
                    static_cast<const void *>(R.Param));
      Text += "," + R.str() + "@" + Address;
    }
    return Text;
  }
  bool isInside(const Stmt *S, const Stmt *Outer) const {
    for (const Stmt *Cur = S; Cur; Cur = Parents.getParent(Cur))
      if (Cur == Outer)
        return true;
    return false;
  }
  /// Whether every way round \p Loop from \p From to \p To (two statements
  /// of its body, From in one iteration and To in the next) passes a block
  /// barrier that is a statement of the body itself: one after From's
  /// statement or before To's.
  bool roundPassesBarrier(const Stmt *Loop, const Stmt *From,
                          const Stmt *To) const {
    const Stmt *Body = nullptr;
    if (const auto *For = dyn_cast<ForStmt>(Loop))
      Body = For->getBody();
    else if (const auto *While = dyn_cast<WhileStmt>(Loop))
      Body = While->getBody();
    else if (const auto *Do = dyn_cast<DoStmt>(Loop))
      Body = Do->getBody();
    const auto *Compound = dyn_cast_or_null<CompoundStmt>(Body);
    if (!Compound)
      return false;
    auto Position = [&](const Stmt *S) -> int {
      for (const Stmt *Cur = S; Cur; Cur = Parents.getParent(Cur))
        if (Parents.getParent(Cur) == Compound) {
          int I = 0;
          for (const Stmt *Child : Compound->body()) {
            if (Child == Cur)
              return I;
            ++I;
          }
        }
      return -1;
    };
    int FromAt = Position(From), ToAt = Position(To);
    if (FromAt < 0 || ToAt < 0)
      return false;
    for (const SyncPoint &Sync : Col.syncPoints()) {
      if (!Sync.Block)
        continue;
      int At = Position(Sync.Call);
      const Stmt *Statement = At < 0 ? nullptr : Compound->body_begin()[At];
      // Only a barrier that is the whole statement runs on every round.
      const auto *Call = Statement ? dyn_cast<Expr>(Statement) : nullptr;
      if (!Call || Call->IgnoreImplicit() != Sync.Call)
        continue;
      if (At > FromAt || At < ToAt)
        return true;
    }
    return false;
  }
  bool loopHasBarrier(const Stmt *Loop) {
    auto [It, Inserted] = LoopBarriers.try_emplace(Loop, false);
    if (Inserted)
      for (const SyncPoint &Sync : Col.syncPoints())
        if (Sync.Block && isInside(Sync.Call, Loop)) {
          It->second = true;
          break;
        }
    return It->second;
  }

  SharedAccessCollector &Col;
  ASTContext &Context;
  const FunctionDependence &Deps;
  SharedRaceHandler &Handler;
  const RaceOptions &Options;
  const FunctionDecl *Kernel;
  SharedMemoryRaceAnalysis::AnswerCache &Shared;
  SymbolicTranslator &Sym;
  std::vector<SharedAccess> &Accesses;
  const ParentMap &Parents;
  /// Branches that repeat their loop's condition (branchesImpliedByLoops).
  llvm::SmallPtrSet<const IfStmt *, 4> ImpliedBranches;
  /// The tests of the `for` and `while` loops whose first test always
  /// passes (loopRunsAtLeastOnce), each with the one block that enters it
  /// from outside the loop: from there the path runs the body.
  llvm::DenseMap<const CFGBlock *, const CFGBlock *> FirstTestEntries;
  /// For each access, the accesses reached from it without a block barrier
  /// (bit 1: in the same pass of the enclosing loops; bit 2: after going
  /// round a loop), and the same without any warp-level sync either.
  std::vector<ReachSet> Reach, WarpReach;
  llvm::DenseMap<const Stmt *, bool> LoopBarriers;
  llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 1>> AccessesAt;
  /// Thread-dependent branches, and for each side the accesses reached from
  /// it without a block barrier (and without a warp sync), as in Reach.
  struct Divergence {
    const CFGBlock *Branch = nullptr;
    std::vector<ReachSet> Sides, WarpSides;
  };
  std::vector<Divergence> Divergences;
  std::vector<BarrierBranch> BarrierBranches;
  /// barrierSkip()'s walks depend on where they start and on the branch,
  /// not on the access they are asked about: kept per (start block, start
  /// index, branch, closed successor or none, stop at warp syncs), so a
  /// kernel with many pairs to one access walks each once.
  mutable std::map<std::tuple<unsigned, unsigned, unsigned, int, bool>,
                   ReachSet>
      SkipWalks;
  const ReachSet &skipWalk(const CFGBlock *From, unsigned FromIndex,
                           unsigned Branch, int ClosedSucc,
                           bool StopAtWarpSync) const;
  /// For each access, the divergences on some side of which it lies.
  std::vector<llvm::SmallVector<unsigned, 2>> DivergencesOf;
  llvm::SmallPtrSet<const Expr *, 16> Reported;
  std::uint64_t Budget = 40'000'000; // Evaluations per kernel.
  /// Work done on this kernel, in RaceOptions::WorkBudget's units: counted,
  /// not timed, so that what is analysed is the same on any machine.
  std::uint64_t Work = 0;
  bool OutOfBudget = false;
  /// For the pair being decided, when both store values with a symbolic
  /// form: those values, which a witness must show different.
  std::optional<std::pair<SymId, SymId>> StoredValues;
  bool CompareValues = false;
};

} // namespace

/// Answers per pair of index shapes (ExactQuery::portableKey) and scenario,
/// shared by the kernels of a translation unit: template and macro
/// instances of one kernel (GROMACS's 23 foreign-lambda kernels, ggml's
/// per-type kernels) ask the same questions. The witnesses name atoms by
/// their position in the key, not by the asking kernel's atom ids.
struct SharedMemoryRaceAnalysis::AnswerCache {
  std::map<std::string,
           std::pair<KernelRaceFinder::Verdict, KernelRaceFinder::Witness>>
      Entries;
};

SharedMemoryRaceAnalysis::SharedMemoryRaceAnalysis(
    ThreadDependenceAnalysis &Dependence, SharedRaceHandler &Handler,
    RaceOptions Options)
    : Dependence(Dependence), Handler(Handler), Options(Options),
      Answers(std::make_unique<AnswerCache>()) {}

SharedMemoryRaceAnalysis::~SharedMemoryRaceAnalysis() = default;

namespace {

/// Whether a call of \p FD does nothing but compute its result from its
/// arguments and from memory read through them: it stores only to its own
/// locals (a constructor also to the object it builds), calls only such
/// functions, side-effect-free builtins and the cached loads (`__ldg`), and
/// reads no variable but its own, its parameters and constants (not
/// `threadIdx`, not a global), with no inline assembly, atomics, barriers,
/// warp operations or volatile accesses. Two calls with equal arguments then
/// return equal values while the memory they read holds still (`load128(p)`
/// = `Packed128{*reinterpret_cast<const int4 *>(p)}`, llm.c).
bool isPureFunction(const FunctionDecl *FD, ASTContext &Ctx,
                    llvm::DenseMap<const FunctionDecl *, bool> &Known,
                    unsigned Depth = 0) {
  if (!FD || Depth > 4)
    return false;
  const FunctionDecl *Definition = nullptr;
  if (FD->isTrivial() && isa<CXXMethodDecl>(FD) &&
      !cast<CXXMethodDecl>(FD)->isCopyAssignmentOperator() &&
      !cast<CXXMethodDecl>(FD)->isMoveAssignmentOperator())
    return true; // A trivial constructor or destructor.
  if (!FD->hasBody(Definition) || !Definition)
    return false;
  auto [It, Inserted] = Known.try_emplace(Definition, false);
  if (!Inserted)
    return It->second; // Known, or in progress (recursion): false.
  const auto *Method = dyn_cast<CXXMethodDecl>(Definition);
  if (Method && Method->isVirtual())
    return false;
  bool Builds = isa<CXXConstructorDecl>(Definition);

  // Whether \p E names storage of this call alone: a local, an element or
  // member of one, or (in a constructor) of the object built.
  std::function<bool(const Expr *)> Own = [&](const Expr *E) -> bool {
    E = E->IgnoreParenImpCasts();
    if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && VD->hasLocalStorage() &&
             !VD->getType()->isReferenceType() &&
             !VD->getType()->isPointerType() &&
             VD->getDeclContext() == Definition;
    }
    if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return Builds && isa<CXXThisExpr>(ME->getBase()->IgnoreParenImpCasts());
      return Own(ME->getBase());
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay = dyn_cast<ImplicitCastExpr>(ASE->getBase());
      return Decay && Decay->getCastKind() == CK_ArrayToPointerDecay &&
             Own(Decay->getSubExpr());
    }
    return false;
  };
  auto OwnPointer = [&](const Expr *E) {
    E = E->IgnoreParenImpCasts();
    if (const auto *UO = dyn_cast<UnaryOperator>(E))
      return UO->getOpcode() == UO_AddrOf && Own(UO->getSubExpr());
    return false;
  };

  auto IsMemcpy = [](const FunctionDecl *Callee) {
    unsigned ID = Callee->getBuiltinID();
    return ID == Builtin::BImemcpy || ID == Builtin::BI__builtin_memcpy ||
           (Callee->getIdentifier() && Callee->getName() == "memcpy" &&
            Callee->getDeclContext()->getRedeclContext()->isTranslationUnit());
  };
  std::function<bool(const Stmt *)> Pure = [&](const Stmt *S) -> bool {
    if (!S)
      return true;
    if (isa<AsmStmt, CXXThrowExpr, CXXNewExpr, CXXDeleteExpr, LambdaExpr,
            BlockExpr, AtomicExpr, CXXTryStmt>(S))
      return false;
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      for (const Decl *D : DS->decls())
        if (const auto *VD = dyn_cast<VarDecl>(D);
            VD && (!VD->hasLocalStorage() ||
                   VD->getType().isVolatileQualified()))
          return false;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(S)) {
      if (const auto *VD = dyn_cast<VarDecl>(DRE->getDecl()))
        if (!(VD->hasLocalStorage() &&
              VD->getDeclContext() == Definition) &&
            !VD->isConstexpr() && !VD->isUsableInConstantExpressions(Ctx))
          return false;
    }
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S))
      if (Cast->getCastKind() == CK_LValueToRValue &&
          Cast->getSubExpr()->getType().isVolatileQualified())
        return false;
    if (const auto *BO = dyn_cast<BinaryOperator>(S))
      if (BO->isAssignmentOp() && !Own(BO->getLHS()))
        return false;
    if (const auto *UO = dyn_cast<UnaryOperator>(S))
      if (UO->isIncrementDecrementOp() && !Own(UO->getSubExpr()))
        return false;
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(S)) {
      const CXXConstructorDecl *Ctor = Construct->getConstructor();
      if (!Ctor->isTrivial()) {
        if (!isPureFunction(Ctor, Ctx, Known, Depth + 1))
          return false;
        for (const CXXCtorInitializer *Init : Ctor->inits())
          if (!Pure(Init->getInit()))
            return false;
      }
    }
    if (const auto *Call = dyn_cast<CallExpr>(S)) {
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!Callee)
        return false;
      const auto *OCE = dyn_cast<CXXOperatorCallExpr>(Call);
      const auto *CalleeMethod = dyn_cast<CXXMethodDecl>(Callee);
      if (OCE && OCE->isAssignmentOp()) {
        // Assignment to a local struct: trivial, or a pure operator
        // (which may only write through `this` when it builds, so not).
        if (!CalleeMethod || !CalleeMethod->isTrivial() ||
            !Own(OCE->getArg(0)))
          return false;
      } else if (unsigned ID = Callee->getBuiltinID();
                 ID || IsMemcpy(Callee)) {
        // memcpy into storage of the call's own is a store to it (clang's
        // CUDA headers define a device memcpy over __builtin_memcpy).
        bool Copy = IsMemcpy(Callee);
        // A target's builtins read the thread's registers (`__nvvm_read_
        // ptx_sreg_tid_x`, behind threadIdx.x), shuffle or vote: none is a
        // function of its arguments alone.
        if (Ctx.BuiltinInfo.isTSBuiltin(ID) ||
            (Copy ? !(Call->getNumArgs() == 3 && OwnPointer(Call->getArg(0)))
                  : !Ctx.BuiltinInfo.isConst(ID)))
          return false;
      } else {
        StringRef Name =
            Callee->getIdentifier() ? Callee->getName() : StringRef();
        // The cached global loads: a read, written in assembly.
        bool CachedLoad = Name == "__ldg" || Name == "__ldca" ||
                          Name == "__ldcg" || Name == "__ldcs";
        if (!CachedLoad && !isPureFunction(Callee, Ctx, Known, Depth + 1))
          return false;
        if (CachedLoad)
          return llvm::all_of(Call->arguments(),
                              [&](const Expr *Arg) { return Pure(Arg); });
      }
    }
    for (const Stmt *Child : S->children())
      if (!Pure(Child))
        return false;
    return true;
  };
  bool Result = Pure(Definition->getBody());
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Result = Result && Pure(Init->getInit());
  Known[Definition] = Result;
  return Result;
}

/// \p E without the temporaries and implicit conversions around a value.
const Expr *skipTemporaries(const Expr *E) {
  while (true) {
    const Expr *Next = E->IgnoreImplicit()->IgnoreParens();
    if (Next == E)
      return E;
    E = Next;
  }
}

bool KernelRaceFinder::isSameArrayInEveryThread(const VarDecl *VD) const {
  // Not a thread's own array, nor a pointer that may differ between
  // threads: `v[0]` then names a different element in each thread.
  return VD && !VD->hasAttr<CUDASharedAttr>() &&
         (!VD->hasLocalStorage() ||
          (VD->getType()->isPointerType() &&
           !(Deps.getVariableDeps(VD) & dep::Thread)));
}

bool KernelRaceFinder::leavesUnsynced(unsigned I) {
  auto [It, Inserted] = LeavesUnsynced.try_emplace(I, false);
  if (!Inserted)
    return It->second;
  const SharedAccess &X = Accesses[I];
  const CFGBlock *Exit = &Deps.getCFG().getExit();
  llvm::SmallPtrSet<const CFGBlock *, 16> Seen;
  llvm::SmallVector<std::pair<const CFGBlock *, unsigned>, 8> Work{
      {X.Block, X.Index}};
  while (!Work.empty()) {
    auto [Block, From] = Work.pop_back_val();
    if (Block == Exit)
      return It->second = true;
    bool Stopped = false;
    unsigned Index = 0;
    for (const CFGElement &Element : *Block) {
      if (++Index <= From)
        continue;
      if (auto CS = Element.getAs<CFGStmt>(); CS && Col.syncAt(CS->getStmt())) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    for (const CFGBlock *Succ : Block->succs())
      if (Succ && Seen.insert(Succ).second)
        Work.push_back({Succ, 0});
  }
  return false;
}

KernelRaceFinder::StoredValue
KernelRaceFinder::argumentValue(const Expr *E) const {
  E = skipTemporaries(E);
  StoredValue V;
  if (E->getType()->isIntegralOrEnumerationType() ||
      E->getType()->isBooleanType()) {
    V.Value = Sym.translate(E);
    if (Sym.isUnknown(V.Value))
      V.Value = -1;
    return V;
  }
  if (!E->getType()->isPointerType())
    return V;
  // `p`, `p + i`, `i + p`, `&p[i]` on a pointer or array the threads
  // share.
  const Expr *Base = E, *Index = nullptr;
  if (const auto *BO = dyn_cast<BinaryOperator>(E);
      BO && BO->getOpcode() == BO_Add) {
    bool LeftIsPointer = BO->getLHS()->getType()->isPointerType();
    Base = LeftIsPointer ? BO->getLHS() : BO->getRHS();
    Index = LeftIsPointer ? BO->getRHS() : BO->getLHS();
  } else if (const auto *UO = dyn_cast<UnaryOperator>(E);
             UO && UO->getOpcode() == UO_AddrOf) {
    const auto *ASE =
        dyn_cast<ArraySubscriptExpr>(UO->getSubExpr()->IgnoreParens());
    if (!ASE)
      return V;
    Base = ASE->getBase();
    Index = ASE->getIdx();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Base->IgnoreParenImpCasts());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!isSameArrayInEveryThread(VD))
    return V;
  SymId At = Index ? Sym.translate(Index) : Sym.constant(0);
  if (Sym.isUnknown(At))
    return V;
  V.Array = VD;
  V.Value = At;
  return V;
}

KernelRaceFinder::StoredValue
KernelRaceFinder::storedValue(const Expr *Stored) {
  const Expr *E = skipTemporaries(Stored);
  if (E->getType()->isIntegralOrEnumerationType() ||
      E->getType()->isBooleanType())
    return argumentValue(E);
  StoredValue V;
  // A floating-point constant, however it is spelled (`-INFINITY` is
  // `-__builtin_inff()`, `0.5f * 2`): its bits are the value.
  if (E->getType()->isRealFloatingType() && !E->isValueDependent() &&
      !E->HasSideEffects(Context)) {
    Expr::EvalResult Result;
    if (E->EvaluateAsRValue(Result, Context) && Result.Val.isFloat() &&
        !Result.HasSideEffects) {
      llvm::APInt Bits = Result.Val.getFloat().bitcastToAPInt();
      if (Bits.getBitWidth() <= 64) {
        V.Value = Sym.constant(std::int64_t(Bits.getZExtValue()));
        V.FloatBits = true;
        return V;
      }
    }
  }
  // A load from an array that is not shared memory: the same element holds
  // the same value for every thread that reads it in this interval.
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Base =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (isSameArrayInEveryThread(VD)) {
      SymId Index = Sym.translate(ASE->getIdx());
      if (!Sym.isUnknown(Index)) {
        V.Array = VD;
        V.Value = Index;
      }
    }
    return V;
  }
  // A pure helper of one argument (isPureFunction), given one integer or
  // one pointer into such an array: equal arguments, equal results
  // (`s_weight[i] = load128(weight + c)`).
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || Call->getNumArgs() != 1 || isa<CXXMemberCallExpr>(Call) ||
        isa<CXXOperatorCallExpr>(Call) ||
        !isPureFunction(Callee, Context, PureFunctions))
      return V;
    V = argumentValue(Call->getArg(0));
    V.Helper = Callee->getCanonicalDecl();
    return V;
  }
  return V;
}

bool KernelRaceFinder::overBudget() {
  if (Options.WorkBudget && Work > Options.WorkBudget)
    OutOfBudget = true;
  return OutOfBudget;
}

void KernelRaceFinder::charge(const ExactQuery &Q) {
  Work += QueryWork + Q.resourcesUsed();
}

IterationRelation relationFor(int Relation) {
  switch (Relation) {
  case 0:
    return IterationRelation::Same;
  case 1:
    return IterationRelation::Next;
  case -1:
    return IterationRelation::Previous;
  case 3:
    return IterationRelation::BothFirst;
  case 6:
    return IterationRelation::FirstLast;
  case 7:
    return IterationRelation::FirstFirst;
  case 8:
    return IterationRelation::SecondLast;
  case 9:
    return IterationRelation::SecondFirst;
  default:
    return IterationRelation::Any;
  }
}

void KernelRaceFinder::requireGuards(ExactQuery &Q, const SharedAccess &X,
                                     unsigned Thread) {
  for (const auto &[Guard, Polarity] : X.Guards) {
    llvm::SMTExprRef Holds = Q.holds(Guard, Thread);
    Q.require(Polarity ? Holds : Q.solver().mkNot(Holds));
  }
}

void KernelRaceFinder::requireScenario(ExactQuery &Q, const Scenario &S,
                                       llvm::ArrayRef<unsigned> Atoms,
                                       unsigned TA, unsigned TB) {
  for (unsigned I = 0; I < Atoms.size(); ++I)
    if (Sym.atoms()[Atoms[I]].isLoopCounter())
      Q.relate(Atoms[I], TA, TB, relationFor(S.Relation[I]));
  if (S.Skip) {
    llvm::SMTExprRef Holds = Q.holds(S.Skip->Condition, S.Skip->OnB ? TB : TA);
    Q.require(S.Skip->Polarity ? Holds : Q.solver().mkNot(Holds));
  }
}

void KernelRaceFinder::requireDistinct(ExactQuery &Q, const Scenario &S,
                                       const llvm::SMTExprRef &LinearA,
                                       const llvm::SMTExprRef &LinearB) {
  llvm::SMTSolver &Z = Q.solver();
  Q.require(Z.mkNot(Z.mkEqual(LinearA, LinearB)));
  if (S.DifferentWarpsOnly)
    Q.require(Z.mkNot(Z.mkEqual(Z.mkBVLshr(LinearA, Q.constant(5)),
                                Z.mkBVLshr(LinearB, Q.constant(5)))));
}

KernelRaceFinder::Verdict
KernelRaceFinder::cachedDecide(const SharedAccess &A, const SharedAccess &B,
                               const BlockShape &Shape, const Scenario &S,
                               llvm::ArrayRef<unsigned> Atoms, Witness &W) {
  // Everything the answer depends on, in canonical text: two pairs of
  // accesses with equal keys get the same answer and witness.
  std::string Key =
      Shape.str() + (Shape.Assumed ? "a" : "") + boundArguments(Shape) +
      std::to_string(Col.sizeOf(A.Var)) + "|" + std::to_string(S.Order) +
      std::to_string(S.LaterIteration) + std::to_string(S.DifferentWarpsOnly);
  for (int Relation : S.Relation)
    Key += "," + std::to_string(Relation);
  llvm::SmallVector<unsigned, 8> KeyAtoms;
  for (unsigned Atom : Atoms)
    Key += ";" + ExactQuery::portableAtomKey(Sym, Atom, KeyAtoms);
  if (S.Skip)
    Key += std::string(S.Skip->OnB ? "|b" : "|a") +
           (S.Skip->Polarity ? "+" : "-") +
           ExactQuery::portableAtomKey(Sym, S.Skip->Counter, KeyAtoms) + " " +
           ExactQuery::portableKey(Sym, S.Skip->Condition, KeyAtoms);
  for (const SharedAccess *X : {&A, &B}) {
    Key += "|" + std::to_string(X->Width) + " " +
           ExactQuery::portableKey(Sym, X->Offset, KeyAtoms);
    if (X->Align > 1)
      Key += " /" + std::to_string(X->Align) + " " +
             ExactQuery::portableKey(Sym, X->AlignedOffset, KeyAtoms);
    for (const auto &[Guard, Polarity] : X->Guards)
      Key += (Polarity ? " +" : " -") +
             ExactQuery::portableKey(Sym, Guard, KeyAtoms);
  }
  if (StoredValues)
    Key += "|=" + ExactQuery::portableKey(Sym, StoredValues->first, KeyAtoms) +
           " " + ExactQuery::portableKey(Sym, StoredValues->second, KeyAtoms);
  // The witness's atoms, between this kernel's ids and positions in the key.
  auto Translate = [](Witness &X, llvm::function_ref<unsigned(unsigned)> Map) {
    for (auto &Entry : X.Related)
      Entry.first = Map(Entry.first);
    for (auto *Values : {&X.LoopA, &X.LoopB, &X.Uniform})
      for (auto &Entry : *Values)
        Entry.first = Map(Entry.first);
  };
  auto It = Shared.Entries.find(Key);
  if (It != Shared.Entries.end()) {
    W = It->second.second;
    Translate(W, [&](unsigned Position) { return KeyAtoms[Position]; });
    return It->second.first;
  }
  Verdict V = decide(A, B, Shape, S, Atoms, W);
  // Only a collision is worth asking again with the stored values apart:
  // most pairs never collide, and the enumeration says so fastest.
  if (StoredValues && (V == Verdict::Definite || V == Verdict::Possible)) {
    CompareValues = true;
    V = decideExactly(A, B, Shape, S, Atoms, W);
    CompareValues = false;
  }
  // Every atom of a witness is one the key describes; should one not be,
  // the answer is not shared.
  bool Portable = true;
  Witness Stored = W;
  Translate(Stored, [&](unsigned Atom) {
    const auto *Found = llvm::find(KeyAtoms, Atom);
    Portable &= Found != KeyAtoms.end();
    return unsigned(Found - KeyAtoms.begin());
  });
  if (Portable)
    Shared.Entries[Key] = {V, Stored};
  return V;
}

/// Whether \p X, run by some thread of the block with the witness's unknown
/// values, touches bytes outside its variable: under an assumed shape that
/// says the shape is not the one the kernel is written for.
bool KernelRaceFinder::leavesVariable(const SharedAccess &X,
                                      const BlockShape &Shape,
                                      const Witness &W, SolverPool &Solvers) {
  std::int64_t Size = Col.sizeOf(X.Var);
  ExactQuery Q(Sym, Options.QueryResourceLimit, &Solvers);
  Q.setShape(Shape);
  unsigned T = Q.addThread();
  requireGuards(Q, X, T);
  llvm::SMTExprRef Offset = Q.value(X.Offset, T);
  for (const auto &[Atom, Value] : W.Uniform)
    Q.require(Q.solver().mkEqual(Q.uniform(Atom), Q.constant(Value)));
  llvm::SMTExprRef Outside = Q.solver().mkBVSlt(Offset, Q.constant(0));
  if (Size >= 0)
    Outside = Q.solver().mkOr(
        Outside,
        Q.solver().mkBVSgt(Q.solver().mkBVAdd(Offset, Q.constant(X.Width)),
                           Q.constant(Size)));
  Q.require(Outside);
  bool MayLeave = Q.check() != false;
  charge(Q);
  return MayLeave;
}

bool KernelRaceFinder::rowsApart(const SharedAccess &A, const SharedAccess &B,
                                 const BlockShape &Shape, const Scenario &S,
                                 llvm::ArrayRef<unsigned> Atoms,
                                 SolverPool &Solvers) {
  // The full question of decideExactly is F = E /\ C, with E the threads,
  // guards, offsets and their bounds, alignment, loop relations and skip
  // condition, and C distinct threads (of two warps when asked),
  // overlapping offsets, the row lemma L and the stored values apart. This
  // pre-query asks P = the threads with their ranges, the guards, the loop
  // relations, the skip condition, distinct threads (two warps when asked)
  // and L' : L with each column X = Element - Y * W written as the sum of
  // Element's other summands (ExactQuery::rowLemma's FromRests), which is
  // the same 32-bit value in every assignment, since Element is that sum
  // plus Y * W term for term. Every constraint of P is then one of F (or
  // equivalent to one), and every side condition that encoding a term adds
  // (ranges of uniform atoms and launch relations, divisors, shift counts,
  // loop counters) comes from a subterm of F's terms, which F adds as
  // well. So every model of F is one of P: P unsatisfiable means F is, and
  // decideExactly would answer None. P has no offset and no product Y * W:
  // only the linear facts on rows and columns that decide a halo tile
  // (some 0.3 million resource units per question of postProcessGL's
  // cudaProcess against tens of thousands).
  // Nothing here relies on the lemma being true; that F may assume it is
  // rowLemma's argument.
  ExactQuery R(Sym, Options.QueryResourceLimit, &Solvers);
  llvm::scope_exit ChargeR([&] { charge(R); });
  R.setShape(Shape);
  unsigned TA = R.addThread(), TB = R.addThread();
  llvm::SMTExprRef Lemma =
      R.rowLemma(A.Offset, TA, A.Width, B.Offset, TB, B.Width,
                 /*FromRests=*/true);
  if (!Lemma)
    return false;
  requireGuards(R, A, TA);
  requireGuards(R, B, TB);
  requireScenario(R, S, Atoms, TA, TB);
  llvm::SMTExprRef LinearA = R.linearThread(TA), LinearB = R.linearThread(TB);
  requireDistinct(R, S, LinearA, LinearB);
  R.require(Lemma);
  return R.check() == false;
}

KernelRaceFinder::Verdict
KernelRaceFinder::decideExactly(const SharedAccess &A, const SharedAccess &B,
                                const BlockShape &Shape, const Scenario &S,
                                llvm::ArrayRef<unsigned> Atoms, Witness &W) {
  std::int64_t Size = Col.sizeOf(A.Var);
  struct Terms {
    unsigned TA = 0, TB = 0;
    llvm::SMTExprRef LinearA, LinearB, OffsetA, OffsetB;
    llvm::SMTExprRef RowLemma = nullptr;
  };
  // Both accesses run, in bounds, in two threads in the scenario's
  // iterations.
  auto Encode = [&](ExactQuery &Q) {
    llvm::SMTSolver &Z = Q.solver();
    Terms T;
    Q.setShape(Shape);
    T.TA = Q.addThread();
    T.TB = Q.addThread();
    T.LinearA = Q.observe(Q.linearThread(T.TA));
    T.LinearB = Q.observe(Q.linearThread(T.TB));
    requireGuards(Q, A, T.TA);
    requireGuards(Q, B, T.TB);
    T.OffsetA = Q.observe(Q.value(A.Offset, T.TA));
    T.OffsetB = Q.observe(Q.value(B.Offset, T.TB));
    // With a launch relation, a row width (`tilew` = blockDim.x + 2 * r)
    // makes the offsets non-linear in the unknowns; the row lemma says
    // what the solver could not afford to find (ExactQuery::rowLemma:
    // 14 million resource units against 0.3 million on postProcessGL's
    // halo corners). It holds of every execution, but only relations have
    // needed it so far: without one the queries stay as they were. Collide
    // requires it with the overlap it presumes.
    if (!Shape.Relations.empty())
      T.RowLemma = Q.rowLemma(A.Offset, T.TA, A.Width, B.Offset, T.TB, B.Width);
    for (auto [Offset, Width] :
         {std::pair(T.OffsetA, A.Width), std::pair(T.OffsetB, B.Width)}) {
      Q.require(Z.mkBVSge(Offset, Q.constant(0)));
      if (Size >= 0)
        Q.require(
            Z.mkBVSle(Z.mkBVAdd(Offset, Q.constant(Width)), Q.constant(Size)));
    }
    // A misaligned access through a reinterpreted pointer faults: no
    // execution goes on past it (SharedAccess::Align).
    for (auto [X, Thread] : {std::pair(&A, T.TA), std::pair(&B, T.TB)})
      if (X->Align > 1)
        Q.require(Z.mkEqual(Z.mkBVAnd(Q.value(X->AlignedOffset, Thread),
                                      Q.constant(X->Align - 1)),
                            Q.constant(0)));
    requireScenario(Q, S, Atoms, T.TA, T.TB);
    return T;
  };
  // Two different threads (of two warps when the scenario says so) on
  // overlapping bytes.
  auto Collide = [&](ExactQuery &Q, const Terms &T) {
    llvm::SMTSolver &Z = Q.solver();
    requireDistinct(Q, S, T.LinearA, T.LinearB);
    Q.require(Z.mkBVSlt(T.OffsetA, Z.mkBVAdd(T.OffsetB, Q.constant(B.Width))));
    Q.require(Z.mkBVSlt(T.OffsetB, Z.mkBVAdd(T.OffsetA, Q.constant(A.Width))));
    if (T.RowLemma)
      Q.require(T.RowLemma);
    if (StoredValues && CompareValues)
      Q.require(Z.mkNot(Z.mkEqual(Q.value(StoredValues->first, T.TA),
                                  Q.value(StoredValues->second, T.TB))));
  };

  // The solvers of this one decision (ExactQuery.h, SolverPool): its
  // questions reuse one Z3 context, and a context that served no other
  // decision makes the verdict and witness a function of the pair's own
  // questions, the same whatever the kernel or file asked before (a
  // pool per file, then per kernel, moved witnesses between the host and
  // device passes and flipped a verdict near the resource limit).
  SolverPool Solvers;
  // A pair the row lemma keeps apart needs no full question (rowsApart).
  // The lemma is part of the full question only with a launch relation.
  if (!Shape.Relations.empty() &&
      ExactQuery::hasRowLemma(Sym, A.Offset, A.Width, B.Offset, B.Width) &&
      rowsApart(A, B, Shape, S, Atoms, Solvers))
    return Verdict::None;

  // Q goes back to the pool as soon as its answer is read, so that the
  // questions after it (leavesVariable, the samples) reuse its context
  // instead of making new ones: a context costs as much as a few queries.
  std::optional<ExactQuery> Held;
  Held.emplace(Sym, Options.QueryResourceLimit, &Solvers);
  ExactQuery &Q = *Held;
  auto ReleaseQ = [&] {
    if (Held) {
      charge(*Held);
      Held.reset();
    }
  };
  llvm::scope_exit ChargeQ(ReleaseQ);
  Terms T = Encode(Q);
  Collide(Q, T);
  llvm::SmallVector<unsigned, 4> AtomsOfA, AtomsOfB;
  Sym.collectAtoms(A.Offset, AtomsOfA);
  Sym.collectAtoms(B.Offset, AtomsOfB);
  llvm::DenseMap<unsigned, llvm::SMTExprRef> CounterA, CounterB;
  // Parameters a launch relation gives in terms of the unknowns: their
  // values in the model are part of the witness.
  llvm::SmallVector<std::pair<unsigned, llvm::SMTExprRef>, 1> Related;
  for (unsigned Atom : Atoms) {
    const SymAtom &Info = Sym.atoms()[Atom];
    if (!Info.Var || Info.isLoopCounter() || !Shape.relation(Info.Var) ||
        boundValue(Atom, Shape))
      continue;
    llvm::SMTExprRef Term = Q.uniform(Atom);
    if (!llvm::is_contained(Q.genericUnknowns(), Atom))
      Related.push_back({Atom, Q.observe(Term)});
  }
  for (unsigned Atom : Atoms) {
    if (!Sym.atoms()[Atom].isLoopCounter())
      continue;
    if (llvm::is_contained(AtomsOfA, Atom))
      CounterA[Atom] = Q.observe(Q.counter(Atom, T.TA));
    if (llvm::is_contained(AtomsOfB, Atom))
      CounterB[Atom] = Q.observe(Q.counter(Atom, T.TB));
  }
  auto Answer = Q.decide([&] {
    W.ThreadA = Q.modelValue(T.LinearA);
    W.ThreadB = Q.modelValue(T.LinearB);
    W.Byte = std::max(Q.modelValue(T.OffsetA), Q.modelValue(T.OffsetB));
    W.LoopA.clear();
    W.LoopB.clear();
    W.Uniform.clear();
    for (unsigned Atom : Atoms) {
      if (CounterA.count(Atom))
        W.LoopA.push_back({Atom, Q.modelValue(CounterA[Atom])});
      if (CounterB.count(Atom))
        W.LoopB.push_back({Atom, Q.modelValue(CounterB[Atom])});
    }
    for (unsigned Atom : Q.genericUnknowns())
      W.Uniform.push_back({Atom, Q.modelValue(Q.uniform(Atom))});
    W.Related.clear();
    for (const auto &[Atom, Term] : Related)
      W.Related.push_back({Atom, Q.modelValue(Term)});
  });
  if (!Answer)
    return Verdict::Skip;
  if (!Answer->Found)
    return Verdict::None;
  llvm::SmallVector<unsigned, 4> Unknowns = Q.genericUnknowns();
  ReleaseQ(); // Q is not used past this point.
  if (Shape.Assumed &&
      (leavesVariable(A, Shape, W, Solvers) ||
       leavesVariable(B, Shape, W, Solvers)))
    return Verdict::Skip;
  if (!Answer->Certain)
    return Verdict::Possible;
  // Certain also means: at each representative value of the unknowns at
  // which both accesses run in bounds, they collide (a race only for n in
  // a window of the block's range is possible, not certain).
  if (Unknowns.empty())
    return Verdict::Definite;
  // One incremental solver for all samples, each in a scope of its own:
  // a fresh solver per question cost most of the time of kernels with many
  // such pairs (GROMACS's foreign-lambda kernels), for the same answers.
  ExactQuery P(Sym, Options.QueryResourceLimit, &Solvers);
  llvm::scope_exit ChargeP([&] { charge(P); });
  Terms PT = Encode(P);
  // Encoding a term can add range constraints, which must not go with a
  // popped scope: everything the scopes use is encoded first.
  for (unsigned Atom : Unknowns)
    P.uniform(Atom);
  if (StoredValues && CompareValues) {
    P.value(StoredValues->first, PT.TA);
    P.value(StoredValues->second, PT.TB);
  }
  for (std::int64_t Sample : UniformSamples) {
    if (Sample < 2)
      continue;
    P.push();
    for (unsigned Atom : Unknowns)
      P.require(P.solver().mkEqual(P.uniform(Atom), P.constant(Sample)));
    P.push();
    Collide(P, PT);
    std::optional<bool> Races = P.check();
    P.pop();
    if (Races == false) {
      std::optional<bool> BothRun = P.check();
      if (BothRun != false)
        return Verdict::Possible; // Both run, yet no collision.
    }
    P.pop();
    if (!Races)
      return Verdict::Possible;
  }
  return Verdict::Definite;
}

void KernelRaceFinder::walk(const CFGBlock *From, unsigned FromIndex,
                            bool StopAtWarpSync, ReachSet &Out,
                            ClosedEdge Closed) const {
  // Breadth-first over (block, went round a loop) from just after element
  // FromIndex of From, stopping at barriers.
  llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> Seen;
  struct Item {
    const CFGBlock *Block;
    unsigned Index;
    bool Crossed;
    bool FirstTest;
    bool Moved; // Closed.Loop's counters may have changed.
  };
  // FirstTest: the block is the test of a loop of FirstTestEntries, reached
  // from outside the loop (not by its back edge), so the exit edge is not
  // taken: the path runs the body and meets the barriers in it. A walk that
  // starts in such a test may be past its first pass and leaves both ways.
  std::deque<Item> Queue{{From, FromIndex, false, false, false}};
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
      const SyncPoint *Sync = Col.syncAt(CS->getStmt());
      bool Stops = Sync && (Sync->Block || StopAtWarpSync);
      // A call that holds a barrier: only the helper's accesses before its
      // first barrier are reached.
      auto At = AccessesAt.find(CS->getStmt());
      if (At != AccessesAt.end())
        for (unsigned I : At->second)
          if (!Stops || Accesses[I].Segment != CallSegment::AfterBarrier)
            Out[I] |= (Cur.Crossed ? 2 : 1) | (!Closed.Loop  ? 0
                                               : Cur.Moved   ? MovedBit
                                               : Cur.Crossed ? StayedBit
                                                             : 0);
      if (Stops) {
        Stopped = true;
        break;
      }
    }
    if (Stopped)
      continue;
    const Stmt *Round = Cur.Block->getLoopTarget();
    bool Crossed = Cur.Crossed || Round;
    bool Moved = Cur.Moved || (Round && (!Closed.Loop || Round == Closed.Loop ||
                                         !isInside(Round, Closed.Loop)));
    // The else edge of a branch that repeats its loop's condition is never
    // taken: it must not carry accesses past the barrier on the other edge.
    const auto *If = dyn_cast_or_null<IfStmt>(Cur.Block->getTerminatorStmt());
    bool OnlyThen = (If && ImpliedBranches.count(If)) || Cur.FirstTest;
    for (const CFGBlock *Succ : Cur.Block->succs()) {
      if (OnlyThen && Succ != *Cur.Block->succ_begin())
        break;
      if (!Succ ||
          (!Moved && Cur.Block == Closed.Branch && Succ == Closed.Succ))
        continue;
      bool FirstTest = FirstTestEntries.lookup(Succ) == Cur.Block;
      if (!Seen.insert({Succ, (Crossed ? 1u : 0u) | (FirstTest ? 2u : 0u) |
                                  (Moved ? 4u : 0u)})
               .second)
        continue;
      Queue.push_back({Succ, 0, Crossed, FirstTest, Moved});
    }
  }
}

const KernelRaceFinder::ReachSet &
KernelRaceFinder::skipWalk(const CFGBlock *From, unsigned FromIndex,
                           unsigned Branch, int ClosedSucc,
                           bool StopAtWarpSync) const {
  auto Key = std::make_tuple(From->getBlockID(), FromIndex, Branch, ClosedSucc,
                             StopAtWarpSync);
  auto It = SkipWalks.find(Key);
  if (It != SkipWalks.end())
    return It->second;
  const BarrierBranch &BB = BarrierBranches[Branch];
  ReachSet Out;
  if (ClosedSucc < 0)
    walk(From, FromIndex, StopAtWarpSync, Out, {nullptr, nullptr, BB.Innermost});
  else
    walk(From, FromIndex, StopAtWarpSync, Out,
         {BB.Branch, *(BB.Branch->succ_begin() + ClosedSucc), BB.Innermost});
  return SkipWalks.emplace(Key, std::move(Out)).first->second;
}

std::optional<KernelRaceFinder::SkipCut>
KernelRaceFinder::barrierSkip(const CFGBlock *From, unsigned FromIndex,
                              const Stmt *Anchor, unsigned To, bool OnB) const {
  // A cut: when, with one of a branch's edges closed, the walk no longer
  // reaches To after going round the branch's loop, every such way takes
  // that edge, in the anchor's iteration (no round of the loop yet).
  for (unsigned BI = 0; BI < BarrierBranches.size(); ++BI) {
    const BarrierBranch &BB = BarrierBranches[BI];
    const Stmt *Terminator = BB.Branch->getTerminatorStmt();
    if (!isInside(Anchor, BB.Innermost) || !isInside(Terminator, BB.Innermost))
      continue;
    const ReachSet &Open = skipWalk(From, FromIndex, BI, -1, false);
    if (!(bits(Open, To) & MovedBit))
      continue;
    bool Polarity = true; // The first successor is the true edge.
    int SuccIndex = 0;
    for (const CFGBlock *Succ : BB.Branch->succs()) {
      if (Succ &&
          !(bits(skipWalk(From, FromIndex, BI, SuccIndex, false), To) &
            MovedBit)) {
        SkipCut Cut;
        Cut.Skip = {BB.Condition, Polarity, BB.Counter, OnB};
        Cut.SameIterationToo = bits(Open, To) & StayedBit;
        Cut.WarpRound =
            bits(skipWalk(From, FromIndex, BI, -1, true), To) & MovedBit;
        return Cut;
      }
      Polarity = false;
      ++SuccIndex;
    }
  }
  return std::nullopt;
}

void KernelRaceFinder::computeConcurrency() {
  // A loop test has two predecessors, the block before the loop and the
  // one its back edge leaves from (marked with the loop as its target);
  // anything else (an increment that branches) is left alone.
  for (const CFGBlock *B : Deps.getCFG()) {
    const Stmt *Test = B->getTerminatorStmt();
    if (!isa_and_nonnull<ForStmt, WhileStmt>(Test) || B->pred_size() != 2)
      continue;
    const CFGBlock *First = *B->pred_begin(), *Second = *(B->pred_begin() + 1);
    if (First && First->getLoopTarget() == Test)
      std::swap(First, Second);
    if (First && Second && Second->getLoopTarget() == Test &&
        First->getLoopTarget() != Test && loopRunsAtLeastOnce(Test, Context))
      FirstTestEntries[B] = First;
  }
  for (unsigned I = 0; I < Accesses.size(); ++I)
    AccessesAt[Accesses[I].Anchor].push_back(I);
  Reach.assign(Accesses.size(), ReachSet());
  WarpReach = Reach;
  DivergencesOf.assign(Accesses.size(), {});
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    // What a helper does before its barrier reaches nothing past the call.
    if (Accesses[I].Segment == CallSegment::BeforeBarrier)
      continue;
    walk(Accesses[I].Block, Accesses[I].Index, false, Reach[I]);
    walk(Accesses[I].Block, Accesses[I].Index, true, WarpReach[I]);
  }
  for (const CFGBlock *B : Deps.getCFG()) {
    // An `if`, not a loop's condition: leaving a loop is not skipping a
    // barrier in the iteration.
    if (B->succ_size() != 2 || (Deps.getConditionDeps(B) & dep::Thread) ||
        !isa_and_nonnull<IfStmt>(B->getTerminatorStmt()))
      continue;
    bool GuardsBarrier = llvm::any_of(B->succs(), [&](const CFGBlock *Succ) {
      return Succ && llvm::any_of(*Succ, [&](const CFGElement &Element) {
               auto CS = Element.getAs<CFGStmt>();
               const SyncPoint *Sync = CS ? Col.syncAt(CS->getStmt()) : nullptr;
               return Sync && Sync->Block;
             });
    });
    if (!GuardsBarrier)
      continue;
    const auto *Condition = dyn_cast<Expr>(B->getTerminatorCondition());
    if (!Condition)
      continue;
    BarrierBranch BB;
    BB.Branch = B;
    BB.Condition = Sym.translate(Condition);
    if (Sym.isUnknown(BB.Condition) || Sym.usesThread(BB.Condition))
      continue;
    llvm::SmallVector<unsigned, 2> ConditionAtoms;
    Sym.collectAtoms(BB.Condition, ConditionAtoms);
    // Over unknown uniform values the branch may skip its barrier in every
    // iteration: only loop counters say in which it does.
    if (ConditionAtoms.empty() ||
        llvm::any_of(ConditionAtoms, [&](unsigned Atom) {
          const SymAtom &Info = Sym.atoms()[Atom];
          return !Info.isLoopCounter() || Info.IterationNumber;
        }))
      continue;
    for (unsigned Atom : ConditionAtoms) {
      const Stmt *Loop = Sym.atoms()[Atom].Loop;
      if (llvm::all_of(ConditionAtoms, [&](unsigned Other) {
            return isInside(Loop, Sym.atoms()[Other].Loop);
          })) {
        BB.Innermost = Loop;
        BB.Counter = Atom;
      }
    }
    if (!BB.Innermost)
      continue;
    BarrierBranches.push_back(BB);
  }
  for (const CFGBlock *B : Deps.getCFG()) {
    if (B->succ_size() < 2 || !(Deps.getConditionDeps(B) & dep::Thread))
      continue;
    Divergence D;
    D.Branch = B;
    for (const CFGBlock *Succ : B->succs()) {
      D.Sides.emplace_back();
      D.WarpSides.emplace_back();
      if (!Succ)
        continue;
      walk(Succ, 0, false, D.Sides.back());
      walk(Succ, 0, true, D.WarpSides.back());
    }
    for (const ReachSet &Side : D.Sides)
      for (const auto &Entry : Side)
        if (!llvm::is_contained(DivergencesOf[Entry.first], Divergences.size()))
          DivergencesOf[Entry.first].push_back(Divergences.size());
    Divergences.push_back(std::move(D));
  }
}

/// The local variable an lvalue names or is part of (`v`, `v[j]`, `v.x`,
/// `v[j].x`); null for anything else.
const VarDecl *localBase(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() == CK_LValueToRValue)
        return nullptr;
      E = Cast->getSubExpr();
    } else if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
    } else if (const auto *ME = dyn_cast<MemberExpr>(E)) {
      if (ME->isArrow())
        return nullptr;
      E = ME->getBase();
    } else if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
      const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
      return VD && VD->hasLocalStorage() ? VD : nullptr;
    } else {
      return nullptr;
    }
  }
  return nullptr;
}

/// Whether the CFG element \p S may change local \p VD: an assignment,
/// increment or address taken of it or of a part of it, or a call that gets
/// it (or a part) as an lvalue (`ggml_cuda_mad(acc[j], a, b)` takes a
/// reference).
bool mayChange(const Stmt *S, const VarDecl *VD) {
  if (const auto *BO = dyn_cast<BinaryOperator>(S))
    return BO->isAssignmentOp() && localBase(BO->getLHS()) == VD;
  if (const auto *UO = dyn_cast<UnaryOperator>(S))
    return (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf) &&
           localBase(UO->getSubExpr()) == VD;
  if (const auto *CE = dyn_cast<CallExpr>(S)) {
    if (const auto *Member = dyn_cast<CXXMemberCallExpr>(CE))
      if (localBase(Member->getImplicitObjectArgument()) == VD)
        return true;
    for (const Expr *Arg : CE->arguments())
      if (Arg->isGLValue() || isa<ImplicitCastExpr>(Arg->IgnoreParens()))
        if (localBase(Arg) == VD)
          return true;
  }
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *Ref = dyn_cast<VarDecl>(D))
        if (Ref->getType()->isReferenceType() && Ref->getInit() &&
            localBase(Ref->getInit()) == VD)
          return true;
  return false;
}

/// Whether \p E evaluates to \p Value in this instantiation.
bool evaluatesTo(const Expr *E, std::uint64_t Value, const ASTContext &Ctx) {
  Expr::EvalResult Result;
  return E && !E->isValueDependent() && E->EvaluateAsInt(Result, Ctx) &&
         Result.Val.getInt().getZExtValue() == Value;
}

/// Whether \p A and \p B name the same lvalue (`v`, `v.x`).
bool sameLValue(const Expr *A, const Expr *B, const ASTContext &Ctx) {
  llvm::FoldingSetNodeID IdA, IdB;
  A->IgnoreParenImpCasts()->Profile(IdA, Ctx, /*Canonical=*/true);
  B->IgnoreParenImpCasts()->Profile(IdB, Ctx, /*Canonical=*/true);
  return IdA == IdB;
}

/// Whether \p E is `__shfl_xor_sync(0xffffffff, Value, Offset[, 32])`.
bool isFullXorShuffle(const Expr *E, const Expr *Value, const VarDecl *Offset,
                      const ASTContext &Ctx) {
  const auto *CE = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
  if (!Callee || !Callee->getIdentifier() ||
      Callee->getName() != "__shfl_xor_sync" || CE->getNumArgs() < 3)
    return false;
  const auto *Lane =
      dyn_cast<DeclRefExpr>(CE->getArg(2)->IgnoreParenImpCasts());
  return evaluatesTo(CE->getArg(0), 0xffffffff, Ctx) &&
         sameLValue(CE->getArg(1), Value, Ctx) && Lane &&
         Lane->getDecl() == Offset &&
         (CE->getNumArgs() < 4 || evaluatesTo(CE->getArg(3), 32, Ctx));
}

/// The lvalue one step of a butterfly reduction combines with its partner
/// lane's copy through an operation whose result does not depend on the
/// order of its operands (`v += shfl(v)`, `v = shfl(v) && v`,
/// `v.x = __hadd2(v.x, shfl(v.x))`); null when \p S is not such a step.
/// Minimum and maximum are left out: on signed zeros the answer may depend
/// on the order, so lanes could keep different bytes.
const Expr *butterflyStep(const Stmt *S, const VarDecl *Offset,
                          const ASTContext &Ctx) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E)
    return nullptr;
  E = E->IgnoreImplicit();
  const auto *BO = dyn_cast<BinaryOperator>(E);
  if (!BO)
    return nullptr;
  const Expr *Target = BO->getLHS()->IgnoreParens();
  if (const auto *Compound = dyn_cast<CompoundAssignOperator>(BO)) {
    switch (Compound->getOpcode()) {
    case BO_AddAssign:
    case BO_MulAssign:
    case BO_AndAssign:
    case BO_OrAssign:
    case BO_XorAssign:
      return isFullXorShuffle(BO->getRHS(), Target, Offset, Ctx) ? Target
                                                                 : nullptr;
    default:
      return nullptr;
    }
  }
  if (BO->getOpcode() != BO_Assign)
    return nullptr;
  const Expr *RHS = BO->getRHS()->IgnoreParenImpCasts();
  const Expr *First = nullptr, *Second = nullptr;
  if (const auto *Op = dyn_cast<BinaryOperator>(RHS)) {
    switch (Op->getOpcode()) {
    case BO_Add:
    case BO_Mul:
    case BO_And:
    case BO_Or:
    case BO_Xor:
    case BO_LAnd:
    case BO_LOr:
      First = Op->getLHS();
      Second = Op->getRHS();
      break;
    default:
      return nullptr;
    }
  } else if (const auto *Call = dyn_cast<CallExpr>(RHS)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !Callee->getIdentifier() || Call->getNumArgs() != 2 ||
        !llvm::is_contained({"__hadd", "__hadd2", "__hmul", "__hmul2"},
                            Callee->getName()))
      return nullptr;
    First = Call->getArg(0);
    Second = Call->getArg(1);
  } else {
    return nullptr;
  }
  if (isFullXorShuffle(Second, Target, Offset, Ctx) &&
      sameLValue(First, Target, Ctx))
    return Target;
  if (isFullXorShuffle(First, Target, Offset, Ctx) &&
      sameLValue(Second, Target, Ctx))
    return Target;
  return nullptr;
}

} // namespace

/// The variable a butterfly reduction over the whole warp leaves the same
/// in every lane: `for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(
/// 0xffffffff, v, o);`, the offsets 16, 8, 4, 2, 1 and width 32, each step
/// combining the lane's value with its partner's in either order (lane i
/// and lane i ^ o compute the same thing, so after the step with offset o
/// groups of 2o lanes agree). For an aggregate every member must be
/// reduced. Null when \p Loop is not one.
const VarDecl *butterflyReduction(const Stmt *Loop, const ASTContext &Ctx) {
  if (const auto *Attributed = dyn_cast<AttributedStmt>(Loop))
    Loop = Attributed->getSubStmt();
  const auto *For = dyn_cast<ForStmt>(Loop);
  if (!For)
    return nullptr;
  const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
  const auto *Offset = Init && Init->isSingleDecl()
                           ? dyn_cast<VarDecl>(Init->getSingleDecl())
                           : nullptr;
  if (!Offset || !evaluatesTo(Offset->getInit(), 16, Ctx))
    return nullptr;
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(For->getCond());
  const auto *CondVar =
      Cond ? dyn_cast<DeclRefExpr>(Cond->getLHS()->IgnoreParenImpCasts())
           : nullptr;
  if (!CondVar || CondVar->getDecl() != Offset ||
      !((Cond->getOpcode() == BO_GT && evaluatesTo(Cond->getRHS(), 0, Ctx)) ||
        (Cond->getOpcode() == BO_GE && evaluatesTo(Cond->getRHS(), 1, Ctx))))
    return nullptr;
  const auto *Inc = dyn_cast_or_null<CompoundAssignOperator>(For->getInc());
  const auto *IncVar =
      Inc ? dyn_cast<DeclRefExpr>(Inc->getLHS()->IgnoreParenImpCasts())
          : nullptr;
  if (!IncVar || IncVar->getDecl() != Offset ||
      !((Inc->getOpcode() == BO_ShrAssign &&
         evaluatesTo(Inc->getRHS(), 1, Ctx)) ||
        (Inc->getOpcode() == BO_DivAssign &&
         evaluatesTo(Inc->getRHS(), 2, Ctx))))
    return nullptr;
  llvm::SmallVector<const Stmt *, 2> Steps;
  if (const auto *Body = dyn_cast<CompoundStmt>(For->getBody()))
    Steps.append(Body->body_begin(), Body->body_end());
  else
    Steps.push_back(For->getBody());
  const VarDecl *Reduced = nullptr;
  llvm::SmallPtrSet<const FieldDecl *, 4> Members;
  bool Whole = false;
  for (const Stmt *S : Steps) {
    const Expr *Target = butterflyStep(S, Offset, Ctx);
    if (!Target)
      return nullptr;
    const VarDecl *VD = localBase(Target);
    if (!VD || (Reduced && VD != Reduced))
      return nullptr;
    Reduced = VD;
    if (const auto *DRE = dyn_cast<DeclRefExpr>(Target->IgnoreParens());
        DRE && DRE->getDecl() == VD)
      Whole = true;
    else if (const auto *ME = dyn_cast<MemberExpr>(Target->IgnoreParens());
             ME && localBase(ME->getBase()) == VD &&
             isa<DeclRefExpr>(ME->getBase()->IgnoreParens()))
      if (const auto *Field = dyn_cast<FieldDecl>(ME->getMemberDecl()))
        Members.insert(Field);
  }
  if (!Reduced || Reduced->getType()->isReferenceType())
    return nullptr;
  if (Whole && Members.empty())
    return Reduced;
  const RecordDecl *Record = Reduced->getType()->getAsRecordDecl();
  if (Whole || !Record)
    return nullptr;
  for (const FieldDecl *Field : Record->fields())
    if (!Members.count(Field))
      return nullptr;
  return Reduced;
}

namespace {

/// Whether \p S, the rest of a function body from here, returns a value
/// every lane of the warp agrees on: a warp reduction's result (`return
/// __reduce_add_sync(0xffffffff, v)`, or a butterfly loop then `return v`),
/// through branches whose condition is a constant of the instantiation
/// (`if (width == 32) return __all_sync(...); else { ... }`).
bool returnsWarpUniform(llvm::ArrayRef<const Stmt *> Body,
                        const ASTContext &Ctx, unsigned Depth) {
  if (Depth > 4)
    return false;
  llvm::SmallPtrSet<const VarDecl *, 2> Reduced;
  for (const Stmt *S : Body) {
    if (const auto *Compound = dyn_cast<CompoundStmt>(S))
      return returnsWarpUniform(
          llvm::ArrayRef(Compound->body_begin(), Compound->body_end()), Ctx,
          Depth + 1);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      bool Taken = false;
      if (If->getInit() || If->getConditionVariable() ||
          If->getCond()->isValueDependent() ||
          !If->getCond()->EvaluateAsBooleanCondition(Taken, Ctx))
        return false;
      const Stmt *Chosen = Taken ? If->getThen() : If->getElse();
      // A branch that falls through would need the statements after it.
      return Chosen && returnsWarpUniform({Chosen}, Ctx, Depth + 1);
    }
    if (const auto *Return = dyn_cast<ReturnStmt>(S)) {
      const Expr *Value = Return->getRetValue();
      if (!Value)
        return false;
      Value = Value->IgnoreParenImpCasts();
      if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value);
          Construct && Construct->getNumArgs() == 1)
        Value = Construct->getArg(0)->IgnoreParenImpCasts();
      if (const auto *DRE = dyn_cast<DeclRefExpr>(Value))
        return Reduced.count(dyn_cast<VarDecl>(DRE->getDecl()));
      const auto *CE = dyn_cast<CallExpr>(Value);
      const FunctionDecl *Callee = CE ? CE->getDirectCallee() : nullptr;
      if (!Callee || !Callee->getIdentifier())
        return false;
      StringRef Name = Callee->getName();
      return (Name.starts_with("__reduce_") && Name.ends_with("_sync")) ||
             Name == "__all_sync" || Name == "__any_sync" ||
             Name == "__ballot_sync";
    }
    if (const VarDecl *VD = butterflyReduction(S, Ctx)) {
      Reduced.insert(VD);
      continue;
    }
    return false;
  }
  return false;
}

bool KernelRaceFinder::isBlockUniformIndex(const Expr *E) const {
  E = E->IgnoreParenImpCasts();
  Expr::EvalResult Constant;
  if (!E->isValueDependent() && E->EvaluateAsInt(Constant, Context))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    return VD && VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
           !(Deps.getVariableDeps(VD) & dep::Thread);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() && isBlockUniformIndex(BO->getLHS()) &&
           isBlockUniformIndex(BO->getRHS());
  if (const auto *UO = dyn_cast<UnaryOperator>(E))
    return !UO->isIncrementDecrementOp() && UO->getOpcode() != UO_Deref &&
           UO->getOpcode() != UO_AddrOf &&
           isBlockUniformIndex(UO->getSubExpr());
  return false;
}

bool KernelRaceFinder::lastValueIsWarpUniform(
    const Expr *Target, const CFGBlock *Block, unsigned Index, unsigned Depth,
    llvm::SmallPtrSetImpl<const CFGBlock *> &Path, unsigned &Steps) const {
  if (++Steps > 64)
    return false;
  const VarDecl *VD = localBase(Target);
  // The variables of the element's index: a change to one of them moves
  // the element.
  llvm::SmallVector<const VarDecl *, 2> IndexVars;
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(Target)) {
    llvm::SmallVector<const Stmt *, 4> Work{ASE->getIdx()};
    while (!Work.empty()) {
      const Stmt *S = Work.pop_back_val();
      if (const auto *DRE = dyn_cast_or_null<DeclRefExpr>(S))
        if (const auto *Var = dyn_cast<VarDecl>(DRE->getDecl()))
          IndexVars.push_back(Var);
      if (S)
        Work.append(S->child_begin(), S->child_end());
    }
  }
  for (unsigned I = Index - 1; I >= 1; --I) {
    auto CS = (*Block)[I - 1].getAs<CFGStmt>();
    if (!CS)
      continue;
    const Stmt *S = CS->getStmt();
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      if (DS->isSingleDecl() && DS->getSingleDecl() == VD)
        return isa<DeclRefExpr>(Target) && VD->getInit() &&
               isWarpUniform(VD->getInit(), Block, I, Depth + 1);
    if (const auto *BO = dyn_cast<BinaryOperator>(S);
        BO && BO->getOpcode() == BO_Assign &&
        sameLValue(BO->getLHS(), Target, Context))
      return isWarpUniform(BO->getRHS(), Block, I, Depth + 1);
    if (mayChange(S, VD) || llvm::any_of(IndexVars, [&](const VarDecl *Var) {
          return mayChange(S, Var);
        }))
      return false;
  }
  // At the entry nothing assigned the value.
  if (Block == &Deps.getCFG().getEntry() || !Path.insert(Block).second)
    return false; // Round a loop: the value from the last iteration.
  // A block no path reaches (the discarded side of an `if constexpr`) has
  // no predecessor left and adds nothing.
  bool Uniform = true;
  for (const CFGBlock::AdjacentBlock &Pred : Block->preds())
    if (const CFGBlock *P = Pred.getReachableBlock();
        P &&
        !lastValueIsWarpUniform(Target, P, P->size() + 1, Depth, Path, Steps)) {
      Uniform = false;
      break;
    }
  Path.erase(Block);
  return Uniform;
}

/// Whether every lane of a warp computes the same value for \p E: results of
/// warp reductions, votes and broadcasts, of helpers that return one
/// (returnsWarpUniform), and what is computed from them and from constants,
/// followed through local variables and elements of local arrays at an
/// index the lanes agree on (`acc[j] = warpSum(acc[j]); s[w] = acc[j];`).
bool KernelRaceFinder::isWarpUniform(const Expr *E, const CFGBlock *Block,
                                     unsigned Index, unsigned Depth) const {
  if (!E || Depth > 8)
    return false;
  E = E->IgnoreParenImpCasts();
  if (isa<IntegerLiteral, FloatingLiteral, CXXBoolLiteralExpr>(E))
    return true;
  if (const auto *DRE = dyn_cast<DeclRefExpr>(E)) {
    const auto *VD = dyn_cast<VarDecl>(DRE->getDecl());
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        VD->getType()->isReferenceType())
      return false;
    llvm::SmallPtrSet<const CFGBlock *, 8> Path;
    unsigned Steps = 0;
    return lastValueIsWarpUniform(E, Block, Index, Depth, Path, Steps);
  }
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
    const auto *Base =
        dyn_cast<DeclRefExpr>(ASE->getBase()->IgnoreParenImpCasts());
    const auto *VD = Base ? dyn_cast<VarDecl>(Base->getDecl()) : nullptr;
    if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) ||
        !VD->getType()->isConstantArrayType() ||
        !isBlockUniformIndex(ASE->getIdx()))
      return false;
    llvm::SmallPtrSet<const CFGBlock *, 8> Path;
    unsigned Steps = 0;
    return lastValueIsWarpUniform(E, Block, Index, Depth, Path, Steps);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E))
    return !BO->isAssignmentOp() &&
           isWarpUniform(BO->getLHS(), Block, Index, Depth + 1) &&
           isWarpUniform(BO->getRHS(), Block, Index, Depth + 1);
  if (const auto *CE = dyn_cast<CallExpr>(E)) {
    const FunctionDecl *Callee = CE->getDirectCallee();
    if (!Callee || !Callee->getIdentifier())
      return false;
    StringRef Name = Callee->getName();
    if (isInCooperativeGroups(Callee))
      return Name == "reduce";
    if (Name.starts_with("__reduce_") || Name == "__ballot_sync" ||
        Name == "__all_sync" || Name == "__any_sync")
      return true;
    const FunctionDecl *Definition = nullptr;
    if (!Callee->hasBody(Definition) || !Definition)
      return false;
    const auto *Body = dyn_cast<CompoundStmt>(Definition->getBody());
    return Body && returnsWarpUniform(
                       llvm::ArrayRef(Body->body_begin(), Body->body_end()),
                       Context, 0);
  }
  return false;
}

bool KernelRaceFinder::isBefore(const SharedAccess &A,
                                const SharedAccess &B) const {
  return Context.getSourceManager().isBeforeInTranslationUnit(
      A.E->getBeginLoc(), B.E->getBeginLoc());
}

/// Thread-and-iteration points above which a concrete question goes to the
/// solver rather than being enumerated.
constexpr double EnumerationLimit = 1 << 18;

SharedRace KernelRaceFinder::raceBetween(const SharedAccess &First,
                                         const SharedAccess &Second, Verdict V,
                                         const BlockShape &Shape) const {
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
  Race.Shape = Shape;
  return Race;
}

KernelRaceFinder::Verdict
KernelRaceFinder::decide(const SharedAccess &A, const SharedAccess &B,
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
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Bound;
  for (unsigned I = 0; I < Atoms.size(); ++I) {
    if (std::optional<std::int64_t> Value = boundValue(Atoms[I], Shape)) {
      Bound.push_back({Atoms[I], *Value});
      continue;
    }
    std::vector<std::int64_t> Values = AllAtoms[Atoms[I]].isLoopCounter()
                                           ? Sym.loopValues(Atoms[I], DimsOnly)
                                           : std::vector<std::int64_t>();
    if (!Values.empty())
      Loops.push_back({Atoms[I], std::move(Values), S.Relation[I]});
    else
      Sampled.push_back(Atoms[I]);
  }
  // Exact enumeration is the fast path for concrete questions of modest
  // size; everything else goes to the solver.
  double Points = double(Shape.threads());
  for (const Axis &Ax : Loops)
    Points *= Ax.Relation == 2 ? double(Ax.Values.size()) * Ax.Values.size()
                               : double(Ax.Values.size());
  if (!Sampled.empty() || Points > EnumerationLimit) {
    llvm::SmallVector<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>, 2>
        Listed;
    for (const Axis &Ax : Loops)
      Listed.push_back({Ax.Atom, Ax.Values});
    if (offsetsApart(A, B, Shape, S, Bound, Listed))
      return Verdict::None;
    return decideExactly(A, B, Shape, S, Atoms, W);
  }
  const unsigned SampleCombos = sampleCombinations(Sampled.size());

  std::vector<std::int64_t> AtomsA(AllAtoms.size(), 0),
      AtomsB(AllAtoms.size(), 0);
  for (const auto &[Atom, Value] : Bound)
    AtomsA[Atom] = AtomsB[Atom] = Value;
  const std::int64_t Threads = Shape.threads();
  unsigned Raced = 0;

  // Which threads touch which byte, for access A.
  ByteTouchers Touch(S.DifferentWarpsOnly);

  auto Executes = [&](const SharedAccess &X,
                      const SymEnv &Env) -> std::optional<bool> {
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
    return SharedAccessCollector::envFor(T, Shape, Atoms.data());
  };
  std::int64_t Size = Col.sizeOf(A.Var);

  for (unsigned Combo = 0; Combo < SampleCombos; ++Combo) {
    assignSamples(Combo, Sampled, AtomsA);
    assignSamples(Combo, Sampled, AtomsB);
    // Loop combinations.
    std::vector<std::pair<unsigned, unsigned>> Picks; // Value index for A, B.
    std::function<bool(unsigned)> Loop = [&](unsigned L) -> bool {
      if (L == Loops.size()) {
        // Iterations in which the way between the accesses passes a
        // barrier are no witness (a condition that cannot be evaluated
        // rules nothing out).
        if (S.Skip) {
          auto V = Sym.evaluate(S.Skip->Condition,
                                EnvFor(0, S.Skip->OnB ? AtomsB : AtomsA));
          if (V && (*V != 0) != S.Skip->Polarity)
            return false;
        }
        // Evaluate.
        if (Budget < std::uint64_t(2 * Threads))
          return false;
        Budget -= 2 * Threads;
        Work += 2 * Threads;
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
          // Misaligned, the access faults and the kernel stops: these
          // values are no execution of a valid program.
          if (A.Align > 1) {
            auto Cast = Sym.evaluate(A.AlignedOffset, Env);
            if (!Cast || *Cast % A.Align != 0)
              return false;
          }
          if (*Addr < 0 || (Size >= 0 && *Addr + A.Width > Size)) {
            if (Shape.Assumed)
              return false;
            continue;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + A.Width; ++Byte)
            Touch.add(Byte, T);
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
          // Misaligned, the access faults and the kernel stops: these
          // values are no execution of a valid program.
          if (B.Align > 1) {
            auto Cast = Sym.evaluate(B.AlignedOffset, Env);
            if (!Cast || *Cast % B.Align != 0)
              return false;
          }
          if (*Addr < 0 || (Size >= 0 && *Addr + B.Width > Size)) {
            if (Shape.Assumed)
              return false;
            continue;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + B.Width; ++Byte) {
            std::int64_t Other = Touch.other(Byte, T);
            if (Other < 0)
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

bool KernelRaceFinder::offsetsApart(
    const SharedAccess &A, const SharedAccess &B, const BlockShape &Shape,
    const Scenario &S, llvm::ArrayRef<std::pair<unsigned, std::int64_t>> Bound,
    llvm::ArrayRef<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>> Listed) {
  // decideExactly asks for a model of F: two distinct threads (of two warps
  // when asked) in the block, each access's guards, in-bounds offsets,
  // alignment, the loop relations and skip condition, and overlapping
  // bytes. Drop everything but the threads, their distinctness and the
  // overlap, and let every listed loop counter take any of its values in
  // each access independently: every model of F is a point of this
  // relaxation. The relaxation is enumerated, thread by thread, with
  // evaluate32, which gives a value only where no subterm leaves 32 bits;
  // there ExactQuery's 32-bit terms have the same values (its operators are
  // signed like evaluate's, a listed counter is a table of the same
  // values, a bound parameter the same constant), so a model of F would
  // show up here as two threads on a common byte. None found: F has no
  // model, and decideExactly would answer None after one to three solver
  // questions and a Z3 context (some 30 ms: cuda-samples' bitonic merge
  // guards `s_key[threadIdx.x]` and `s_key[255 - threadIdx.x]` by
  // `threadIdx.x < lenSrcA` and `< lenSrcB`, unknowns to the enumeration,
  // but 128 threads never meet on one element whatever the guards say).
  // Any subterm without a 32-bit value, or an atom that is neither bound
  // nor listed, leaves the question to the solver.
  struct Side {
    const SharedAccess *X;
    llvm::SmallVector<std::pair<unsigned, llvm::ArrayRef<std::int64_t>>, 2>
        Axes;
    double Evaluations; // Threads times combinations of listed values.
  };
  const std::int64_t Threads = Shape.threads();
  auto Prepare = [&](const SharedAccess &X, Side &Out) {
    Out.X = &X;
    Out.Evaluations = double(Threads);
    llvm::SmallVector<unsigned, 4> Used;
    Sym.collectAtoms(X.Offset, Used);
    for (unsigned Atom : Used) {
      if (llvm::any_of(Bound, [&](const auto &B) { return B.first == Atom; }))
        continue;
      const auto *It = llvm::find_if(
          Listed, [&](const auto &L) { return L.first == Atom; });
      if (It == Listed.end())
        return false;
      Out.Axes.push_back(*It);
      Out.Evaluations *= double(It->second.size());
    }
    // Every byte visited counts against the enumeration limit.
    return Out.Evaluations * double(std::max<std::int64_t>(X.Width, 1)) <=
           EnumerationLimit;
  };
  Side SideA, SideB;
  if (Sym.isUnknown(A.Offset) || Sym.isUnknown(B.Offset) ||
      !Prepare(A, SideA) || !Prepare(B, SideB))
    return false;
  // One unit per thread evaluated, as decide's enumeration counts.
  std::uint64_t Cost = std::uint64_t(SideA.Evaluations + SideB.Evaluations);
  if (Budget < Cost)
    return false;
  Budget -= Cost;
  Work += Cost;

  std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
  for (const auto &[Atom, Value] : Bound)
    Values[Atom] = Value;
  // Calls Visit(thread, offset) for every thread and every combination of
  // the side's listed values; false when an offset has no 32-bit value or
  // Visit says stop.
  auto ForEach = [&](const Side &Side,
                     llvm::function_ref<bool(std::int64_t, std::int64_t)>
                         Visit) {
    llvm::SmallVector<unsigned, 2> Pick(Side.Axes.size(), 0);
    while (true) {
      for (unsigned I = 0; I < Side.Axes.size(); ++I)
        Values[Side.Axes[I].first] = Side.Axes[I].second[Pick[I]];
      for (std::int64_t T = 0; T < Threads; ++T) {
        std::optional<std::int64_t> Offset = Sym.evaluate32(
            Side.X->Offset,
            SharedAccessCollector::envFor(T, Shape, Values.data()));
        if (!Offset || !Visit(T, *Offset))
          return false;
      }
      unsigned I = 0;
      while (I < Pick.size() && ++Pick[I] == Side.Axes[I].second.size())
        Pick[I++] = 0;
      if (I == Pick.size())
        return true;
    }
  };
  ByteTouchers Touch(S.DifferentWarpsOnly);
  if (!ForEach(SideA, [&](std::int64_t T, std::int64_t Offset) {
        for (std::int64_t Byte = Offset; Byte < Offset + A.Width; ++Byte)
          Touch.add(Byte, T);
        return true;
      }))
    return false;
  return ForEach(SideB, [&](std::int64_t T, std::int64_t Offset) {
    for (std::int64_t Byte = Offset; Byte < Offset + B.Width; ++Byte)
      if (Touch.other(Byte, T) >= 0)
        return false; // They may meet: a question for the solver.
    return true;
  });
}

const Stmt *KernelRaceFinder::certainBarrierPlace(const SharedAccess &First,
                                                  const SharedAccess &Second) {
  // Both accesses must sit in statements that are siblings in one compound
  // statement, the first before the second, under no thread-dependent
  // condition, outside macros: then `__syncthreads();` right before the
  // second statement is where it belongs.
  auto StatementOf =
      [&](const Stmt *S) -> std::pair<const Stmt *, const CompoundStmt *> {
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

std::optional<KernelRaceFinder::DataIndex>
KernelRaceFinder::dataIndex(const SharedAccess &Atomic) const {
  // `&V[E % M]` or `&V[E & (M - 1)]` on a one-dimensional shared array V,
  // with E unsigned for `%`: whatever E holds, the index is in [0, M).
  const auto *AddrOf = dyn_cast<UnaryOperator>(Atomic.E->IgnoreParenImpCasts());
  if (!AddrOf || AddrOf->getOpcode() != UO_AddrOf)
    return std::nullopt;
  const auto *Subscript =
      dyn_cast<ArraySubscriptExpr>(AddrOf->getSubExpr()->IgnoreParens());
  const auto *Array =
      Atomic.Var ? Context.getAsConstantArrayType(Atomic.Var->getType())
                 : nullptr;
  if (!Subscript || !Array || Array->getElementType()->isArrayType())
    return std::nullopt;
  const auto *Base =
      dyn_cast<DeclRefExpr>(Subscript->getBase()->IgnoreParenImpCasts());
  if (!Base || Base->getDecl() != Atomic.Var)
    return std::nullopt;
  const auto *Reduce =
      dyn_cast<BinaryOperator>(Subscript->getIdx()->IgnoreParenImpCasts());
  Expr::EvalResult Modulus;
  if (!Reduce || Reduce->getRHS()->isValueDependent() ||
      !Reduce->getRHS()->EvaluateAsInt(Modulus, Context))
    return std::nullopt;
  std::int64_t M = Modulus.Val.getInt().getExtValue();
  std::int64_t Values = 0;
  if (Reduce->getOpcode() == BO_Rem && M > 0 &&
      Reduce->getType()->isUnsignedIntegerType())
    Values = M;
  else if (Reduce->getOpcode() == BO_And && M >= 0 && ((M + 1) & M) == 0)
    Values = M + 1;
  std::int64_t Length = Array->getSize().getSExtValue();
  // Data that could leave the array is a bounds question first.
  if (Values <= 0 || Values > Length || Values > 4096)
    return std::nullopt;
  DataIndex Index;
  Index.Index = Reduce;
  Index.Values = Values;
  Index.ElementBytes =
      Context.getTypeSizeInChars(Array->getElementType()).getQuantity();
  return Index;
}

KernelRaceFinder::Verdict KernelRaceFinder::decideDataIndexed(
    const SharedAccess &Plain, const SharedAccess &Atomic,
    const DataIndex &Index, const BlockShape &Shape, bool DifferentWarpsOnly,
    DataWitness &W) {
  // Enumerated, not asked of the solver: "some thread's atomic collides
  // with another thread's access whatever the data" is a for-all over the
  // data between two exists (the thread, the other thread), which the
  // quantifier-free core does not state. The block is concrete; unknown
  // uniform values take the representative samples (>= 2) together, as in
  // the third condition of "certain" (ExactQuery.h); blockIdx is block 0.
  SymEnv DimsOnly;
  for (unsigned D = 0; D < 3; ++D)
    DimsOnly.Dim[D] = Shape.Dim[D];
  std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
  // Loop counters take every value: with no barrier in their loop, any
  // iteration of one thread meets any iteration of another, so the two
  // accesses' loops are enumerated apart.
  constexpr std::int64_t MaxIterations = 64;
  using LoopValues =
      std::vector<std::pair<unsigned, std::vector<std::int64_t>>>;
  llvm::SmallVector<unsigned, 2> Uniform;
  auto Gather = [&](const SharedAccess &X, bool WithOffset, LoopValues &Loops,
                    std::uint64_t &Combinations) {
    llvm::SmallVector<unsigned, 4> Atoms;
    if (WithOffset)
      Sym.collectAtoms(X.Offset, Atoms);
    for (const auto &Guard : X.Guards)
      Sym.collectAtoms(Guard.first, Atoms);
    Combinations = 1;
    for (unsigned Atom : Atoms) {
      const SymAtom &Info = Sym.atoms()[Atom];
      if (Info.isBlockIndex())
        continue; // Block 0: some block runs the code.
      if (std::optional<std::int64_t> Value = boundValue(Atom, Shape)) {
        Values[Atom] = *Value;
        continue;
      }
      if (!Info.isLoopCounter()) {
        if (!llvm::is_contained(Uniform, Atom))
          Uniform.push_back(Atom);
        continue;
      }
      if (loopHasBarrier(Info.Loop))
        return false;
      std::vector<std::int64_t> Values;
      if (Info.IterationNumber)
        for (std::int64_t K = 0; K < MaxIterations; ++K)
          Values.push_back(K);
      else
        Values = Sym.loopValues(Atom, DimsOnly);
      if (Values.empty())
        return false;
      Combinations *= Values.size();
      Loops.push_back({Atom, std::move(Values)});
    }
    return true;
  };
  LoopValues PlainLoops, AtomicLoops;
  std::uint64_t PlainCombinations = 1, AtomicCombinations = 1;
  if (!Gather(Plain, true, PlainLoops, PlainCombinations) ||
      !Gather(Atomic, false, AtomicLoops, AtomicCombinations))
    return Verdict::Skip;
  const std::int64_t Threads = Shape.threads();
  if ((PlainCombinations + AtomicCombinations) * Threads > (1u << 20) ||
      Threads * Index.Values > (1u << 20))
    return Verdict::Skip;
  std::int64_t Size = Col.sizeOf(Plain.Var);
  llvm::SmallVector<std::int64_t, 4> Samples;
  if (Uniform.empty())
    Samples.push_back(0);
  else
    for (std::int64_t Sample : UniformSamples)
      if (Sample >= 2)
        Samples.push_back(Sample);

  unsigned Relevant = 0, Certain = 0;
  bool Collides = false;
  for (unsigned Atom = 0; Atom < Sym.atoms().size(); ++Atom)
    if (std::optional<std::int64_t> Value = boundValue(Atom, Shape))
      Values[Atom] = *Value;
  for (std::int64_t Sample : Samples) {
    for (unsigned Atom : Uniform)
      Values[Atom] = Sample;
    // Up to two threads (of two warps when that is required) per byte the
    // plain access touches, and the threads that run the atomic.
    ByteTouchers Touch(DifferentWarpsOnly);
    llvm::BitVector Runs(Threads);
    bool Undecided = false, LeavesVariable = false;
    auto Executes = [&](const SharedAccess &X, const SymEnv &Env) {
      for (const auto &[Guard, Polarity] : X.Guards) {
        std::optional<std::int64_t> V = Sym.evaluate(Guard, Env);
        if (!V) {
          Undecided = true;
          return false;
        }
        if ((*V != 0) != Polarity)
          return false;
      }
      return true;
    };
    // Runs \p Visit for every thread at every combination of \p Loops.
    auto ForEachPoint =
        [&](const LoopValues &Loops, std::uint64_t Combinations,
            llvm::function_ref<void(std::int64_t, const SymEnv &)> Visit) {
          for (std::uint64_t Combo = 0; Combo < Combinations && !Undecided;
               ++Combo) {
            std::uint64_t Rest = Combo;
            for (const auto &[Atom, List] : Loops) {
              Values[Atom] = List[Rest % List.size()];
              Rest /= List.size();
            }
            for (std::int64_t T = 0; T < Threads && !Undecided; ++T)
              Visit(T, SharedAccessCollector::envFor(T, Shape, Values.data()));
          }
        };
    ForEachPoint(AtomicLoops, AtomicCombinations,
                 [&](std::int64_t T, const SymEnv &Env) {
                   if (!Runs[T] && Executes(Atomic, Env))
                     Runs.set(T);
                 });
    ForEachPoint(
        PlainLoops, PlainCombinations, [&](std::int64_t T, const SymEnv &Env) {
          if (!Executes(Plain, Env))
            return;
          std::optional<std::int64_t> Addr = Sym.evaluate(Plain.Offset, Env);
          if (!Addr) {
            Undecided = true;
            return;
          }
          if (*Addr < 0 || (Size >= 0 && *Addr + Plain.Width > Size)) {
            LeavesVariable = true;
            return;
          }
          for (std::int64_t Byte = *Addr; Byte < *Addr + Plain.Width; ++Byte)
            Touch.add(Byte, T);
        });
    // Under an assumed shape, an access that leaves its variable says the
    // shape is not the one the kernel is written for.
    if (LeavesVariable && Shape.Assumed)
      return Verdict::Skip;
    if (Undecided)
      return Verdict::Skip;
    if (Runs.none() || Touch.empty())
      continue; // Not both run at this sample.
    ++Relevant;
    // Another thread than B touching element V, if any.
    auto OtherToucher = [&](std::int64_t B,
                            std::int64_t V) -> std::optional<std::int64_t> {
      for (std::int64_t Byte = V * Index.ElementBytes;
           Byte < V * Index.ElementBytes + Atomic.Width; ++Byte)
        if (std::int64_t Other = Touch.other(Byte, B); Other >= 0)
          return Other;
      return std::nullopt;
    };
    // The witness: the first collision found, replaced by the first thread
    // whose atomic collides whatever the data.
    auto Record = [&](std::int64_t B, std::int64_t V, std::int64_t Other) {
      W.Writer = Other;
      W.Atomic = B;
      W.Element = V;
      W.Uniform.clear();
      for (unsigned Atom : Uniform)
        W.Uniform.push_back({Atom, Sample});
    };
    bool CertainHere = false;
    for (std::int64_t B = 0; B < Threads && !CertainHere; ++B) {
      if (!Runs[B])
        continue;
      bool Everywhere = true;
      std::optional<std::pair<std::int64_t, std::int64_t>> FirstHit;
      for (std::int64_t V = 0; V < Index.Values; ++V) {
        std::optional<std::int64_t> Other = OtherToucher(B, V);
        if (!Other)
          Everywhere = false;
        else if (!FirstHit)
          FirstHit = {V, *Other};
      }
      if (!FirstHit)
        continue;
      CertainHere = Everywhere;
      if (!Collides || (CertainHere && Certain == 0))
        Record(B, FirstHit->first, FirstHit->second);
      Collides = true;
    }
    Certain += CertainHere;
  }
  if (!Collides)
    return Verdict::None;
  return Certain == Relevant ? Verdict::Definite : Verdict::Possible;
}

bool KernelRaceFinder::checkDataIndexedPair(unsigned IA, unsigned IB,
                                            const BlockShape &Shape) {
  const SharedAccess &A = Accesses[IA], &B = Accesses[IB];
  bool AtomicIsA = A.Kind == AccessKind::Atomic && Sym.isUnknown(A.Offset);
  const SharedAccess &Atomic = AtomicIsA ? A : B;
  const SharedAccess &Plain = AtomicIsA ? B : A;
  if (Atomic.Kind != AccessKind::Atomic || Plain.Kind == AccessKind::Atomic ||
      !Sym.isUnknown(Atomic.Offset) || Sym.isUnknown(Plain.Offset) ||
      Atomic.UnknownGuard || Plain.UnknownGuard)
    return false;
  std::optional<DataIndex> Index = dataIndex(Atomic);
  if (!Index)
    return false;
  // In flight together: one reached from the other with no block barrier,
  // or the two sides of a divergence; with only warp syncs between, only
  // threads of two warps.
  bool Concurrent = false, WarpConcurrent = false;
  for (auto [From, To] : {std::pair(IA, IB), std::pair(IB, IA)}) {
    Concurrent |= bits(Reach[From], To) != 0;
    WarpConcurrent |= bits(WarpReach[From], To) != 0;
  }
  for (unsigned DI : DivergencesOf[IA]) {
    if (!llvm::is_contained(DivergencesOf[IB], DI))
      continue;
    const Divergence &D = Divergences[DI];
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = 0; SB < D.Sides.size(); ++SB)
        if (SA != SB && bits(D.Sides[SA], IA) && bits(D.Sides[SB], IB)) {
          Concurrent = true;
          WarpConcurrent |=
              bits(D.WarpSides[SA], IA) && bits(D.WarpSides[SB], IB);
        }
  }
  if (!Concurrent || IA == IB)
    return true;
  DataWitness W;
  Verdict V =
      decideDataIndexed(Plain, Atomic, *Index, Shape, !WarpConcurrent, W);
  if (V == Verdict::None || V == Verdict::Skip ||
      (V == Verdict::Possible && !Options.ReportPossibleRaces))
    return true;

  bool PlainFirst = isBefore(Plain, Atomic);
  const SharedAccess &First = PlainFirst ? Plain : Atomic;
  const SharedAccess &Second = PlainFirst ? Atomic : Plain;
  SharedRace Race = raceBetween(First, Second, V, Shape);
  Race.Variable = Plain.Var; // The array the element is described in.
  std::string Element =
      "'" + Col.describeElement(Plain.Var, W.Element * Index->ElementBytes) +
      "'";
  std::string Spelling =
      Lexer::getSourceText(
          CharSourceRange::getTokenRange(Index->Index->getSourceRange()),
          Context.getSourceManager(), Context.getLangOpts())
          .str();
  std::string AtomicThread =
      SharedAccessCollector::describeThread(W.Atomic, Shape);
  Race.Witness =
      "thread " + SharedAccessCollector::describeThread(W.Writer, Shape) +
      (Plain.writes() ? " writes " : " reads ") + Element + " and thread " +
      AtomicThread + "'s atomic hits it for data with '" + Spelling +
      "' == " + std::to_string(W.Element);
  if (V == Verdict::Definite)
    Race.Witness += "; another thread touches every element '" + Spelling +
                    "' can select, so the race happens whatever the data";
  for (const auto &[Atom, Value] : W.Uniform)
    Race.Witness += (&Atom == &W.Uniform.front().first ? ", when '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
  if (WarpConcurrent && V == Verdict::Definite)
    Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
  Reported.insert(Second.E);
  Handler.handleRace(Race);
  return true;
}

void KernelRaceFinder::checkPair(unsigned IA, unsigned IB,
                                 const BlockShape &Shape) {
  const SharedAccess &A = Accesses[IA], &B = Accesses[IB];
  if (A.Object != B.Object || (!A.writes() && !B.writes()))
    return;
  if (A.Kind == AccessKind::Atomic && B.Kind == AccessKind::Atomic)
    return;
  if (Reported.count(B.E) || Reported.count(A.E))
    return;
  if (checkDataIndexedPair(IA, IB, Shape))
    return;
  if (Sym.isUnknown(A.Offset) || Sym.isUnknown(B.Offset))
    return;
  if (A.UnknownGuard || B.UnknownGuard)
    return;
  // Lanes of one warp storing a value the warp agrees on (the result of a
  // warp reduction) leave the same bytes whatever their order: only threads
  // of different warps can race then (`s[warp] = warpSum;` with no lane
  // guard).
  bool SameValueInWarp = IA == IB && A.Kind == AccessKind::Write && A.Stored &&
                         isWarpUniform(A.Stored, A.Block, A.Index);
  // Every thread storing a by-value kernel parameter, or a member of one,
  // that the kernel never changes stores one value (`s[0] =
  // params.lambda;`, GROMACS's nbfe_foreign kernel), whatever its type.
  if (IA == IB && A.Kind == AccessKind::Write && A.Stored &&
      isUnchangedParameter(A.Stored))
    return;
  // Two writes of the same value to the same bytes leave them as either
  // would alone: no defect (GPUVerify's benign race). The values are
  // compared symbolically, as expressions over the thread, uniform values
  // and, for a load (`bias[c] = bnBias[base + c]`), the same array: the
  // solver then asks for colliding threads whose values differ.
  StoredValues.reset();
  if (A.Kind == AccessKind::Write && B.Kind == AccessKind::Write && A.Stored &&
      B.Stored && A.Width == B.Width) {
    StoredValue StoredA = storedValue(A.Stored);
    StoredValue StoredB = storedValue(B.Stored);
    SymId ValueA = StoredA.Value, ValueB = StoredB.Value;
    if (ValueA >= 0 && ValueB >= 0 && StoredA.sameKey(StoredB)) {
      auto Uniform = [&](SymId Value) {
        llvm::SmallVector<unsigned, 2> Atoms;
        Sym.collectAtoms(Value, Atoms);
        return !Sym.usesThread(Value) &&
               llvm::none_of(Atoms, [&](unsigned Atom) {
                 return Sym.atoms()[Atom].isLoopCounter();
               });
      };
      SymEnv NoThread;
      auto ConstA = Sym.evaluate(ValueA, NoThread);
      auto ConstB = Sym.evaluate(ValueB, NoThread);
      if (IA == IB ? Uniform(ValueA) : (ConstA && ConstB && *ConstA == *ConstB))
        return;
      StoredValues = {ValueA, ValueB};
    }
  }

  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(A.Offset, Atoms);
  Sym.collectAtoms(B.Offset, Atoms);
  for (const SharedAccess *X : {&A, &B})
    for (const auto &Guard : X->Guards)
      Sym.collectAtoms(Guard.first, Atoms);

  // How the two accesses can be in flight at once: the same statement in
  // two threads, one reached from the other with no barrier between, or
  // the two sides of a thread-dependent branch.
  enum PathKind { Self, AThenB, BThenA, Diverged };
  struct Path {
    PathKind Kind;
    unsigned CrossA = 0, CrossB = 0; // Went round a loop to get there.
    const CFGBlock *Branch = nullptr;
    bool Warp = false; // Also with no warp-level sync between.
    std::optional<BarrierSkip> Skip = {};
    bool WarpRound = false;
    /// The loop counter (atom) that stays in the same iteration.
    int SameIterationOf = -1;
  };
  llvm::SmallVector<Path, 6> Paths;
  if (IA == IB)
    Paths.push_back({Self, 0, 0, nullptr, true});
  else if (A.Anchor == B.Anchor &&
           A.Segment == B.Segment) // Two accesses inside one inlined call.
    Paths.push_back({AThenB, 0, 0, nullptr, true});
  // A way round a loop through a barrier branch splits in two: round that
  // loop, where the branch's condition must skip the barrier, and round
  // inner loops only, in the same iteration of it.
  auto AddPath = [&](Path P, const CFGBlock *From, unsigned FromIndex,
                     const Stmt *Anchor, unsigned To, bool OnB) {
    std::optional<SkipCut> Cut =
        BarrierBranches.empty() ? std::nullopt
                                : barrierSkip(From, FromIndex, Anchor, To, OnB);
    if (!Cut) {
      Paths.push_back(P);
      return;
    }
    if (Cut->SameIterationToo) {
      Path Stay = P;
      Stay.SameIterationOf = Cut->Skip.Counter;
      Paths.push_back(Stay);
    }
    P.Skip = Cut->Skip;
    P.WarpRound = Cut->WarpRound;
    Paths.push_back(P);
  };
  for (unsigned Bit = 1; Bit <= 2; ++Bit) {
    if (bits(Reach[IA], IB) & Bit) {
      Path P{AThenB, 0, Bit - 1, nullptr, (bits(WarpReach[IA], IB) & Bit) != 0};
      if (Bit == 2)
        AddPath(P, A.Block, A.Index, A.E, IB, false);
      else
        Paths.push_back(P);
    }
    if (IA != IB && (bits(Reach[IB], IA) & Bit)) {
      Path P{BThenA, Bit - 1, 0, nullptr, (bits(WarpReach[IB], IA) & Bit) != 0};
      if (Bit == 2)
        AddPath(P, B.Block, B.Index, B.E, IA, true);
      else
        Paths.push_back(P);
    }
  }
  for (unsigned DI : DivergencesOf[IA]) {
    if (!llvm::is_contained(DivergencesOf[IB], DI))
      continue;
    const Divergence &D = Divergences[DI];
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = 0; SB < D.Sides.size(); ++SB) {
        if (SA == SB)
          continue;
        for (unsigned BitA = 1; BitA <= 2; ++BitA)
          for (unsigned BitB = 1; BitB <= 2; ++BitB)
            if ((bits(D.Sides[SA], IA) & BitA) &&
                (bits(D.Sides[SB], IB) & BitB)) {
              // A warp sync on one side orders nothing for a lane that
              // reached its access with no sync on the other side and may
              // then leave the kernel unsynced (softmax_forward_kernel7's
              // `if (tid >= C) { maxvals[w] = -INFINITY; return; }` against
              // lane 0's store after the warp reduction).
              bool WarpA = bits(D.WarpSides[SA], IA) & BitA;
              bool WarpB = bits(D.WarpSides[SB], IB) & BitB;
              bool Unordered = (WarpA && leavesUnsynced(IA)) ||
                               (WarpB && leavesUnsynced(IB));
              Path P{Diverged, BitA - 1, BitB - 1, D.Branch,
                     (WarpA && WarpB) || Unordered};
              // An access reached without going round a loop is in the
              // divergence's iteration: the other's way is the one to cut.
              bool AnchorA = BitA == 1;
              const CFGBlock *Succ =
                  *(D.Branch->succ_begin() + (AnchorA ? SB : SA));
              if (BitA == BitB || !Succ)
                Paths.push_back(P);
              else
                AddPath(P, Succ, 0, AnchorA ? A.E : B.E, AnchorA ? IB : IA,
                        !AnchorA);
            }
      }
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

  // The conditions' loop counters take part in the question like the
  // accesses' own.
  for (const Path &P : Paths)
    if (P.Skip)
      Sym.collectAtoms(P.Skip->Condition, Atoms);

  for (const Path &P : Paths) {
    Scenario S;
    S.Skip = P.Skip;
    // Round the branch's loop, a warp sync on the barrier-free side orders
    // the lanes of a warp.
    S.DifferentWarpsOnly =
        !AnyWarpPath || SameValueInWarp || (P.Skip && !P.WarpRound);
    S.Order = P.Kind == AThenB ? 1
              : P.Kind == BThenA
                  ? -1
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
          // Going round a loop whose body holds a barrier as a plain
          // statement passes that barrier: a barrier-free way round is an
          // inner loop's, in the same iteration of this one.
          Relation = InA && InB
                         ? (P.CrossB && roundPassesBarrier(Info.Loop, A.E, B.E)
                                ? 0
                                : static_cast<int>(P.CrossB))
                     : InA ? 6
                     : InB ? 9
                           : 2;
          break;
        case BThenA:
          Relation = InA && InB
                         ? (P.CrossA && roundPassesBarrier(Info.Loop, B.E, A.E)
                                ? 0
                                : -static_cast<int>(P.CrossA))
                     : InB ? 8
                     : InA ? 7
                           : 2;
          break;
        case Diverged: {
          bool InBranch = isInside(P.Branch->getTerminatorStmt(), Info.Loop);
          // Entered after the branch, a loop whose every round passes a
          // barrier of its body is in its first iteration on both sides:
          // the sides' walks stop at barriers. Having gone round another
          // loop on the way (a grid-strided loop before it) says nothing
          // about this one.
          if (InA && InB && InBranch)
            Relation = static_cast<int>(P.CrossB) - static_cast<int>(P.CrossA);
          else if (InA && InB &&
                   ((!P.CrossA && !P.CrossB) ||
                    (roundPassesBarrier(Info.Loop, A.E, A.E) &&
                     roundPassesBarrier(Info.Loop, B.E, B.E))))
            Relation = 3;
          // The same for one access in the loop and the other past it.
          else if (InA && !InB && !InBranch &&
                   (!P.CrossA || roundPassesBarrier(Info.Loop, A.E, A.E)))
            Relation = 7;
          else if (InB && !InA && !InBranch &&
                   (!P.CrossB || roundPassesBarrier(Info.Loop, B.E, B.E)))
            Relation = 9;
          break;
        }
        }
      }
      if (static_cast<int>(Atom) == P.SameIterationOf)
        Relation = 0;
      S.Relation.push_back(Relation);
    }
    // The branch's condition is stated for the next or previous iteration
    // only.
    if (S.Skip) {
      int Relation =
          S.Relation[llvm::find(Atoms, S.Skip->Counter) - Atoms.begin()];
      if (Relation != 1 && Relation != -1) {
        S.Skip.reset();
        S.DifferentWarpsOnly = !AnyWarpPath || SameValueInWarp;
      }
    }
    bool Seen = false;
    for (const Scenario &Other : Scenarios)
      if (Other.Relation == S.Relation && Other.Order == S.Order &&
          Other.LaterIteration == S.LaterIteration &&
          Other.DifferentWarpsOnly == S.DifferentWarpsOnly &&
          Other.Skip == S.Skip)
        Seen = true;
    if (!Seen)
      Scenarios.push_back(S);
  }

  for (const Scenario &S : Scenarios) {
    if (overBudget())
      return;
    Witness W;
    Verdict V = cachedDecide(A, B, Shape, S, Atoms, W);
    if (V == Verdict::None || V == Verdict::Skip)
      continue;
    if (V == Verdict::Possible && !Options.ReportPossibleRaces)
      continue;

    // Which access comes second: the one in the later iteration, else the
    // later one in the source.
    bool BSecond = S.Order != 0 ? S.Order > 0 : (isBefore(A, B) || IA == IB);
    const SharedAccess &First = BSecond ? A : B;
    const SharedAccess &Second = BSecond ? B : A;
    std::int64_t FirstThread = BSecond ? W.ThreadA : W.ThreadB;
    std::int64_t SecondThread = BSecond ? W.ThreadB : W.ThreadA;

    SharedRace Race = raceBetween(First, Second, V, Shape);
    Race.WarpSynchronous =
        A.Volatile && B.Volatile && W.ThreadA / 32 == W.ThreadB / 32;
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
    std::string Element = "'" + Col.describeElement(First.Var, W.Byte) + "'";
    auto Values =
        [&](const llvm::SmallVectorImpl<std::pair<unsigned, std::int64_t>>
                &Loop) {
          std::string Text;
          for (const auto &[Atom, Value] : Loop) {
            const SymAtom &Info = Sym.atoms()[Atom];
            Text += Text.empty() ? " (" : ", ";
            Text += Info.IterationNumber
                        ? "in iteration " + std::to_string(Value) +
                              " of the loop over '" + Info.Name + "'"
                        : "with '" + Info.Name + "' = " + std::to_string(Value);
          }
          return Text.empty() ? Text : Text + ")";
        };
    Race.Witness =
        "thread " + SharedAccessCollector::describeThread(FirstThread, Shape) +
        " " + Verb(First.Kind) + " " + Element +
        Values(BSecond ? W.LoopA : W.LoopB) + " and thread " +
        SharedAccessCollector::describeThread(SecondThread, Shape) + " " +
        Verb(Second.Kind) + " it" + Values(BSecond ? W.LoopB : W.LoopA);
    if (S.LaterIteration)
      Race.Witness += " one iteration of the enclosing loop later";
    for (const auto &[Atom, Value] : W.Uniform)
      Race.Witness += (&Atom == &W.Uniform.front().first ? ", when '" : ", '") +
                      Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
    // The parameters launch relations fix, with the relation and where it
    // is read: "'tilew' = 20 (tilew = blockDim.x + 2 * r from the launch at
    // f.cu:40)".
    auto Relation = [&](unsigned Atom, std::int64_t Value) {
      const ArgumentRelation *R = Shape.relation(Sym.atoms()[Atom].Var);
      std::string Text =
          "'" + Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
      if (R)
        Text += " (" + R->str() + " from the launch" +
                (R->From.find(',') != std::string::npos ? "es" : "") + " at " +
                R->From + ")";
      return Text;
    };
    bool Leading = W.Uniform.empty();
    auto AddRelation = [&](unsigned Atom, std::int64_t Value) {
      Race.Witness += (Leading ? ", when " : ", ") + Relation(Atom, Value);
      Leading = false;
    };
    for (const auto &[Atom, Value] : W.Related)
      AddRelation(Atom, Value);
    std::string FromLaunch;
    for (unsigned Atom : Atoms) {
      const SymAtom &Info = Sym.atoms()[Atom];
      if (Info.Var && !Info.isLoopCounter() && !Shape.argument(Info.Var))
        if (std::optional<std::int64_t> Value = boundValue(Atom, Shape))
          AddRelation(Atom, *Value);
    }
    for (unsigned Atom : Atoms)
      if (std::optional<std::int64_t> Value =
              Sym.atoms()[Atom].Var && !Sym.atoms()[Atom].isLoopCounter()
                  ? Shape.argument(Sym.atoms()[Atom].Var)
                  : std::nullopt)
        FromLaunch += (FromLaunch.empty() ? ", with '" : ", '") +
                      Sym.atoms()[Atom].Name + "' = " + std::to_string(*Value);
    if (!FromLaunch.empty())
      Race.Witness +=
          FromLaunch + " as the launch at " + Shape.ArgumentsFrom + " passes";
    if (!S.DifferentWarpsOnly && !Race.WarpSynchronous &&
        !llvm::is_contained(S.Relation, 2))
      Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
    Reported.insert(Second.E);
    Handler.handleRace(Race);
    return;
  }
}

void KernelRaceFinder::run(llvm::ArrayRef<BlockShape> Shapes,
                           llvm::ArrayRef<ArgumentRelation> Relations) {
  if (llvm::none_of(Accesses, [](const SharedAccess &A) { return A.writes(); }))
    return;
  computeConcurrency();
  // Only pairs that can be in flight together, in the order the quadratic
  // loop over all pairs used to visit them: an access with itself, one
  // reached from another, the two sides of a divergence, two accesses of
  // one inlined call.
  std::set<std::pair<unsigned, unsigned>> Candidates;
  auto Add = [&](unsigned I, unsigned J) {
    Candidates.insert({std::min(I, J), std::max(I, J)});
  };
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    Add(I, I);
    for (const auto &Entry : Reach[I])
      Add(I, Entry.first);
  }
  for (const Divergence &D : Divergences)
    for (unsigned SA = 0; SA < D.Sides.size(); ++SA)
      for (unsigned SB = SA + 1; SB < D.Sides.size(); ++SB)
        for (const auto &A : D.Sides[SA])
          for (const auto &B : D.Sides[SB])
            Add(A.first, B.first);
  for (const auto &Entry : AccessesAt)
    for (unsigned I : Entry.second)
      for (unsigned J : Entry.second)
        Add(I, J);
  for (BlockShape Shape : Col.candidateShapes(Shapes, Options.Assumed)) {
    // Relations hold whatever the shape: assumed shapes get them too.
    if (Shape.Relations.empty())
      Shape.Relations.assign(Relations.begin(), Relations.end());
    for (const auto &[I, J] : Candidates) {
      if (OutOfBudget)
        break;
      checkPair(I, J, Shape);
    }
  }
  if (OutOfBudget)
    Handler.handleIncomplete(Kernel, IncompleteReason::WorkBudget);
}

} // namespace

void SharedMemoryRaceAnalysis::analyzeKernel(
    const FunctionDecl *Kernel, llvm::ArrayRef<BlockShape> Shapes,
    llvm::ArrayRef<ArgumentRelation> Relations) {
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  // A body the dependence analysis declined for its size is in its
  // getOversizedBodies(), which the check reports.
  if (!Deps)
    return;
  SharedAccessCollector Collector(Dependence.getContext(), *Deps);
  Collector.collect();
  KernelRaceFinder(Collector, Handler, Options, Deps->getFunction(), *Answers)
      .run(Shapes, Relations);
}

} // namespace clang::cuda_tidy
