//===--- Gate.cpp - cuda-tidy as a pull-request gate ----------------------===//

#include "Gate.h"
#include "Baseline.h"
#include "DiffFilter.h"
#include "Findings.h"
#include "LegacyCuda.h"
#include "Parallel.h"
#include "ResultCache.h"
#include "Sarif.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <atomic>
#include <set>

using namespace llvm;

namespace cuda_tidy {

namespace {

/// clang-tidy options whose value may come as the next word.
const StringSet<> TakesValue = {"p",
                                "checks",
                                "config",
                                "config-file",
                                "header-filter",
                                "exclude-header-filter",
                                "line-filter",
                                "export-fixes",
                                "extra-arg",
                                "extra-arg-before",
                                "format-style",
                                "vfsoverlay",
                                "warnings-as-errors",
                                "store-check-profile",
                                "load"};

int fail(const Twine &Message) {
  errs() << "cuda-tidy: error: " << Message << "\n";
  return 2;
}

/// Header files reach the analysis only through the translation units that
/// include them.
bool isHeader(StringRef File) {
  StringRef Extension = sys::path::extension(File);
  return is_contained(
      {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".inc", ".tcc", ".ipp"},
      Extension);
}

/// Whether a run may be replayed from the cache: it finished, its unit
/// compiled, and its status is explained by what it printed. A failed or
/// crashed analysis is run again next time.
bool isReplayable(const ProcessOutcome &Outcome) {
  if (!Outcome.Failure.empty())
    return false;
  std::vector<Finding> Found = parseClangTidyOutput(Outcome.Stdout);
  if (any_of(Found, [](const Finding &F) {
        return F.Check == "clang-diagnostic-error";
      }))
    return false;
  return Outcome.Status == 0 ||
         any_of(Found, [](const Finding &F) { return F.Level == "error"; });
}

} // namespace

SplitCommand splitCommand(ArrayRef<std::string> Args) {
  SplitCommand Split;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    if (A == "--") {
      Split.AfterFiles.assign(Args.begin() + I, Args.end());
      break;
    }
    if (!A.starts_with("-") || A == "-") {
      Split.Files.push_back(A.str());
      continue;
    }
    Split.Options.push_back(A.str());
    StringRef Name = A.ltrim('-');
    auto [Flag, Value] = Name.split('=');
    bool Joined = Name.contains('=');
    if (!Joined && TakesValue.contains(Flag) && I + 1 < Args.size()) {
      Split.Options.push_back(Args[++I]);
      Value = Args[I];
    }
    if (Flag == "p")
      Split.DatabaseDir = Value.str();
  }
  return Split;
}

int runGate(StringRef ClangTidy, const SplitCommand &Command,
            const GateOptions &Options) {
  SmallString<256> Root;
  if (std::error_code EC = sys::fs::current_path(Root))
    return fail("cannot read the current directory: " + EC.message());

  // Read everything the user gave before running anything.
  std::optional<ChangedLines> Changed;
  if (Options.Diff) {
    auto Text = MemoryBuffer::getFileOrSTDIN(*Options.Diff);
    if (!Text)
      return fail("cannot read the diff '" + *Options.Diff +
                  "': " + Text.getError().message());
    Expected<ChangedLines> Parsed =
        ChangedLines::parse((*Text)->getBuffer(), Root);
    if (!Parsed)
      return fail("'" + *Options.Diff +
                  "' is not a unified diff: " + toString(Parsed.takeError()));
    Changed = std::move(*Parsed);
  }
  std::optional<std::vector<BaselineEntry>> Known;
  if (Options.Baseline) {
    auto Text = MemoryBuffer::getFile(*Options.Baseline);
    if (!Text)
      return fail("cannot read the baseline '" + *Options.Baseline +
                  "': " + Text.getError().message());
    auto Parsed = parseBaseline((*Text)->getBuffer());
    if (!Parsed)
      return fail("the baseline '" + *Options.Baseline +
                  "' is not usable: " + toString(Parsed.takeError()));
    Known = std::move(*Parsed);
  }

  std::optional<std::map<std::string, Confirmation>> Confirmed;
  if (Options.Confirmations) {
    auto Text = MemoryBuffer::getFile(*Options.Confirmations);
    if (!Text)
      return fail("cannot read the confirmations '" + *Options.Confirmations +
                  "': " + Text.getError().message());
    auto Parsed = parseConfirmations((*Text)->getBuffer());
    if (!Parsed)
      return fail("the confirmations '" + *Options.Confirmations +
                  "' are not usable: " + toString(Parsed.takeError()));
    Confirmed = std::move(*Parsed);
  }
  // The checks append each warning's witness to one file (its lines are
  // short, each written at once); every clang-tidy run inherits its name.
  SmallString<128> WitnessFile;
  if (Options.ReproDir) {
    if (std::error_code EC = sys::fs::createTemporaryFile("cuda-tidy-witness",
                                                          "jsonl", WitnessFile))
      return fail("cannot make a temporary file: " + EC.message());
    ::setenv("CUDA_TIDY_WITNESS_FILE", WitnessFile.c_str(), /*overwrite=*/1);
  }

  // The files to analyse: those named, else the database's CUDA files; with
  // a diff, only those it changes (all of them when it changes a header,
  // which any of them may include).
  std::vector<std::string> Files;
  bool Named = !Command.Files.empty();
  if (Named) {
    for (const std::string &File : Command.Files)
      Files.push_back(absoluteUnder(File, Root));
  } else if (Command.DatabaseDir) {
    auto Listed = databaseCudaFiles(*Command.DatabaseDir);
    if (!Listed)
      return fail(toString(Listed.takeError()));
    Files = std::move(*Listed);
  } else {
    return fail("no files to analyse: name them, or give a compile database "
                "with -p DIR");
  }
  if (Changed) {
    std::vector<std::string> InDiff = Changed->files();
    std::set<std::string> Touched(InDiff.begin(), InDiff.end());
    bool HeaderTouched = !Named && any_of(InDiff, [&](const std::string &F) {
      return isHeader(F) && !is_contained(Files, F);
    });
    if (!HeaderTouched)
      erase_if(Files, [&](const std::string &F) { return !Touched.count(F); });
  }
  if (Options.Part)
    erase_if(Files, [&](const std::string &F) {
      return !Options.Part->contains(relativeToRoot(F, Root));
    });

  // The fix-its for SARIF come from --export-fixes, which clang-tidy takes
  // once: a user's own export wins, and SARIF goes without fixes. A cached
  // run keeps its fix-its, so that a hit can replay them.
  bool UserExportsFixes = any_of(Command.Options, [](StringRef A) {
    return A.ltrim('-').starts_with("export-fixes");
  });
  ResultCache *Cache = Options.Cache;
  if (Cache && Options.ReproDir) {
    errs() << "cuda-tidy: the result cache is off with --repro-dir: a "
              "replayed run records no witnesses\n";
    Cache = nullptr;
  }
  if (Cache && UserExportsFixes) {
    errs() << "cuda-tidy: the result cache is off with --export-fixes, whose "
              "file a replayed run would not write\n";
    Cache = nullptr;
  }
  SmallString<128> FixesDir;
  if ((Options.Sarif || Cache) && !UserExportsFixes)
    if (std::error_code EC =
            sys::fs::createUniqueDirectory("cuda-tidy-fixes", FixesDir))
      return fail("cannot make a temporary directory: " + EC.message());
  std::atomic<unsigned> Hits = 0, NotStored = 0;
  auto RunUnit = [&](size_t I) {
    std::optional<std::string> Key =
        Cache ? Cache->keyFor(Files[I]) : std::nullopt;
    if (Key)
      if (std::optional<CachedRun> Hit = Cache->lookup(*Key)) {
        ++Hits;
        ProcessOutcome Replayed;
        Replayed.Status = Hit->Status;
        Replayed.Stdout = std::move(Hit->Stdout);
        Replayed.Stderr = std::move(Hit->Stderr);
        Replayed.ExportedFixes = std::move(Hit->ExportedFixes);
        return Replayed;
      }
    std::vector<std::string> Args = {ClangTidy.str()};
    Args.insert(Args.end(), Command.Options.begin(), Command.Options.end());
    std::string Exported = formatv("{0}/{1}.yaml", FixesDir, I);
    if (!FixesDir.empty())
      Args.push_back("--export-fixes=" + Exported);
    Args.push_back(Files[I]);
    Args.insert(Args.end(), Command.AfterFiles.begin(),
                Command.AfterFiles.end());
    ProcessOutcome Outcome = runOne(ClangTidy, Args);
    if (!FixesDir.empty()) {
      if (auto Yaml = MemoryBuffer::getFile(Exported))
        Outcome.ExportedFixes = (*Yaml)->getBuffer().str();
      sys::fs::remove(Exported);
    }
    if (Key && isReplayable(Outcome))
      Cache->store(*Key, {Outcome.Status, Outcome.Stdout, Outcome.Stderr,
                          Outcome.ExportedFixes});
    else if (Cache)
      ++NotStored;
    return Outcome;
  };
  bool Progress = Files.size() > 1 && sys::Process::StandardErrIsDisplayed();
  std::vector<ProcessOutcome> Outcomes =
      runAll(Files.size(), Options.Jobs, Progress, RunUnit);

  // Merge. Each run's standard error (clang-tidy's summaries and its errors
  // about the command) is passed on in file order, so that it too does not
  // depend on -j.
  std::vector<Finding> Findings;
  bool RunFailed = false, UnexplainedFailure = false;
  StringMap<std::string> Sources;
  for (size_t I = 0; I < Outcomes.size(); ++I) {
    ProcessOutcome &Outcome = Outcomes[I];
    if (Options.NoteRemovedApis)
      noteRemovedApis(Files[I]);
    errs() << Outcome.Stderr;
    if (!Outcome.Failure.empty()) {
      errs() << "cuda-tidy: error: clang-tidy failed on '" << Files[I]
             << "': " << Outcome.Failure << "\n";
      RunFailed = true;
      continue;
    }
    std::vector<Finding> Found = parseClangTidyOutput(Outcome.Stdout);
    if (!Outcome.ExportedFixes.empty())
      attachExportedFixes(Found, Outcome.ExportedFixes);
    if (Outcome.Status != 0 &&
        none_of(Found, [](const Finding &F) { return F.Level == "error"; }))
      UnexplainedFailure = true;
    for (Finding &F : Found) {
      auto [Entry, New] = Sources.try_emplace(F.Where.File);
      if (New)
        if (auto Buffer = MemoryBuffer::getFile(F.Where.File))
          Entry->second = (*Buffer)->getBuffer().str();
      F.Function =
          enclosingFunction(Entry->second, F.Where.Line, F.Where.Column);
      Findings.push_back(std::move(F));
    }
  }
  if (!FixesDir.empty())
    sys::fs::remove_directories(FixesDir);
  if (Cache) {
    unsigned Missed = Files.size() - Hits;
    errs() << "cuda-tidy: result cache '" << Cache->directory() << "': " << Hits
           << (Hits == 1 ? " hit, " : " hits, ") << Missed
           << (Missed == 1 ? " miss" : " misses");
    if (NotStored)
      errs() << " (" << NotStored << " not stored: failed, or no key)";
    errs() << "\n";
  }
  sortAndDeduplicate(Findings);
  if (Files.empty())
    errs() << "cuda-tidy: no file to analyse"
           << (Changed ? ": the diff changes none of them" : "")
           << (Options.Part ? formatv(" in part {0}/{1}", Options.Part->Index,
                                      Options.Part->Count)
                                  .str()
                            : "")
           << "\n";

  if (Options.WriteBaseline) {
    std::error_code EC;
    raw_fd_ostream Out(*Options.WriteBaseline, EC);
    if (EC)
      return fail("cannot write '" + *Options.WriteBaseline +
                  "': " + EC.message());
    Out << formatv("{0:2}", makeBaseline(Findings, Root)) << "\n";
    errs() << "cuda-tidy: wrote " << Findings.size() << " findings to the "
           << "baseline '" << *Options.WriteBaseline << "'\n";
  }
  std::optional<BaselineOutcome> Outcome;
  if (Known) {
    Outcome = applyBaseline(*Known, Findings, Root);
    // A run over part of the code base cannot tell that an entry of another
    // part is gone.
    if (Named || Changed || Options.Part) {
      std::set<std::string> Analysed;
      for (const std::string &File : Files)
        Analysed.insert(relativeToRoot(File, Root));
      erase_if(Outcome->NoLongerSeen,
               [&](const BaselineEntry &E) { return !Analysed.count(E.File); });
    }
  }

  // The diff filters last, so that the baseline sees every finding of the
  // files analysed and can tell which of its entries are gone. It keeps
  // findings on changed lines, and compile errors, which say the analysis
  // of a changed file did not happen.
  if (Changed)
    erase_if(Findings, [&](const Finding &F) {
      return !Changed->touches(F, Root) && F.Check != "clang-diagnostic-error";
    });
  if (Outcome) {
    errs() << "cuda-tidy: the baseline suppressed " << Outcome->Suppressed
           << " known finding" << (Outcome->Suppressed == 1 ? "" : "s") << "; "
           << Findings.size() << " new"
           << (Changed ? " on the changed lines" : "") << "\n";
    if (!Outcome->NoLongerSeen.empty()) {
      errs() << "cuda-tidy: " << Outcome->NoLongerSeen.size()
             << " baseline entr"
             << (Outcome->NoLongerSeen.size() == 1 ? "y no longer occurs"
                                                   : "ies no longer occur")
             << " (drop from '" << *Options.Baseline << "'):\n";
      for (const BaselineEntry &E : Outcome->NoLongerSeen)
        errs() << "  " << E.File << ": " << E.Check << " in '" << E.Function
               << "'" << (E.Count > 1 ? formatv(" (x{0})", E.Count).str() : "")
               << ": " << E.Message << "\n";
    }
  }
  if (Options.ReproDir) {
    auto Text = MemoryBuffer::getFile(WitnessFile);
    std::map<std::string, json::Object> Records =
        Text ? parseWitnessRecords((*Text)->getBuffer())
             : std::map<std::string, json::Object>();
    sys::fs::remove(WitnessFile);
    ::unsetenv("CUDA_TIDY_WITNESS_FILE");
    Expected<ReproSummary> Written = writeReproducers(
        Findings, Records, *Options.ReproDir, Options.ReproBuildOf);
    if (!Written)
      return fail(toString(Written.takeError()));
    errs() << "cuda-tidy: wrote " << Written->Written << " reproducer"
           << (Written->Written == 1 ? "" : "s") << " in '" << *Options.ReproDir
           << "'";
    if (unsigned Cannot = Written->CannotReproduce + Written->NoRecord)
      errs() << "; " << Cannot << " finding" << (Cannot == 1 ? "" : "s")
             << " cannot be reproduced (the note and finding.json say why)";
    errs() << "\n";
  }
  if (Confirmed)
    attachConfirmations(Findings, *Confirmed);
  for (const Finding &F : Findings)
    printFinding(outs(), F);
  outs().flush();

  if (Options.Sarif) {
    std::error_code EC;
    raw_fd_ostream Out(*Options.Sarif, EC);
    if (EC)
      return fail("cannot write '" + *Options.Sarif + "': " + EC.message());
    Out << formatv("{0:2}", findingsToSarif(Findings, Root)) << "\n";
  }

  if (RunFailed)
    return 2;
  if (UnexplainedFailure)
    return 1;
  if (Options.WriteBaseline)
    return 0;
  return any_of(Findings, [](const Finding &F) { return F.Level == "error"; })
             ? 1
             : 0;
}

} // namespace cuda_tidy
