//===--- CudaTidyModule.cpp - cuda-tidy -----------------------------------===//
//
// Registers the 'cuda' clang-tidy module. Nothing else belongs here.
//
//===----------------------------------------------------------------------===//

#include "BankConflictCheck.h"
#include "DivergentBarrierCheck.h"
#include "DynamicSharedBoundsCheck.h"
#include "SharedMemoryRaceCheck.h"
#include <clang-tidy/ClangTidyModule.h>

namespace clang::tidy::cuda_tidy {

class CudaTidyModule : public ClangTidyModule {
public:
  void addCheckFactories(ClangTidyCheckFactories &CheckFactories) override {
    CheckFactories.registerCheck<BankConflictCheck>("cuda-bank-conflict");
    CheckFactories.registerCheck<DivergentBarrierCheck>(
        "cuda-divergent-barrier");
    CheckFactories.registerCheck<DynamicSharedBoundsCheck>(
        "cuda-dynamic-shared-bounds");
    CheckFactories.registerCheck<SharedMemoryRaceCheck>(
        "cuda-shared-memory-race");
  }
};

} // namespace clang::tidy::cuda_tidy

namespace clang::tidy {
// Register the module; clang-tidy finds it once the plugin is loaded with
// --load.
static ClangTidyModuleRegistry::Add<cuda_tidy::CudaTidyModule>
    X("cuda-module", "Checks for shared-memory and barrier bugs in CUDA.");

// A program that links the module in statically (cuda-clangd) refers to this
// symbol, as clang-tidy's ClangTidyForceLinker.h does for the in-tree
// modules, so that the registration above is linked whatever the linker
// would otherwise drop.
volatile int CudaModuleAnchorSource = 0;
} // namespace clang::tidy
