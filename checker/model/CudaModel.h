//===--- CudaModel.h - What the CUDA built-ins mean -------------*- C++ -*-===//
//
// Recognises the CUDA built-in variables and functions the analyses care
// about: thread and block indices, the cooperative groups whose sync() is a
// barrier, the special registers inline asm reads, and the built-in
// functions that compute values (min, max). What each call means for
// ordering (barriers, warp syncs, shuffles, atomics, ...) is the event
// vocabulary of SyncEvents.h, which every analysis reads.
//
// Everything is matched by name and by the type of the object, never by
// builtin ID: the IDs differ between the host and the device pass, and most
// of these functions are header wrappers whose spelling is the stable part.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_CUDAMODEL_H
#define CUDA_TIDY_MODEL_CUDAMODEL_H

#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>

namespace clang::cuda_tidy {

/// The four CUDA built-in index variables.
enum class BuiltinIndexKind { ThreadIdx, BlockIdx, BlockDim, GridDim };

/// If \p VD is one of threadIdx, blockIdx, blockDim or gridDim, says which.
std::optional<BuiltinIndexKind> getBuiltinIndexKind(const VarDecl *VD);

/// If \p E reads a component of a built-in index variable (`threadIdx.x`,
/// spelled by Clang as a PseudoObjectExpr over an MSPropertyRefExpr), returns
/// the variable's kind and writes the component name ("x", "y", "z").
std::optional<BuiltinIndexKind> getBuiltinIndexRef(const Expr *E,
                                                   std::string *Spelling);

/// Which threads must all reach a barrier: those of one block (for
/// `__syncthreads()`), of one cluster (`cluster_group::sync()`), or of the
/// whole grid (`grid_group::sync()`). A wider barrier also orders the threads
/// of each block.
enum class BarrierScope { Block, Cluster, Grid };

/// The scope of the barrier of a group type's sync(): Block for a
/// `thread_block`, Cluster for a `cluster_group`, Grid for a `grid_group`;
/// none for tiles and other groups.
std::optional<BarrierScope> getGroupBarrierScope(QualType T);
std::optional<BarrierScope> getGroupBarrierScope(const CXXRecordDecl *RD);

/// How a diagnostic names the threads a barrier of \p Scope waits for
/// ("block", "cluster", "grid").
llvm::StringRef scopeName(BarrierScope Scope);

/// True if \p D is declared inside namespace cooperative_groups.
bool isInCooperativeGroups(const Decl *D);

/// True if \p VD is the built-in `warpSize`.
bool isWarpSizeVariable(const VarDecl *VD);

/// Which of the two the built-in `min`/`umin` or `max`/`umax` of two
/// arguments computes.
enum class MinMaxKind { Min, Max };
std::optional<MinMaxKind> getMinMaxCall(const CallExpr *CE);

/// True if \p FD is the C library's `memcpy` (the builtin, or a declaration
/// of `::memcpy`).
bool isMemcpy(const FunctionDecl *FD);

/// True if \p FD is one of the cache-hinted global loads `__ldg`, `__ldca`,
/// `__ldcg`, `__ldcs`: a read of its argument, written in assembly.
bool isCachedGlobalLoad(const FunctionDecl *FD);

/// True if \p FD is a half-precision add or multiply of two operands
/// (`__hadd`, `__hadd2`, `__hmul`, `__hmul2`), whose result does not depend
/// on the order of its operands.
bool isCommutativeHalfArithmetic(const FunctionDecl *FD);

/// True if an inline asm string reads a per-thread special register
/// (%laneid, %tid, %clock, ...). `%smid` is not one: a block runs on one SM.
bool asmReadsThreadRegister(llvm::StringRef AsmString);

/// True if an inline asm string reads a register that is the same in every
/// thread of a block but may differ between blocks of a cluster (%ctaid,
/// %smid, %cluster_ctarank, ...).
bool asmReadsBlockRegister(llvm::StringRef AsmString);

/// True if an inline asm string reads a register that may differ between
/// clusters (%clusterid).
bool asmReadsClusterRegister(llvm::StringRef AsmString);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_CUDAMODEL_H
