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
// ## Unknown values in the offset
// `s[threadIdx.x * W + c]` with `W` a kernel parameter: the fast path needs
// the conflict at every sample of W, 0 included, where the stride vanishes
// into a broadcast, so a stride forced to a multiple of 32 (`W = 32 * k`)
// goes unreported. When the fast path finds nothing and a 4-byte access's
// offset holds such values, they are sampled away from 0 (7, 33, 100,
// 1000), and a conflict every sample shows is put to the SMT core
// (ExactQuery.h): with the lanes of the worst bank pinned to their threads
// and every unknown in [2, 2^15], is there a value at which some lane does
// not run, or two of them share a word, or use different banks? Only when
// the solver says no is the conflict reported, with the degree the samples
// give (a lower bound that holds for every generic value, and is reached
// at the sample named in the note). A fully unknown W (7 is conflict-free)
// stays silent.
//
// ## Vector accesses
// The width is the instruction's, not the type's: nvcc merges accesses to
// consecutive elements into one 8- or 16-byte instruction when their start
// is provably aligned to it (SASS: STS.64/STS.128, LDS.64/LDS.128). Modelled
// (BankConflict.cpp, Issue): neighbouring accesses of one straight-line
// block to the members of an element or to consecutive elements (`t[i].x =
// a; t[i].y = b; ...`, `s[4*t] = a; s[4*t+1] = b; ...`), and an access
// whose loop counter moves it one element per iteration in a loop of
// constant trip count that nvcc unrolls (`for (k = 0; k < 4; ++k) s[4*t +
// k]`). Provably aligned means: every term of the offset and the object's
// start are multiples of the width; the object's start is known only for
// the dynamic pool (16) and for types or `__align__` that ask for it
// (`float4`), never from where the assembler happens to place a `float`
// array.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_BANKCONFLICT_H
#define CUDA_TIDY_ANALYSIS_BANKCONFLICT_H

#include "analysis/SharedAccesses.h"
#include "analysis/dependence/ThreadDependence.h"

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
  /// When the compiler issues the access wider than its type (see "Vector
  /// accesses" above): the bytes per lane, how many accesses or unrolled
  /// iterations the instruction stands for, and whether they are a loop's.
  std::int64_t IssuedWidth = 0;
  /// Decided for generic values of unknown uniform values in the offset
  /// (the solver's path): their names and the sample the numbers are for.
  llvm::SmallVector<std::pair<std::string, std::int64_t>, 2> GenericValues;
  unsigned MergedAccesses = 1;
  bool UnrolledLoop = false;
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
