//===--- BlockShapeInference.cpp - A kernel's shape from its code ---------===//
//
// See BlockShapeInference.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/BlockShapeInference.h"
#include "model/CudaModel.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/STLExtras.h"
#include <set>

namespace clang::cuda_tidy {

namespace {

constexpr std::int64_t MaxThreads = 1024;
/// Thread evaluations one kernel's inference may spend.
constexpr std::uint64_t EvaluationBudget = 4'000'000;

/// `assert(blockDim.x == 16)`: the extents the kernel asserts.
class AssertedExtents : public RecursiveASTVisitor<AssertedExtents> {
public:
  explicit AssertedExtents(ASTContext &Context) : Context(Context) {}
  std::optional<std::int64_t> Dim[3];
  std::string Spelling;

  bool VisitBinaryOperator(BinaryOperator *BO) {
    if (BO->getOpcode() != BO_EQ || !BO->getBeginLoc().isMacroID())
      return true;
    const SourceManager &SM = Context.getSourceManager();
    if (Lexer::getImmediateMacroName(BO->getBeginLoc(), SM,
                                     Context.getLangOpts()) != "assert")
      return true;
    for (auto [Side, Other] : {std::pair(BO->getLHS(), BO->getRHS()),
                               std::pair(BO->getRHS(), BO->getLHS())}) {
      std::string Component;
      auto Kind = getBuiltinIndexRef(Side->IgnoreParenImpCasts(), &Component);
      Expr::EvalResult Value;
      // Component is spelled "blockDim.x".
      if (Kind != BuiltinIndexKind::BlockDim || Component.empty() ||
          Other->isValueDependent() || !Other->EvaluateAsInt(Value, Context))
        continue;
      unsigned D = Component.back() - 'x';
      if (D > 2)
        continue;
      Dim[D] = Value.Val.getInt().getExtValue();
      if (Spelling.empty())
        Spelling =
            Lexer::getSourceText(CharSourceRange::getTokenRange(
                                     SM.getSpellingLoc(BO->getBeginLoc()),
                                     SM.getSpellingLoc(BO->getEndLoc())),
                                 SM, Context.getLangOpts())
                .str();
    }
    return true;
  }

private:
  ASTContext &Context;
};

/// Whether \p S may let some threads leave the kernel: a `return` not
/// directly under a condition that is a constant of the instantiation (such
/// a branch is taken by every thread or by none; \p AllOrNone says \p S is
/// in one, not under any other branch or loop), an `asm` (it may hold
/// `exit;`), or a `goto` (it may jump past what follows).
bool mayLeave(const Stmt *S, ASTContext &Context, bool AllOrNone = false) {
  if (!S)
    return false;
  if (isa<AsmStmt, GotoStmt, IndirectGotoStmt, LambdaExpr>(S))
    return true;
  if (isa<ReturnStmt>(S))
    return !AllOrNone;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    const Expr *Cond = If->getCond();
    bool Value = false;
    // Every thread takes the same arm: a return there leaves no thread to
    // reach what follows, or all of them do.
    if (!If->getInit() && !If->getConditionVariable() && Cond &&
        !Cond->isValueDependent() && !Cond->HasSideEffects(Context) &&
        Cond->EvaluateAsBooleanCondition(Value, Context))
      return mayLeave(If->getThen(), Context, /*AllOrNone=*/true) ||
             mayLeave(If->getElse(), Context, /*AllOrNone=*/true);
  }
  // Only a block passes AllOrNone on: under any other branch or loop the
  // threads may part.
  const bool Block = isa<CompoundStmt>(S);
  for (const Stmt *Child : S->children())
    if (mayLeave(Child, Context, AllOrNone && Block))
      return true;
  return false;
}

/// `__builtin_assume(tid < nthreads)` reached by every thread of the block:
/// the author says the condition holds in every thread (it is undefined
/// behaviour otherwise), so a shape with a thread that breaks it is not one
/// the kernel runs with. Only assumptions in the kernel's body itself (not
/// under a branch or a loop), after no statement that may let threads
/// leave, and reading nothing but thread indices, block extents and
/// constants are taken.
struct Assumption {
  SymId Cond;
  std::string Spelling;
};

void collectAssumptions(const Stmt *S, SharedAccessCollector &Col,
                        std::vector<Assumption> &Found, bool &Stopped) {
  ASTContext &Context = Col.context();
  if (const auto *Compound = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : Compound->body()) {
      collectAssumptions(Child, Col, Found, Stopped);
      if (Stopped)
        return;
    }
    return;
  }
  const Stmt *Inner = S;
  if (const auto *E = dyn_cast<Expr>(S))
    Inner = E->IgnoreImplicit();
  if (const auto *Call = dyn_cast<CallExpr>(Inner);
      Call && Call->getBuiltinCallee() == Builtin::BI__builtin_assume &&
      Call->getNumArgs() == 1) {
    SymbolicTranslator &Sym = Col.symbols();
    const Expr *Cond = Call->getArg(0);
    SymId Id = Sym.translate(Cond);
    llvm::SmallVector<unsigned, 4> Atoms;
    Sym.collectAtoms(Id, Atoms);
    if (!Sym.isUnknown(Id) && Sym.usesThread(Id) && Atoms.empty()) {
      const SourceManager &SM = Context.getSourceManager();
      Found.push_back({Id, Lexer::getSourceText(
                               SM.getExpansionRange(Call->getSourceRange()), SM,
                               Context.getLangOpts())
                               .str()});
    }
    return;
  }
  Stopped = mayLeave(S, Context);
}

class ExtentSearch {
public:
  ExtentSearch(SharedAccessCollector &Col,
               std::vector<Assumption> Assumptions = {})
      : Col(Col), Sym(Col.symbols()), Assumptions(std::move(Assumptions)) {
    for (const SharedAccess &A : Col.accesses())
      if (usable(A))
        Usable.push_back(&A);
  }

  /// Whether every usable access stays inside its array (and row), and
  /// every assumption holds, for every thread of \p Shape; none when out of
  /// budget.
  std::optional<bool> fits(const BlockShape &Shape) {
    for (const SharedAccess *A : Usable) {
      auto Fits = fits(*A, Shape);
      if (!Fits || !*Fits)
        return Fits;
    }
    for (const Assumption &A : Assumptions) {
      auto Holds = holds(A, Shape);
      if (!Holds || !*Holds)
        return Holds;
    }
    return true;
  }

  /// The assumptions a shape broke, by spelling.
  std::set<std::string> Broken;

  /// The variables whose accesses decided a bound.
  std::set<std::string> Limiting;
  bool empty() const { return Usable.empty() && Assumptions.empty(); }
  /// The usable accesses' arrays' dimensions: extents worth trying.
  std::set<std::int64_t> arrayExtents() const {
    std::set<std::int64_t> Extents;
    for (const SharedAccess *A : Usable) {
      QualType T = A->Var->getType();
      while (const auto *AT = Col.context().getAsConstantArrayType(T)) {
        Extents.insert(AT->getSize().getSExtValue());
        T = AT->getElementType();
      }
    }
    return Extents;
  }
  /// Which accesses fail at \p Shape, by variable name.
  void noteLimiting(const BlockShape &Shape) {
    for (const SharedAccess *A : Usable) {
      auto Fits = fits(*A, Shape);
      if (Fits && !*Fits)
        Limiting.insert(A->Var->getName().str());
    }
    noteBroken(Shape);
  }
  /// Which assumptions fail at \p Shape.
  void noteBroken(const BlockShape &Shape) {
    for (const Assumption &A : Assumptions) {
      auto Holds = holds(A, Shape);
      if (Holds && !*Holds)
        Broken.insert(A.Spelling);
    }
  }

private:
  /// Whether \p A holds in every thread of \p Shape; none when out of
  /// budget; true when it cannot be evaluated (it then says nothing).
  std::optional<bool> holds(const Assumption &A, const BlockShape &Shape) {
    if (Budget < std::uint64_t(Shape.threads()))
      return std::nullopt;
    Budget -= Shape.threads();
    std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
    for (std::int64_t T = 0; T < Shape.threads(); ++T) {
      auto V = Sym.evaluate(
          A.Cond, SharedAccessCollector::envFor(T, Shape, Values.data()));
      if (!V)
        return true;
      if (*V == 0)
        return false;
    }
    return true;
  }

  bool usable(const SharedAccess &A) const {
    if (!A.Var || A.isDynamic() || A.untranslatedGuard() ||
        Sym.isUnknown(A.Offset) || !Sym.usesThread(A.Offset) ||
        Col.sizeOf(A.Var) <= 0)
      return false;
    llvm::SmallVector<unsigned, 4> Atoms;
    Sym.collectAtoms(A.Offset, Atoms);
    for (const auto &Guard : A.Guards)
      Sym.collectAtoms(Guard.first, Atoms);
    if (A.Row >= 0)
      Sym.collectAtoms(A.Row, Atoms);
    return llvm::all_of(Atoms, [&](unsigned Atom) {
      return Sym.atoms()[Atom].isLoopCounter();
    });
  }

  std::optional<bool> fits(const SharedAccess &A, const BlockShape &Shape) {
    llvm::SmallVector<unsigned, 4> Atoms;
    Sym.collectAtoms(A.Offset, Atoms);
    for (const auto &Guard : A.Guards)
      Sym.collectAtoms(Guard.first, Atoms);
    if (A.Row >= 0)
      Sym.collectAtoms(A.Row, Atoms);
    std::sort(Atoms.begin(), Atoms.end());
    Atoms.erase(std::unique(Atoms.begin(), Atoms.end()), Atoms.end());
    std::vector<std::int64_t> Values(Sym.atoms().size(), 0);
    SymEnv DimsOnly = SharedAccessCollector::envFor(0, Shape, Values.data());
    std::vector<std::vector<std::int64_t>> Loops;
    std::uint64_t Combos = 1;
    for (unsigned Atom : Atoms) {
      Loops.push_back(Sym.loopValues(Atom, DimsOnly));
      Combos *= std::max<std::size_t>(1, Loops.back().size());
      if (Loops.back().empty() || Combos > 256)
        return true; // Not judged: it does not constrain the shape.
    }
    const std::int64_t Size = Col.sizeOf(A.Var);
    const std::int64_t Rows = A.RowBytes > 0 ? Size / A.RowBytes : 0;
    for (std::uint64_t Combo = 0; Combo < Combos; ++Combo) {
      std::uint64_t Rest = Combo;
      for (unsigned I = 0; I < Atoms.size(); ++I) {
        Values[Atoms[I]] = Loops[I][Rest % Loops[I].size()];
        Rest /= Loops[I].size();
      }
      if (Budget < std::uint64_t(Shape.threads()))
        return std::nullopt;
      Budget -= Shape.threads();
      for (std::int64_t T = 0; T < Shape.threads(); ++T) {
        SymEnv Env = SharedAccessCollector::envFor(T, Shape, Values.data());
        bool Runs = true;
        for (const auto &[Guard, Polarity] : A.Guards) {
          auto V = Sym.evaluate(Guard, Env);
          if (!V)
            return true;
          Runs &= (*V != 0) == Polarity;
        }
        if (!Runs)
          continue;
        auto Offset = Sym.evaluate(A.Offset, Env);
        if (!Offset)
          return true;
        if (*Offset < 0 || *Offset + A.Width > Size)
          return false;
        if (A.Row >= 0) {
          auto Row = Sym.evaluate(A.Row, Env);
          auto Within = Sym.evaluate(A.WithinRow, Env);
          if (!Row || !Within)
            return true;
          if (*Row < 0 || *Row >= Rows || *Within < 0 ||
              *Within + A.Width > A.RowBytes)
            return false;
        }
      }
    }
    return true;
  }

  SharedAccessCollector &Col;
  SymbolicTranslator &Sym;
  std::vector<Assumption> Assumptions;
  std::vector<const SharedAccess *> Usable;
  std::uint64_t Budget = EvaluationBudget;
};

std::string joinNames(const std::set<std::string> &Names) {
  std::string Text;
  for (const std::string &Name : Names)
    Text += (Text.empty() ? "'" : ", '") + Name + "'";
  return Text;
}

/// Whether \p Id reads threadIdx of dimension \p D.
bool readsThread(const SymbolicTranslator &Sym, SymId Id, unsigned D) {
  if (Id < 0)
    return false;
  const SymNode &N = Sym.node(Id);
  if (N.K == SymNode::Thread)
    return N.Value == D;
  return readsThread(Sym, N.A, D) || readsThread(Sym, N.B, D) ||
         readsThread(Sym, N.C, D);
}

/// The extents the kernel's per-thread arrays give each dimension: an
/// array whose outermost dimension is indexed by `threadIdx.<d>` itself
/// (`sm_coordinates[threadIdx.z]`, or a local set once to it), in an access
/// that every thread of the dimension makes (no guard reads `threadIdx.<d>`)
/// and that stays inside the element, holds one element per index of that
/// dimension: the author sized it to the dimension's extent. Arrays larger
/// than \p Limit threads are sized for something else and say nothing.
struct PerThreadArrays {
  std::optional<std::int64_t> Extent[3];
  std::set<std::string> Names[3];
};

PerThreadArrays perThreadArrays(SharedAccessCollector &Col,
                                std::int64_t Limit) {
  PerThreadArrays Found;
  const SymbolicTranslator &Sym = Col.symbols();
  for (const SharedAccess &A : Col.accesses()) {
    if (!A.Var || A.Outer < 0 || A.untranslatedGuard())
      continue;
    const SymNode &Index = Sym.node(A.Outer);
    if (Index.K != SymNode::Thread || Index.Value < 0 || Index.Value > 2)
      continue;
    const unsigned D = Index.Value;
    const auto *Array = Col.context().getAsConstantArrayType(A.Var->getType());
    const std::int64_t Size = Col.sizeOf(A.Var);
    if (!Array || Size <= 0)
      continue;
    const std::int64_t Extent = Array->getSize().getSExtValue();
    if (Extent <= 1 || Extent > Limit || A.Width > Size / Extent ||
        llvm::any_of(A.Guards, [&](const auto &Guard) {
          return readsThread(Sym, Guard.first, D);
        }))
      continue;
    if (Found.Extent[D] && *Found.Extent[D] < Extent)
      continue;
    if (!Found.Extent[D] || *Found.Extent[D] > Extent)
      Found.Names[D].clear();
    Found.Extent[D] = Extent;
    Found.Names[D].insert(A.Var->getName().str());
  }
  return Found;
}

/// "a", "a and b", "a, b and c".
std::string joinReasons(llvm::ArrayRef<std::string> Reasons) {
  std::string Text;
  for (unsigned I = 0; I < Reasons.size(); ++I) {
    if (I > 0)
      Text += I + 1 == Reasons.size() ? " and " : ", ";
    Text += Reasons[I];
  }
  return Text;
}

} // namespace

llvm::SmallVector<BlockShape, 3>
inferBlockShapes(SharedAccessCollector &Col, const AssumedShapes &Assumed) {
  ASTContext &Context = Col.context();
  const FunctionDecl *Kernel = Col.dependence().getFunction();
  std::vector<Assumption> Assumptions;
  bool Stopped = false;
  if (Kernel->getBody())
    collectAssumptions(Kernel->getBody(), Col, Assumptions, Stopped);
  const unsigned Highest = Col.symbols().highestThreadDimension();

  AssertedExtents Asserted(Context);
  Asserted.TraverseStmt(const_cast<Stmt *>(Kernel->getBody()));
  std::int64_t Limit = MaxThreads;
  if (const auto *Attr = Kernel->getAttr<CUDALaunchBoundsAttr>()) {
    Expr::EvalResult Max;
    if (Attr->getMaxThreads() && !Attr->getMaxThreads()->isValueDependent() &&
        Attr->getMaxThreads()->EvaluateAsInt(Max, Context) &&
        Max.Val.getInt().getExtValue() > 0)
      Limit = std::min(Limit, Max.Val.getInt().getExtValue());
  }
  std::optional<std::int64_t> Fixed[3];
  for (unsigned D = 0; D < 3; ++D)
    if (Asserted.Dim[D] && *Asserted.Dim[D] > 0)
      Fixed[D] = *Asserted.Dim[D];

  // Each dimension's largest extent alone, the others at their asserted
  // extents, else 1.
  ExtentSearch Search(Col, std::move(Assumptions));
  std::optional<std::int64_t> Bound[3];
  if (!Search.empty()) {
    std::set<std::int64_t> Tried = Search.arrayExtents();
    for (std::int64_t P = 2; P <= MaxThreads; P *= 2)
      Tried.insert(P);
    for (unsigned D = 0; D <= Highest; ++D) {
      if (Fixed[D])
        continue;
      BlockShape Trial;
      for (unsigned O = 0; O < 3; ++O)
        Trial.Dim[O] = Fixed[O].value_or(1);
      Trial.Dim[D] = Limit;
      auto Unbounded = Search.fits(Trial);
      if (!Unbounded)
        return {};
      if (*Unbounded)
        continue;
      Search.noteLimiting(Trial);
      for (auto It = Tried.rbegin(); It != Tried.rend(); ++It) {
        if (*It >= Limit)
          continue;
        Trial.Dim[D] = *It;
        auto Fits = Search.fits(Trial);
        if (!Fits)
          return {};
        if (*Fits) {
          Bound[D] = *It;
          break;
        }
      }
    }
  }

  // The per-thread arrays set their dimension's extent, raising it too; the
  // in-bounds extents above then still cut it.
  const PerThreadArrays PerThread = perThreadArrays(Col, Limit);
  std::optional<std::int64_t> Sized[3];
  bool AnySized = false;
  for (unsigned D = 0; D <= Highest; ++D)
    if (!Fixed[D] && PerThread.Extent[D]) {
      Sized[D] = std::min(*PerThread.Extent[D], Bound[D].value_or(Limit));
      AnySized = true;
    }

  // One assumption corrected by the code, with the per-thread arrays only
  // when \p PerThreadToo; none when out of budget, more threads than the
  // limit when nothing fits.
  auto Correct = [&](const BlockShape &Guess,
                     bool PerThreadToo) -> std::optional<BlockShape> {
    auto SizedAt = [&](unsigned D) {
      return PerThreadToo ? Sized[D] : std::nullopt;
    };
    BlockShape Shape = Guess;
    bool FromExtents = false, FromAssert = false, FromBounds = false,
         FromMax = false;
    for (unsigned D = 0; D < 3; ++D) {
      if (Fixed[D]) {
        FromAssert = true;
        Shape.Dim[D] = *Fixed[D];
      } else if (SizedAt(D) && *SizedAt(D) > Shape.Dim[D]) {
        Shape.Dim[D] = *SizedAt(D);
      } else if (Bound[D] && *Bound[D] < Shape.Dim[D]) {
        Shape.Dim[D] = *Bound[D];
        FromExtents = true;
      }
    }
    // Together: shrink the largest free dimension until everything fits,
    // a dimension a per-thread array sized last.
    for (unsigned Step = 0; Step < 24; ++Step) {
      const bool TooMany = Shape.threads() > Limit;
      std::optional<bool> Fits =
          TooMany ? std::optional<bool>(false) : Search.fits(Shape);
      if (!Fits)
        return std::nullopt;
      if (*Fits)
        break;
      int Largest = -1;
      for (bool SizedToo : {false, true}) {
        for (unsigned D = 0; D < 3; ++D)
          if (!Fixed[D] && (SizedToo || !SizedAt(D)) && Shape.Dim[D] > 1 &&
              (Largest < 0 || Shape.Dim[D] > Shape.Dim[Largest]))
            Largest = D;
        if (Largest >= 0)
          break;
      }
      if (Largest < 0)
        break;
      Shape.Dim[Largest] /= 2;
      // The note says what made it shrink: too many threads for the bound
      // or the hardware, or an access out of its array.
      if (!TooMany) {
        FromExtents = true;
        Search.noteBroken(Shape);
      } else if (Limit < MaxThreads)
        FromBounds = true;
      else
        FromMax = true;
    }
    llvm::SmallVector<std::string, 4> Reasons;
    if (FromAssert)
      Reasons.push_back("'assert(" + Asserted.Spelling + ")'");
    for (unsigned D = 0; D < 3; ++D)
      if (SizedAt(D) && Shape.Dim[D] > Guess.Dim[D])
        Reasons.push_back(joinNames(PerThread.Names[D]) + " indexed by '" +
                          "threadIdx." + char('x' + D) + "'");
    if (FromExtents && !Search.Broken.empty())
      for (const std::string &Broken : Search.Broken)
        Reasons.push_back("'" + Broken + "'");
    if (FromExtents && (Search.Broken.empty() || !Search.Limiting.empty()))
      Reasons.push_back(Search.Limiting.empty()
                            ? "the extents of its shared arrays"
                            : "the extents of " + joinNames(Search.Limiting));
    if (FromBounds)
      Reasons.push_back("'__launch_bounds__(" + std::to_string(Limit) + ")'");
    if (FromMax)
      Reasons.push_back("at most " + std::to_string(MaxThreads) +
                        " threads per block");
    if (!Reasons.empty())
      Shape.Origin = "from " + joinReasons(Reasons);
    return Shape;
  };

  llvm::SmallVector<BlockShape, 3> Shapes;
  bool Changed = false;
  for (const BlockShape &Guess : Assumed[Highest]) {
    std::optional<BlockShape> Shape = Correct(Guess, false);
    // An assumption the code contradicts gives way to what the code says,
    // its per-thread arrays included (GROMACS's PME gather: the assumed
    // (8,8,4) breaks its __launch_bounds__(128), and `sm_coordinates[z]`
    // says z is 8). One it does not contradict stands, so that the options
    // keep their meaning.
    if (Shape && AnySized &&
        (Shape->Dim != Guess.Dim || Shape->threads() > Limit))
      Shape = Correct(Guess, true);
    if (!Shape)
      return {};
    if (Shape->threads() > Limit)
      continue;
    Changed |= !Shape->Origin.empty();
    if (llvm::none_of(Shapes, [&](const BlockShape &Other) {
          return Other.Dim == Shape->Dim;
        }))
      Shapes.push_back(*Shape);
  }
  if (!Changed)
    return {};
  return Shapes;
}

} // namespace clang::cuda_tidy
