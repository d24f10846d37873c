//===--- LaunchIndex.cpp - Every launch in a compile database -------------===//

#include "LaunchIndex.h"
#include "Parallel.h"
#include "ResultCache.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include <atomic>
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

/// The index files one pre-pass wrote into \p Dir, as one cache field:
/// each text after its length.
std::string packIndexFiles(StringRef Dir) {
  std::vector<std::string> Texts;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (sys::path::extension(It->path()) == ".json")
      Texts.push_back(textOf(It->path()));
  llvm::sort(Texts);
  std::string Packed;
  for (const std::string &Text : Texts)
    Packed += std::to_string(Text.size()) + "\n" + Text;
  return Packed;
}

/// Writes the index files \p Packed holds into \p Dir, named after
/// \p File; false if \p Packed is not such a field or a file cannot be
/// written.
bool unpackIndexFiles(StringRef Packed, StringRef Dir, StringRef File) {
  while (!Packed.empty()) {
    auto [Digits, Rest] = Packed.split('\n');
    size_t Length;
    if (Digits.getAsInteger(10, Length) || Length > Rest.size())
      return false;
    SmallString<256> Model(Dir);
    sys::path::append(Model, sys::path::filename(File) + "-%%%%%%%%.json");
    int FD;
    SmallString<256> Path;
    if (sys::fs::createUniqueFile(Model, FD, Path))
      return false;
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Rest.take_front(Length);
    Out.close();
    if (Out.has_error())
      return false;
    Packed = Rest.drop_front(Length);
  }
  return true;
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
                         StringRef DatabaseDir, ArrayRef<std::string> Sources,
                         unsigned Jobs, ResultCache *Cache) {
  if (DatabaseDir.empty() || ClangTidyArgs.empty())
    return;
  std::vector<std::string> Launching = launchingFiles(DatabaseDir, Sources);
  if (Launching.empty() ||
      sys::fs::createUniqueDirectory("cuda-tidy-launches", Dir))
    return;
  Files = Launching.size();
  // What the pre-pass runs: the writer alone, with the real run's plugin
  // and arguments. The cache hashes these words, not the -p folder, which
  // is a temporary copy when the database is rewritten.
  std::vector<std::string> Words = {std::string("--checks=-*,") + WriterCheck,
                                    "--quiet"};
  for (StringRef Arg : ClangTidyArgs.drop_front()) {
    if (Arg == "--")
      break;
    if (Arg.starts_with("--load") || Arg.starts_with("--extra-arg") ||
        Arg.starts_with("-extra-arg"))
      Words.push_back(Arg.str());
  }
  // The pre-pass's environment: ours, and where to write.
  std::vector<std::string> Environment;
  for (char **Var = environ; *Var; ++Var)
    if (!StringRef(*Var).starts_with("CUDA_TIDY_WRITE_LAUNCH_INDEX=") &&
        !StringRef(*Var).starts_with("CUDA_TIDY_LAUNCH_INDEX="))
      Environment.push_back(*Var);
  // Its diagnostics (parse errors) are the real run's to show: its output
  // is dropped.
  auto RunInto = [&](StringRef Into, ArrayRef<std::string> Of) {
    std::vector<std::string> Args = {ClangTidyArgs.front(),
                                     "-p=" + DatabaseDir.str()};
    Args.insert(Args.end(), Words.begin(), Words.end());
    Args.insert(Args.end(), Of.begin(), Of.end());
    std::vector<std::string> Env = Environment;
    Env.push_back("CUDA_TIDY_WRITE_LAUNCH_INDEX=" + Into.str());
    return runOne(Args.front(), Args, ArrayRef<std::string>(Env));
  };

  if (!Cache) {
    // In parts, a few per worker so that one slow file holds up little;
    // each process writes its own uniquely named files into Dir.
    size_t Parts =
        std::min<size_t>(Launching.size(), Jobs <= 1 ? 1 : size_t(Jobs) * 4);
    runAll(Parts, Jobs, /*Progress=*/false, [&](size_t Part) {
      std::vector<std::string> Of;
      for (size_t I = Part; I < Launching.size(); I += Parts)
        Of.push_back(Launching[I]);
      return RunInto(Dir, Of);
    });
  } else {
    // One process per file, so that each file's index files are known and
    // a file that does not compile keeps none of the others from the cache.
    std::atomic<size_t> FromCache = 0;
    runAll(Launching.size(), Jobs, /*Progress=*/false, [&](size_t I) {
      const std::string &File = Launching[I];
      std::optional<std::string> Key = Cache->prePassKeyFor(File, Words);
      if (Key)
        if (std::optional<CachedRun> Hit = Cache->lookup(*Key))
          if (unpackIndexFiles(Hit->Stdout, Dir, File)) {
            ++FromCache;
            return ProcessOutcome();
          }
      SmallString<128> Own;
      if (sys::fs::createUniqueDirectory("cuda-tidy-launches-file", Own))
        return RunInto(Dir, {File});
      ProcessOutcome Outcome = RunInto(Own, {File});
      std::string Packed = packIndexFiles(Own);
      sys::fs::remove_directories(Own);
      unpackIndexFiles(Packed, Dir, File);
      if (Key && Outcome.Status == 0 && Outcome.Failure.empty())
        Cache->store(*Key, {0, Packed, "", ""});
      return Outcome;
    });
    Replayed = FromCache;
  }
  ::setenv("CUDA_TIDY_LAUNCH_INDEX", Dir.c_str(), /*overwrite=*/1);
}

LaunchIndex::~LaunchIndex() {
  if (!Dir.empty())
    sys::fs::remove_directories(Dir);
}

} // namespace cuda_tidy
