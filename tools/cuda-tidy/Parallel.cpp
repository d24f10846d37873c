//===--- Parallel.cpp - clang-tidy over many translation units ------------===//

#include "Parallel.h"
#include "NvccDatabase.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <mutex>
#include <optional>

using namespace llvm;

namespace cuda_tidy {

namespace {

/// Whether the compile command \p Args (compiler first) compiles CUDA.
bool compilesCuda(ArrayRef<std::string> Args, StringRef File) {
  StringRef Extension = sys::path::extension(File);
  if (Extension == ".cu")
    return true;
  if (!Args.empty() && isNvcc(Args.front()))
    return true;
  for (size_t I = 0; I < Args.size(); ++I) {
    StringRef A(Args[I]);
    StringRef Language;
    if (A == "-x" && I + 1 < Args.size())
      Language = Args[I + 1];
    else if (A.consume_front("-x"))
      Language = A;
    if (Language == "cuda" || Language == "cu")
      return true;
  }
  return false;
}

} // namespace

Expected<std::vector<CompileCommand>> readCompileCommands(StringRef Dir) {
  SmallString<256> Path(Dir);
  sys::path::append(Path, "compile_commands.json");
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return createStringError("cannot read '" + Path.str().str() +
                             "': " + Buffer.getError().message());
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed)
    return createStringError(
        "'" + Path.str().str() +
        "' is not a JSON compile database: " + toString(Parsed.takeError()));
  const json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return createStringError("'" + Path.str().str() +
                             "' is not a JSON array of compile commands");
  std::vector<CompileCommand> Commands;
  for (const json::Value &Value : *Entries) {
    const json::Object *Entry = Value.getAsObject();
    std::optional<StringRef> File =
        Entry ? Entry->getString("file") : std::nullopt;
    if (!File)
      return createStringError("'" + Path.str().str() +
                               "' holds an entry without a \"file\"");
    CompileCommand Command;
    if (const json::Array *Arguments = Entry->getArray("arguments")) {
      for (const json::Value &Arg : *Arguments)
        if (std::optional<StringRef> S = Arg.getAsString())
          Command.Args.push_back(S->str());
    } else if (std::optional<StringRef> Line = Entry->getString("command")) {
      BumpPtrAllocator Alloc;
      StringSaver Saver(Alloc);
      SmallVector<const char *, 32> Words;
      cl::TokenizeGNUCommandLine(*Line, Saver, Words);
      Command.Args.assign(Words.begin(), Words.end());
    }
    Command.Directory = Entry->getString("directory").value_or(Dir).str();
    SmallString<256> Absolute(*File);
    if (!sys::path::is_absolute(Absolute)) {
      Absolute = Command.Directory;
      sys::path::append(Absolute, *File);
    }
    sys::path::remove_dots(Absolute, /*remove_dot_dot=*/true);
    Command.File = std::string(Absolute);
    Commands.push_back(std::move(Command));
  }
  return Commands;
}

Expected<std::vector<std::string>> databaseCudaFiles(StringRef Dir) {
  Expected<std::vector<CompileCommand>> Commands = readCompileCommands(Dir);
  if (!Commands)
    return Commands.takeError();
  std::vector<std::string> Files;
  for (const CompileCommand &Command : *Commands)
    if (compilesCuda(Command.Args, Command.File))
      Files.push_back(Command.File);
  llvm::sort(Files);
  Files.erase(std::unique(Files.begin(), Files.end()), Files.end());
  return Files;
}

namespace {

std::string readAndRemove(StringRef Path) {
  auto Buffer = MemoryBuffer::getFile(Path);
  sys::fs::remove(Path);
  return Buffer ? (*Buffer)->getBuffer().str() : "";
}

} // namespace

ProcessOutcome runOne(StringRef Program, ArrayRef<std::string> Args,
                      std::optional<ArrayRef<std::string>> Environment) {
  ProcessOutcome Outcome;
  SmallString<128> Out, Err;
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cuda-tidy", "out", Out))
    return {-1, "", "", "cannot make a temporary file: " + EC.message()};
  if (std::error_code EC =
          sys::fs::createTemporaryFile("cuda-tidy", "err", Err)) {
    sys::fs::remove(Out);
    return {-1, "", "", "cannot make a temporary file: " + EC.message()};
  }
  std::optional<StringRef> Redirects[3] = {StringRef(""), StringRef(Out),
                                           StringRef(Err)};
  std::vector<StringRef> ArgRefs(Args.begin(), Args.end());
  std::optional<std::vector<StringRef>> EnvRefs;
  if (Environment)
    EnvRefs.emplace(Environment->begin(), Environment->end());
  std::optional<ArrayRef<StringRef>> Env;
  if (EnvRefs)
    Env = *EnvRefs;
  std::string Error;
  bool Crashed = false;
  Outcome.Status = sys::ExecuteAndWait(Program, ArgRefs, Env, Redirects, 0, 0,
                                       &Error, &Crashed);
  Outcome.Stdout = readAndRemove(Out);
  Outcome.Stderr = readAndRemove(Err);
  if (Outcome.Status < 0 || Crashed) {
    Outcome.Status = -1;
    Outcome.Failure = Error.empty() ? "crashed" : Error;
  }
  return Outcome;
}

std::vector<ProcessOutcome>
runAll(size_t Count, unsigned Workers, bool Progress,
       llvm::function_ref<ProcessOutcome(size_t)> Run) {
  std::vector<ProcessOutcome> Outcomes(Count);
  std::mutex ProgressLock;
  size_t Finished = 0;
  auto Report = [&] {
    if (!Progress)
      return;
    std::lock_guard<std::mutex> Lock(ProgressLock);
    ++Finished;
    errs() << "\rcuda-tidy: " << Finished << "/" << Count << " files analysed";
    if (Finished == Count)
      errs() << "\n";
    errs().flush();
  };
  DefaultThreadPool Pool(hardware_concurrency(std::max(1u, Workers)));
  for (size_t I = 0; I < Count; ++I)
    Pool.async([&, I] {
      Outcomes[I] = Run(I);
      Report();
    });
  Pool.wait();
  return Outcomes;
}

} // namespace cuda_tidy
