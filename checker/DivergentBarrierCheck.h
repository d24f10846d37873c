//===--- DivergentBarrierCheck.h - cuda-tidy --------------------*- C++ -*-===//

#ifndef CUDA_TIDY_DIVERGENTBARRIERCHECK_H
#define CUDA_TIDY_DIVERGENTBARRIERCHECK_H

#include <clang-tidy/ClangTidyCheck.h>
#include <memory>

namespace clang::tidy::cuda_tidy {

/// Finds block-wide barriers that some threads of a block may reach while
/// other threads of the same block do not.
///
/// At warp scope, it finds warp collectives whose mask names lanes that may
/// not reach them.
///
/// For the user-facing documentation see:
/// rules/cuda-divergent-barrier.md
class DivergentBarrierCheck : public ClangTidyCheck {
public:
  DivergentBarrierCheck(StringRef Name, ClangTidyContext *Context);
  ~DivergentBarrierCheck() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;
  void onStartOfTranslationUnit() override;
  void onEndOfTranslationUnit() override;

private:
  const bool ExitedThreadsHoldBarriers;
  const bool UnknownCallsAreThreadDependent;
  const unsigned MaxBlocks;
  const bool ReportUndecidedWarpMasks;
  class Reporter;
  std::unique_ptr<Reporter> State;
};

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_DIVERGENTBARRIERCHECK_H
