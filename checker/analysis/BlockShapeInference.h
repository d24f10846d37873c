//===--- BlockShapeInference.h - A kernel's shape from its code -*- C++ -*-===//
//
// The block shape a kernel's own code says it is written for, used when no
// launch in the analysed code says which shape it runs with (a kernel
// launched from another file, or through a shape the host code computes).
//
// A fixed guess such as (256,1,1) or (16,16,1) invents defects: it puts
// `y[8 * threadIdx.x]` of a `float y[1024]` past the array's end, or runs
// `s[threadIdx.x][threadIdx.y + 8 * k]` of a `float s[16][8 * 10 + 1]` into
// the next row. The author's code says which shapes are meant:
//  - `assert(blockDim.x == 16)`: that extent, exactly;
//  - `__launch_bounds__(N)`: at most N threads;
//  - in-bounds indexing of the kernel's fixed-size shared arrays: the largest
//    extent of each dimension that keeps every access whose index depends on
//    that dimension (through thread ids and listable loop counters only)
//    inside its array and, for a declared array of rows, inside its row.
//    Extents tried are powers of two and the arrays' own dimensions; each
//    dimension is searched alone;
//  - `__builtin_assume(tid < 128)`, in the kernel's body itself after no
//    statement that may let a thread leave, on thread indices, block
//    extents and constants only: it holds in every thread (it is undefined
//    behaviour otherwise), so a shape with a thread that breaks it is cut
//    as an access out of its array is (ggml's flash_attn_ext_vec: `tid =
//    32 * threadIdx.y + threadIdx.x` below 128 keeps y at 4 or less);
//  - per-thread arrays: an array whose outermost dimension is indexed by
//    `threadIdx.z` itself (`sm_coordinates[threadIdx.z]`), in an access no
//    guard on `threadIdx.z` restricts, holds one element per z index: the
//    author sized it to blockDim.z. Its extent (the smallest such, and no
//    more than the in-bounds extent) is that dimension's. Arrays larger
//    than the thread limit say nothing.
// Each assumed shape (the check's AssumedBlockSize options) is then cut
// down to the in-bounds extents, asserted extents replace the assumed ones,
// and the combination is shrunk (largest dimension first) until every
// access fits together and __launch_bounds__ holds. An assumption the code
// does not contradict is kept as it is, so the options keep their meaning.
// One it contradicts (that step changed it) gives way to what the code
// says, per-thread arrays included: their extents replace the assumed ones
// (raising them too) before the cut and the shrink, which takes the other
// dimensions first. GROMACS's PME gather, one atom per z, was analysed at
// the assumed (8,8,4) shrunk to its __launch_bounds__(128), (4,8,4), where
// it runs at (4,4,8): a warp's own writes looked like another warp's.
//
// The results are still assumptions, not launches: they are marked Assumed
// and their Origin says what they were read from, so that every note shows
// the shape and why.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_BLOCKSHAPEINFERENCE_H
#define CUDA_TIDY_ANALYSIS_BLOCKSHAPEINFERENCE_H

#include "analysis/SharedAccesses.h"

namespace clang::cuda_tidy {

/// The assumed shapes for \p Col's kernel, corrected by what its code says
/// (with their Origin set); empty when its code contradicts none of
/// \p Assumed, which then stand as they are.
llvm::SmallVector<BlockShape, 3> inferBlockShapes(SharedAccessCollector &Col,
                                                  const AssumedShapes &Assumed);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_BLOCKSHAPEINFERENCE_H
