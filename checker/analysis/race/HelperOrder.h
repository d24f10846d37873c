//===--- HelperOrder.h - A helper's accesses for two lanes -*- C++ -*-===//
//
// Two accesses that one call of a helper makes are placed at the call's
// barrier intervals (SharedAccessCollector::inlineCall), where nothing says
// how the helper's own warp-level syncs order them. For two lanes of one
// warp those syncs do: a warp reduction written as a helper
// (`for (i = 16; i > 0; i >>= 1) { if (lane < i) s[t] += s[t + i];
// cg::sync(tile32); }`) makes its read in one round and another lane's write
// in the round before on either side of a tile sync. This reads the
// helper's CFG for that order, as RaceConcurrency reads the kernel's for
// block barriers.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_HELPERORDER_H
#define CUDA_TIDY_ANALYSIS_RACE_HELPERORDER_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <memory>

namespace clang {
class FunctionDecl;
class Stmt;
namespace cuda_tidy {

class SharedAccessCollector;
struct SharedAccess;

/// How two accesses of one call of a helper are ordered for two lanes of
/// one warp.
struct HelperWarpOrder {
  /// Two lanes may make them in one interval between the helper's
  /// warp-level syncs (or block barriers).
  bool Unsynced = true;
  /// The helper's loops, around both accesses, in whose same round two
  /// lanes make them whenever they are unsynced: every round of such a loop
  /// passes a sync, and every way from a sync to the two accesses goes
  /// round it equally often.
  llvm::SmallVector<const Stmt *, 1> SameRound;
};

/// The helpers' CFGs, read once per helper for the pairs of a kernel.
class HelperWarpOrders {
public:
  explicit HelperWarpOrders(SharedAccessCollector &Col);
  ~HelperWarpOrders();
  HelperWarpOrders(const HelperWarpOrders &) = delete;
  HelperWarpOrders &operator=(const HelperWarpOrders &) = delete;

  /// The order of \p A and \p B, two accesses of one call (the same Via):
  /// unsynced with no loop when the helper cannot be read.
  HelperWarpOrder order(const SharedAccess &A, const SharedAccess &B);

  struct Helper;

private:
  Helper *helperOf(const FunctionDecl *Callee);

  SharedAccessCollector &Col;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<Helper>> Helpers;
};

} // namespace cuda_tidy
} // namespace clang

#endif
