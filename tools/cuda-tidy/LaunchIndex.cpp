//===--- LaunchIndex.cpp - Every launch in a compile database -------------===//

#include "LaunchIndex.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
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

/// The names of the kernels `__global__` declares in \p Text: the last
/// identifier before the parameter list, `__launch_bounds__(...)` skipped.
std::vector<std::string> kernelNames(StringRef Text) {
  std::vector<std::string> Names;
  for (size_t Pos = Text.find("__global__"); Pos != StringRef::npos;
       Pos = Text.find("__global__", Pos + 1)) {
    StringRef Rest = Text.substr(Pos + strlen("__global__"));
    StringRef Last;
    while (!Rest.empty() && Rest.front() != ';' && Rest.front() != '{') {
      if (isAlnum(Rest.front()) || Rest.front() == '_') {
        size_t End =
            Rest.find_if_not([](char C) { return isAlnum(C) || C == '_'; });
        Last = Rest.take_front(End);
        Rest = Rest.drop_front(Last.size());
        continue;
      }
      if (Rest.front() == '(') {
        if (Last != "__launch_bounds__")
          break;
        Rest = Rest.drop_front(Rest.find(')'));
      }
      Rest = Rest.drop_front();
    }
    if (!Last.empty() && !Last.starts_with("__"))
      Names.push_back(Last.str());
  }
  return Names;
}

/// The names a file launches: the identifier before each `<<<` (a template
/// argument list skipped), and every identifier of a file that calls a
/// cudaLaunch* function, whose kernel is an argument.
StringSet<> launchedNames(StringRef Text) {
  StringSet<> Names;
  auto IsIdent = [](char C) { return isAlnum(C) || C == '_'; };
  for (size_t Pos = Text.find("<<<"); Pos != StringRef::npos;
       Pos = Text.find("<<<", Pos + 3)) {
    StringRef Before = Text.take_front(Pos).rtrim();
    if (Before.ends_with(">")) {
      // `kernel<T, 256><<<...>>>`: skip the template arguments.
      int Depth = 0;
      size_t I = Before.size();
      while (I > 0) {
        char C = Before[--I];
        Depth += C == '>' ? 1 : C == '<' ? -1 : 0;
        if (Depth == 0)
          break;
      }
      Before = Before.take_front(I).rtrim();
    }
    size_t Start = Before.size();
    while (Start > 0 && IsIdent(Before[Start - 1]))
      --Start;
    if (Start < Before.size())
      Names.insert(Before.substr(Start));
  }
  if (Text.contains("cudaLaunch"))
    for (size_t I = 0; I < Text.size();) {
      if (!IsIdent(Text[I])) {
        ++I;
        continue;
      }
      size_t End = I;
      while (End < Text.size() && IsIdent(Text[End]))
        ++End;
      Names.insert(Text.slice(I, End));
      I = End;
    }
  return Names;
}

std::string textOf(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : std::string();
}

} // namespace

std::vector<std::string> launchingFiles(StringRef DatabaseDir,
                                        ArrayRef<std::string> Sources) {
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
  auto Normalise = [](SmallString<256> Path) {
    sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
    return std::string(Path);
  };
  std::vector<std::string> DatabaseFiles;
  StringSet<> Seen;
  for (const json::Value &Entry : *Entries) {
    const json::Object *O = Entry.getAsObject();
    auto File = O ? O->getString("file") : std::nullopt;
    if (!File)
      continue;
    SmallString<256> Path(*File);
    if (auto Directory = O->getString("directory"))
      sys::path::make_absolute(*Directory, Path);
    std::string Normal = Normalise(Path);
    if (Seen.insert(Normal).second)
      DatabaseFiles.push_back(Normal);
  }
  // The kernels of the files to analyse, and the files defining each.
  StringMap<StringSet<>> Kernels;
  for (const std::string &Source :
       Sources.empty() ? ArrayRef<std::string>(DatabaseFiles) : Sources) {
    SmallString<256> Path(Source);
    sys::fs::make_absolute(Path);
    std::string Normal = Normalise(Path);
    for (const std::string &Name : kernelNames(textOf(Normal)))
      Kernels[Name].insert(Normal);
  }
  if (Kernels.empty())
    return Files;
  // A file's launches of its own kernels are seen where it is analysed.
  for (const std::string &Path : DatabaseFiles) {
    StringSet<> Launched = launchedNames(textOf(Path));
    if (llvm::any_of(Launched, [&](const auto &Name) {
          auto It = Kernels.find(Name.getKey());
          return It != Kernels.end() &&
                 (It->second.size() > 1 || !It->second.contains(Path));
        }))
      Files.push_back(Path);
  }
  return Files;
}

LaunchIndex::LaunchIndex(ArrayRef<std::string> ClangTidyArgs,
                         StringRef DatabaseDir, ArrayRef<std::string> Sources) {
  if (DatabaseDir.empty() || ClangTidyArgs.empty())
    return;
  std::vector<std::string> Files = launchingFiles(DatabaseDir, Sources);
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
