//===--- Findings.h - clang-tidy's printed diagnostics as data --*- C++ -*-===//
//
// The pull-request gate (baseline, diff filter, parallel runs, SARIF) works
// on clang-tidy's printed output rather than on a diagnostic consumer of its
// own: cuda-tidy runs the stock clang-tidy binary with the plugin loaded, so
// the text is the one interface both sides keep stable. A Finding is one
// warning or error with its notes, and with the source lines clang-tidy
// printed under each, so that a kept finding is printed back exactly as
// clang-tidy wrote it.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_FINDINGS_H
#define CUDA_TIDY_TOOLS_FINDINGS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"
#include <optional>
#include <string>
#include <vector>

namespace cuda_tidy {

/// One location of a diagnostic: the warning's own or one of its notes'.
struct DiagnosticLine {
  std::string File;
  unsigned Line = 0;
  unsigned Column = 0;
  std::string Message;
  /// What clang-tidy printed under the diagnostic line: the source excerpt,
  /// the caret and any fix-it text, each line ending in '\n'.
  std::string Excerpt;
};

/// A replacement that a fix-it makes, in the coordinates of the file.
struct Replacement {
  std::string File;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string Text;
};

struct Finding {
  /// "warning" or "error" (compile errors and warnings made errors).
  std::string Level;
  /// The check's name, or clang-diagnostic-error for a compile error.
  std::string Check;
  /// Whether clang-tidy tagged the check ",-warnings-as-errors".
  bool PromotedToError = false;
  DiagnosticLine Where;
  std::vector<DiagnosticLine> Notes;
  /// The function whose body holds the warning ("" at file scope); see
  /// enclosingFunction().
  std::string Function;
  std::vector<Replacement> Fixes;
  /// What a reproducer showed on a GPU (Repro.h): SARIF's result property
  /// `confirmation`; none when no confirmation names the finding.
  std::optional<llvm::json::Value> Confirmation;
};

/// The warnings and errors in clang-tidy's standard output, in the order
/// printed. Lines that are neither (summaries) are dropped.
std::vector<Finding> parseClangTidyOutput(llvm::StringRef Output);

/// Adds to \p Findings (one clang-tidy run's) the replacements of the
/// fix-its that run exported with `--export-fixes` (\p Yaml): the k-th
/// exported diagnostic with a given check, file and message is the k-th such
/// finding. Text that does not parse adds nothing.
void attachExportedFixes(std::vector<Finding> &Findings, llvm::StringRef Yaml);

/// Prints \p F as clang-tidy did.
void printFinding(llvm::raw_ostream &OS, const Finding &F);

/// Sorts by file, line, column, check and message, and removes findings
/// printed more than once (a header's finding seen from several translation
/// units, or from the host and the device pass).
void sortAndDeduplicate(std::vector<Finding> &Findings);

/// The name of the function whose body contains \p Line:\p Column (1-based)
/// of the C++ source \p Source, qualified as written ("Foo::bar"); "" at
/// file scope. Computed from the text, not the AST, so that the baseline
/// needs no help from the checks: braces are matched with comments, string
/// and character literals skipped, and a brace block is a function body when
/// the token before it closes a parameter list whose name is not a
/// statement keyword or a lambda's capture. Lambdas and control statements
/// count as part of their enclosing function.
std::string enclosingFunction(llvm::StringRef Source, unsigned Line,
                              unsigned Column);

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_FINDINGS_H
