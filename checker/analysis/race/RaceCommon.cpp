//===--- RaceCommon.cpp - What the race analysis's stages share -----------===//

#include "analysis/race/RaceCommon.h"
#include "analysis/ExactQuery.h"

namespace clang::cuda_tidy {

namespace {

/// What setting up one solver query costs beyond the resource units Z3
/// counts (a fresh context, encoding, bit-blasting the terms), in those
/// units: measured on GROMACS's foreign-lambda kernels, whose queries are
/// mostly small.
constexpr std::uint64_t QueryWork = 20'000;

/// The value of a parameter whose launch relation this shape makes a
/// constant (`tilew` = blockDim.x + 2 with blockDim.x = 16), when the
/// kernel leaves it and the relation's parameters as they are.
std::optional<std::int64_t> relatedConstant(const SymbolicTranslator &Sym,
                                            const VarDecl *Param,
                                            const BlockShape &Shape) {
  const ArgumentRelation *R = Shape.relation(Param);
  if (!R || !R->holdsIn(Sym))
    return std::nullopt;
  return Shape.relatedValue(Param);
}

} // namespace

KernelRaceContext::KernelRaceContext(SharedAccessCollector &Collector,
                                     const RaceOptions &Options)
    : Col(Collector), Context(Collector.context()),
      Deps(Collector.dependence()), Options(Options),
      Kernel(Collector.dependence().getFunction()), Sym(Collector.symbols()),
      Accesses(Collector.accesses()), Parents(Collector.parents()) {}

bool isInside(const ParentMap &Parents, const Stmt *S, const Stmt *Outer) {
  for (const Stmt *Cur = S; Cur; Cur = Parents.getParent(Cur))
    if (Cur == Outer)
      return true;
  return false;
}

std::optional<std::int64_t> boundValue(const SymbolicTranslator &Sym,
                                       unsigned Atom, const BlockShape &Shape) {
  const SymAtom &Info = Sym.atoms()[Atom];
  if (!Info.Var || Info.isLoopCounter())
    return std::nullopt;
  if (std::optional<std::int64_t> Value = Shape.argument(Info.Var))
    return Value;
  return relatedConstant(Sym, Info.Var, Shape);
}

bool RaceWork::enumerate(std::uint64_t Count) {
  if (Evaluations < Count)
    return false;
  Evaluations -= Count;
  Work += Count;
  return true;
}

void RaceWork::charge(const ExactQuery &Q) {
  Work += QueryWork + Q.resourcesUsed();
}

bool RaceWork::overBudget() {
  if (WorkBudget && Work > WorkBudget)
    OutOfBudget = true;
  return OutOfBudget;
}

} // namespace clang::cuda_tidy
