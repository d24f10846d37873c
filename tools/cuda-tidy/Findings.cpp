//===--- Findings.cpp - clang-tidy's printed diagnostics as data ----------===//

#include "Findings.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/YAMLTraits.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace {

// The parts of clang-tidy's --export-fixes YAML (clang::tooling::Diagnostic)
// that SARIF needs; the command links LLVM only, not clangTooling.
struct ExportedReplacement {
  std::string FilePath;
  unsigned Offset = 0;
  unsigned Length = 0;
  std::string ReplacementText;
};
struct ExportedMessage {
  std::string Message;
  std::string FilePath;
  std::vector<ExportedReplacement> Replacements;
};
struct ExportedDiagnostic {
  std::string DiagnosticName;
  ExportedMessage DiagnosticMessage;
  std::vector<ExportedMessage> Notes;
};
struct ExportedFixes {
  std::vector<ExportedDiagnostic> Diagnostics;
};

} // namespace

LLVM_YAML_IS_SEQUENCE_VECTOR(ExportedReplacement)
LLVM_YAML_IS_SEQUENCE_VECTOR(ExportedMessage)
LLVM_YAML_IS_SEQUENCE_VECTOR(ExportedDiagnostic)

namespace llvm::yaml {
template <> struct MappingTraits<ExportedReplacement> {
  static void mapping(IO &Io, ExportedReplacement &R) {
    Io.mapRequired("FilePath", R.FilePath);
    Io.mapRequired("Offset", R.Offset);
    Io.mapRequired("Length", R.Length);
    Io.mapRequired("ReplacementText", R.ReplacementText);
  }
};
template <> struct MappingTraits<ExportedMessage> {
  static void mapping(IO &Io, ExportedMessage &M) {
    Io.mapRequired("Message", M.Message);
    Io.mapOptional("FilePath", M.FilePath);
    Io.mapOptional("Replacements", M.Replacements);
  }
};
template <> struct MappingTraits<ExportedDiagnostic> {
  static void mapping(IO &Io, ExportedDiagnostic &D) {
    Io.mapRequired("DiagnosticName", D.DiagnosticName);
    Io.mapRequired("DiagnosticMessage", D.DiagnosticMessage);
    Io.mapOptional("Notes", D.Notes);
  }
};
template <> struct MappingTraits<ExportedFixes> {
  static void mapping(IO &Io, ExportedFixes &F) {
    Io.mapOptional("Diagnostics", F.Diagnostics);
  }
};
} // namespace llvm::yaml

namespace cuda_tidy {

std::vector<Finding> parseClangTidyOutput(StringRef Output) {
  // "file:line:col: warning: message [check-name]"
  Regex Located("^(.+):([0-9]+):([0-9]+): (warning|error|note): (.*)$");
  // A diagnostic with no location: "error: unable to handle compilation".
  Regex Unlocated("^(warning|error): (.*)$");
  Regex Named("^(.*) \\[([A-Za-z0-9_.,-]+)\\]$");
  std::vector<Finding> Findings;
  DiagnosticLine *Current = nullptr;
  SmallVector<StringRef, 256> Lines;
  Output.split(Lines, '\n');
  for (StringRef Line : Lines) {
    Line = Line.rtrim("\r");
    SmallVector<StringRef, 6> Match;
    DiagnosticLine Diagnostic;
    StringRef Kind;
    if (Located.match(Line, &Match)) {
      Diagnostic.File = Match[1].str();
      Match[2].getAsInteger(10, Diagnostic.Line);
      Match[3].getAsInteger(10, Diagnostic.Column);
      Kind = Match[4];
      Diagnostic.Message = Match[5].str();
    } else if (Unlocated.match(Line, &Match)) {
      Kind = Match[1];
      Diagnostic.Message = Match[2].str();
    } else {
      if (Current && !Line.empty() && !Line.ends_with(" generated."))
        Current->Excerpt += (Line + "\n").str();
      continue;
    }
    if (Kind == "note") {
      if (Findings.empty()) {
        Current = nullptr;
        continue;
      }
      Findings.back().Notes.push_back(std::move(Diagnostic));
      Current = &Findings.back().Notes.back();
      continue;
    }
    Finding F;
    F.Level = Kind.str();
    SmallVector<StringRef, 3> NameMatch;
    if (Named.match(Diagnostic.Message, &NameMatch)) {
      SmallVector<StringRef, 2> Names;
      NameMatch[2].split(Names, ',');
      F.Check = Names.front().str();
      F.PromotedToError = is_contained(Names, "-warnings-as-errors");
      Diagnostic.Message = NameMatch[1].str();
    } else if (Kind == "error") {
      F.Check = "clang-diagnostic-error";
    }
    F.Where = std::move(Diagnostic);
    Findings.push_back(std::move(F));
    Current = &Findings.back().Where;
  }
  return Findings;
}

void attachExportedFixes(std::vector<Finding> &Findings, StringRef Yaml) {
  ExportedFixes Exported;
  // The keys this reader skips are reported as "unknown key" warnings
  // through the handler; they are expected, so the handler drops them.
  yaml::Input Input(Yaml, /*Ctxt=*/nullptr,
                    [](const SMDiagnostic &, void *) {});
  Input.setAllowUnknownKeys(true);
  Input >> Exported;
  if (Input.error())
    return;
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, std::vector<Finding *>> ByKey;
  for (Finding &F : Findings)
    ByKey[{F.Check, F.Where.File, F.Where.Message}].push_back(&F);
  std::map<Key, size_t> Seen;
  for (const ExportedDiagnostic &D : Exported.Diagnostics) {
    const ExportedMessage &M = D.DiagnosticMessage;
    Key K{D.DiagnosticName, M.FilePath, M.Message};
    size_t Index = Seen[K]++;
    auto Found = ByKey.find(K);
    if (Found == ByKey.end() || Index >= Found->second.size())
      continue;
    Finding &F = *Found->second[Index];
    auto Add = [&](const ExportedMessage &From) {
      for (const ExportedReplacement &R : From.Replacements)
        F.Fixes.push_back({R.FilePath, R.Offset, R.Length, R.ReplacementText});
    };
    Add(M);
    for (const ExportedMessage &Note : D.Notes)
      Add(Note);
  }
}

static void printLine(raw_ostream &OS, StringRef Kind, const DiagnosticLine &D,
                      StringRef Suffix) {
  if (!D.File.empty())
    OS << D.File << ":" << D.Line << ":" << D.Column << ": ";
  OS << Kind << ": " << D.Message << Suffix << "\n" << D.Excerpt;
}

void printFinding(raw_ostream &OS, const Finding &F) {
  std::string Suffix;
  if (!F.Check.empty())
    Suffix = " [" + F.Check +
             (F.PromotedToError ? ",-warnings-as-errors" : "") + "]";
  printLine(OS, F.Level, F.Where, Suffix);
  for (const DiagnosticLine &Note : F.Notes)
    printLine(OS, "note", Note, "");
}

static auto sortKey(const Finding &F) {
  return std::tie(F.Where.File, F.Where.Line, F.Where.Column, F.Check,
                  F.Where.Message, F.Level);
}

static auto noteKeys(const Finding &F) {
  std::vector<
      std::tuple<const std::string &, unsigned, unsigned, const std::string &>>
      Keys;
  for (const DiagnosticLine &N : F.Notes)
    Keys.emplace_back(N.File, N.Line, N.Column, N.Message);
  return Keys;
}

void sortAndDeduplicate(std::vector<Finding> &Findings) {
  // The whole finding is the key, so that the order is the same whatever
  // order the runs finished in.
  llvm::sort(Findings, [](const Finding &A, const Finding &B) {
    if (sortKey(A) != sortKey(B))
      return sortKey(A) < sortKey(B);
    return noteKeys(A) < noteKeys(B);
  });
  Findings.erase(std::unique(Findings.begin(), Findings.end(),
                             [](const Finding &A, const Finding &B) {
                               return sortKey(A) == sortKey(B) &&
                                      noteKeys(A) == noteKeys(B);
                             }),
                 Findings.end());
}

namespace {

/// A token of the light scan enclosingFunction() makes: an identifier or
/// keyword, or one punctuation character ("::" is one token).
struct Token {
  StringRef Text;
  size_t Offset;
};

bool isIdentifierChar(char C) { return isAlnum(C) || C == '_' || C == '$'; }

/// The tokens of \p Source up to \p End, without comments, literals and
/// preprocessor directives.
std::vector<Token> lexUpTo(StringRef Source, size_t End) {
  std::vector<Token> Tokens;
  size_t I = 0;
  bool LineStart = true;
  auto SkipTo = [&](StringRef Terminator) {
    size_t Found = Source.find(Terminator, I);
    I = Found == StringRef::npos ? Source.size() : Found + Terminator.size();
  };
  while (I < End && I < Source.size()) {
    char C = Source[I];
    if (C == '\n') {
      LineStart = true;
      ++I;
      continue;
    }
    if (isSpace(C)) {
      ++I;
      continue;
    }
    if (C == '#' && LineStart) {
      // A directive runs to the first newline not escaped by a backslash.
      while (I < Source.size() && Source[I] != '\n') {
        if (Source.substr(I).starts_with("//"))
          SkipTo("\n"), --I;
        else if (Source.substr(I).starts_with("/*"))
          SkipTo("*/");
        else if (Source[I] == '\\' && I + 1 < Source.size())
          I += 2;
        else
          ++I;
      }
      continue;
    }
    LineStart = false;
    StringRef Rest = Source.substr(I);
    if (Rest.starts_with("//")) {
      SkipTo("\n");
      LineStart = true;
      continue;
    }
    if (Rest.starts_with("/*")) {
      SkipTo("*/");
      continue;
    }
    if (C == '"' || (C == '\'' && (I == 0 || !isAlnum(Source[I - 1])))) {
      for (++I; I < Source.size() && Source[I] != C && Source[I] != '\n'; ++I)
        if (Source[I] == '\\')
          ++I;
      ++I;
      continue;
    }
    size_t Start = I;
    if (isIdentifierChar(C)) {
      while (I < Source.size() && isIdentifierChar(Source[I]))
        ++I;
    } else if (Rest.starts_with("::")) {
      I += 2;
    } else {
      ++I;
    }
    Tokens.push_back({Source.slice(Start, I), Start});
  }
  return Tokens;
}

/// Whether the '{' at \p Brace (an index into \p Tokens) opens a function
/// body; if so, its name is stored in \p Name.
bool opensFunctionBody(ArrayRef<Token> Tokens, size_t Brace,
                       std::string &Name) {
  static const StringSet<> Qualifiers = {"const", "noexcept", "override",
                                         "final", "mutable",  "volatile",
                                         "&",     "throw"};
  static const StringSet<> NotFunctions = {"if",
                                           "for",
                                           "while",
                                           "switch",
                                           "catch",
                                           "return",
                                           "sizeof",
                                           "decltype",
                                           "alignas",
                                           "alignof",
                                           "noexcept",
                                           "__launch_bounds__",
                                           "__attribute__",
                                           "__declspec",
                                           "static_assert",
                                           "defined"};
  size_t I = Brace;
  while (I > 0 && Qualifiers.contains(Tokens[I - 1].Text))
    --I;
  if (I == 0 || Tokens[I - 1].Text != ")")
    return false;
  // Find the '(' that opens this parameter list.
  int Depth = 0;
  size_t J = I - 1;
  for (;; --J) {
    if (Tokens[J].Text == ")")
      ++Depth;
    else if (Tokens[J].Text == "(" && --Depth == 0)
      break;
    if (J == 0)
      return false;
  }
  if (J == 0)
    return false;
  size_t NameEnd = J; // One past the name's last token.
  // "operator()" and other operators: the name runs back to "operator".
  size_t NameStart = NameEnd;
  for (size_t K = NameEnd; K > 0 && NameEnd - K < 3; --K)
    if (Tokens[K - 1].Text == "operator") {
      NameStart = K - 1;
      break;
    }
  if (NameStart == NameEnd) {
    const Token &Last = Tokens[NameEnd - 1];
    if (!isIdentifierChar(Last.Text.front()) || isDigit(Last.Text.front()) ||
        NotFunctions.contains(Last.Text))
      return false;
    NameStart = NameEnd - 1;
    if (NameStart > 0 && Tokens[NameStart - 1].Text == "~")
      --NameStart;
  }
  // The qualifiers "A::B::" before the name.
  while (NameStart >= 2 && Tokens[NameStart - 1].Text == "::" &&
         isIdentifierChar(Tokens[NameStart - 2].Text.front()))
    NameStart -= 2;
  Name.clear();
  for (size_t T = NameStart; T < NameEnd; ++T)
    Name += Tokens[T].Text;
  return true;
}

} // namespace

std::string enclosingFunction(StringRef Source, unsigned Line,
                              unsigned Column) {
  size_t Offset = 0;
  for (unsigned L = 1; L < Line; ++L) {
    Offset = Source.find('\n', Offset);
    if (Offset == StringRef::npos)
      return "";
    ++Offset;
  }
  Offset += Column ? Column - 1 : 0;
  std::vector<Token> Tokens = lexUpTo(Source, Offset);
  // The open braces before the location; a function body's carries the
  // function's name, any other block "".
  struct Block {
    bool IsFunction;
    std::string Name;
  };
  std::vector<Block> Open;
  for (size_t I = 0; I < Tokens.size(); ++I) {
    if (Tokens[I].Text == "}") {
      if (!Open.empty())
        Open.pop_back();
      continue;
    }
    if (Tokens[I].Text != "{")
      continue;
    // A block inside a function is never another function's body (C++ has
    // no nested functions), which keeps macros such as
    // CUDA_KERNEL_LOOP(i, n) { ... } inside the kernel that uses them.
    bool InFunction = any_of(Open, [](const Block &B) { return B.IsFunction; });
    std::string Name;
    bool IsFunction = !InFunction && opensFunctionBody(Tokens, I, Name);
    Open.push_back({IsFunction, IsFunction ? Name : ""});
  }
  for (const Block &B : reverse(Open))
    if (B.IsFunction)
      return B.Name;
  return "";
}

} // namespace cuda_tidy
