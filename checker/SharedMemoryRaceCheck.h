//===--- SharedMemoryRaceCheck.h - cuda-tidy --------------------*- C++ -*-===//

#ifndef CUDA_TIDY_SHAREDMEMORYRACECHECK_H
#define CUDA_TIDY_SHAREDMEMORYRACECHECK_H

#include "LaunchOptions.h"
#include <clang-tidy/ClangTidyCheck.h>
#include <memory>
#include <string>

namespace clang::tidy::cuda_tidy {

/// Finds two threads of a block that touch the same shared-memory element,
/// at least one of them writing, with no barrier between the two accesses.
///
/// For the user-facing documentation see:
/// rules/cuda-shared-memory-race.md
class SharedMemoryRaceCheck : public ClangTidyCheck {
public:
  SharedMemoryRaceCheck(StringRef Name, ClangTidyContext *Context);
  ~SharedMemoryRaceCheck() override;
  bool isLanguageVersionSupported(const LangOptions &LangOpts) const override {
    return LangOpts.CUDA;
  }
  void registerMatchers(ast_matchers::MatchFinder *Finder) override;
  void check(const ast_matchers::MatchFinder::MatchResult &Result) override;
  void onEndOfTranslationUnit() override;
  void storeOptions(ClangTidyOptions::OptionMap &Opts) override;

private:
  const AssumedBlockSizeOptions AssumedBlockSizes;
  const LaunchIndexOptions LaunchIndex;
  const bool ReportPossibleRaces;
  /// Work units one kernel's analysis may use (0: no limit; see
  /// RaceOptions::WorkBudget).
  const unsigned WorkBudget;
  const unsigned MaxBlocks;
  class Collector;
  std::unique_ptr<Collector> State;
};

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_SHAREDMEMORYRACECHECK_H
