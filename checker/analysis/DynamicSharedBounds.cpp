//===--- DynamicSharedBounds.cpp - Dynamic shared memory vs launch --------===//
//
// See DynamicSharedBounds.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/DynamicSharedBounds.h"
#include "analysis/ExactQuery.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Basic/TargetInfo.h"
#include "llvm/ADT/StringSwitch.h"

namespace clang::cuda_tidy {

DynamicSharedHandler::~DynamicSharedHandler() = default;

namespace {

/// Sample values for what the host code does not say: sizes a program
/// typically uses, small and large.
const std::int64_t HostSamples[] = {1, 32, 64, 100, 128, 256, 512, 1000, 1024};
constexpr unsigned NumHostSamples = std::size(HostSamples);
constexpr std::int64_t DefaultDynamicLimit = 48 * 1024;

} // namespace

std::int64_t DynamicSharedBoundsAnalysis::targetLimit(llvm::StringRef Arch) {
  // The opt-in maximum of dynamic shared memory per block (CUDA
  // Programming Guide, "Technical Specifications per Compute Capability").
  return llvm::StringSwitch<std::int64_t>(Arch)
      .Cases({"sm_70", "sm_72"}, 96 * 1024)
      .Case("sm_75", 64 * 1024)
      .Cases({"sm_80", "sm_87"}, 163 * 1024)
      .Cases({"sm_86", "sm_89", "sm_120", "sm_121"}, 99 * 1024)
      .Cases({"sm_90", "sm_90a", "sm_100", "sm_100a", "sm_103"}, 227 * 1024)
      .Default(0);
}

struct DynamicSharedBoundsAnalysis::KernelInfo {
  std::unique_ptr<SharedAccessCollector> Collector;
  std::vector<unsigned> Dynamic; // Indices of accesses into the pool.
};

DynamicSharedBoundsAnalysis::DynamicSharedBoundsAnalysis(
    ThreadDependenceAnalysis &Dependence, DynamicSharedHandler &Handler,
    bool ReportPossible)
    : Dependence(Dependence), Handler(Handler), ReportPossible(ReportPossible) {
}

DynamicSharedBoundsAnalysis::~DynamicSharedBoundsAnalysis() = default;

DynamicSharedBoundsAnalysis::KernelInfo *
DynamicSharedBoundsAnalysis::kernelInfo(const FunctionDecl *Kernel) {
  auto It = Kernels.find(Kernel);
  if (It != Kernels.end())
    return It->second.get();
  auto &Info = Kernels[Kernel];
  const FunctionDependence *Deps = Dependence.analyze(Kernel);
  if (!Deps)
    return nullptr;
  Info = std::make_unique<KernelInfo>();
  Info->Collector = std::make_unique<SharedAccessCollector>(Dependence, *Deps);
  Info->Collector->collect();
  const auto &Accesses = Info->Collector->accesses();
  for (unsigned I = 0; I < Accesses.size(); ++I)
    if (Accesses[I].isDynamic())
      Info->Dynamic.push_back(I);
  return Info.get();
}

SymbolicTranslator &
DynamicSharedBoundsAnalysis::hostTranslator(const FunctionDecl *Caller) {
  auto &T = Hosts[Caller];
  if (!T)
    T = std::make_unique<SymbolicTranslator>(Dependence.getContext(), Caller,
                                             nullptr);
  return *T;
}

namespace {

/// The three components of a dim3 (or integer) block argument, in the host
/// function's symbolic form; none when not computable. A dim3 variable is
/// followed only when it is never assigned: its initialiser is then its
/// value at every launch.
std::optional<std::array<SymId, 3>> blockComponents(const Expr *E,
                                                    SymbolicTranslator &T) {
  auto Parts = blockArgumentComponents(E, [&](const VarDecl *VD) {
    return VD->getType()->isRecordType() && T.assignmentsTo(VD) == 0;
  });
  if (!Parts)
    return std::nullopt;
  std::array<SymId, 3> Ids;
  for (unsigned I = 0; I < 3; ++I)
    Ids[I] = (*Parts)[I] ? T.translate((*Parts)[I]) : T.constant(1);
  return Ids;
}

std::string describeHostValues(const SymbolicTranslator &T,
                               llvm::ArrayRef<unsigned> Atoms,
                               const std::vector<std::int64_t> &Values) {
  std::string Text;
  for (unsigned Atom : Atoms) {
    if (!Text.empty())
      Text += ", ";
    Text += "'" + T.atoms()[Atom].Name + "' is " + std::to_string(Values[Atom]);
  }
  return Text;
}

/// Resource limit of each solver query (ExactQuery.h): about a third of a
/// second of Z3, as the race check's default.
constexpr unsigned BoundsQueryLimit = 2000000;

/// The solver's side of an overflow that the samples find for some block
/// shapes only (issue 9): the launch's extents are host values, so a
/// degenerate sample (one thread a row) can hide an overflow every real
/// shape has. Each symbolic extent of the launch becomes the solver's
/// blockDim, the byte count is stated over them, and the question is the
/// generic one of ExactQuery.h: is there a thread of a block whose
/// symbolic extents are all 2 or more such that an access runs and ends
/// past the byte count, at a point no extent is isolated at? Handles launch
/// extents that are constants or single host values (`dim3 block(bx, by)`)
/// and byte counts built from them with + - * and constants; kernel
/// offsets over threadIdx, blockDim, blockIdx and loop counters. Anything
/// else: no answer, and the samples' verdict stands.
class SymbolicOverflow {
public:
  SymbolicOverflow(const SymbolicTranslator &Host,
                   const SymbolicTranslator &Kernel)
      : Host(Host), Kernel(Kernel), Q(Kernel, BoundsQueryLimit) {}

  /// Whether the launch with block components \p Block and byte count \p
  /// Bytes (host expressions) lets access \p A overflow for generic
  /// extents; fills the witness into \p P.
  bool certain(const std::array<SymId, 3> &Block, SymId Bytes,
               const SharedAccess &A, DynamicSharedProblem &P) {
    if (!encodeShape(Block))
      return false;
    llvm::SmallVector<unsigned, 4> Atoms;
    Kernel.collectAtoms(A.Offset, Atoms);
    for (const auto &Guard : A.Guards)
      Kernel.collectAtoms(Guard.first, Atoms);
    for (unsigned Atom : Atoms)
      if (!Kernel.atoms()[Atom].isLoopCounter() &&
          !Kernel.atoms()[Atom].isBlockIndex())
        return false; // A kernel parameter: the launch's argument decides.
    llvm::SMTExprRef ByteCount = encodeHost(Bytes, 0);
    if (!ByteCount)
      return false;
    llvm::SMTSolver &S = Q.solver();
    unsigned T = Q.addThread();
    for (const auto &[Guard, Polarity] : A.Guards) {
      llvm::SMTExprRef Holds = Q.holds(Guard, T);
      Q.require(Polarity ? Holds : S.mkNot(Holds));
    }
    llvm::SMTExprRef Begin = Q.value(A.Offset, T);
    llvm::SMTExprRef End = S.mkBVAdd(Begin, Q.constant(A.Width));
    Q.require(S.mkBVSge(ByteCount, Q.constant(0)));
    Q.require(S.mkBVSgt(End, ByteCount));
    llvm::SMTExprRef Seen[3], Linear = Q.observe(Q.linearThread(T)),
                              SeenBegin = Q.observe(Begin),
                              SeenBytes = Q.observe(ByteCount);
    for (unsigned D = 0; D < 3; ++D)
      Seen[D] = Q.observe(Q.blockDim(D));

    // A model with every symbolic extent in the generic region, small
    // ones first for a readable witness.
    std::optional<bool> Found;
    for (std::int64_t High : {64, 1024}) {
      Q.push();
      for (unsigned D : Symbolic)
        Q.require(inRange(Q.blockDim(D), 2, High));
      Found = Q.check();
      if (Found == true)
        break;
      Q.pop();
      if (!Found)
        return false;
    }
    if (!*Found)
      return false;
    std::int64_t Point[3];
    for (unsigned D = 0; D < 3; ++D)
      P.Shape.Dim[D] = Point[D] = Q.modelValue(Seen[D]);
    P.Thread = Q.modelValue(Linear);
    P.AccessBegin = Q.modelValue(SeenBegin);
    P.Reach = P.AccessBegin + A.Width;
    P.Bytes = Q.modelValue(SeenBytes);
    P.Access = A.E;
    P.Via = A.Via;
    P.Carved = A.Carved;
    P.Pool = A.Var;
    Q.pop();
    // Not isolated: each extent can move off the witness alone.
    for (unsigned D : Symbolic) {
      Q.push();
      for (unsigned E : Symbolic) {
        llvm::SMTExprRef Fixed = S.mkEqual(Q.blockDim(E), Q.constant(Point[E]));
        Q.require(D == E ? S.mkNot(Fixed) : Fixed);
        Q.require(inRange(Q.blockDim(E), 2, 1024));
      }
      std::optional<bool> Moved = Q.check();
      Q.pop();
      if (Moved != true)
        return false;
    }
    std::string When;
    for (unsigned D : Symbolic) {
      if (!When.empty())
        When += ", ";
      When += "'" + Host.atoms()[AtomOfDim[D]].Name + "' is " +
              std::to_string(Point[D]);
    }
    P.When = When;
    P.Solved = true;
    return true;
  }

private:
  llvm::SMTExprRef inRange(const llvm::SMTExprRef &V, std::int64_t Low,
                           std::int64_t High) {
    llvm::SMTSolver &S = Q.solver();
    return S.mkAnd(S.mkBVSge(V, Q.constant(Low)),
                   S.mkBVSle(V, Q.constant(High)));
  }

  bool encodeShape(const std::array<SymId, 3> &Block) {
    Q.setSymbolicShape();
    for (unsigned D = 0; D < 3; ++D) {
      const SymNode &N = Host.node(Block[D]);
      if (N.K == SymNode::Const) {
        Q.require(Q.solver().mkEqual(Q.blockDim(D), Q.constant(N.Value)));
        continue;
      }
      if (N.K != SymNode::Atom)
        return false;
      unsigned Atom = static_cast<unsigned>(N.Value);
      auto [It, New] = DimOfAtom.try_emplace(Atom, D);
      if (!New) {
        Q.require(Q.solver().mkEqual(Q.blockDim(D), Q.blockDim(It->second)));
        continue;
      }
      AtomOfDim[D] = Atom;
      Symbolic.push_back(D);
    }
    return !Symbolic.empty();
  }

  /// \p Id of the host translator over the launch's extents; null for
  /// anything else.
  llvm::SMTExprRef encodeHost(SymId Id, unsigned Depth) {
    if (Id < 0 || Depth > 16)
      return nullptr;
    const SymNode &N = Host.node(Id);
    llvm::SMTSolver &S = Q.solver();
    switch (N.K) {
    case SymNode::Const:
      return Q.constant(N.Value);
    case SymNode::Atom: {
      auto It = DimOfAtom.find(static_cast<unsigned>(N.Value));
      return It == DimOfAtom.end() ? nullptr : Q.blockDim(It->second);
    }
    case SymNode::Add:
    case SymNode::Sub:
    case SymNode::Mul: {
      llvm::SMTExprRef L = encodeHost(N.A, Depth + 1);
      llvm::SMTExprRef R = L ? encodeHost(N.B, Depth + 1) : nullptr;
      if (!R)
        return nullptr;
      return N.K == SymNode::Add   ? S.mkBVAdd(L, R)
             : N.K == SymNode::Sub ? S.mkBVSub(L, R)
                                   : S.mkBVMul(L, R);
    }
    default:
      return nullptr;
    }
  }

  const SymbolicTranslator &Host;
  const SymbolicTranslator &Kernel;
  ExactQuery Q;
  llvm::DenseMap<unsigned, unsigned> DimOfAtom;
  unsigned AtomOfDim[3] = {0, 0, 0};
  llvm::SmallVector<unsigned, 3> Symbolic;
};

} // namespace

void DynamicSharedBoundsAnalysis::analyze(
    const KernelLaunch &Launch,
    llvm::ArrayRef<SharedSizeAttribute> Attributes) {
  KernelInfo *Info = kernelInfo(Launch.Kernel);
  if (!Info || (!Launch.Caller && Launch.Route != LaunchRoute::OtherFile))
    return;
  ASTContext &Context = Dependence.getContext();
  SharedAccessCollector &Col = *Info->Collector;
  SymbolicTranslator &KT = Col.symbols();
  // A launch in another file comes with constants only: any translator
  // holds them.
  SymbolicTranslator &HT =
      hostTranslator(Launch.Caller ? Launch.Caller : Launch.Kernel);
  const auto &Accesses = Col.accesses();

  DynamicSharedProblem Base;
  Base.Launch = &Launch;
  if (!Info->Dynamic.empty()) {
    const SharedAccess &First = Accesses[Info->Dynamic.front()];
    Base.Pool = First.Var;
    Base.Access = First.E;
    Base.Via = First.Via;
  }

  SymId Bytes = Launch.ConstantBytes ? HT.constant(*Launch.ConstantBytes)
                : Launch.Bytes       ? HT.translate(Launch.Bytes)
                                     : HT.constant(0);
  llvm::SmallVector<unsigned, 4> HostAtoms;
  HT.collectAtoms(Bytes, HostAtoms);
  SymEnv NoValues;
  std::optional<std::int64_t> ConstantBytes =
      HostAtoms.empty() ? HT.evaluate(Bytes, NoValues) : std::nullopt;

  // A kernel that uses the pool, launched with none of it.
  if (!Info->Dynamic.empty() && ConstantBytes && *ConstantBytes == 0) {
    DynamicSharedProblem P = Base;
    P.What = DynamicSharedProblem::NoBytes;
    Handler.handleProblem(P);
    return;
  }
  // Sizes the launch cannot get (judged where the launch is).
  if (ConstantBytes && *ConstantBytes > DefaultDynamicLimit && Launch.Call) {
    const SourceManager &SM = Context.getSourceManager();
    bool Raised = llvm::any_of(Attributes, [&](const SharedSizeAttribute &A) {
      if (A.Kernel != Launch.Kernel ||
          !SM.isBeforeInTranslationUnit(A.Call->getBeginLoc(),
                                        Launch.Call->getBeginLoc()))
        return false;
      Expr::EvalResult Value;
      return A.Value->isValueDependent() ||
             !A.Value->EvaluateAsInt(Value, Context) ||
             Value.Val.getInt().getExtValue() >= *ConstantBytes;
    });
    const TargetInfo *Device = Context.getLangOpts().CUDAIsDevice
                                   ? &Context.getTargetInfo()
                                   : Context.getAuxTargetInfo();
    std::string Arch = Device ? Device->getTargetOpts().CPU : "";
    std::int64_t Limit = targetLimit(Arch);
    if (!Limit) {
      // The host pass may not know the architecture: the largest any
      // current GPU allows is still a limit.
      Limit = 227 * 1024;
      Arch = "any current GPU";
    }
    DynamicSharedProblem P = Base;
    P.Bytes = *ConstantBytes;
    if (Limit && *ConstantBytes > Limit) {
      // No attribute can help: say that rather than ask for one.
      P.What = DynamicSharedProblem::AboveTarget;
      P.Limit = Limit;
      P.Target = Arch;
      Handler.handleProblem(P);
    } else if (!Raised) {
      P.What = DynamicSharedProblem::AboveDefault;
      P.Limit = DefaultDynamicLimit;
      Handler.handleProblem(P);
    }
  }
  if (Info->Dynamic.empty())
    return;

  // Overflow: evaluate the launch's values for each sample of what the host
  // code does not say, and the kernel's reach with them.
  std::optional<std::array<SymId, 3>> Block;
  if (Launch.Shape)
    Block = {HT.constant(Launch.Shape->Dim[0]),
             HT.constant(Launch.Shape->Dim[1]),
             HT.constant(Launch.Shape->Dim[2])};
  else if (Launch.Block)
    Block = blockComponents(Launch.Block, HT);
  if (!Block)
    return;
  for (SymId Part : *Block)
    HT.collectAtoms(Part, HostAtoms);
  llvm::SmallVector<SymId, 8> Args;
  for (const Expr *Arg : Launch.Args) {
    Args.push_back(
        Arg->getType()->isIntegralOrEnumerationType() ? HT.translate(Arg) : -1);
    if (Args.back() >= 0 && !HT.isUnknown(Args.back()))
      HT.collectAtoms(Args.back(), HostAtoms);
  }
  if (HostAtoms.size() > 2)
    return;
  unsigned Combos = 1;
  for (unsigned I = 0; I < HostAtoms.size(); ++I)
    Combos *= NumHostSamples;

  unsigned Evaluated = 0, Overflowing = 0;
  // Some sample with every host value 2 or more fits: the overflow is not
  // generic, whatever the solver finds elsewhere.
  bool FitsGenerically = false;
  DynamicSharedProblem Worst = Base, Smallest = Base;
  std::vector<std::int64_t> HostValues(HT.atoms().size(), 0);
  for (unsigned Combo = 0; Combo < Combos; ++Combo) {
    unsigned C = Combo;
    for (unsigned Atom : HostAtoms) {
      HostValues[Atom] = HostSamples[C % NumHostSamples];
      C /= NumHostSamples;
    }
    SymEnv HostEnv;
    HostEnv.Atoms = HostValues.data();
    BlockShape Shape;
    bool Valid = true;
    for (unsigned D = 0; D < 3; ++D) {
      auto V = HT.evaluate((*Block)[D], HostEnv);
      if (!V)
        return; // The shape is not computable at all.
      Shape.Dim[D] = *V;
      Valid &= *V >= 1;
    }
    auto BytesHere = HT.evaluate(Bytes, HostEnv);
    if (!BytesHere)
      return;
    if (!Valid || Shape.threads() > 1024 || *BytesHere < 0)
      continue; // Not a launch that can happen.

    // Kernel atoms: parameters take the arguments' values; others are
    // unknown.
    const auto &KernelAtoms = KT.atoms();
    std::vector<std::int64_t> KernelValues(KernelAtoms.size(), 0);
    std::vector<bool> Known(KernelAtoms.size(), false);
    for (unsigned I = 0; I < KernelAtoms.size(); ++I) {
      const auto *Param = dyn_cast_or_null<ParmVarDecl>(KernelAtoms[I].Var);
      if (!Param || KernelAtoms[I].isLoopCounter())
        continue;
      unsigned Index = Param->getFunctionScopeIndex();
      if (!Launch.ArgsKnown || Index >= Args.size() || Args[Index] < 0)
        continue;
      if (auto V = HT.evaluate(Args[Index], HostEnv)) {
        KernelValues[I] = *V;
        Known[I] = true;
      }
    }

    std::int64_t Reach = -1;
    DynamicSharedProblem Here = Base;
    for (unsigned Index : Info->Dynamic) {
      const SharedAccess &A = Accesses[Index];
      if (A.untranslatedGuard() || KT.isUnknown(A.Offset))
        continue;
      llvm::SmallVector<unsigned, 4> Atoms;
      KT.collectAtoms(A.Offset, Atoms);
      for (const auto &Guard : A.Guards)
        KT.collectAtoms(Guard.first, Atoms);
      SymEnv DimsEnv =
          SharedAccessCollector::envFor(0, Shape, KernelValues.data());
      std::vector<std::pair<unsigned, std::vector<std::int64_t>>> Loops;
      bool Computable = true;
      unsigned LoopCombos = 1;
      for (unsigned Atom : Atoms) {
        if (KernelAtoms[Atom].isLoopCounter()) {
          auto Values = KT.loopValues(Atom, DimsEnv, /*UseAtoms=*/true);
          if (Values.empty()) {
            Computable = false;
            break;
          }
          LoopCombos *= Values.size();
          Loops.push_back({Atom, std::move(Values)});
        } else if (KernelAtoms[Atom].isBlockIndex()) {
          // Block 0 is in every launch: what it reaches, the launch
          // reaches, so an overflow it shows is real (an early `if (i >= n)
          // return;` with `i = blockIdx.x * blockDim.x + t`).
          Loops.push_back({Atom, {0}});
        } else if (!Known[Atom]) {
          Computable = false;
          break;
        }
      }
      if (!Computable || LoopCombos > 4096)
        continue;
      for (unsigned L = 0; L < LoopCombos; ++L) {
        unsigned Rest = L;
        for (const auto &[Atom, Values] : Loops) {
          KernelValues[Atom] = Values[Rest % Values.size()];
          Rest /= Values.size();
        }
        for (std::int64_t T = 0; T < Shape.threads(); ++T) {
          SymEnv Env =
              SharedAccessCollector::envFor(T, Shape, KernelValues.data());
          bool Runs = true;
          for (const auto &[Guard, Polarity] : A.Guards) {
            auto V = KT.evaluate(Guard, Env);
            if (!V) {
              Runs = false;
              break;
            }
            Runs &= (*V != 0) == Polarity;
          }
          if (!Runs)
            continue;
          auto Offset = KT.evaluate(A.Offset, Env);
          if (!Offset)
            continue;
          if (*Offset + A.Width > Reach) {
            Reach = *Offset + A.Width;
            Here.Access = A.E;
            Here.Via = A.Via;
            Here.Thread = T;
            Here.AccessBegin = *Offset;
            Here.Carved = A.Carved;
            Here.Pool = A.Var;
          }
        }
      }
    }
    ++Evaluated;
    if (Reach > *BytesHere) {
      // The samples grow: keep the smallest overflow (the threshold, for a
      // possible one) and the largest (for a certain one).
      Here.Bytes = *BytesHere;
      Here.Reach = Reach;
      Here.Shape = Shape;
      Here.When = describeHostValues(HT, HostAtoms, HostValues);
      if (++Overflowing == 1)
        Smallest = Here;
      Worst = Here;
    } else if (llvm::all_of(HostAtoms, [&](unsigned Atom) {
                 return HostValues[Atom] >= 2;
               })) {
      FitsGenerically = true;
    }
    // A sample whose computable part fits counts as not overflowing, even if
    // some accesses could not be judged: certainty needs every sample.
  }
  if (Overflowing == 0)
    return;
  // Some samples only, and those that fit are degenerate (an extent of 1):
  // ask the solver whether the overflow is generic.
  if (Overflowing < Evaluated && !FitsGenerically)
    for (unsigned Index : Info->Dynamic) {
      const SharedAccess &A = Accesses[Index];
      if (A.untranslatedGuard() || KT.isUnknown(A.Offset))
        continue;
      DynamicSharedProblem Solved = Base;
      if (SymbolicOverflow(HT, KT).certain(*Block, Bytes, A, Solved)) {
        Solved.What = DynamicSharedProblem::Overflow;
        Handler.handleProblem(Solved);
        return;
      }
    }
  DynamicSharedProblem &Shown = Overflowing == Evaluated ? Worst : Smallest;
  Shown.What = DynamicSharedProblem::Overflow;
  Shown.Certain = Overflowing == Evaluated;
  if (Shown.Certain || ReportPossible)
    Handler.handleProblem(Shown);
}

} // namespace clang::cuda_tidy
