//===--- Timing.h - The slowest analysis of a translation unit --*- C++ -*-===//
//
// The checks keep the time of their slowest per-function (or per-launch)
// analysis and, when the environment has CUDA_TIDY_TIMING set, print it at
// the end of the translation unit, so that bench/bench.sh can show the
// worst case next to the totals. Off by default: checks do not print.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TIMING_H
#define CUDA_TIDY_TIMING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <string>

namespace clang::tidy::cuda_tidy {

class SlowestAnalysis {
public:
  /// Times \p Work and remembers it as the slowest if it is.
  template <typename Fn> void time(llvm::StringRef Name, Fn &&Work) {
    auto Begin = std::chrono::steady_clock::now();
    Work();
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Begin)
            .count();
    if (Seconds > Slowest) {
      Slowest = Seconds;
      SlowestName = Name.str();
    }
  }

  /// Prints "<check>: slowest '<name>' took <s> s" when asked to.
  void report(llvm::StringRef Check) const {
    if (SlowestName.empty() || !llvm::sys::Process::GetEnv("CUDA_TIDY_TIMING"))
      return;
    llvm::errs() << Check << ": slowest '" << SlowestName << "' took "
                 << llvm::format("%.3f", Slowest) << " s\n";
  }

private:
  double Slowest = 0;
  std::string SlowestName;
};

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_TIMING_H
