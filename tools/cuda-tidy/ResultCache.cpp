//===--- ResultCache.cpp - clang-tidy's results, kept across runs ---------===//

#include "ResultCache.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/BLAKE3.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>

using namespace llvm;

namespace cuda_tidy {

namespace {

constexpr StringLiteral EntryMagic = "cuda-tidy cache entry 1\n";

/// A digest of fields, each length-prefixed so that no two lists of fields
/// hash alike.
class Digest {
public:
  Digest &add(StringRef Field) {
    std::string Length = std::to_string(Field.size()) + ":";
    Hasher.update(Length);
    Hasher.update(Field);
    return *this;
  }
  std::string hex() {
    BLAKE3Result<32> Result = Hasher.final();
    return toHex(Result, /*LowerCase=*/true);
  }

private:
  BLAKE3 Hasher;
};

std::optional<std::string> readFile(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                      /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  return (*Buffer)->getBuffer().str();
}

/// The standard output of \p Program with \p Args, if it exits with 0.
std::optional<std::string> outputOf(StringRef Program,
                                    ArrayRef<std::string> Args) {
  ProcessOutcome Outcome = runOne(Program, Args);
  if (Outcome.Status != 0 || !Outcome.Failure.empty())
    return std::nullopt;
  return std::move(Outcome.Stdout);
}

/// Whether \p Word is clang-tidy's option \p Option, with any number of
/// dashes: `--Option=VALUE` (\p Value is set) or `--Option` followed by the
/// value (\p ValueFollows is set).
bool isOption(StringRef Word, StringRef Option, bool &ValueFollows,
              StringRef &Value) {
  StringRef Name = Word.ltrim('-');
  ValueFollows = Name == Option;
  if (ValueFollows)
    return true;
  if (!Name.consume_front(Option) || !Name.consume_front("="))
    return false;
  Value = Name;
  return true;
}

/// Compiler flags that write a file or stop before preprocessing output,
/// and so have no place in `clang -E`; those that take the next word.
const StringSet<> DroppedFlags = {"-c",  "-S",  "-E",         "-fsyntax-only",
                                  "-M",  "-MM", "-MD",        "-MMD",
                                  "-MG", "-MP", "-save-temps"};
const StringSet<> DroppedWithValue = {"-o",  "-MF", "-MT",
                                      "-MQ", "-MJ", "--serialize-diagnostics"};

/// The files the preprocessor's line markers (`# 12 "file.h" 2`) name in
/// \p Output, each once, resolved against \p Directory; Clang's
/// "<built-in>" and "<command line>" left out.
std::vector<std::string> includedFiles(StringRef Output, StringRef Directory) {
  StringSet<> Seen;
  std::vector<std::string> Files;
  for (size_t Line = 0; Line < Output.size();) {
    size_t End = Output.find('\n', Line);
    StringRef Text = Output.slice(Line, End);
    Line = End == StringRef::npos ? Output.size() : End + 1;
    if (!Text.consume_front("# ") || Text.empty() || !isDigit(Text.front()))
      continue;
    size_t Quote = Text.find('"');
    if (Quote == StringRef::npos)
      continue;
    std::string Name;
    for (size_t I = Quote + 1; I < Text.size() && Text[I] != '"'; ++I) {
      if (Text[I] == '\\' && I + 1 < Text.size())
        ++I;
      Name += Text[I];
    }
    if (StringRef(Name).starts_with("<") || !Seen.insert(Name).second)
      continue;
    SmallString<256> Path(Name);
    if (!sys::path::is_absolute(Path)) {
      Path = Directory;
      sys::path::append(Path, Name);
    }
    Files.push_back(std::string(Path));
  }
  llvm::sort(Files);
  return Files;
}

} // namespace

Expected<std::unique_ptr<ResultCache>>
ResultCache::open(StringRef Dir, StringRef ClangTidy, StringRef Plugin,
                  StringRef Clang, const SplitCommand &Command) {
  if (std::error_code EC = sys::fs::create_directories(Dir))
    return createStringError("cannot make the cache directory '" + Dir +
                             "': " + EC.message());
  if (!sys::fs::can_execute(Clang))
    return createStringError("cannot run the preprocessor at '" + Clang +
                             "'; set CUDA_TIDY_CLANG to its path");
  std::unique_ptr<ResultCache> Cache(new ResultCache());
  Cache->Dir = Dir.str();
  Cache->ClangTidy = ClangTidy.str();
  Cache->Clang = Clang.str();
  Cache->Command = Command;

  Digest Shared;
  Shared.add("cuda-tidy result cache 1").add(CUDA_TIDY_VERSION);
  std::optional<std::string> Version =
      outputOf(ClangTidy, {ClangTidy.str(), "--version"});
  if (!Version)
    return createStringError("cannot run '" + ClangTidy + " --version'");
  Shared.add(*Version);
  std::optional<std::string> PluginBytes = readFile(Plugin);
  if (!PluginBytes)
    return createStringError("cannot read the plugin '" + Plugin + "'");
  Shared.add(*PluginBytes);

  // The options, without the -p folder.
  for (size_t I = 0; I < Command.Options.size(); ++I) {
    bool ValueFollows = false;
    StringRef Value;
    StringRef Word = Command.Options[I];
    if (isOption(Word, "p", ValueFollows, Value)) {
      I += ValueFollows;
      continue;
    }
    Shared.add(Word);
    for (StringRef Extra : {"extra-arg", "extra-arg-before"})
      if (isOption(Word, Extra, ValueFollows, Value)) {
        if (ValueFollows && I + 1 < Command.Options.size())
          Value = Command.Options[I + 1];
        (Extra == "extra-arg" ? Cache->ExtraArgs : Cache->ExtraArgsBefore)
            .push_back(Value.str());
      }
  }
  for (const std::string &Word : Command.AfterFiles)
    Shared.add(Word);

  Cache->Tool = Shared.hex();
  Cache->Shared = Cache->Tool;

  if (Command.DatabaseDir && Command.AfterFiles.empty()) {
    Expected<std::vector<CompileCommand>> Commands =
        readCompileCommands(*Command.DatabaseDir);
    if (!Commands)
      // clang-tidy reads other databases too (compile_flags.txt); their
      // units are run and not stored.
      consumeError(Commands.takeError());
    else
      for (CompileCommand &C : *Commands)
        Cache->Database[C.File].push_back(std::move(C));
  }
  return Cache;
}

void ResultCache::readLaunchIndex(StringRef Dir) {
  // The index's files, by their contents: their names are random.
  std::vector<std::string> Launches;
  std::error_code EC;
  for (sys::fs::directory_iterator It(Dir, EC), End; It != End && !EC;
       It.increment(EC))
    if (std::optional<std::string> Text = readFile(It->path()))
      Launches.push_back(std::move(*Text));
  llvm::sort(Launches);
  Digest WithIndex;
  WithIndex.add(Tool);
  for (const std::string &Text : Launches)
    WithIndex.add(Text);
  Shared = WithIndex.hex();
}

std::vector<std::string>
ResultCache::preprocessorArgs(const CompileCommand &Command) const {
  // The driver mode follows the compiler's name, as clang-tidy's does.
  StringRef Compiler =
      Command.Args.empty() ? "" : sys::path::filename(Command.Args.front());
  std::vector<std::string> Args = {
      Clang,
      Compiler.contains("++") ? "--driver-mode=g++" : "--driver-mode=gcc",
      "-working-directory", Command.Directory};
  Args.insert(Args.end(), ExtraArgsBefore.begin(), ExtraArgsBefore.end());
  for (size_t I = 1; I < Command.Args.size(); ++I) {
    StringRef A = Command.Args[I];
    if (DroppedFlags.contains(A))
      continue;
    if (DroppedWithValue.contains(A)) {
      ++I;
      continue;
    }
    // Their joined spellings: -oFILE, -MFFILE, ...
    if (any_of(DroppedWithValue.keys(), [&](StringRef Flag) {
          return !Flag.starts_with("--") && A.starts_with(Flag);
        }))
      continue;
    Args.push_back(A.str());
  }
  Args.insert(Args.end(), ExtraArgs.begin(), ExtraArgs.end());
  // Warnings cannot change the output; -Werror must not stop it.
  Args.insert(Args.end(), {"-E", "-w"});
  return Args;
}

std::string ResultCache::configurationFor(StringRef File) {
  std::string Folder = sys::path::parent_path(File).str();
  {
    std::lock_guard<std::mutex> Lock(ConfigurationLock);
    auto Found = ConfigurationByFolder.find(Folder);
    if (Found != ConfigurationByFolder.end())
      return Found->second;
  }
  std::vector<std::string> Args = {ClangTidy};
  Args.insert(Args.end(), Command.Options.begin(), Command.Options.end());
  Args.push_back("--dump-config");
  Args.push_back(File.str());
  Args.insert(Args.end(), Command.AfterFiles.begin(), Command.AfterFiles.end());
  // An empty configuration when clang-tidy cannot say: the key then still
  // holds the options, and a later readable configuration is a miss.
  std::string Configuration = outputOf(ClangTidy, Args).value_or("");
  std::lock_guard<std::mutex> Lock(ConfigurationLock);
  return ConfigurationByFolder.try_emplace(Folder, Configuration).first->second;
}

std::optional<std::string> ResultCache::unitDigest(StringRef File) {
  {
    std::lock_guard<std::mutex> Lock(UnitLock);
    auto Found = UnitDigests.find(File);
    if (Found != UnitDigests.end())
      return Found->second;
  }
  std::vector<CompileCommand> Commands;
  if (!Command.AfterFiles.empty()) {
    SmallString<256> Here;
    sys::fs::current_path(Here);
    CompileCommand Fixed{std::string(Here), File.str(), {"clang-tool"}};
    Fixed.Args.insert(Fixed.Args.end(), Command.AfterFiles.begin() + 1,
                      Command.AfterFiles.end());
    Fixed.Args.push_back(File.str());
    Commands.push_back(std::move(Fixed));
  } else {
    auto Found = Database.find(File);
    if (Found != Database.end())
      Commands = Found->second;
  }
  // Direct mode, as ccache's: the files the unit read last time, each with
  // its digest, under a key of its commands alone. When none of them has
  // changed, neither has the preprocessed text, and the unit's digest is
  // the one stored with them; then nothing is preprocessed. (As with
  // ccache, a new header that an include would now find first, in an
  // earlier folder of the search path, goes unnoticed until a listed file
  // changes; CUDA_TIDY_CACHE_PREPROCESS=1 preprocesses every time.)
  static const bool AlwaysPreprocess = [] {
    std::optional<std::string> V =
        sys::Process::GetEnv("CUDA_TIDY_CACHE_PREPROCESS");
    return V && !V->empty() && *V != "0";
  }();
  Digest Direct;
  Direct.add("direct mode 1").add(Tool).add(Clang).add(File);
  for (const CompileCommand &C : Commands) {
    Direct.add(C.Directory);
    for (const std::string &Arg : C.Args)
      Direct.add(Arg);
  }
  std::string DirectKey = Direct.hex();
  auto FileDigest = [](std::optional<std::string> Contents) {
    if (!Contents)
      return std::string("missing");
    Digest Of;
    return Of.add(*Contents).hex();
  };
  auto Unchanged = [&](StringRef Manifest) {
    while (!Manifest.empty()) {
      auto [Line, Rest] = Manifest.split('\n');
      auto [Expected, Path] = Line.split(' ');
      if (Path.empty() || FileDigest(readFile(Path)) != Expected)
        return false;
      Manifest = Rest;
    }
    return true;
  };
  auto Compute = [&]() -> std::optional<std::string> {
    if (Commands.empty())
      return std::nullopt;
    if (!AlwaysPreprocess)
      if (std::optional<CachedRun> Listed = lookup(DirectKey))
        if (!Listed->Stderr.empty() && Unchanged(Listed->Stdout))
          return Listed->Stderr;
    Digest Unit;
    std::string Manifest;
    bool Listable = !AlwaysPreprocess;
    for (const CompileCommand &C : Commands) {
      // The command as the database gives it, so that no flag the
      // preprocessor is run without goes unhashed.
      Unit.add(C.Directory);
      for (const std::string &Arg : C.Args)
        Unit.add(Arg);
      std::vector<std::string> Args = preprocessorArgs(C);
      std::optional<std::string> Preprocessed = outputOf(Clang, Args);
      if (!Preprocessed)
        return std::nullopt;
      Unit.add(*Preprocessed);
      // The preprocessed text drops comments and spacing inside lines,
      // which the printed source excerpts and columns show: every file it
      // read is hashed as it is.
      for (const std::string &Included :
           includedFiles(*Preprocessed, C.Directory)) {
        std::optional<std::string> Contents = readFile(Included);
        Unit.add(Included).add(Contents ? "read" : "missing");
        Unit.add(Contents.value_or(""));
        // A name with a line break cannot be listed: no manifest then.
        Listable &= Included.find('\n') == std::string::npos;
        Manifest += FileDigest(std::move(Contents)) + " " + Included + "\n";
      }
    }
    std::string Result = Unit.hex();
    if (Listable)
      store(DirectKey, {0, Manifest, Result, ""});
    return Result;
  };
  std::optional<std::string> Result = Compute();
  std::lock_guard<std::mutex> Lock(UnitLock);
  return UnitDigests.try_emplace(File, Result).first->second;
}

std::optional<std::string> ResultCache::keyFor(StringRef File) {
  std::optional<std::string> Unit = unitDigest(File);
  if (!Unit)
    return std::nullopt;
  Digest Key;
  Key.add(Shared).add(File).add(configurationFor(File)).add(*Unit);
  return Key.hex();
}

std::optional<std::string>
ResultCache::prePassKeyFor(StringRef File, ArrayRef<std::string> PrePass) {
  std::optional<std::string> Unit = unitDigest(File);
  if (!Unit)
    return std::nullopt;
  Digest Key;
  Key.add("launch pre-pass").add(Tool);
  for (const std::string &Word : PrePass)
    Key.add(Word);
  Key.add(File).add(configurationFor(File)).add(*Unit);
  return Key.hex();
}

std::string ResultCache::entryPath(StringRef Key) const {
  SmallString<256> Path(Dir);
  sys::path::append(Path, Key.take_front(2), Key.drop_front(2));
  return std::string(Path);
}

std::optional<CachedRun> ResultCache::lookup(StringRef Key) const {
  std::optional<std::string> Text = readFile(entryPath(Key));
  if (!Text)
    return std::nullopt;
  StringRef Rest(*Text);
  if (!Rest.consume_front(EntryMagic))
    return std::nullopt;
  auto Number = [&](auto &Value) {
    auto [Digits, After] = Rest.split('\n');
    Rest = After;
    return !Digits.getAsInteger(10, Value);
  };
  auto Field = [&](std::string &Value) {
    size_t Length;
    if (!Number(Length) || Length > Rest.size())
      return false;
    Value = Rest.take_front(Length).str();
    Rest = Rest.drop_front(Length);
    return true;
  };
  CachedRun Run;
  if (!Number(Run.Status) || !Field(Run.Stdout) || !Field(Run.Stderr) ||
      !Field(Run.ExportedFixes) || !Rest.empty())
    return std::nullopt;
  return Run;
}

void ResultCache::store(StringRef Key, const CachedRun &Run) const {
  std::string Path = entryPath(Key);
  if (sys::fs::create_directories(sys::path::parent_path(Path)))
    return;
  int FD;
  SmallString<256> Temporary;
  if (sys::fs::createUniqueFile(Path + ".tmp-%%%%%%%%", FD, Temporary))
    return;
  {
    raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << EntryMagic << Run.Status << "\n";
    for (const std::string *Field :
         {&Run.Stdout, &Run.Stderr, &Run.ExportedFixes})
      Out << Field->size() << "\n" << *Field;
    if (Out.has_error()) {
      Out.clear_error();
      sys::fs::remove(Temporary);
      return;
    }
  }
  if (sys::fs::rename(Temporary, Path))
    sys::fs::remove(Temporary);
}

} // namespace cuda_tidy
