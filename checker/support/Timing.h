//===--- Timing.h - The slowest analysis of a translation unit --*- C++ -*-===//
//
// The checks keep the processor time of each per-function (or per-kernel)
// analysis and, when the environment has CUDA_TIDY_TIMING set, print the
// slowest at the end of the translation unit, so that bench/bench.sh can
// show the worst case next to the totals; with CUDA_TIDY_TIMING=all, every
// function's time as well, so that bench/functions.py can give the
// distribution over a whole corpus. A function analysed in two steps (the
// barrier check's barriers, then its warp masks at the end of the unit)
// counts once, with both. Off by default: checks do not print.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_SUPPORT_TIMING_H
#define CUDA_TIDY_SUPPORT_TIMING_H

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <chrono>
#include <ctime>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace clang::tidy::cuda_tidy {

class SlowestAnalysis {
public:
  /// Times \p Work and adds it to the time of function \p Key, named
  /// \p Name (instances of one template share a name, not a key).
  template <typename Fn>
  void time(const void *Key, llvm::StringRef Name, Fn &&Work) {
    record(Key, Name, measure(Work));
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

  /// Adds \p Seconds to the time of function \p Key, named \p Name.
  void record(const void *Key, llvm::StringRef Name, double Seconds) {
    auto [It, Inserted] = Index.try_emplace(Key, Functions.size());
    if (Inserted)
      Functions.push_back({Name.str(), 0});
    Functions[It->second].second += Seconds;
  }

  /// Prints "<check>: slowest '<name>' took <s> s" when asked to, and with
  /// CUDA_TIDY_TIMING=all a "<check>: function '<name>' took <s> s" line
  /// for every function, in the order they were first analysed.
  void report(llvm::StringRef Check) const {
    std::optional<std::string> Mode =
        llvm::sys::Process::GetEnv("CUDA_TIDY_TIMING");
    if (!Mode || Functions.empty())
      return;
    const std::pair<std::string, double> *Slowest = &Functions.front();
    for (const auto &F : Functions)
      if (F.second > Slowest->second)
        Slowest = &F;
    llvm::errs() << Check << ": slowest '" << Slowest->first << "' took "
                 << llvm::format("%.3f", Slowest->second) << " s\n";
    if (*Mode != "all")
      return;
    for (const auto &F : Functions)
      llvm::errs() << Check << ": function '" << F.first << "' took "
                   << llvm::format("%.4f", F.second) << " s\n";
  }

private:
  llvm::DenseMap<const void *, unsigned> Index;
  std::vector<std::pair<std::string, double>> Functions;
};

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_SUPPORT_TIMING_H
