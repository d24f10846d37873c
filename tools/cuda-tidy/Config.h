//===--- Config.h - what the user's clang-tidy configuration says -*- C++
//-*-===//
//
// cuda-tidy turns the cuda-* checks on (`--checks=-*,cuda-*`) unless the user
// chose checks. A `--config` or `--config-file` that only sets CheckOptions
// has not chosen checks: without this test, clang-tidy's default Checks
// would apply and every cuda-* check would be silently off.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_CONFIG_H
#define CUDA_TIDY_TOOLS_CONFIG_H

#include "llvm/ADT/StringRef.h"

namespace cuda_tidy {

/// Whether the clang-tidy configuration \p Text (YAML, or JSON, which YAML
/// reads too) has a top-level `Checks` key. Text that does not parse names
/// none: clang-tidy then reports the error itself.
bool configNamesChecks(llvm::StringRef Text);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_CONFIG_H
