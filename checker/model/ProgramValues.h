//===--- ProgramValues.h - What one run of the program launches -*- C++ -*-===//
//
// A reproducer (cuda-tidy --repro-dir) launches the kernel that warned with
// the witness's values, and needs values for the parameters the witness
// does not name. The launch often passes what its host function was given
// (llm.c's `layernorm_backward(..., B, T, C, block_size)` called from `main`
// with `int B = 8; int T = 1024; int C = 768;`): HostValues reads no
// parameter, since for the checks' own questions one call says nothing of
// the others. Here a run of the program is enough: the first call of the
// launching function in the unit is followed up to four levels, each
// level's arguments evaluated with the parameters the level above bound
// (HostValues' Bound), and the launch's integer arguments and byte count
// evaluated with the launching function's. A parameter the block is passed
// through is bound to the witness's block, so that a byte count computed
// from it is the one that block gets.
//
// Never a fact for a decision: the calls not taken may pass other values.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_PROGRAMVALUES_H
#define CUDA_TIDY_MODEL_PROGRAMVALUES_H

#include "model/LaunchModel.h"
#include <array>
#include <cstdint>
#include <optional>
#include <utility>

namespace clang::cuda_tidy {

struct ProgramValues {
  /// The kernel's integer parameters the launch passes a value for.
  llvm::SmallVector<std::pair<const ParmVarDecl *, std::int64_t>, 4> Arguments;
  /// The dynamic shared bytes of the launch, when they have a value.
  std::optional<std::int64_t> Bytes;
  /// The functions followed, outermost first ("main", "layernorm_backward").
  llvm::SmallVector<const FunctionDecl *, 4> Callers;
};

/// The values \p Launch (a `<<<...>>>` launch whose arguments are read)
/// passes in one run of the program, with its block \p Block (see the file
/// comment); empty when it is none such.
ProgramValues programValues(const LaunchModel &Model,
                            const KernelLaunch &Launch,
                            const std::array<std::int64_t, 3> &Block,
                            ASTContext &Context);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_PROGRAMVALUES_H
