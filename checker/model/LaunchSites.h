//===--- LaunchSites.h - How launches are spelled in the AST ----*- C++ -*-===//
//
// The launch model's reading of single expressions (LaunchModel.h): which
// kernel or parameter a launch names, which calls are launches or hand a
// kernel on, and the relations a `<<<...>>>` launch's arguments give. Shared
// by the model's two files; no check reads them directly.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_LAUNCHSITES_H
#define CUDA_TIDY_MODEL_LAUNCHSITES_H

#include "model/LaunchModel.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace clang::cuda_tidy {

/// \p FD's definition when the unit has one, else \p FD.
const FunctionDecl *definitionOf(const FunctionDecl *FD);

/// The kernel \p E names (`k`, `&k`, through casts), as its definition
/// when there is one.
const FunctionDecl *kernelNamed(const Expr *E);

/// The kernel a `<<<...>>>` launch names: its callee, or the kernel an
/// explicit cast of its callee names; as its definition when there is one.
const FunctionDecl *chevronKernel(const CUDAKernelCallExpr *Launch);

/// The parameter of \p Function that \p E names, looking through the copy
/// of a `dim3`, a `dim3` built from it alone, and implicit conversions.
std::optional<unsigned> parameterNamed(const Expr *E,
                                       const FunctionDecl *Function);

/// The parameter of \p Function that a launch's kernel expression \p Callee
/// names (`k` of `k<<<g, b>>>()` in `template <class K> void launch(K k)`),
/// through casts too.
std::optional<unsigned> kernelParameter(const Expr *Callee,
                                        const FunctionDecl *Function);

/// The launch API \p Call is, when it is cudaLaunchKernel or
/// cudaLaunchCooperativeKernel with a block, or cudaLaunchKernelEx(C) with a
/// kernel.
std::optional<LaunchKind> apiLaunchKind(const CallExpr *Call);

/// The argument of the API launch \p Call (of kind \p Kind) that names the
/// kernel.
const Expr *apiKernelArgument(const CallExpr *Call, LaunchKind Kind);

/// Whether \p Call passes a function pointer or names a kernel among its
/// arguments: a call that may hand a kernel to a launch.
bool handsFunctionOn(const CallExpr *Call);

/// Calls \p OnCall for each call in the body of \p Function (lambdas
/// included), `<<<...>>>` launches among them. The model finds launches this
/// way, from the function definitions outside system headers, rather than
/// with a `hasAncestor` matcher, which would build the parent map of the
/// whole translation unit, headers included: most of the checks' cost on
/// small files.
void forEachCall(const FunctionDecl *Function,
                 llvm::function_ref<void(const CallExpr *)> OnCall);

/// The relations (ArgumentRelation) the `<<<...>>>` launch \p Launch, at
/// \p From ("main.cu:12"), gives \p Kernel's 32-bit integer parameters: each
/// an affine form of the launch's block variable and of other parameters'
/// arguments.
llvm::SmallVector<ArgumentRelation, 1>
launchRelations(const FunctionDecl *Kernel, const CUDAKernelCallExpr *Launch,
                const std::string &From, ASTContext &Context);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_LAUNCHSITES_H
