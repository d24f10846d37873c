//===--- DynamicSharedBoundsCheck.h - cuda-tidy -----------------*- C++ -*-===//

#ifndef CUDA_TIDY_DYNAMICSHAREDBOUNDSCHECK_H
#define CUDA_TIDY_DYNAMICSHAREDBOUNDSCHECK_H

#include "LaunchOptions.h"
#include <clang-tidy/ClangTidyCheck.h>
#include <memory>

namespace clang::tidy::cuda_tidy {

/// Finds kernel launches whose dynamic shared memory is smaller than what
/// the kernel's `extern __shared__` accesses reach, missing, or larger than
/// the launch can get.
///
/// For the user-facing documentation see:
/// rules/cuda-dynamic-shared-bounds.md
class DynamicSharedBoundsCheck : public ClangTidyCheck {
public:
  DynamicSharedBoundsCheck(StringRef Name, ClangTidyContext *Context);
  ~DynamicSharedBoundsCheck() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  const bool ReportPossibleOverflows;
  const unsigned MaxBlocks;
  const LaunchIndexOptions LaunchIndex;
  class Collector;
  std::unique_ptr<Collector> State;
};

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_DYNAMICSHAREDBOUNDSCHECK_H
