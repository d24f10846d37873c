//===--- Repro.h - a reproducer for every finding ---------------*- C++ -*-===//
//
// Issue 24: every finding proven on the user's own GPU. The checks write
// each warning's witness as data (checker/WitnessRecord.h) when
// CUDA_TIDY_WITNESS_FILE is set; `cuda-tidy --repro-dir=DIR` joins the
// records to the printed findings by (check, file, line, column) and writes
// one folder per finding, DIR/<check>-<file>-<line>-<column>/:
//
//   repro.cu      the analysed translation unit, included with its `main`
//                 renamed, and a `main` that launches the instance that
//                 warned with the witness's block, the smallest grid it
//                 needs, its scalar values, and a deterministically filled
//                 device buffer for each pointer parameter
//   build.sh      nvcc with the database's command (or the flags cuda-tidy
//                 used) for the GPU of the machine it runs on
//   run.sh        the reproducer under the tool that shows the check's
//                 fault (racecheck, synccheck, memcheck, Nsight Compute's
//                 shared-memory counters, a watchdog for hangs); exit 0 when
//                 the fault shows, 1 when it does not, 2 when it could not
//                 run, and a last line `cuda-tidy-confirm: ...` that says
//                 what it saw
//   finding.json  the finding, the witness and every default the
//                 reproducer chose
//
// A finding whose witness needs what a launch cannot give (input data, a
// pointer chased through memory) gets finding.json only, with the reason,
// and a note under the finding says so. `cuda-tidy-confirm DIR...` runs the
// folders and writes confirmations.json; `cuda-tidy --confirmations=FILE`
// prints each one's outcome as a note under its finding and puts it in
// SARIF as the result property `confirmation`.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_REPRO_H
#define CUDA_TIDY_TOOLS_REPRO_H

#include "Findings.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/JSON.h"
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// What identifies a finding across cuda-tidy's runs and the reproducers:
/// its check, real path, line and column.
std::string findingKey(llvm::StringRef Check, llvm::StringRef File,
                       unsigned Line, unsigned Column);
std::string findingKey(const Finding &F);

/// The folder name of a finding's reproducer:
/// `<check>-<file name>-<line>-<column>`.
std::string reproFolderName(const Finding &F);

/// The witness records of CUDA_TIDY_WITNESS_FILE's text \p Text (one JSON
/// object a line), by findingKey; the first record of a key wins.
std::map<std::string, llvm::json::Object>
parseWitnessRecords(llvm::StringRef Text);

/// How build.sh compiles a reproducer.
struct ReproBuild {
  /// The nvcc to run.
  std::string Nvcc;
  /// The folder the command runs in (the database entry's directory).
  std::string Directory;
  /// Flags for nvcc besides the source, the output and the architecture.
  std::vector<std::string> Flags;
  /// The architecture number ("90") when no GPU answers.
  std::string DefaultArch;
};

/// The build of \p File: the nvcc command of the compile database in
/// \p DatabaseDir when it has one for the file, else the toolkit \p Cuda's
/// nvcc with the include, define and standard flags of the Clang command
/// \p ClangArgs (what follows `--`).
ReproBuild reproBuildFor(llvm::StringRef File,
                         std::optional<std::string> DatabaseDir,
                         llvm::StringRef Cuda,
                         llvm::ArrayRef<std::string> ClangArgs);

/// What writing the reproducers did.
struct ReproSummary {
  unsigned Written = 0;
  unsigned CannotReproduce = 0;
  unsigned NoRecord = 0;
};

/// Writes a folder under \p Dir for each of \p Findings of the checks that
/// record witnesses (\p Records, by findingKey); adds the note "cannot
/// reproduce: ..." to a finding that gets finding.json only. \p BuildOf
/// gives each file's build.
llvm::Expected<ReproSummary>
writeReproducers(std::vector<Finding> &Findings,
                 const std::map<std::string, llvm::json::Object> &Records,
                 llvm::StringRef Dir,
                 llvm::function_ref<ReproBuild(llvm::StringRef File)> BuildOf);

/// The text of repro.cu for \p Record of \p F in \p Folder (which it
/// includes the translation unit relative to), or the reason it cannot be
/// written; \p Facts gets what finding.json states about the reproducer.
llvm::Expected<std::string> reproducerSource(const Finding &F,
                                             const llvm::json::Object &Record,
                                             llvm::StringRef Folder,
                                             llvm::json::Object &Facts);

/// One confirmation of confirmations.json.
struct Confirmation {
  std::string Key;
  /// "confirmed", "not-reproduced" or "could-not-run".
  std::string Outcome;
  std::string Gpu;
  std::string Tool;
  std::string Detail;
  unsigned Findings = 0;
  unsigned Hazards = 0;
  std::vector<unsigned> Lines;
};

/// The confirmations of a confirmations.json text, by key.
llvm::Expected<std::map<std::string, Confirmation>>
parseConfirmations(llvm::StringRef Text);
llvm::json::Value confirmationsToJson(llvm::ArrayRef<Confirmation> All);

/// "confirmed on NVIDIA H200: racecheck, 512 hazards between lines 14 and
/// 22", "not reproduced on NVIDIA H200: ...".
std::string describeConfirmation(const Confirmation &C);

/// Adds to each of \p Findings that \p Known confirms the note that says
/// how, and its outcome as data (Finding::Confirmation) for SARIF.
void attachConfirmations(std::vector<Finding> &Findings,
                         const std::map<std::string, Confirmation> &Known);

/// Reads the last `cuda-tidy-confirm: key=value ...` line of run.sh's
/// output into \p C (Outcome, Tool, Gpu, counts, lines, Detail).
void parseRunSummary(llvm::StringRef Output, Confirmation &C);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_REPRO_H
