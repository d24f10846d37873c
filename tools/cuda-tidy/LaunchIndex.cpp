//===--- LaunchIndex.cpp - Every launch in a compile database -------------===//

#include "LaunchIndex.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include <cstdlib>

extern char **environ;

using namespace llvm;

namespace cuda_tidy {

namespace {

/// The check that writes the index in the pre-pass; any of the checks that
/// read block shapes would do.
constexpr const char *WriterCheck = "cuda-bank-conflict";

bool launchesKernels(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return false;
  StringRef Text = (*Buffer)->getBuffer();
  return Text.contains("<<<") || Text.contains("cudaLaunch");
}

} // namespace

std::vector<std::string> launchingFiles(StringRef DatabaseDir) {
  std::vector<std::string> Files;
  SmallString<256> Database(DatabaseDir);
  sys::path::append(Database, "compile_commands.json");
  auto Buffer = MemoryBuffer::getFile(Database);
  if (!Buffer)
    return Files;
  auto Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return Files;
  }
  const json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return Files;
  StringSet<> Seen;
  for (const json::Value &Entry : *Entries) {
    const json::Object *O = Entry.getAsObject();
    auto File = O ? O->getString("file") : std::nullopt;
    if (!File)
      continue;
    SmallString<256> Path(*File);
    if (auto Directory = O->getString("directory"))
      sys::path::make_absolute(*Directory, Path);
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    if (Seen.insert(Path).second && launchesKernels(Path))
      Files.push_back(std::string(Path));
  }
  return Files;
}

LaunchIndex::LaunchIndex(ArrayRef<std::string> ClangTidyArgs,
                         StringRef DatabaseDir) {
  if (DatabaseDir.empty() || ClangTidyArgs.empty())
    return;
  std::vector<std::string> Files = launchingFiles(DatabaseDir);
  if (Files.empty() ||
      sys::fs::createUniqueDirectory("cuda-tidy-launches", Dir))
    return;
  std::vector<std::string> Args = {ClangTidyArgs.front(),
                                   std::string("--checks=-*,") + WriterCheck,
                                   "-p=" + DatabaseDir.str(), "--quiet"};
  for (StringRef Arg : ClangTidyArgs.drop_front()) {
    if (Arg == "--")
      break;
    if (Arg.starts_with("--load") || Arg.starts_with("--extra-arg") ||
        Arg.starts_with("-extra-arg"))
      Args.push_back(Arg.str());
  }
  Args.insert(Args.end(), Files.begin(), Files.end());
  std::vector<StringRef> ArgRefs(Args.begin(), Args.end());

  // The pre-pass's environment: ours, and where to write.
  std::vector<std::string> Environment;
  for (char **Var = environ; *Var; ++Var)
    if (!StringRef(*Var).starts_with("CUDA_TIDY_WRITE_LAUNCH_INDEX=") &&
        !StringRef(*Var).starts_with("CUDA_TIDY_LAUNCH_INDEX="))
      Environment.push_back(*Var);
  Environment.push_back("CUDA_TIDY_WRITE_LAUNCH_INDEX=" + Dir.str().str());
  std::vector<StringRef> EnvRefs(Environment.begin(), Environment.end());
  // Its diagnostics (parse errors) are the real run's to show.
  std::optional<StringRef> Silent[3] = {StringRef(""), StringRef(""),
                                        StringRef("")};
  sys::ExecuteAndWait(Args.front(), ArgRefs, EnvRefs, Silent);
  ::setenv("CUDA_TIDY_LAUNCH_INDEX", Dir.c_str(), /*overwrite=*/1);
}

LaunchIndex::~LaunchIndex() {
  if (!Dir.empty())
    sys::fs::remove_directories(Dir);
}

} // namespace cuda_tidy
