//===--- KernelLaunches.h - Kernels and their launch shapes -----*- C++ -*-===//
//
// What the shared-memory checks collect while clang-tidy matches: the
// kernels defined in the translation unit and the block shapes they are
// launched with, so that the analyses can run at the end of the translation
// unit, when every launch has been seen.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_KERNELLAUNCHES_H
#define CUDA_TIDY_MODEL_KERNELLAUNCHES_H

#include "analysis/SharedAccesses.h"
#include "model/HostValues.h"
#include "model/ProgramLaunches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::cuda_tidy {

class KernelLaunches {
public:
  /// Registers the matchers whose results collect() takes: kernel
  /// definitions, and host function definitions to find launches in, both
  /// outside system headers.
  static void registerMatchers(ast_matchers::MatchFinder *Finder,
                               ast_matchers::MatchFinder::MatchCallback *Check);
  /// Records what \p Result matched.
  void collect(const ast_matchers::MatchFinder::MatchResult &Result);

  void addKernel(const FunctionDecl *Kernel) { Kernels.push_back(Kernel); }
  /// Records the block shape of \p Launch; a shape that is not a constant
  /// makes the kernel's shapes unknown. A launch through a local function
  /// pointer (`kernel = &transposeNaive; kernel<<<g, b>>>(...)`) counts for
  /// every kernel assigned to the pointer in \p Caller.
  void addLaunch(const CUDAKernelCallExpr *Launch, const FunctionDecl *Caller,
                 clang::cuda_tidy::HostValues &Values);
  /// Records \p Call, made in \p Caller, when it passes a function pointer:
  /// it may hand a kernel to a launch helper (see resolveHelperLaunches).
  void addCall(const CallExpr *Call, const FunctionDecl *Caller);
  /// Adds the launches made inside launch helpers: a `<<<...>>>` launch of
  /// a parameter of its function H (`template <class K> void launch(K k,
  /// dim3 b) { k<<<g, b>>>(...); }`) launches, at each call of H recorded by
  /// addCall, the kernel passed for that parameter (named, through a local
  /// pointer, or a parameter of the caller that is itself such a helper, to
  /// a depth of four), with the block shape H's launch gives when that is a
  /// constant, or else the constant passed for H's block parameter. A block
  /// made otherwise (a member of a structure parameter) makes the kernel's
  /// shapes unknown. Call once, after the last collect().
  void resolveHelperLaunches(ASTContext &Context);
  /// Every launch seen, as the launch index records it.
  llvm::ArrayRef<clang::cuda_tidy::IndexedLaunch> seen() const { return Seen; }
  /// Writes seen() to the launch index in \p Dir (the pre-pass); false on
  /// failure.
  bool writeIndex(llvm::StringRef Dir, ASTContext &Context) const;

  llvm::ArrayRef<const FunctionDecl *> kernels() const { return Kernels; }
  /// The relations between its parameters, its block and the arguments
  /// that every launch of \p Kernel in this translation unit gives
  /// (BlockShape::Relations); none when a launch passes something else, or
  /// the kernel is handed to a call (a launch helper, cudaLaunchKernel)
  /// whose launches cannot be read, or, with an \p Index, launched in
  /// another file too. shapesFor puts them on the shapes it gives.
  llvm::SmallVector<clang::cuda_tidy::ArgumentRelation, 1>
  relationsOf(const FunctionDecl *Kernel, ASTContext &Context,
              const clang::cuda_tidy::ProgramLaunches *Index = nullptr) const;
  /// The constant block shapes \p Kernel is launched with; empty when there
  /// is no launch or one whose shape is not a constant.
  llvm::ArrayRef<clang::cuda_tidy::BlockShape>
  shapesOf(const FunctionDecl *Kernel) const;
  /// The block shapes to analyse \p Kernel with, the best knowledge first:
  /// the constant shapes of its launches in this translation unit and, with
  /// an \p Index, in the program's other files (their Origin names the
  /// file); else the shapes its own code is written for
  /// (BlockShapeInference.h), with their Origin; else none, and the analyses
  /// fall back on __launch_bounds__ and \p Assumed. Every check asks here,
  /// so that all of them analyse a kernel with the same shapes.
  llvm::SmallVector<clang::cuda_tidy::BlockShape, 2>
  shapesFor(const FunctionDecl *Kernel,
            clang::cuda_tidy::ThreadDependenceAnalysis &Dependence,
            const clang::cuda_tidy::AssumedShapes &Assumed,
            const clang::cuda_tidy::ProgramLaunches *Index = nullptr) const;

private:
  /// A launch whose kernel is parameter KernelParameter of Helper; its block
  /// is Shape when that is known there, else parameter BlockParameter's
  /// argument, else unknown.
  struct HelperLaunch {
    const FunctionDecl *Helper = nullptr;
    unsigned KernelParameter = 0;
    std::optional<clang::cuda_tidy::BlockShape> Shape;
    std::optional<unsigned> BlockParameter;
    unsigned Depth = 0;
  };
  /// Adds \p Shape (none: not a constant) to \p Kernel's shapes; \p Bound
  /// is the shape with the argument values every launch of it passes.
  void addShape(const FunctionDecl *Kernel,
                const std::optional<clang::cuda_tidy::BlockShape> &Shape,
                const std::optional<clang::cuda_tidy::BlockShape> &Bound);

  /// Merges the relations \p Launch gives \p Kernel's parameters into
  /// those of its other launches: only a relation every launch gives stays.
  void addRelations(const FunctionDecl *Kernel,
                    const CUDAKernelCallExpr *Launch, ASTContext &Context);
  /// A launch or a use of \p Kernel whose arguments cannot be read: no
  /// relation holds.
  void dropRelations(const FunctionDecl *Kernel) {
    Relations[Kernel].Known = false;
  }
  struct LaunchRelations {
    bool Known = true;
    bool Launched = false;
    llvm::SmallVector<clang::cuda_tidy::ArgumentRelation, 1> List;
  };

  llvm::SmallVector<HelperLaunch, 2> HelperLaunches;
  llvm::DenseMap<const FunctionDecl *, LaunchRelations> Relations;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> PointerCalls;
  llvm::SmallVector<const FunctionDecl *, 8> Kernels;
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<clang::cuda_tidy::BlockShape, 2>>
      Shapes;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Unknown;
  std::vector<clang::cuda_tidy::IndexedLaunch> Seen;
};

/// Calls \p OnLaunch for each `<<<...>>>` launch and \p OnCall for each
/// other call in the body of \p Function (lambdas included). The checks
/// find launches this way, from the function definitions outside system
/// headers, rather than with a `hasAncestor` matcher, which would build the
/// parent map of the whole translation unit, headers included: most of the
/// checks' cost on small files.
void forEachLaunch(
    const FunctionDecl *Function,
    llvm::function_ref<void(const CUDAKernelCallExpr *)> OnLaunch,
    llvm::function_ref<void(const CallExpr *)> OnCall = nullptr);

/// Whether \p Kernel has at least one launch in the bodies of \p Launchers
/// and every one gives its block exactly the bound of an early exit
/// `threadIdx.<Dim> >= bound` as threads in dimension \p Dim: the constant
/// \p Value of the kernel's instantiation, or what the launch passes for
/// \p Parameter. The launch's dimension may be a variable the launching
/// function never changes: the same one passed for \p Parameter, or one a
/// `switch` on it has fixed to \p Value (`switch (k) { case 32: kernel<32>
/// <<<g, dim3(32, k)>>>(...); break; }`). No thread then leaves at the exit.
bool launchesBindExitBound(const FunctionDecl *Kernel, unsigned Dim,
                           std::optional<std::int64_t> Value,
                           const ParmVarDecl *Parameter,
                           llvm::ArrayRef<const FunctionDecl *> Launchers,
                           ASTContext &Context);

/// Whether \p Kernel has at least one launch in the bodies of \p Launchers
/// and every one gives its block an x extent that is a constant multiple of
/// 32, so that each warp is 32 consecutive x of one row and a lane is
/// `threadIdx.x % 32`. Read: `<<<...>>>` launches and `cudaLaunchKernel`,
/// `cudaLaunchKernelEx` (the config's blockDim); and, one call deep, a
/// function the kernel is passed to that launches its parameter so, with a
/// block read from its own parameters (through members of objects whose
/// constructors copy them from their arguments, as ggml's
/// `ggml_cuda_kernel_launch(kernel, params, ...)` does). Passing the kernel
/// to anything else (`cudaFuncGetAttributes`) is no launch.
bool launchesHaveWarpRows(const FunctionDecl *Kernel,
                          llvm::ArrayRef<const FunctionDecl *> Launchers,
                          ASTContext &Context);

/// How a note says where the block shape \p Shape comes from: "" for a
/// launch in this translation unit, " (assumed: no launch of this kernel was
/// found)", " (assumed from the extents of 's': no launch of this kernel was
/// found)".
std::string describeShapeOrigin(const clang::cuda_tidy::BlockShape &Shape);

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_MODEL_KERNELLAUNCHES_H
