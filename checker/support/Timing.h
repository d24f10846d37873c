//===--- Timing.h - The slowest analysis of a translation unit --*- C++ -*-===//
//
// The checks keep the processor time of their slowest per-function (or
// per-kernel) analysis and, when the environment has CUDA_TIDY_TIMING set,
// print it at the end of the translation unit, so that bench/bench.sh can
// show the worst case next to the totals. Off by default: checks do not
// print.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SUPPORT_TIMING_H
#define CUDA_TIDY_SUPPORT_TIMING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <ctime>
#include <string>

namespace clang::tidy::cuda_tidy {

class SlowestAnalysis {
public:
  /// Times \p Work and remembers it as the slowest if it is.
  template <typename Fn> void time(llvm::StringRef Name, Fn &&Work) {
    record(Name, measure(Work));
  }

  /// The seconds of processor time \p Work takes in this thread: not wall
  /// time, which on a loaded machine (a CI runner, an editor's busy
  /// workers) counts the time other processes ran, and made the same
  /// function measure 0.09-0.27 s from run to run on a machine with a
  /// load of 4 on 2 cores.
  template <typename Fn> static double measure(Fn &&Work) {
    double Begin = threadSeconds();
    Work();
    return threadSeconds() - Begin;
  }

  static double threadSeconds() {
#ifdef CLOCK_THREAD_CPUTIME_ID
    timespec Now;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &Now) == 0)
      return double(Now.tv_sec) + double(Now.tv_nsec) * 1e-9;
#endif
    return std::chrono::duration<double>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
  }

  /// Remembers \p Seconds of \p Name as the slowest if it is.
  void record(llvm::StringRef Name, double Seconds) {
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

#endif // CUDA_TIDY_SUPPORT_TIMING_H
