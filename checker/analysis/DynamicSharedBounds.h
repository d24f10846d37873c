//===--- DynamicSharedBounds.h - Dynamic shared memory vs launch -*- C++
//-*-===//
//
// `extern __shared__` memory has exactly the size the launch passes. This
// analysis computes, for each launch in the translation unit whose kernel
// is defined there, how far the kernel's accesses into the dynamic pool
// reach and compares it with the bytes passed.
//
// ## How
// - The kernel's accesses come from SharedAccessCollector: every
//   `extern __shared__` declaration names one pool; carving (`pool +
//   blockDim.x`, `(double *)&pool[n]`), element types and `__device__`
//   helpers are followed there.
// - The launch's block shape, byte count and kernel arguments are
//   translated in the launching host function (SymbolicIndex.h). Values the
//   translation does not know (a size read from the command line, a function
//   parameter) are sampled; because the same value is used wherever it
//   appears, a byte count tied to the block shape (`n * sizeof(float)` with
//   `n` threads) is judged with the tie.
// - For each sample, the pool's reach is the largest end of an access over
//   every thread of the block and every value of the loop counters involved,
//   with kernel parameters bound to the launch's arguments.
// - An overflow at every sample is certain; at some samples only, possible
//   (reported when asked, saying for which values). A launch whose shape,
//   byte count or needed arguments cannot be evaluated is left alone.
// - Where samples disagree, only samples with a host value of 1 fit, and
//   the launch's extents are host values
//   (`dim3 block(bx, by)` with a byte count over them), the samples may
//   only be degenerate points (one thread a row fits a tile an unpadded
//   count misses). The SMT core (ExactQuery.h) then decides with symbolic
//   extents: an overflow for generic extents (each 2 or more, not at an
//   isolated point) is certain, with the solver's model as the witness.
//   Concrete launches never reach the solver.
//
// Also: a launch that passes no dynamic shared memory to a kernel that uses
// it; more than the 48 KiB default without cudaFuncSetAttribute(kernel,
// cudaFuncAttributeMaxDynamicSharedMemorySize, ...) before the launch; more
// than the target architecture allows at all.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DYNAMICSHAREDBOUNDS_H
#define CUDA_TIDY_ANALYSIS_DYNAMICSHAREDBOUNDS_H

#include "analysis/SharedAccesses.h"
#include "analysis/dependence/ThreadDependence.h"
#include "model/LaunchModel.h"
#include "llvm/ADT/DenseMap.h"
#include <memory>

namespace clang::cuda_tidy {

struct DynamicSharedProblem {
  enum Kind { Overflow, NoBytes, AboveDefault, AboveTarget } What = Overflow;
  const KernelLaunch *Launch = nullptr;
  std::int64_t Bytes = 0;
  std::int64_t Reach = 0;
  /// Overflow: whether it happens for every value tried; if not, for which.
  bool Certain = true;
  std::string When;
  /// Certain by the solver for every block extent of 2 or more that the
  /// launch leaves symbolic; When names the witness's extents.
  bool Solved = false;
  /// The access that reaches furthest, the thread, the block shape, and
  /// the carving that put it there.
  const Expr *Access = nullptr;
  const CallExpr *Via = nullptr;
  std::int64_t Thread = 0;
  std::int64_t AccessBegin = 0;
  BlockShape Shape;
  const VarDecl *Pool = nullptr;
  const VarDecl *Carved = nullptr;
  std::int64_t Limit = 0;
  std::string Target;
};

class DynamicSharedHandler {
public:
  virtual ~DynamicSharedHandler();
  virtual void handleProblem(const DynamicSharedProblem &Problem) = 0;
};

class DynamicSharedBoundsAnalysis {
public:
  DynamicSharedBoundsAnalysis(ThreadDependenceAnalysis &Dependence,
                              DynamicSharedHandler &Handler,
                              bool ReportPossible);
  ~DynamicSharedBoundsAnalysis();

  /// Compares \p Launch (one of LaunchModel::byteCountLaunches) with its
  /// kernel, \p Attributes raising the kernel's limit.
  void analyze(const KernelLaunch &Launch,
               llvm::ArrayRef<SharedSizeAttribute> Attributes);

  /// The most dynamic shared memory one block may have on \p Arch
  /// ("sm_90"), or 0 when unknown.
  static std::int64_t targetLimit(llvm::StringRef Arch);

private:
  struct KernelInfo;
  KernelInfo *kernelInfo(const FunctionDecl *Kernel);
  SymbolicTranslator &hostTranslator(const FunctionDecl *Caller);

  ThreadDependenceAnalysis &Dependence;
  DynamicSharedHandler &Handler;
  bool ReportPossible;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<KernelInfo>> Kernels;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<SymbolicTranslator>>
      Hosts;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DYNAMICSHAREDBOUNDS_H
