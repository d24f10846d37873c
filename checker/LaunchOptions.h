//===--- LaunchOptions.h - Check options about launches ---------*- C++ -*-===//
//
// The options that say how the checks learn a kernel's launches, read from
// clang-tidy's configuration: the block shapes to assume where no launch
// says (AssumedBlockSize, AssumedBlockSize2D, AssumedBlockSize3D), and the
// launch index to read or write (LaunchIndex, WriteLaunchIndex; see
// model/ProgramLaunches.h). They live beside the checks because they read
// clang-tidy's options; the launch model (model/LaunchModel.h) takes what
// they give. Also here, as it writes diagnostics: the notes that name the
// launches a kernel's assumed shape could not be read from.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_LAUNCHOPTIONS_H
#define CUDA_TIDY_LAUNCHOPTIONS_H

#include "analysis/SharedAccesses.h"
#include "model/LaunchModel.h"
#include "model/ProgramLaunches.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <clang-tidy/ClangTidyCheck.h>
#include <optional>
#include <string>
#include <vector>

namespace clang::tidy::cuda_tidy {

/// Parses "16,16;32,8" into assumed block shapes; missing dimensions are 1.
std::optional<std::vector<clang::cuda_tidy::BlockShape>>
    parseBlockShapes(llvm::StringRef);

/// The AssumedBlockSize, AssumedBlockSize2D and AssumedBlockSize3D options
/// of a check: read, written back, and parsed with the defaults standing in
/// for an option that does not parse.
class AssumedBlockSizeOptions {
public:
  AssumedBlockSizeOptions(ClangTidyCheck::OptionsView &Options,
                          llvm::StringRef Default1D, llvm::StringRef Default2D,
                          llvm::StringRef Default3D);
  void store(ClangTidyCheck::OptionsView &Options,
             ClangTidyOptions::OptionMap &Opts) const;
  /// The shapes; \p Invalid is called with each option that does not parse
  /// and its value.
  clang::cuda_tidy::AssumedShapes
  shapes(llvm::function_ref<void(llvm::StringRef Option, llvm::StringRef Value)>
             Invalid) const;

private:
  std::string Texts[3];
  std::string Defaults[3];
};

/// The LaunchIndex and WriteLaunchIndex options of a check. Both are read
/// local or global (`LaunchIndex: dir` serves every check); by default they
/// come from the environment variables CUDA_TIDY_LAUNCH_INDEX and
/// CUDA_TIDY_WRITE_LAUNCH_INDEX, which is how the cuda-tidy command passes
/// them without overriding the user's configuration.
class LaunchIndexOptions {
public:
  explicit LaunchIndexOptions(ClangTidyCheck::OptionsView &Options);
  void store(ClangTidyCheck::OptionsView &Options,
             ClangTidyOptions::OptionMap &Opts) const;
  /// The index to read; null when none is configured or readable.
  const clang::cuda_tidy::ProgramLaunches *index() const;
  /// The directory the pre-pass writes to; empty in a real run.
  llvm::StringRef writeDir() const { return WriteDir; }

private:
  std::string ReadDir, WriteDir;
  /// The options as configured, without the environment.
  std::string ConfiguredRead, ConfiguredWrite;
};

/// When \p Shape, the shape a report about \p Kernel was found with, is
/// assumed because launches of \p Kernel have no constant block: a note at
/// each such launch (at most three) saying why, as the model tells it.
void noteUnevaluatedLaunches(ClangTidyCheck &Check,
                             const clang::cuda_tidy::LaunchModel &Launches,
                             const clang::cuda_tidy::BlockShape &Shape,
                             const FunctionDecl *Kernel);

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_LAUNCHOPTIONS_H
