//===--- DiffFilter.cpp - findings on the lines a change touched ----------===//

#include "DiffFilter.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"

using namespace llvm;

namespace cuda_tidy {

std::string absoluteUnder(StringRef File, StringRef Root) {
  SmallString<256> Path;
  if (sys::path::is_absolute(File)) {
    Path = File;
  } else {
    Path = Root;
    sys::path::append(Path, File);
  }
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

Expected<ChangedLines> ChangedLines::parse(StringRef Text, StringRef Root) {
  Regex HunkHeader("^@@ -[0-9]+(,[0-9]+)? \\+([0-9]+)(,([0-9]+))? @@");
  ChangedLines Result;
  std::set<unsigned> *Current = nullptr; // nullptr: a deleted file.
  bool InFile = false, SawDiff = false;
  unsigned NewLine = 0, NewLeft = 0, OldLeft = 0;
  bool DeletionPending = false;
  auto EndDeletion = [&] {
    if (DeletionPending && Current) {
      if (NewLine > 1)
        Current->insert(NewLine - 1);
      Current->insert(NewLine);
    }
    DeletionPending = false;
  };
  SmallVector<StringRef, 0> Lines;
  Text.split(Lines, '\n');
  for (size_t I = 0; I < Lines.size(); ++I) {
    StringRef Line = Lines[I].rtrim("\r");
    if (NewLeft || OldLeft) {
      if (Line.starts_with("\\")) // "\ No newline at end of file"
        continue;
      char Kind = Line.empty() ? ' ' : Line.front();
      if (Kind == '+' && NewLeft) {
        DeletionPending = false;
        if (Current)
          Current->insert(NewLine);
        ++NewLine, --NewLeft;
      } else if (Kind == '-' && OldLeft) {
        DeletionPending = true;
        --OldLeft;
      } else if (Kind == ' ' && NewLeft && OldLeft) {
        EndDeletion();
        ++NewLine, --NewLeft, --OldLeft;
      } else {
        return createStringError("line " + std::to_string(I + 1) +
                                 " does not belong to its hunk");
      }
      if (!NewLeft && !OldLeft)
        EndDeletion();
      continue;
    }
    if (Line.starts_with("diff ")) {
      SawDiff = true;
      continue;
    }
    if (Line.starts_with("+++ ")) {
      SawDiff = InFile = true;
      StringRef Path = Line.drop_front(4).split('\t').first.rtrim();
      if (Path == "/dev/null") {
        Current = nullptr;
        continue;
      }
      Path.consume_front("b/");
      Current = &Result.Lines[absoluteUnder(Path, Root)];
      continue;
    }
    SmallVector<StringRef, 5> Match;
    if (HunkHeader.match(Line, &Match)) {
      if (!InFile)
        return createStringError("line " + std::to_string(I + 1) +
                                 ": a hunk before any '+++' file line");
      unsigned OldCount = 1, NewCount = 1;
      Match[2].getAsInteger(10, NewLine);
      if (!Match[4].empty())
        Match[4].getAsInteger(10, NewCount);
      SmallVector<StringRef, 3> OldMatch;
      Regex("^@@ -[0-9]+,([0-9]+)").match(Line, &OldMatch);
      if (!OldMatch.empty())
        OldMatch[1].getAsInteger(10, OldCount);
      OldLeft = OldCount;
      NewLeft = NewCount;
      // "+N,0": the deletion follows line N.
      if (NewCount == 0)
        ++NewLine;
      DeletionPending = false;
      continue;
    }
    if (Line.starts_with("@@"))
      return createStringError("line " + std::to_string(I + 1) +
                               ": a malformed hunk header '" + Line.str() +
                               "'");
  }
  if (NewLeft || OldLeft)
    return createStringError("the last hunk is cut short");
  if (!SawDiff && !Text.trim().empty())
    return createStringError("no file in it ('+++ ' line) is changed: not a "
                             "unified diff");
  return Result;
}

std::vector<std::string> ChangedLines::files() const {
  std::vector<std::string> Files;
  for (const auto &[File, Changed] : Lines)
    Files.push_back(File);
  return Files;
}

bool ChangedLines::touches(const DiagnosticLine &D, StringRef Root) const {
  if (D.File.empty())
    return false;
  auto Found = Lines.find(absoluteUnder(D.File, Root));
  return Found != Lines.end() && Found->second.count(D.Line);
}

bool ChangedLines::touches(const Finding &F, StringRef Root) const {
  return touches(F.Where, Root) ||
         any_of(F.Notes,
                [&](const DiagnosticLine &N) { return touches(N, Root); });
}

} // namespace cuda_tidy
