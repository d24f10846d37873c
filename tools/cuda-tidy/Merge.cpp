//===--- Merge.cpp - one report of the parts of a sharded run -------------===//

#include "Merge.h"
#include "Baseline.h"
#include "Findings.h"
#include "Sarif.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"
#include <vector>

using namespace llvm;

namespace cuda_tidy {

namespace {

/// The texts of \p Inputs, which must be files, not options.
Expected<std::vector<std::unique_ptr<MemoryBuffer>>>
readInputs(ArrayRef<std::string> Inputs) {
  std::vector<std::unique_ptr<MemoryBuffer>> Texts;
  for (const std::string &Input : Inputs) {
    if (StringRef(Input).starts_with("-"))
      return createStringError("a merge takes only the files to merge, not '" +
                               Input + "'");
    auto Text = MemoryBuffer::getFile(Input);
    if (!Text)
      return createStringError("cannot read '" + Input +
                               "': " + Text.getError().message());
    Texts.push_back(std::move(*Text));
  }
  return Texts;
}

Error write(StringRef Out, const json::Value &Merged) {
  std::error_code EC;
  raw_fd_ostream Stream(Out, EC);
  if (EC)
    return createStringError("cannot write '" + Out + "': " + EC.message());
  Stream << formatv("{0:2}", Merged) << "\n";
  return Error::success();
}

} // namespace

Error mergeSarifFiles(StringRef Out, ArrayRef<std::string> Inputs) {
  auto Texts = readInputs(Inputs);
  if (!Texts)
    return Texts.takeError();
  std::vector<json::Value> Logs;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    Expected<json::Value> Log = json::parse((*Texts)[I]->getBuffer());
    if (!Log)
      return createStringError("'" + Inputs[I] +
                               "' is not JSON: " + toString(Log.takeError()));
    Logs.push_back(std::move(*Log));
  }
  // Relative paths are the repository's, whichever machine wrote them: they
  // are resolved against the first log's root and written against it.
  std::string Root = Logs.empty() ? "" : sarifRoot(Logs.front());
  if (Root.empty()) {
    SmallString<256> Here;
    sys::fs::current_path(Here);
    Root = std::string(Here);
  }
  std::vector<Finding> Findings;
  for (size_t I = 0; I < Logs.size(); ++I) {
    auto Read = readSarifFindings(Logs[I], Root);
    if (!Read)
      return createStringError("'" + Inputs[I] +
                               "': " + toString(Read.takeError()));
    append_range(Findings, *Read);
  }
  sortAndDeduplicate(Findings);
  return write(Out, findingsToSarif(Findings, Root));
}

Error mergeBaselineFiles(StringRef Out, ArrayRef<std::string> Inputs) {
  auto Texts = readInputs(Inputs);
  if (!Texts)
    return Texts.takeError();
  std::vector<std::vector<BaselineEntry>> Baselines;
  for (size_t I = 0; I < Inputs.size(); ++I) {
    auto Parsed = parseBaseline((*Texts)[I]->getBuffer());
    if (!Parsed)
      return createStringError(
          "the baseline '" + Inputs[I] +
          "' is not usable: " + toString(Parsed.takeError()));
    Baselines.push_back(std::move(*Parsed));
  }
  return write(Out, mergeBaselines(Baselines));
}

} // namespace cuda_tidy
