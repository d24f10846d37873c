//===--- LegacyCuda.cpp - code written for older CUDA toolkits ------------===//

#include "LegacyCuda.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace cuda_tidy {

namespace {

/// \p Source with its comments and the contents of its literals blanked
/// out, so that a comment that names an API ("was cudaThreadSynchronize") is
/// not a use of it.
std::string withoutComments(StringRef Source) {
  std::string Text = Source.str();
  for (size_t I = 0; I + 1 < Text.size(); ++I) {
    char C = Text[I];
    // A quote after a digit or letter is a digit separator (1'000).
    if (C == '"' || (C == '\'' && (I == 0 || !isAlnum(Text[I - 1])))) {
      // Blank the literal too: "//" inside one is not a comment, and an
      // API named in a string is not called.
      for (++I; I < Text.size() && Text[I] != C && Text[I] != '\n'; ++I) {
        if (Text[I] == '\\' && I + 1 < Text.size() && Text[I + 1] != '\n')
          Text[I++] = ' ';
        Text[I] = ' ';
      }
      continue;
    }
    if (C != '/' || (Text[I + 1] != '/' && Text[I + 1] != '*'))
      continue;
    StringRef End = Text[I + 1] == '/' ? "\n" : "*/";
    size_t Stop = StringRef(Text).find(End, I + 2);
    Stop = Stop == StringRef::npos ? Text.size() : Stop;
    for (size_t J = I; J < Stop; ++J)
      if (Text[J] != '\n')
        Text[J] = ' ';
    I = Stop;
  }
  return Text;
}

std::optional<std::string> cudaPathIn(StringRef Arg) {
  if (Arg.consume_front("--cuda-path="))
    return Arg.str();
  return std::nullopt;
}

} // namespace

std::optional<std::string> namedToolkit(ArrayRef<std::string> Args,
                                        std::optional<StringRef> DatabaseDir) {
  std::optional<std::string> Named;
  bool AfterDashes = false;
  for (const std::string &Arg : Args) {
    StringRef A(Arg);
    if (A == "--") {
      AfterDashes = true;
      continue;
    }
    if (!AfterDashes && !A.consume_front("--extra-arg=") &&
        !A.consume_front("-extra-arg="))
      continue;
    if (auto Path = cudaPathIn(A))
      Named = Path;
  }
  if (Named || !DatabaseDir)
    return Named;
  SmallString<256> Path(*DatabaseDir);
  sys::path::append(Path, "compile_commands.json");
  auto Buffer = MemoryBuffer::getFile(Path);
  if (!Buffer)
    return std::nullopt;
  Expected<json::Value> Parsed = json::parse((*Buffer)->getBuffer());
  if (!Parsed) {
    consumeError(Parsed.takeError());
    return std::nullopt;
  }
  const json::Array *Entries = Parsed->getAsArray();
  if (!Entries)
    return std::nullopt;
  for (const json::Value &Value : *Entries) {
    const json::Object *Entry = Value.getAsObject();
    if (!Entry)
      continue;
    std::vector<std::string> Words;
    if (const json::Array *Arguments = Entry->getArray("arguments")) {
      for (const json::Value &Word : *Arguments)
        if (auto S = Word.getAsString())
          Words.push_back(S->str());
    } else if (auto Command = Entry->getString("command")) {
      BumpPtrAllocator Alloc;
      StringSaver Saver(Alloc);
      SmallVector<const char *, 32> Split;
      cl::TokenizeGNUCommandLine(*Command, Saver, Split);
      Words.assign(Split.begin(), Split.end());
    }
    for (const std::string &Word : Words)
      if (auto Path = cudaPathIn(Word))
        return Path;
  }
  return std::nullopt;
}

std::vector<std::string> removedApisUsed(StringRef Source) {
  // A texture object's fetches are templates (tex2D<float>(object, ...));
  // a reference's are plain calls (tex2D(reference, ...)).
  static const Regex Removed(
      "(cudaThreadSynchronize|cudaThreadExit|cudaThread[SG]et(Limit|"
      "CacheConfig)|cudaBindTexture(2D|ToArray)?|cudaUnbindTexture|"
      "cudaGetTextureReference|texture[ \t]*<|tex(1Dfetch|[123]D)[ \t]*\\(|"
      "\\.(clockRate|memoryClockRate|deviceOverlap|kernelExecTimeoutEnabled|"
      "computeMode|maxTexture1DLinear|singleToDoublePrecisionPerfRatio|"
      "cooperativeMultiDeviceLaunch))");
  std::vector<std::string> Used;
  SmallVector<StringRef, 4> Match;
  std::string Code = withoutComments(Source);
  StringRef Rest = Code;
  while (Removed.match(Rest, &Match)) {
    size_t At = Match[0].data() - Rest.data();
    bool WordStart = At == 0 || Match[0].front() == '.' ||
                     !(isAlnum(Rest[At - 1]) || Rest[At - 1] == '_');
    std::string Name = Match[0].str();
    Name.erase(remove_if(Name, [](char C) { return C == ' ' || C == '\t'; }),
               Name.end());
    if (StringRef(Name).ends_with("<"))
      Name += ">";
    if (StringRef(Name).ends_with("("))
      Name.pop_back();
    if (Name.front() == '.')
      Name = "cudaDeviceProp::" + Name.substr(1);
    if (WordStart && !is_contained(Used, Name))
      Used.push_back(Name);
    Rest = Rest.drop_front(At + Match[0].size());
  }
  return Used;
}

void noteRemovedApis(StringRef File) {
  auto Buffer = MemoryBuffer::getFile(File);
  if (!Buffer)
    return;
  std::vector<std::string> Used = removedApisUsed((*Buffer)->getBuffer());
  if (Used.empty())
    return;
  errs() << "cuda-tidy: note: '" << File << "' uses APIs that CUDA 13 removed ("
         << join(Used, ", ")
         << "); analysed with cuda-tidy's declarations of them (name the "
            "toolkit it is built with by --cuda-path=DIR to use its own)\n";
}

} // namespace cuda_tidy
