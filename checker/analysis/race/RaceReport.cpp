//===--- RaceReport.cpp - How a race is told ------------------------------===//
//
// See RaceReport.h, and SharedMemoryRace.h for the design.
//
//===----------------------------------------------------------------------===//

#include "analysis/race/RaceReport.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

namespace clang::cuda_tidy {

RaceReport::RaceReport(const KernelRaceContext &K, SharedRaceHandler &Handler)
    : Col(K.Col), Context(K.Context), Deps(K.Deps), Sym(K.Sym),
      Kernel(K.Kernel), Parents(K.Parents), Handler(Handler) {}

bool RaceReport::isBefore(const SharedAccess &A, const SharedAccess &B) const {
  return Context.getSourceManager().isBeforeInTranslationUnit(
      A.E->getBeginLoc(), B.E->getBeginLoc());
}

SharedRace RaceReport::raceBetween(const SharedAccess &First,
                                   const SharedAccess &Second, RaceVerdict V,
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
  Race.Possible = V == RaceVerdict::Possible;
  Race.Shape = Shape;
  if (First.isAsync()) {
    switch (First.Track) {
    case AsyncTrack::Primitives:
      Race.FirstCompletedBy =
          "'__pipeline_wait_prior', 'cooperative_groups::wait' or "
          "'cp.async.wait_group'";
      break;
    case AsyncTrack::Barrier:
      Race.FirstCompletedBy = "the phase of its barrier";
      Race.CompletedForWaiters = true;
      break;
    case AsyncTrack::Pipeline:
      Race.FirstCompletedBy = "its pipeline's 'consumer_wait'";
      break;
    }
  }
  Race.ReusedTempStorage = First.Means == AccessMeans::Collective &&
                           Second.Means == AccessMeans::Collective;
  return Race;
}

const Stmt *RaceReport::certainBarrierPlace(const SharedAccess &First,
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
  // A barrier alone does not complete a copy in flight.
  if (First.isAsync())
    return nullptr;
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

void RaceReport::reportPair(const SharedAccess &A, const SharedAccess &B,
                            bool SameAccess, const RaceScenario &S,
                            const RaceWitness &W, RaceVerdict V,
                            const BlockShape &Shape,
                            llvm::ArrayRef<unsigned> Atoms) {
  // Which access comes second: the one in the later iteration, else the
  // later one in the source.
  bool BSecond = S.Order != 0 ? S.Order > 0 : (isBefore(A, B) || SameAccess);
  const SharedAccess &First = BSecond ? A : B;
  const SharedAccess &Second = BSecond ? B : A;
  std::int64_t FirstThread = BSecond ? W.ThreadA : W.ThreadB;
  std::int64_t SecondThread = BSecond ? W.ThreadB : W.ThreadA;

  SharedRace Race = raceBetween(First, Second, V, Shape);
  Race.WarpSynchronous =
      A.Volatile && B.Volatile && W.ThreadA / 32 == W.ThreadB / 32;
  auto Verb = [](const SharedAccess &X) -> std::string {
    switch (X.Means) {
    case AccessMeans::AsyncCopy:
      return "copies asynchronously (" + X.Operation + ") into";
    case AccessMeans::GroupCopy:
      return "copies, for its group (" + X.Operation + "), into";
    case AccessMeans::Collective:
      return "runs " + X.Operation + " on";
    case AccessMeans::Direct:
      break;
    }
    switch (X.Kind) {
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
  // Of two blocks of a cluster: the remote access is made by a thread of
  // another block than the one that owns the element.
  auto BlockOf = [&](const SharedAccess &X) -> std::string {
    if (!S.OtherBlock)
      return "";
    return X.Remote ? " of another block of the cluster"
                    : " of the block that owns it";
  };
  Race.Witness =
      "thread " + SharedAccessCollector::describeThread(FirstThread, Shape) +
      BlockOf(First) + " " + Verb(First) + " " + Element +
      Values(BSecond ? W.LoopA : W.LoopB) + " and thread " +
      SharedAccessCollector::describeThread(SecondThread, Shape) +
      BlockOf(Second) + " " + Verb(Second) + " it" +
      (S.OtherBlock && Second.Remote ? " through 'map_shared_rank'" : "") +
      Values(BSecond ? W.LoopB : W.LoopA);
  Race.FirstThread = FirstThread;
  Race.SecondThread = SecondThread;
  Race.OtherBlock = S.OtherBlock;
  if (S.LaterIteration)
    Race.Witness += " one iteration of the enclosing loop later";
  if (!W.InputData.empty()) {
    Race.Witness += ", for input data where " + W.InputData;
    Race.NeedsData = W.InputData;
    Race.InputFills = W.InputFills;
  }
  for (const auto &[Atom, Value] : W.Uniform) {
    Race.Witness += (&Atom == &W.Uniform.front().first ? ", when '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
    Race.Values.push_back(
        {Sym.atoms()[Atom].Var, Sym.atoms()[Atom].Name, Value});
  }
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
    Race.Values.push_back(
        {Sym.atoms()[Atom].Var, Sym.atoms()[Atom].Name, Value});
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
                : std::nullopt) {
      FromLaunch += (FromLaunch.empty() ? ", with '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(*Value);
      Race.Values.push_back(
          {Sym.atoms()[Atom].Var, Sym.atoms()[Atom].Name, *Value});
    }
  if (!FromLaunch.empty())
    Race.Witness +=
        FromLaunch + " as the launch at " + Shape.ArgumentsFrom + " passes";
  if (!S.DifferentWarpsOnly && !Race.WarpSynchronous &&
      !llvm::is_contained(S.Relation, 2))
    Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
  Reported[Second.E] |= V == RaceVerdict::Definite;
  Handler.handleRace(Race);
}

void RaceReport::reportDataIndexed(const SharedAccess &Plain,
                                   const SharedAccess &Atomic,
                                   const DataIndex &Index, const DataWitness &W,
                                   RaceVerdict V, const BlockShape &Shape,
                                   bool WarpConcurrent) {
  bool PlainFirst = isBefore(Plain, Atomic);
  const SharedAccess &First = PlainFirst ? Plain : Atomic;
  const SharedAccess &Second = PlainFirst ? Atomic : Plain;
  SharedRace Race = raceBetween(First, Second, V, Shape);
  Race.Variable = Plain.Var; // The array the element is described in.
  std::string Element =
      "'" + Col.describeElement(Plain.Var, W.Element * Index.ElementBytes) +
      "'";
  std::string Spelling =
      Lexer::getSourceText(
          CharSourceRange::getTokenRange(Index.Index->getSourceRange()),
          Context.getSourceManager(), Context.getLangOpts())
          .str();
  std::string AtomicThread =
      SharedAccessCollector::describeThread(W.Atomic, Shape);
  Race.Witness =
      "thread " + SharedAccessCollector::describeThread(W.Writer, Shape) +
      (Plain.writes() ? " writes " : " reads ") + Element + " and thread " +
      AtomicThread + "'s atomic hits it for data with '" + Spelling +
      "' == " + std::to_string(W.Element);
  if (V == RaceVerdict::Definite)
    Race.Witness += "; another thread touches every element '" + Spelling +
                    "' can select, so the race happens whatever the data";
  else
    Race.NeedsData = "'" + Spelling + "' == " + std::to_string(W.Element) +
                     " in thread " + AtomicThread;
  for (const auto &[Atom, Value] : W.Uniform) {
    Race.Witness += (&Atom == &W.Uniform.front().first ? ", when '" : ", '") +
                    Sym.atoms()[Atom].Name + "' = " + std::to_string(Value);
    Race.Values.push_back(
        {Sym.atoms()[Atom].Var, Sym.atoms()[Atom].Name, Value});
  }
  if (WarpConcurrent && V == RaceVerdict::Definite)
    Race.InsertBarrierBefore = certainBarrierPlace(First, Second);
  Reported[Second.E] |= V == RaceVerdict::Definite;
  Handler.handleRace(Race);
}

} // namespace clang::cuda_tidy
