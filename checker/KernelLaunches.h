//===--- KernelLaunches.h - Kernels and their launch shapes -----*- C++ -*-===//
//
// What the shared-memory checks collect while clang-tidy matches: the
// kernels defined in the translation unit and the block shapes they are
// launched with, so that the analyses can run at the end of the translation
// unit, when every launch has been seen. Also the parsing of the assumed
// block-shape options that those checks share.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_KERNELLAUNCHES_H
#define CUDA_TIDY_KERNELLAUNCHES_H

#include "analysis/SharedAccesses.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::tidy::cuda_tidy {

class KernelLaunches {
public:
  void addKernel(const FunctionDecl *Kernel) { Kernels.push_back(Kernel); }
  /// Records the block shape of \p Launch; a shape that is not a constant
  /// makes the kernel's shapes unknown. A launch through a local function
  /// pointer (`kernel = &transposeNaive; kernel<<<g, b>>>(...)`) counts for
  /// every kernel assigned to the pointer in \p Caller.
  void addLaunch(const CUDAKernelCallExpr *Launch, const FunctionDecl *Caller,
                 ASTContext &Context);

  llvm::ArrayRef<const FunctionDecl *> kernels() const { return Kernels; }
  /// The constant block shapes \p Kernel is launched with; empty when there
  /// is no launch or one whose shape is not a constant.
  llvm::ArrayRef<clang::cuda_tidy::BlockShape>
  shapesOf(const FunctionDecl *Kernel) const;

private:
  llvm::SmallVector<const FunctionDecl *, 8> Kernels;
  llvm::DenseMap<const FunctionDecl *,
                 llvm::SmallVector<clang::cuda_tidy::BlockShape, 2>>
      Shapes;
  llvm::SmallPtrSet<const FunctionDecl *, 8> Unknown;
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

/// Parses "16,16" into an assumed block shape; missing dimensions are 1.
std::optional<clang::cuda_tidy::BlockShape> parseBlockShape(llvm::StringRef);
/// Parses "16,16;32,8" into assumed block shapes.
std::optional<std::vector<clang::cuda_tidy::BlockShape>>
    parseBlockShapes(llvm::StringRef);

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_KERNELLAUNCHES_H
