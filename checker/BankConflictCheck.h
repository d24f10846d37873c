//===--- BankConflictCheck.h - cuda-tidy ------------------------*- C++ -*-===//

#ifndef CUDA_TIDY_BANKCONFLICTCHECK_H
#define CUDA_TIDY_BANKCONFLICTCHECK_H

#include "LaunchOptions.h"
#include <clang-tidy/ClangTidyCheck.h>
#include <memory>
#include <string>

namespace clang::tidy::cuda_tidy {

/// Finds shared-memory accesses whose layout puts several lanes of a warp in
/// the same bank, and predicts the conflict degree the hardware counters
/// will measure.
///
/// For the user-facing documentation see:
/// rules/cuda-bank-conflict.md
class BankConflictCheck : public ClangTidyCheck {
public:
  BankConflictCheck(StringRef Name, ClangTidyContext *Context);
  ~BankConflictCheck() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  const unsigned MinimumDegree;
  const unsigned MaxBlocks;
  const AssumedBlockSizeOptions AssumedBlockSizes;
  const LaunchIndexOptions LaunchIndex;
  class Collector;
  std::unique_ptr<Collector> State;
};

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_BANKCONFLICTCHECK_H
