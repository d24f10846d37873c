//===--- ClusterOrder.h - Two blocks' threads on one block's memory -*- C++
//-*-===//
//
// Distributed shared memory: `cluster.map_shared_rank(p, rank)` points into
// another block's copy of a __shared__ variable (SharedAccess::Remote). Such
// an access and the owning block's own accesses of the variable are made by
// threads of two blocks, which `__syncthreads()` does not order: only a
// cluster barrier (`cluster.sync()`, a grid sync, or the wait of a split
// cluster barrier after its arrive) does. This is the race analysis's
// concurrency stage (Concurrency.h) for those pairs, and the other fault of
// the pattern: an access of another block's memory after which the kernel
// may end with no cluster barrier, while the owner may already have exited.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_CLUSTERORDER_H
#define CUDA_TIDY_ANALYSIS_RACE_CLUSTERORDER_H

#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <vector>

namespace clang::cuda_tidy {

class ClusterOrder {
public:
  using AccessIndex =
      llvm::DenseMap<const Stmt *, llvm::SmallVector<unsigned, 1>>;
  /// Walks from every access of a variable that some access reaches in
  /// another block.
  ClusterOrder(const SharedAccessCollector &Col,
               const std::vector<SharedAccess> &Accesses,
               const AccessIndex &AccessesAt, SymbolicTranslator &Sym,
               const ParentMap &Parents);

  /// Whether access \p To is reached from \p From with no cluster barrier
  /// between: bit 1 in the same pass of the loops, bit 2 round one.
  std::uint8_t reach(unsigned From, unsigned To) const;
  /// Whether remote access \p I may be followed by the end of the kernel
  /// with no cluster barrier.
  bool mayOutliveOwner(unsigned I) const {
    return I < OutlivesOwner.size() && OutlivesOwner[I];
  }
  /// Adds the pairs of a remote and an owner's access that are in flight
  /// together.
  void addCandidates(llvm::function_ref<void(unsigned, unsigned)> Add) const;
  /// The scenarios of such a pair: threads of two blocks (which may have
  /// the same index), in the same iteration of the loops around both
  /// unless the way goes round one (then any two).
  llvm::SmallVector<RaceScenario, 4>
  scenarios(unsigned IA, unsigned IB, llvm::ArrayRef<unsigned> Atoms) const;

private:
  using ReachSet = llvm::DenseMap<unsigned, std::uint8_t>;
  void walk(const CFGBlock *From, unsigned FromIndex, ReachSet &Out,
            bool &ReachesEnd) const;

  const SharedAccessCollector &Col;
  const std::vector<SharedAccess> &Accesses;
  const AccessIndex &AccessesAt;
  SymbolicTranslator &Sym;
  const ParentMap &Parents;
  std::vector<ReachSet> Reach;
  std::vector<bool> OutlivesOwner;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_CLUSTERORDER_H
