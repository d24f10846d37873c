//===--- BankConflict.cpp - Shared-memory bank conflicts ------------------===//
//
// See BankConflict.h for the model.
//
//===----------------------------------------------------------------------===//

#include "analysis/BankConflict.h"
#include "analysis/ExactQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include <iterator>
#include <map>

namespace clang::cuda_tidy {

BankConflictHandler::~BankConflictHandler() = default;

namespace {

constexpr unsigned Banks = 32;
constexpr unsigned WarpSize = 32;

/// One warp's request for one access.
struct WarpRequest {
  unsigned Degree = 0;     // Worst group.
  unsigned Wavefronts = 0; // All groups.
  unsigned Groups = 0;     // Groups with an active lane.
  unsigned ActiveLanes = 0;
  unsigned LaneA = 0, LaneB = 0;
  std::int64_t WordA = 0, WordB = 0;
  std::optional<std::int64_t> StrideWords;
  /// The warp, and the lanes whose distinct words meet in the worst bank.
  std::int64_t Warp = 0;
  std::uint32_t BankLanes = 0;
};

/// The samples of UniformSamples away from 0, the degenerate point where a
/// stride `W` vanishes: what "generic values" means for the bank check's
/// solver path (ExactQuery.h).
constexpr std::int64_t GenericSamples[] = {7, 33, 100, 1000};
/// Resource limit of each certification query (ExactQuery.h), the race
/// check's default.
constexpr unsigned BankQueryLimit = 2000000;

enum class Outcome { Ok, Inactive, Undecided };

/// How the compiler issues one access (issue 10, class 9). nvcc merges
/// accesses to consecutive elements into one 8- or 16-byte instruction
/// (STS.64/STS.128, LDS.64/LDS.128 in SASS) when it knows their start is
/// aligned to the merged width: the four members of a `float4` element
/// written in straight-line code, and the iterations of a small unrolled
/// loop over `s[4 * t + k]`. The wider access is served by half- or
/// quarter-warps, which is what makes lanes 16 bytes apart conflict-free.
struct Issue {
  /// Bytes per lane of the instruction.
  std::int64_t Width = 0;
  /// The unrolled loop counter folded into the instruction, or -1.
  int LoopAtom = -1;
  /// How many of the counter's consecutive values one instruction covers.
  unsigned Every = 1;
  /// How many source accesses one instruction stands for (1: none merged).
  unsigned Merged = 1;
  /// Issued as part of another access's instruction: not judged alone.
  bool Absorbed = false;
};

/// An offset as a sum of subterms times constants plus a constant, for
/// comparing offsets that differ by a constant (`t[i].x` and `t[i].y`,
/// `s[4 * t]` and `s[4 * t + 1]`) and for alignment proofs. Subterms that
/// are not sums or products by constants (`t % 8`, `a * b`) are leaves,
/// named by ExactQuery::shapeKey, so equal keys are equal values.
struct LinearOffset {
  std::map<std::string, std::int64_t> Terms;
  llvm::SmallVector<SymId, 4> Leaves;
  std::int64_t Constant = 0;

  bool sameTerms(const LinearOffset &Other) const {
    return Terms == Other.Terms;
  }
  /// Whether every value this offset takes is a multiple of \p Align
  /// (leaving out the term of loop counter \p Skip, keyed so).
  bool alignedTo(std::int64_t Align, llvm::StringRef Skip = "") const {
    if (Constant % Align)
      return false;
    for (const auto &[Key, Coefficient] : Terms)
      if (Key != Skip && Coefficient % Align)
        return false;
    return true;
  }
};

void linearize(const SymbolicTranslator &Sym, SymId Id, std::int64_t Scale,
               LinearOffset &Out) {
  const SymNode &N = Sym.node(Id);
  auto ConstantOf = [&](SymId Child) -> std::optional<std::int64_t> {
    if (Sym.node(Child).K == SymNode::Const)
      return Sym.node(Child).Value;
    return std::nullopt;
  };
  switch (N.K) {
  case SymNode::Const:
    Out.Constant += Scale * N.Value;
    return;
  case SymNode::Add:
  case SymNode::Sub:
    linearize(Sym, N.A, Scale, Out);
    linearize(Sym, N.B, N.K == SymNode::Sub ? -Scale : Scale, Out);
    return;
  case SymNode::Neg:
    linearize(Sym, N.A, -Scale, Out);
    return;
  case SymNode::Mul:
    if (auto C = ConstantOf(N.B))
      return linearize(Sym, N.A, Scale * *C, Out);
    if (auto C = ConstantOf(N.A))
      return linearize(Sym, N.B, Scale * *C, Out);
    break;
  case SymNode::Shl:
    if (auto C = ConstantOf(N.B); C && *C >= 0 && *C < 32)
      return linearize(Sym, N.A, Scale * (std::int64_t(1) << *C), Out);
    break;
  default:
    break;
  }
  std::string Key = ExactQuery::shapeKey(Sym, Id);
  auto [It, New] = Out.Terms.try_emplace(Key, 0);
  It->second += Scale;
  if (New)
    Out.Leaves.push_back(Id);
  if (It->second == 0)
    Out.Terms.erase(It);
}

LinearOffset linearize(const SymbolicTranslator &Sym, SymId Id) {
  LinearOffset Out;
  linearize(Sym, Id, 1, Out);
  return Out;
}

/// The key linearize() gives loop counter \p Atom.
std::string atomKey(unsigned Atom) {
  return "(" + std::to_string(SymNode::Atom) + ":" + std::to_string(Atom) + ")";
}

class KernelBankFinder {
public:
  KernelBankFinder(SharedAccessCollector &Col, BankConflictHandler &Handler,
                   unsigned MinimumDegree)
      : Col(Col), Sym(Col.symbols()), Handler(Handler),
        MinimumDegree(MinimumDegree) {}

  void run(llvm::ArrayRef<BlockShape> Shapes);

private:
  /// The worst request and the average wavefronts of \p A with byte offset
  /// \p Offset over all warps, listed iterations and sampled values; none
  /// when undecided.
  struct Summary {
    WarpRequest Worst;
    double Wavefronts = 0;
    unsigned Ideal = 1;
    std::uint64_t ActiveLanes = 0;
    /// Whether loop counters took part, and the sampled unknowns' values at
    /// the worst request.
    bool Loops = false;
    llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Samples;
    /// The lowest worst degree over the samples with no unknown at 0.
    unsigned AwayFromZeroDegree = ~0u;
  };
  /// \p Size is the variable's size in bytes (-1: unknown).
  /// \p AwayFromZero: sample unknowns at GenericSamples, not
  /// UniformSamples.
  std::optional<Summary> evaluate(const SharedAccess &A, const Issue &How,
                                  SymId Offset, const BlockShape &Shape,
                                  std::int64_t Size, bool AwayFromZero = false);
  /// Whether the lanes of \p Worst's worst bank meet there, on distinct
  /// words, for every generic value of the unknowns (the solver's answer).
  bool certifyGeneric(const SharedAccess &A, const BlockShape &Shape,
                      std::int64_t Size, const WarpRequest &Worst);
  Outcome request(const SharedAccess &A, std::int64_t Width, SymId Offset,
                  std::int64_t Size, const BlockShape &Shape, std::int64_t Warp,
                  const std::vector<std::int64_t> &Atoms, WarpRequest &R);
  /// How the compiler issues each access (Issue), decided once per kernel.
  std::vector<Issue> planIssues() const;
  void mergeMembers(std::vector<Issue> &Issues) const;
  /// Whether a barrier or warp sync runs between \p A and \p B, neighbours
  /// in one CFG block: the compiler does not merge across it.
  bool syncBetween(const SharedAccess &A, const SharedAccess &B) const;
  std::optional<Issue> unrolledRun(const SharedAccess &A) const;
  /// The alignment in bytes the compiler gives the start of \p A's object.
  std::int64_t objectAlignment(const SharedAccess &A) const;
  /// The offset of \p A and the variable's size with each row one element
  /// longer; none when A is not V[Row][Column] on a 2-D array.
  std::optional<std::pair<SymId, std::int64_t>> padded(const SharedAccess &A);
  const Expr *innerDimension(const VarDecl *Var) const;

  SharedAccessCollector &Col;
  SymbolicTranslator &Sym;
  BankConflictHandler &Handler;
  unsigned MinimumDegree;
  std::uint64_t Budget = 20'000'000;
};

Outcome KernelBankFinder::request(const SharedAccess &A, std::int64_t Width,
                                  SymId Offset, std::int64_t Size,
                                  const BlockShape &Shape, std::int64_t Warp,
                                  const std::vector<std::int64_t> &Atoms,
                                  WarpRequest &R) {
  R = WarpRequest();
  R.Warp = Warp;
  unsigned GroupSize = Width <= 4 ? 32 : Width <= 8 ? 16 : 8;
  std::int64_t Addresses[WarpSize];
  bool Active[WarpSize] = {};
  bool Any = false;
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    std::int64_t Thread = Warp * WarpSize + Lane;
    if (Thread >= Shape.threads())
      break;
    SymEnv Env = SharedAccessCollector::envFor(Thread, Shape, Atoms.data());
    bool Runs = true;
    for (const auto &[Guard, Polarity] : A.Guards) {
      auto V = Sym.evaluate(Guard, Env);
      if (!V)
        return Outcome::Undecided;
      if ((*V != 0) != Polarity) {
        Runs = false;
        break;
      }
    }
    if (!Runs)
      continue;
    auto Address = Sym.evaluate(Offset, Env);
    if (!Address)
      return Outcome::Undecided;
    if (*Address < 0 || (Size >= 0 && *Address + Width > Size)) {
      if (Shape.Assumed)
        return Outcome::Undecided; // Not the shape this kernel is for.
      continue;
    }
    Addresses[Lane] = *Address;
    Active[Lane] = Any = true;
    ++R.ActiveLanes;
  }
  if (!Any)
    return Outcome::Inactive;

  // Stride between consecutive active lanes, if constant.
  std::optional<std::int64_t> Stride;
  bool Constant = true;
  int Previous = -1;
  for (unsigned Lane = 0; Lane < WarpSize && Constant; ++Lane) {
    if (!Active[Lane])
      continue;
    if (Previous >= 0) {
      std::int64_t D = (Addresses[Lane] - Addresses[Previous]) /
                       static_cast<std::int64_t>(Lane - Previous);
      if ((Addresses[Lane] - Addresses[Previous]) %
              static_cast<std::int64_t>(Lane - Previous) ||
          (Stride && *Stride != D))
        Constant = false;
      Stride = D;
    }
    Previous = Lane;
  }
  if (Constant && Stride && *Stride % 4 == 0)
    R.StrideWords = *Stride / 4;

  for (unsigned First = 0; First < WarpSize; First += GroupSize) {
    // Distinct words per bank, and which lane first asked for each word.
    llvm::DenseMap<std::int64_t, unsigned> WordLane;
    unsigned PerBank[Banks] = {};
    std::uint32_t LanesOfBank[Banks] = {};
    std::int64_t FirstWord[Banks];
    bool GroupActive = false;
    for (unsigned Lane = First; Lane < First + GroupSize; ++Lane) {
      if (!Active[Lane])
        continue;
      GroupActive = true;
      std::int64_t Begin = Addresses[Lane] / 4;
      std::int64_t End = (Addresses[Lane] + Width - 1) / 4;
      for (std::int64_t Word = Begin; Word <= End; ++Word) {
        if (!WordLane.try_emplace(Word, Lane).second)
          continue; // A broadcast.
        unsigned Bank = static_cast<unsigned>(Word % Banks);
        if (PerBank[Bank] == 0) {
          FirstWord[Bank] = Word;
        } else if (PerBank[Bank] + 1 > R.Degree) {
          R.LaneA = WordLane[FirstWord[Bank]];
          R.LaneB = Lane;
          R.WordA = FirstWord[Bank];
          R.WordB = Word;
        }
        ++PerBank[Bank];
        LanesOfBank[Bank] |= std::uint32_t(1) << Lane;
        if (PerBank[Bank] > R.Degree) {
          R.Degree = PerBank[Bank];
          R.BankLanes = LanesOfBank[Bank];
        }
      }
    }
    if (!GroupActive)
      continue;
    unsigned Worst = 0;
    for (unsigned Count : PerBank)
      Worst = std::max(Worst, Count);
    R.Wavefronts += Worst;
    ++R.Groups;
  }
  return Outcome::Ok;
}

std::optional<KernelBankFinder::Summary>
KernelBankFinder::evaluate(const SharedAccess &A, const Issue &How,
                           SymId Offset, const BlockShape &Shape,
                           std::int64_t Size, bool AwayFromZero) {
  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(Offset, Atoms);
  const std::size_t InOffset = Atoms.size();
  for (const auto &Guard : A.Guards)
    Sym.collectAtoms(Guard.first, Atoms);
  SymEnv DimsOnly = SharedAccessCollector::envFor(0, Shape, nullptr);
  struct Axis {
    unsigned Atom;
    std::vector<std::int64_t> Values;
  };
  std::vector<Axis> Loops;
  std::vector<unsigned> Sampled;
  // Uniform values only the guards mention (`x < width` with `x =
  // blockIdx.x * 32 + threadIdx.x`, an early `if (i >= n) return;`): they
  // decide which lanes take part, not where they go. The question is the
  // degree for generic values, so each sample of the offset's values is
  // judged with the guard values that let the most lanes run; a value that
  // runs no lane at all (n = 0) is a degenerate point, not a verdict. Block
  // indices are tried at 0 and 1, the other values at UniformSamples.
  std::vector<Axis> GuardOnly;
  llvm::SmallDenseSet<unsigned, 8> Seen;
  for (std::size_t I = 0; I < Atoms.size(); ++I) {
    unsigned Atom = Atoms[I];
    if (!Seen.insert(Atom).second)
      continue;
    std::vector<std::int64_t> Values = Sym.atoms()[Atom].isLoopCounter()
                                           ? Sym.loopValues(Atom, DimsOnly)
                                           : std::vector<std::int64_t>();
    // An unrolled run: one instruction per How.Every iterations, at the
    // first of them.
    if (static_cast<int>(Atom) == How.LoopAtom) {
      std::vector<std::int64_t> Starts;
      for (std::size_t V = 0; V < Values.size(); V += How.Every)
        Starts.push_back(Values[V]);
      Values = std::move(Starts);
    }
    if (!Values.empty())
      Loops.push_back({Atom, std::move(Values)});
    else if (I < InOffset || Sym.atoms()[Atom].isLoopCounter())
      Sampled.push_back(Atom);
    else if (Sym.atoms()[Atom].Var)
      GuardOnly.push_back(
          {Atom, {std::begin(UniformSamples), std::end(UniformSamples)}});
    else
      GuardOnly.push_back({Atom, {0, 1}});
  }
  if (Sampled.size() > 2)
    return std::nullopt;
  unsigned SampleCombos = sampleCombinations(Sampled.size());
  if (AwayFromZero) {
    SampleCombos = 1;
    for (std::size_t I = 0; I < Sampled.size(); ++I)
      SampleCombos *= std::size(GenericSamples);
  }
  unsigned LoopCombos = 1;
  for (const Axis &Ax : Loops)
    LoopCombos *= Ax.Values.size();
  unsigned GuardCombos = 1;
  for (const Axis &Ax : GuardOnly)
    GuardCombos *= Ax.Values.size();
  if (LoopCombos > 256 || GuardCombos > 250)
    return std::nullopt;
  std::int64_t Warps = (Shape.threads() + WarpSize - 1) / WarpSize;

  auto Assign = [](const std::vector<Axis> &Axes, unsigned Combo,
                   std::vector<std::int64_t> &Values) {
    for (const Axis &Ax : Axes) {
      Values[Ax.Atom] = Ax.Values[Combo % Ax.Values.size()];
      Combo /= Ax.Values.size();
    }
  };
  std::optional<Summary> Result;
  std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
  for (unsigned Sample = 0; Sample < SampleCombos; ++Sample) {
    if (AwayFromZero) {
      unsigned Combo = Sample;
      for (unsigned Atom : Sampled) {
        Values[Atom] = GenericSamples[Combo % std::size(GenericSamples)];
        Combo /= std::size(GenericSamples);
      }
    } else {
      assignSamples(Sample, Sampled, Values);
    }
    std::optional<Summary> Generic;
    for (unsigned GuardCombo = 0; GuardCombo < GuardCombos; ++GuardCombo) {
      Assign(GuardOnly, GuardCombo, Values);
      Summary Here;
      unsigned Requests = 0;
      double Total = 0;
      for (unsigned Combo = 0; Combo < LoopCombos; ++Combo) {
        Assign(Loops, Combo, Values);
        for (std::int64_t Warp = 0; Warp < Warps; ++Warp) {
          if (Budget < WarpSize)
            return std::nullopt;
          Budget -= WarpSize;
          WarpRequest R;
          Outcome O =
              request(A, How.Width, Offset, Size, Shape, Warp, Values, R);
          if (O == Outcome::Undecided)
            return std::nullopt;
          if (O == Outcome::Inactive)
            continue;
          ++Requests;
          Total += R.Wavefronts;
          Here.ActiveLanes += R.ActiveLanes;
          if (R.Degree > Here.Worst.Degree) {
            Here.Worst = R;
            Here.Ideal = R.Groups;
          }
        }
      }
      if (Requests == 0)
        continue;
      Here.Wavefronts = Total / Requests;
      Here.Loops = !Loops.empty();
      for (unsigned Atom : Sampled)
        Here.Samples.push_back({Atom, Values[Atom]});
      if (!Generic || Here.ActiveLanes > Generic->ActiveLanes)
        Generic = Here;
    }
    if (!Generic) {
      if (GuardOnly.empty())
        return std::nullopt;
      continue; // No lane runs for these values: no verdict either way.
    }
    // The conflict must show for every sample of the unknown values.
    unsigned Lowest = Result ? Result->AwayFromZeroDegree : ~0u;
    if (!Result || Generic->Worst.Degree < Result->Worst.Degree)
      Result = Generic;
    Result->AwayFromZeroDegree = Lowest;
    if (llvm::none_of(Sampled, [&](unsigned Atom) { return !Values[Atom]; }))
      Result->AwayFromZeroDegree =
          std::min(Result->AwayFromZeroDegree, Generic->Worst.Degree);
  }
  return Result;
}

std::optional<std::pair<SymId, std::int64_t>>
KernelBankFinder::padded(const SharedAccess &A) {
  if (A.Row < 0 || !A.Var)
    return std::nullopt;
  ASTContext &Context = Col.context();
  const auto *Outer = Context.getAsConstantArrayType(A.Var->getType());
  if (!Outer)
    return std::nullopt;
  const auto *Inner = Context.getAsConstantArrayType(Outer->getElementType());
  if (!Inner || Inner->getElementType()->isArrayType())
    return std::nullopt;
  std::int64_t Element =
      Context.getTypeSizeInChars(Inner->getElementType()).getQuantity();
  std::int64_t Rows = Outer->getSize().getSExtValue();
  SymId Offset = Sym.binary(
      SymNode::Add,
      Sym.binary(SymNode::Mul, A.Row, Sym.constant(A.RowBytes + Element)),
      A.WithinRow);
  return std::make_pair(Offset, Rows * (A.RowBytes + Element));
}

const Expr *KernelBankFinder::innerDimension(const VarDecl *Var) const {
  const TypeSourceInfo *TSI = Var->getTypeSourceInfo();
  if (!TSI)
    return nullptr;
  auto Outer =
      TSI->getTypeLoc().getUnqualifiedLoc().getAs<ConstantArrayTypeLoc>();
  if (!Outer)
    return nullptr;
  auto Inner =
      Outer.getElementLoc().getUnqualifiedLoc().getAs<ConstantArrayTypeLoc>();
  return Inner ? Inner.getSizeExpr() : nullptr;
}

bool KernelBankFinder::certifyGeneric(const SharedAccess &A,
                                      const BlockShape &Shape,
                                      std::int64_t Size,
                                      const WarpRequest &Worst) {
  if (!Worst.BankLanes)
    return false;
  // Lanes at one iteration of a loop would need the loop's relations, and
  // a block index is some block's: not asked, and not reported.
  llvm::SmallVector<unsigned, 4> Atoms;
  Sym.collectAtoms(A.Offset, Atoms);
  for (const auto &Guard : A.Guards)
    Sym.collectAtoms(Guard.first, Atoms);
  for (unsigned Atom : Atoms)
    if (Sym.atoms()[Atom].isLoopCounter() || Sym.atoms()[Atom].isBlockIndex())
      return false;
  ExactQuery Q(Sym, BankQueryLimit);
  Q.setShape(Shape);
  llvm::SMTSolver &S = Q.solver();
  // One thread instance a lane of the worst bank, pinned to its thread.
  llvm::SmallVector<llvm::SMTExprRef, 32> Words;
  llvm::SMTExprRef Broken = S.mkBoolean(false);
  for (unsigned Lane = 0; Lane < WarpSize; ++Lane) {
    if (!(Worst.BankLanes >> Lane & 1))
      continue;
    unsigned T = Q.addThread(Worst.Warp * WarpSize + Lane);
    for (const auto &[Guard, Polarity] : A.Guards) {
      llvm::SMTExprRef Holds = Q.holds(Guard, T);
      Broken = S.mkOr(Broken, Polarity ? S.mkNot(Holds) : Holds);
    }
    llvm::SMTExprRef Offset = Q.value(A.Offset, T);
    // Offsets past the object, or past any block's shared memory (where
    // 32-bit arithmetic could wrap), are not executions: assumed away.
    std::int64_t End = Size >= 0 ? Size : 256 * 1024;
    Q.require(S.mkBVSge(Offset, Q.constant(0)));
    Q.require(
        S.mkBVSle(S.mkBVAdd(Offset, Q.constant(A.Width)), Q.constant(End)));
    Words.push_back(S.mkBVAshr(Offset, Q.constant(2)));
  }
  // Broken: some lane does not run, or two neighbours (in lane order) use
  // different banks, or their words are not strictly ordered the way the
  // sample's are. Ordered words are distinct: 31 comparisons rather than
  // 496 pairs, which the solver settles at once; a conflict whose words
  // are distinct but unordered for some value is not certified (silent).
  bool Increasing = Worst.WordB > Worst.WordA;
  llvm::SMTExprRef BankMask = Q.constant(Banks - 1);
  for (std::size_t I = 0; I + 1 < Words.size(); ++I) {
    const llvm::SMTExprRef &Low = Increasing ? Words[I] : Words[I + 1];
    const llvm::SMTExprRef &High = Increasing ? Words[I + 1] : Words[I];
    Broken = S.mkOr(
        Broken, S.mkOr(S.mkBVSge(Low, High),
                       S.mkNot(S.mkEqual(S.mkBVAnd(Words[I], BankMask),
                                         S.mkBVAnd(Words[I + 1], BankMask)))));
  }
  Q.require(Broken);
  Q.restrictUnknowns(2, 1 << 15);
  std::optional<bool> Counterexample = Q.check();
  return Counterexample == false;
}

std::int64_t KernelBankFinder::objectAlignment(const SharedAccess &A) const {
  if (!A.Var)
    return 1;
  // nvcc declares the dynamic pool `.extern .shared .align 16` (seen in the
  // PTX of CUDA 13.0 for pools of float, int and char).
  if (A.isDynamic())
    return 16;
  // A static variable: the alignment its type or `__align__` asks for. In
  // SASS a lone `float s[1024]` is often placed on a 16-byte boundary and
  // merged too, but a second variable before it (`float a[3]`) moves it by
  // 12 bytes and the same loop stays four STS: the layout is the
  // assembler's choice, so it is not assumed.
  // Not getDeclAlign: the host target raises large arrays to 16 bytes
  // (x86-64), which the device's layout owes nothing to.
  ASTContext &Context = Col.context();
  std::int64_t Explicit = A.Var->getMaxAlignment() / Context.getCharWidth();
  return std::max<std::int64_t>(
      Context.getTypeAlignInChars(A.Var->getType()).getQuantity(), Explicit);
}

bool KernelBankFinder::syncBetween(const SharedAccess &A,
                                   const SharedAccess &B) const {
  // CFG elements are numbered from 1 in SharedAccess::Index.
  for (unsigned Index = A.Index; Index + 1 < B.Index; ++Index)
    if (auto Element = (*A.Block)[Index].getAs<CFGStmt>())
      if (Col.syncAt(Element->getStmt()))
        return true;
  return false;
}

void KernelBankFinder::mergeMembers(std::vector<Issue> &Issues) const {
  const std::vector<SharedAccess> &Accesses = Col.accesses();
  auto Mergeable = [&](const SharedAccess &A) {
    return !A.Via && !A.Volatile && !A.untranslatedGuard() &&
           (A.Kind == AccessKind::Read || A.Kind == AccessKind::Write) &&
           (A.Width == 4 || A.Width == 8) && !Sym.isUnknown(A.Offset);
  };
  auto GuardKey = [&](const SharedAccess &A) {
    std::string Key;
    for (const auto &[Guard, Polarity] : A.Guards)
      Key += (Polarity ? "+" : "-") + ExactQuery::shapeKey(Sym, Guard);
    return Key;
  };
  // Runs of neighbouring accesses in one straight-line block, to one
  // object, of one kind, width and guard, at offsets that differ by
  // constants: members of one element (`t[i].x`, `t[i].y`, ...) or
  // written-out consecutive elements (`s[4 * t]`, `s[4 * t + 1]`, ...), in
  // any order. Neighbouring in the collector's order means no other
  // shared access comes between them.
  for (std::size_t First = 0; First < Accesses.size();) {
    const SharedAccess &A = Accesses[First];
    std::size_t Last = First + 1;
    if (!Mergeable(A)) {
      First = Last;
      continue;
    }
    LinearOffset Base = linearize(Sym, A.Offset);
    std::string Guards = GuardKey(A);
    std::map<std::int64_t, std::size_t> ByConstant = {{Base.Constant, First}};
    for (; Last < Accesses.size(); ++Last) {
      const SharedAccess &B = Accesses[Last];
      if (!Mergeable(B) || B.Block != A.Block || B.Object != A.Object ||
          B.Kind != A.Kind || B.Width != A.Width || GuardKey(B) != Guards ||
          syncBetween(Accesses[Last - 1], B))
        break;
      LinearOffset Here = linearize(Sym, B.Offset);
      if (!Here.sameTerms(Base) ||
          !ByConstant.try_emplace(Here.Constant, Last).second)
        break;
    }
    First = Last;
    if (ByConstant.size() < 2)
      continue;
    std::int64_t ObjectAlign = objectAlignment(A);
    // Greedily from the lowest offset, the widest aligned instruction
    // whose every element is accessed: `s[4 * t + 1 .. 4]` becomes 4, 8
    // and 4 bytes, as SASS shows (STS, STS.64, STS).
    for (auto It = ByConstant.begin(); It != ByConstant.end();) {
      std::int64_t Start = It->first;
      std::int64_t Width = A.Width;
      for (std::int64_t Wide : {16, 8}) {
        if (Wide <= A.Width || Wide > ObjectAlign)
          continue;
        LinearOffset At = Base;
        At.Constant = Start;
        bool Covered = At.alignedTo(Wide);
        for (std::int64_t B = Start; Covered && B < Start + Wide; B += A.Width)
          Covered = ByConstant.count(B);
        if (Covered) {
          Width = Wide;
          break;
        }
      }
      Issue &Leader = Issues[It->second];
      Leader.Width = Width;
      Leader.Merged = static_cast<unsigned>(Width / A.Width);
      for (++It; It != ByConstant.end() && It->first < Start + Width; ++It)
        Issues[It->second].Absorbed = true;
    }
  }
}

std::optional<Issue>
KernelBankFinder::unrolledRun(const SharedAccess &A) const {
  if (A.Via || A.Volatile || A.untranslatedGuard() || Sym.isUnknown(A.Offset) ||
      (A.Kind != AccessKind::Read && A.Kind != AccessKind::Write) ||
      (A.Width != 4 && A.Width != 8))
    return std::nullopt;
  LinearOffset Offset = linearize(Sym, A.Offset);
  std::int64_t ObjectAlign = objectAlignment(A);
  for (SymId Leaf : Offset.Leaves) {
    const SymNode &N = Sym.node(Leaf);
    if (N.K != SymNode::Atom)
      continue;
    unsigned Atom = static_cast<unsigned>(N.Value);
    const SymAtom &Counter = Sym.atoms()[Atom];
    std::string Key = atomKey(Atom);
    auto Term = Offset.Terms.find(Key);
    // Consecutive elements from one iteration to the next.
    if (!Counter.isLoopCounter() || Counter.IterationNumber ||
        Term == Offset.Terms.end() || Term->second != A.Width)
      continue;
    // A trip count the compiler knows: constant start, bound and step.
    auto IsConstant = [&](SymId Id) {
      return Id >= 0 && Sym.node(Id).K == SymNode::Const;
    };
    if (!IsConstant(Counter.Init) || !IsConstant(Counter.Bound) ||
        !IsConstant(Counter.Step))
      continue;
    std::vector<std::int64_t> Values = Sym.loopValues(Atom, SymEnv());
    bool Consecutive = !Values.empty();
    for (std::size_t V = 1; V < Values.size() && Consecutive; ++V)
      Consecutive = Values[V] == Values[V - 1] + 1;
    if (!Consecutive)
      continue;
    // The counter must appear in nothing else: not inside another term
    // (`(t + k) % 8`), not in a guard.
    bool Elsewhere = false;
    llvm::SmallVector<unsigned, 4> Atoms;
    for (SymId Other : Offset.Leaves)
      if (Other != Leaf &&
          Offset.Terms.count(ExactQuery::shapeKey(Sym, Other))) {
        Atoms.clear();
        Sym.collectAtoms(Other, Atoms);
        Elsewhere |= llvm::is_contained(Atoms, Atom);
      }
    for (const auto &Guard : A.Guards) {
      Atoms.clear();
      Sym.collectAtoms(Guard.first, Atoms);
      Elsewhere |= llvm::is_contained(Atoms, Atom);
    }
    if (Elsewhere)
      continue;
    // Unrolled: nvcc unrolls loops of up to 16 constant iterations by
    // itself (SASS of CUDA 13.0 shows `k < 4` and `k < 16` loops as
    // STS.128s without a pragma); a longer one only under `#pragma
    // unroll`, and `#pragma unroll N` with N short of the run keeps it a
    // loop.
    std::optional<unsigned> UnrollCount;
    bool FullUnroll = false;
    if (const auto *Attributed = dyn_cast_or_null<AttributedStmt>(
            Col.parents().getParent(Counter.Loop)))
      for (const Attr *At : Attributed->getAttrs())
        if (const auto *Hint = dyn_cast<LoopHintAttr>(At)) {
          if (Hint->getOption() == LoopHintAttr::UnrollCount) {
            if (const Expr *Count = Hint->getValue())
              if (auto C = Count->getIntegerConstantExpr(Col.context()))
                UnrollCount = static_cast<unsigned>(C->getZExtValue());
          } else if (Hint->getOption() == LoopHintAttr::Unroll) {
            FullUnroll = Hint->getState() != LoopHintAttr::Disable;
            if (!FullUnroll)
              UnrollCount = 1;
          }
        }
    for (std::int64_t Wide : {16, 8}) {
      std::int64_t Every = Wide / A.Width;
      std::int64_t Run = static_cast<std::int64_t>(Values.size());
      bool Unrolled =
          UnrollCount ? *UnrollCount % Every == 0 : FullUnroll || Run <= 16;
      LinearOffset At = Offset;
      At.Constant += A.Width * Values.front();
      if (Wide <= A.Width || Wide > ObjectAlign || Run % Every || !Unrolled ||
          !At.alignedTo(Wide, Key))
        continue;
      Issue How;
      How.Width = Wide;
      How.LoopAtom = static_cast<int>(Atom);
      How.Every = static_cast<unsigned>(Every);
      How.Merged = How.Every;
      return How;
    }
  }
  return std::nullopt;
}

std::vector<Issue> KernelBankFinder::planIssues() const {
  const std::vector<SharedAccess> &Accesses = Col.accesses();
  std::vector<Issue> Issues(Accesses.size());
  for (std::size_t I = 0; I < Accesses.size(); ++I)
    Issues[I].Width = Accesses[I].Width;
  mergeMembers(Issues);
  for (std::size_t I = 0; I < Accesses.size(); ++I)
    if (Issues[I].Merged == 1 && !Issues[I].Absorbed)
      if (auto How = unrolledRun(Accesses[I]))
        Issues[I] = *How;
  return Issues;
}

void KernelBankFinder::run(llvm::ArrayRef<BlockShape> Shapes) {
  std::vector<SharedAccess> &Accesses = Col.accesses();
  const std::vector<Issue> Issues = planIssues();
  // A padded row is one element longer, which breaks the alignment that
  // let the compiler merge accesses: padded what-ifs issue every access
  // alone.
  auto Scalar = [](const SharedAccess &A) {
    Issue How;
    How.Width = A.Width;
    return How;
  };
  // Whether padding each row by one element fixes every access of a
  // variable in every shape, decided once per variable.
  llvm::DenseMap<const VarDecl *, bool> PaddingFixesAll;
  auto PaddingFixes = [&](const VarDecl *Var) {
    auto It = PaddingFixesAll.find(Var);
    if (It != PaddingFixesAll.end())
      return It->second;
    bool Fixes = true;
    for (const SharedAccess &Other : Accesses) {
      if (Other.Var != Var || !Fixes)
        continue;
      auto Padded = padded(Other);
      for (const BlockShape &Shape : Shapes) {
        auto After = Padded ? evaluate(Other, Scalar(Other), Padded->first,
                                       Shape, Padded->second)
                            : std::nullopt;
        if (!After || After->Worst.Degree > 1) {
          Fixes = false;
          break;
        }
      }
    }
    return PaddingFixesAll[Var] = Fixes;
  };

  bool Assumed =
      llvm::all_of(Shapes, [](const BlockShape &S) { return S.Assumed; });
  for (std::size_t Index = 0; Index < Accesses.size(); ++Index) {
    const SharedAccess &A = Accesses[Index];
    const Issue &How = Issues[Index];
    if (A.untranslatedGuard() || Sym.isUnknown(A.Offset) ||
        A.Kind == AccessKind::Atomic || How.Absorbed)
      continue;
    // Known shapes: the worst of them. Assumed shapes: only a conflict that
    // every applicable one shows, reported with the mildest.
    std::optional<Summary> Chosen;
    BlockShape ChosenShape;
    llvm::SmallVector<BlockShape, 2> Others;
    // Generic: the unknowns of the offset sampled away from 0, each
    // conflict certified by the solver for every generic value.
    bool WorthSolving = false;
    auto Judge = [&](bool Generic) {
      Chosen.reset();
      Others.clear();
      for (const BlockShape &Shape : Shapes) {
        std::int64_t Size = Col.sizeOf(A.Var);
        auto Here = evaluate(A, How, A.Offset, Shape, Size, Generic);
        if (!Here)
          continue;
        unsigned Threshold = std::max(2u, MinimumDegree);
        bool Counts = Here->Worst.Degree >= Threshold;
        WorthSolving |= Here->AwayFromZeroDegree != ~0u &&
                        Here->AwayFromZeroDegree >= Threshold;
        if (Counts && Generic)
          Counts = certifyGeneric(A, Shape, Size, Here->Worst);
        if (Assumed && !Counts)
          return false;
        if (!Counts)
          continue;
        bool Better =
            !Chosen || (Assumed ? Here->Worst.Degree < Chosen->Worst.Degree
                                : Here->Worst.Degree > Chosen->Worst.Degree);
        if (Chosen)
          Others.push_back(Better ? ChosenShape : Shape);
        if (Better) {
          Chosen = Here;
          ChosenShape = Shape;
        }
      }
      return Chosen.has_value();
    };
    // The fast path first: concrete, or a conflict at every sample. The
    // solver only for 4-byte accesses whose offset holds an unknown
    // uniform value (`s[t * W + c]`), where a sample of 0 is a broadcast.
    bool Generic = false;
    if (!Judge(false)) {
      llvm::SmallVector<unsigned, 4> Atoms;
      Sym.collectAtoms(A.Offset, Atoms);
      bool HasUnknown = llvm::any_of(Atoms, [&](unsigned Atom) {
        const SymAtom &At = Sym.atoms()[Atom];
        return !At.isLoopCounter() && !At.isBlockIndex();
      });
      // Only when the samples away from 0 showed it: no second evaluation
      // (and no query) for an offset that is conflict-free at W = 7.
      if (How.Width > 4 || !HasUnknown || !WorthSolving || !Judge(true))
        continue;
      Generic = true;
    }
    BankConflict Conflict;
    Conflict.Kernel = Col.dependence().getFunction();
    Conflict.Access = A.E;
    Conflict.Via = A.Via;
    Conflict.Variable = A.Var;
    Conflict.Kind = A.Kind;
    Conflict.Degree = Chosen->Worst.Degree;
    Conflict.Wavefronts = Chosen->Wavefronts;
    Conflict.Ideal = std::max(1u, Chosen->Ideal);
    Conflict.LaneStrideWords = Chosen->Worst.StrideWords;
    Conflict.LaneA = Chosen->Worst.LaneA;
    Conflict.LaneB = Chosen->Worst.LaneB;
    Conflict.WordA = Chosen->Worst.WordA;
    Conflict.WordB = Chosen->Worst.WordB;
    Conflict.Shape = ChosenShape;
    if (Generic)
      for (const auto &[Atom, Value] : Chosen->Samples)
        Conflict.GenericValues.push_back({Sym.atoms()[Atom].Name, Value});
    if (How.Width != A.Width) {
      Conflict.IssuedWidth = How.Width;
      Conflict.MergedAccesses = How.Merged;
      Conflict.UnrolledLoop = How.LoopAtom >= 0;
    }
    if (Assumed)
      Conflict.AlsoFor = Others;
    // Rows to pad: a declared array of arrays, or a pool indexed by hand.
    const ArrayType *Outer = Col.context().getAsArrayType(A.Var->getType());
    bool HasRows =
        A.isDynamic() || (Outer && Outer->getElementType()->isArrayType());
    if (HasRows && !A.isDynamic() && PaddingFixes(A.Var))
      Conflict.PadInnerDimension = innerDimension(A.Var);
    Conflict.SuggestPadding = HasRows && !Conflict.PadInnerDimension;
    Handler.handleBankConflict(Conflict);
  }
}

} // namespace

void BankConflictAnalysis::analyzeKernel(const FunctionDecl *Kernel,
                                         llvm::ArrayRef<BlockShape> Shapes) {
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  if (!Deps)
    return;
  SharedAccessCollector Collector(Dependence, *Deps);
  Collector.collect();
  // Only the threads' own loads and stores are requests of a warp to the
  // banks: an asynchronous copy's stores are made by the copy unit, with
  // its own grouping (a 16-byte cp.async per lane is no conflict), and a
  // CUB primitive's use of its storage is the library's layout, not the
  // one the access stands for.
  llvm::erase_if(Collector.accesses(), [](const SharedAccess &A) {
    return A.Means != AccessMeans::Direct;
  });
  if (Collector.accesses().empty())
    return;
  llvm::SmallVector<BlockShape, 3> Candidates =
      Collector.candidateShapes(Shapes, Assumed);
  KernelBankFinder(Collector, Handler, MinimumDegree).run(Candidates);
}

} // namespace clang::cuda_tidy
