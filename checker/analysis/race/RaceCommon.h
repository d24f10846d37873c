//===--- RaceCommon.h - What the race analysis's stages share ---*- C++ -*-===//
//
// The race analysis of a kernel runs in stages (SharedMemoryRace.h tells
// them), as clang's ThreadSafety keeps translation, fixpoint and handler
// apart. This header holds what passes between the stages and what they
// all read: the kernel and its accesses (KernelRaceContext), the work budget
// (RaceWork), and the vocabulary of a question and its answer: the scenario
// the concurrency stage finds two accesses in flight in (RaceScenario), the
// verdict and the witness the overlap decision gives (RaceVerdict,
// RaceWitness).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_RACECOMMON_H
#define CUDA_TIDY_ANALYSIS_RACE_RACECOMMON_H

#include "analysis/SharedAccesses.h"
#include "analysis/race/SharedMemoryRace.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace clang::cuda_tidy {

class ExactQuery;

/// The kernel one race analysis is about, its accesses and their terms (the
/// collector's), and the options: what every stage reads. The stages keep
/// the references they use.
struct KernelRaceContext {
  KernelRaceContext(SharedAccessCollector &Collector,
                    const RaceOptions &Options);

  SharedAccessCollector &Col;
  ASTContext &Context;
  const FunctionDependence &Deps;
  const RaceOptions &Options;
  const FunctionDecl *Kernel;
  SymbolicTranslator &Sym;
  std::vector<SharedAccess> &Accesses;
  const ParentMap &Parents;
};

/// Whether \p S is \p Outer or lies inside it.
bool isInside(const ParentMap &Parents, const Stmt *S, const Stmt *Outer);

/// The constant the launches of \p Shape pass for the kernel parameter
/// \p Atom stands for, if any: one they pass as such, or one a launch
/// relation makes a constant under \p Shape (`tilew` = blockDim.x + 2 with
/// blockDim.x = 16) while the kernel leaves it and the relation's
/// parameters as they are.
std::optional<std::int64_t> boundValue(const SymbolicTranslator &Sym,
                                       unsigned Atom, const BlockShape &Shape);

/// The work one kernel's race analysis has done, in RaceOptions::WorkBudget's
/// units: counted, not timed, so that what is analysed is the same on any
/// machine. The exact enumeration also has a cap of its own.
class RaceWork {
public:
  explicit RaceWork(unsigned WorkBudget) : WorkBudget(WorkBudget) {}
  /// Counts \p Evaluations threads evaluated by an enumeration; false, and
  /// nothing counted, when the enumeration's cap has fewer left.
  bool enumerate(std::uint64_t Evaluations);
  /// Adds what \p Q cost.
  void charge(const ExactQuery &Q);
  /// Whether the work passed RaceOptions::WorkBudget: the analysis of the
  /// kernel stops, and says so.
  bool overBudget();
  bool outOfBudget() const { return OutOfBudget; }

private:
  unsigned WorkBudget;
  std::uint64_t Evaluations = 40'000'000; // Evaluations per kernel.
  std::uint64_t Work = 0;
  bool OutOfBudget = false;
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

/// How two accesses A and B can be in flight together (RaceConcurrency):
/// the iterations of their loops, their order, and which threads.
struct RaceScenario {
  /// Per loop atom: 0 same iteration, +1 B one later, -1 B one earlier,
  /// 2 any two iterations, 3 both in the first, 6/7 A in the last/first
  /// (B anywhere), 8/9 B in the last/first (A anywhere).
  llvm::SmallVector<int, 4> Relation;
  /// +1 when B comes second, -1 when A does, 0 when either may.
  int Order = 0;
  /// The second access is reached by going round a loop from the first.
  bool LaterIteration = false;
  bool DifferentWarpsOnly = false;
  /// The two threads are of two blocks of a cluster (one access reaches the
  /// other's shared memory through map_shared_rank): they may have the same
  /// index.
  bool OtherBlock = false;
  /// The way between the accesses skips a barrier only where this holds.
  std::optional<BarrierSkip> Skip;
};

/// Two threads of a block on one byte (OverlapDecision), with what they
/// need of the loops and the unknowns.
struct RaceWitness {
  std::int64_t ThreadA = 0, ThreadB = 0, Byte = 0;
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> LoopA, LoopB;
  /// Values of the unknown uniform values the witness needs.
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 2> Uniform;
  /// Values of the parameters that launch relations give in terms of
  /// those (BlockShape::Relations).
  llvm::SmallVector<std::pair<unsigned, std::int64_t>, 1> Related;
  /// The input data the witness needs, when an access is guarded by a test
  /// of input data (SharedAccess::InputGuards): "'w[t] > 0' holds".
  std::string InputData;
  /// The fills of input memory that give it (inputFills).
  llvm::SmallVector<InputFill, 1> InputFills;
};

/// A decision's answer: no two threads meet; they meet only for some values
/// of the unknowns (or some data); they meet certainly; or undecided (the
/// solver gave up, the accesses leave their variable under an assumed
/// shape, the question is too big to enumerate), which reports nothing.
enum class RaceVerdict { None, Possible, Definite, Skip };

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_RACECOMMON_H
