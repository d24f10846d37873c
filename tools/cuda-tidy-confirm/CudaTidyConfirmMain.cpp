//===--- CudaTidyConfirmMain.cpp - the cuda-tidy-confirm command ----------===//
//
// Runs the reproducers that `cuda-tidy --repro-dir=DIR` wrote, on a machine
// with a GPU, and writes what each showed to confirmations.json, which
// `cuda-tidy --confirmations=FILE` notes under the findings
// (tools/cuda-tidy/Repro.h):
//
//   cuda-tidy-confirm [-j N] [--timeout S] [-o FILE] [--build-only] DIR...
//
// A DIR is one finding's folder (it holds finding.json) or a folder with
// such folders below it. For each, several at a time: build.sh, then run.sh
// with CUDA_TIDY_RUN_TIMEOUT=S, each given twice S (and a minute) before it is
// stopped. run.sh's exit status is the outcome (0 confirmed, 1 not
// reproduced, 2 could not run) and its `cuda-tidy-confirm: key=value` lines
// the tool, the GPU, the hazards and the lines. A folder whose finding
// cannot be reproduced keeps its reason. The exit status is 0 when every
// reproducer ran and confirmed its finding, 1 otherwise, 2 on bad input.
//
//===----------------------------------------------------------------------===//

#include "Repro.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <string>
#include <vector>

using namespace llvm;

namespace {

cl::OptionCategory ConfirmCategory("cuda-tidy-confirm options");
cl::list<std::string> Dirs(cl::Positional, cl::OneOrMore,
                           cl::desc("<repro dir>..."),
                           cl::cat(ConfirmCategory));
cl::opt<unsigned> Jobs("j", cl::init(4), cl::Prefix, cl::cat(ConfirmCategory),
                       cl::desc("Run N reproducers at a time"));
cl::opt<unsigned>
    Timeout("timeout", cl::init(120), cl::cat(ConfirmCategory),
            cl::desc("Seconds each tool run of a reproducer may take"));
cl::opt<std::string> Output("o", cl::init("confirmations.json"),
                            cl::value_desc("file"), cl::cat(ConfirmCategory),
                            cl::desc("Where to write the confirmations"));
cl::opt<bool> BuildOnly("build-only", cl::cat(ConfirmCategory),
                        cl::desc("Only build the reproducers (no GPU needed); "
                                 "exit 1 when one does not build"));

/// Runs `sh Script` in \p Folder, its output in \p Log; the exit status, or
/// -1 when it could not run or ran past \p Seconds.
int runScript(StringRef Folder, StringRef Script, StringRef Log,
              unsigned Seconds, std::string &Error) {
  std::optional<std::string> Shell = sys::findProgramByName("sh").get();
  SmallString<256> Path(Folder);
  sys::path::append(Path, Script);
  std::optional<StringRef> Redirects[3] = {StringRef(""), Log, Log};
  StringRef Args[] = {"sh", Path};
  return sys::ExecuteAndWait(Shell ? *Shell : "/bin/sh", Args, std::nullopt,
                             Redirects, Seconds, 0, &Error);
}

std::string lastLine(StringRef Log) {
  auto Buffer = MemoryBuffer::getFile(Log);
  if (!Buffer)
    return "";
  StringRef Text = (*Buffer)->getBuffer().rtrim();
  return Text.substr(Text.rfind('\n') + 1).str();
}

/// The finding folders under \p Dir (those with a finding.json): itself, or
/// the ones below it, up to four levels down, sorted.
std::vector<std::string> findingFolders(StringRef Dir, unsigned Depth = 0) {
  SmallString<256> Own(Dir);
  sys::path::append(Own, "finding.json");
  if (sys::fs::exists(Own))
    return {Dir.str()};
  std::vector<std::string> Folders;
  if (Depth == 4)
    return Folders;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::fs::is_directory(It->path()))
      llvm::append_range(Folders, findingFolders(It->path(), Depth + 1));
  llvm::sort(Folders);
  return Folders;
}

struct Result {
  cuda_tidy::Confirmation C;
  std::string Folder;
  /// Why no reproducer was written, from finding.json.
  std::string CannotReproduce;
};

Result confirm(StringRef Folder) {
  Result R;
  R.Folder = Folder.str();
  SmallString<256> Json(Folder);
  sys::path::append(Json, "finding.json");
  auto Text = MemoryBuffer::getFile(Json);
  Expected<json::Value> Finding =
      Text ? json::parse((*Text)->getBuffer())
           : Expected<json::Value>(createStringError("unreadable"));
  const json::Object *O = Finding ? Finding->getAsObject() : nullptr;
  if (!Finding)
    consumeError(Finding.takeError());
  if (!O) {
    R.C.Outcome = "could-not-run";
    R.C.Detail = "finding.json does not parse";
    return R;
  }
  R.C.Key = O->getString("key").value_or("").str();
  if (std::optional<StringRef> Why = O->getString("cannot_reproduce")) {
    R.C.Outcome = "cannot-reproduce";
    R.CannotReproduce = Why->str();
    R.C.Detail = Why->str();
    return R;
  }
  std::string Error;
  SmallString<256> BuildLog(Folder), RunLog(Folder);
  sys::path::append(BuildLog, "build.log");
  sys::path::append(RunLog, "run.out");
  int Built = runScript(Folder, "build.sh", BuildLog, 600, Error);
  if (Built != 0) {
    R.C.Outcome = "could-not-run";
    R.C.Detail = "build.sh failed: " + (Built < 0 ? Error : lastLine(BuildLog));
    return R;
  }
  if (BuildOnly) {
    R.C.Outcome = "built";
    return R;
  }
  int Ran = runScript(Folder, "run.sh", RunLog, 2 * Timeout + 60, Error);
  auto Out = MemoryBuffer::getFile(RunLog);
  if (Out)
    cuda_tidy::parseRunSummary((*Out)->getBuffer(), R.C);
  static const char *const Outcomes[] = {"confirmed", "not-reproduced",
                                         "could-not-run"};
  if (Ran >= 0 && Ran <= 2)
    R.C.Outcome = Outcomes[Ran];
  else {
    R.C.Outcome = "could-not-run";
    R.C.Detail =
        Ran < 0 ? "run.sh: " + Error : formatv("run.sh: exit {0}", Ran).str();
  }
  return R;
}

} // namespace

int main(int Argc, const char **Argv) {
  cl::HideUnrelatedOptions(ConfirmCategory);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "Runs the reproducers of `cuda-tidy --repro-dir` on this machine's GPU "
      "and writes confirmations.json for `cuda-tidy --confirmations`.\n");
  std::vector<std::string> Folders;
  for (const std::string &Dir : Dirs) {
    if (!sys::fs::is_directory(Dir)) {
      errs() << "cuda-tidy-confirm: error: '" << Dir << "' is not a folder\n";
      return 2;
    }
    llvm::append_range(Folders, findingFolders(Dir));
  }
  ::setenv("CUDA_TIDY_RUN_TIMEOUT", std::to_string(Timeout).c_str(), 1);
  std::vector<Result> Results(Folders.size());
  {
    DefaultThreadPool Pool(hardware_concurrency(std::max(1u, unsigned(Jobs))));
    for (size_t I = 0; I < Folders.size(); ++I)
      Pool.async([&, I] { Results[I] = confirm(Folders[I]); });
    Pool.wait();
  }
  std::map<std::string, unsigned> Counts;
  std::vector<cuda_tidy::Confirmation> All;
  for (const Result &R : Results) {
    ++Counts[R.C.Outcome];
    std::string Said = R.C.Outcome == "cannot-reproduce"
                           ? "cannot reproduce: " + R.CannotReproduce
                       : R.C.Outcome == "built"
                           ? std::string("built")
                           : cuda_tidy::describeConfirmation(R.C);
    if (R.C.Outcome != "confirmed" && R.C.Outcome != "built" &&
        R.C.Outcome != "cannot-reproduce" && !R.C.Detail.empty() &&
        Said.find(R.C.Detail) == std::string::npos)
      Said += " (" + R.C.Detail + ")";
    outs() << sys::path::filename(R.Folder) << ": " << Said << "\n";
    if (R.C.Outcome != "built")
      All.push_back(R.C);
  }
  outs() << formatv("cuda-tidy-confirm: {0} confirmed, {1} not reproduced, "
                    "{2} could not run, {3} cannot be reproduced",
                    Counts["confirmed"], Counts["not-reproduced"],
                    Counts["could-not-run"], Counts["cannot-reproduce"]);
  if (BuildOnly)
    outs() << formatv(", {0} built", Counts["built"]);
  outs() << "\n";
  if (!BuildOnly) {
    std::error_code EC;
    raw_fd_ostream Out(Output, EC);
    if (EC) {
      errs() << "cuda-tidy-confirm: error: cannot write '" << Output
             << "': " << EC.message() << "\n";
      return 2;
    }
    Out << formatv("{0:2}", cuda_tidy::confirmationsToJson(All)) << "\n";
  }
  if (BuildOnly)
    return Counts["could-not-run"] ? 1 : 0;
  return Counts["confirmed"] == Results.size() - Counts["cannot-reproduce"] &&
                 !Counts["could-not-run"]
             ? 0
             : 1;
}
