//===--- BankConflict.h - Shared-memory bank conflicts ----------*- C++ -*-===//
//
// Predicts, for each shared-memory access of a kernel, how many wavefronts
// one warp's request takes on sm_70 and later, and reports accesses whose
// lanes fall into the same bank more often than a threshold.
//
// ## The bank model
// 32 banks of 4 bytes; word w is in bank w % 32. A warp's request is served
// in groups of lanes: all 32 lanes for accesses of up to 4 bytes, two
// half-warps of 16 for 8 bytes, four quarter-warps of 8 for 16 bytes. In a
// group, each bank delivers one distinct word per wavefront: lanes that read
// the same word share it (a broadcast). A group takes as many wavefronts as
// the largest number of distinct words any one bank must deliver, and the
// request as many as its groups together. The ideal is one wavefront per
// group (1, 2 or 4), which is what Nsight Compute compares against; the
// conflict degree is the largest group's count ("32-way").
//
// Lanes are the linear thread ids `x + y*blockDim.x + z*blockDim.x*
// blockDim.y` modulo 32, for the block shapes of the kernel's launches (else
// its __launch_bounds__, else an assumption). Offsets and guards are
// evaluated per lane (SymbolicIndex.h) for every warp of the block and every
// listed loop value; unknown uniform values are sampled and a conflict is
// reported only if it shows for every sample.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_BANKCONFLICT_H
#define CUDA_TIDY_ANALYSIS_BANKCONFLICT_H

#include "analysis/SharedAccesses.h"
#include "analysis/ThreadDependence.h"

namespace clang::cuda_tidy {

struct BankConflict {
  const FunctionDecl *Kernel = nullptr;
  const Expr *Access = nullptr;
  const CallExpr *Via = nullptr;
  const VarDecl *Variable = nullptr;
  AccessKind Kind = AccessKind::Read;
  /// The largest number of distinct words one bank delivers to one group.
  unsigned Degree = 1;
  /// Predicted wavefronts per request, averaged over warps and iterations,
  /// and the ideal (1, 2 or 4 by access width).
  double Wavefronts = 1;
  unsigned Ideal = 1;
  /// The distance in 4-byte words between two consecutive active lanes, when
  /// it is the same for every pair of the warp with the worst conflict.
  std::optional<std::int64_t> LaneStrideWords;
  /// Two lanes of that warp that meet in one bank, and their words.
  unsigned LaneA = 0, LaneB = 0;
  std::int64_t WordA = 0, WordB = 0;
  BlockShape Shape;
  /// Under an assumption: the other shapes that show the conflict too.
  llvm::SmallVector<BlockShape, 2> AlsoFor;
  /// The declaration's inner dimension when padding each row by one element
  /// makes every access of the variable conflict-free; null otherwise.
  const Expr *PadInnerDimension = nullptr;
  /// Padding is the fix, but cannot be offered as an edit (3-D array,
  /// accesses through pointers or a pool).
  bool SuggestPadding = false;
};

class BankConflictHandler {
public:
  virtual ~BankConflictHandler();
  virtual void handleBankConflict(const BankConflict &Conflict) = 0;
};

class BankConflictAnalysis {
public:
  /// \p Assumed lists, for kernels whose highest threadIdx dimension is
  /// x, y or z, the block shapes tried when no launch says: a conflict is
  /// reported only if it shows for all of them.
  BankConflictAnalysis(ThreadDependenceAnalysis &Dependence,
                       BankConflictHandler &Handler, unsigned MinimumDegree,
                       AssumedShapes Assumed)
      : Dependence(Dependence), Handler(Handler), MinimumDegree(MinimumDegree),
        Assumed(std::move(Assumed)) {}

  void analyzeKernel(const FunctionDecl *Kernel,
                     llvm::ArrayRef<BlockShape> Shapes);

private:
  ThreadDependenceAnalysis &Dependence;
  BankConflictHandler &Handler;
  unsigned MinimumDegree;
  AssumedShapes Assumed;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_BANKCONFLICT_H
