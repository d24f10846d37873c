//===--- BankConflict.cpp - Shared-memory bank conflicts ------------------===//
//
// See BankConflict.h for the model.
//
//===----------------------------------------------------------------------===//

#include "analysis/BankConflict.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/TypeLoc.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include <iterator>

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
};

enum class Outcome { Ok, Inactive, Undecided };

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
  };
  /// \p Size is the variable's size in bytes (-1: unknown).
  std::optional<Summary> evaluate(const SharedAccess &A, SymId Offset,
                                  const BlockShape &Shape, std::int64_t Size);
  Outcome request(const SharedAccess &A, SymId Offset, std::int64_t Size,
                  const BlockShape &Shape, std::int64_t Warp,
                  const std::vector<std::int64_t> &Atoms, WarpRequest &R);
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

Outcome KernelBankFinder::request(const SharedAccess &A, SymId Offset,
                                  std::int64_t Size, const BlockShape &Shape,
                                  std::int64_t Warp,
                                  const std::vector<std::int64_t> &Atoms,
                                  WarpRequest &R) {
  R = WarpRequest();
  unsigned GroupSize = A.Width <= 4 ? 32 : A.Width <= 8 ? 16 : 8;
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
    if (*Address < 0 || (Size >= 0 && *Address + A.Width > Size)) {
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
    std::int64_t FirstWord[Banks];
    bool GroupActive = false;
    for (unsigned Lane = First; Lane < First + GroupSize; ++Lane) {
      if (!Active[Lane])
        continue;
      GroupActive = true;
      std::int64_t Begin = Addresses[Lane] / 4;
      std::int64_t End = (Addresses[Lane] + A.Width - 1) / 4;
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
        R.Degree = std::max(R.Degree, PerBank[Bank]);
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
KernelBankFinder::evaluate(const SharedAccess &A, SymId Offset,
                           const BlockShape &Shape, std::int64_t Size) {
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
  const unsigned SampleCombos = sampleCombinations(Sampled.size());
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
    assignSamples(Sample, Sampled, Values);
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
          Outcome O = request(A, Offset, Size, Shape, Warp, Values, R);
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
      if (!Generic || Here.ActiveLanes > Generic->ActiveLanes)
        Generic = Here;
    }
    if (!Generic) {
      if (GuardOnly.empty())
        return std::nullopt;
      continue; // No lane runs for these values: no verdict either way.
    }
    // The conflict must show for every sample of the unknown values.
    if (!Result || Generic->Worst.Degree < Result->Worst.Degree)
      Result = Generic;
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

void KernelBankFinder::run(llvm::ArrayRef<BlockShape> Shapes) {
  std::vector<SharedAccess> &Accesses = Col.accesses();
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
        auto After = Padded
                         ? evaluate(Other, Padded->first, Shape, Padded->second)
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
  for (const SharedAccess &A : Accesses) {
    if (A.UnknownGuard || Sym.isUnknown(A.Offset) ||
        A.Kind == AccessKind::Atomic)
      continue;
    // Known shapes: the worst of them. Assumed shapes: only a conflict that
    // every applicable one shows, reported with the mildest.
    std::optional<Summary> Chosen;
    BlockShape ChosenShape;
    llvm::SmallVector<BlockShape, 2> Others;
    bool Rejected = false;
    for (const BlockShape &Shape : Shapes) {
      auto Here = evaluate(A, A.Offset, Shape, Col.sizeOf(A.Var));
      if (!Here)
        continue;
      bool Counts = Here->Worst.Degree >= std::max(2u, MinimumDegree);
      if (Assumed && !Counts) {
        Rejected = true;
        break;
      }
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
    if (Rejected || !Chosen)
      continue;
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
  SharedAccessCollector Collector(Dependence.getContext(), *Deps);
  Collector.collect();
  if (Collector.accesses().empty())
    return;
  llvm::SmallVector<BlockShape, 3> Candidates =
      Collector.candidateShapes(Shapes, Assumed);
  KernelBankFinder(Collector, Handler, MinimumDegree).run(Candidates);
}

} // namespace clang::cuda_tidy
