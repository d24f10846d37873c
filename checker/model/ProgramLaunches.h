//===--- ProgramLaunches.h - Launches seen across a program -----*- C++ -*-===//
//
// A kernel is often launched from another file than the one that defines
// it; clang-tidy sees one translation unit at a time, so the launch's block
// shape and byte count are not there when the kernel is analysed. A launch
// index carries them over:
//
//  - the pre-pass: with the WriteLaunchIndex option (a directory) a check
//    analyses nothing and writes the launches of its translation unit, one
//    JSON file per unit: for each launch the launch model resolves (a
//    helper's at the call that hands it the kernel), the kernel's USR (the
//    same in every translation unit and in the host and device passes, and
//    distinct for each template instance), its name, the launch's file and
//    line, and its block shape and byte count when they are constants along
//    the launch's path (HostValues.h);
//  - the real run: with the LaunchIndex option (that directory) the checks
//    read every file there once per process, and the launch model
//    (LaunchModel.h) gives each kernel defined in the unit its launches in
//    other files too, whose notes name the file.
//
// The options are read by LaunchIndexOptions (checker/LaunchOptions.h).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_PROGRAMLAUNCHES_H
#define CUDA_TIDY_MODEL_PROGRAMLAUNCHES_H

#include "analysis/SharedAccesses.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/StringMap.h"
#include <optional>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

/// One launch as the index records it.
struct IndexedLaunch {
  std::string Kernel; // The kernel's USR.
  std::string Name;   // The kernel's name, for people.
  std::string File;
  unsigned Line = 0;
  /// None: not a constant at the launch.
  std::optional<BlockShape> Block;
  std::optional<std::int64_t> Bytes;

  /// "main.cu:12", as notes name the launch.
  std::string where() const;
};

/// The USR that identifies \p Kernel in the index.
std::string kernelKey(const FunctionDecl *Kernel);

/// The canonical path of \p SM's main file, as the index names files
/// (IndexedLaunch::File); empty when the main file has no entry.
llvm::StringRef mainFileName(const SourceManager &SM);

class ProgramLaunches {
public:
  /// The index in directory \p Dir, read once per process; null when there
  /// is none or it cannot be read.
  static const ProgramLaunches *load(llvm::StringRef Dir);
  /// Writes \p Launches, seen in the unit whose main file is \p MainFile, to
  /// a new file in \p Dir; false on failure.
  static bool write(llvm::StringRef Dir, llvm::StringRef MainFile,
                    llvm::ArrayRef<IndexedLaunch> Launches);

  /// The launches of the kernel with USR \p Key in files other than
  /// \p MainFile (a canonical path, as FileManager gives it).
  std::vector<const IndexedLaunch *> launchesOf(llvm::StringRef Key,
                                                llvm::StringRef MainFile) const;

private:
  llvm::StringMap<std::vector<IndexedLaunch>> ByKernel;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_PROGRAMLAUNCHES_H
