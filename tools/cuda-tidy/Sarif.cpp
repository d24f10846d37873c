//===--- Sarif.cpp - clang-tidy's diagnostics as SARIF --------------------===//

#include "Sarif.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include <set>
#include <string>

using namespace llvm;

namespace cuda_tidy {

namespace {

json::Object location(StringRef File, unsigned Line, unsigned Column,
                      StringRef Message = "") {
  std::string Uri = File.str();
  if (sys::path::is_absolute(File))
    Uri = "file://" + Uri;
  json::Object Physical{
      {"artifactLocation", json::Object{{"uri", Uri}}},
      {"region", json::Object{{"startLine", Line}, {"startColumn", Column}}}};
  json::Object Location{{"physicalLocation", std::move(Physical)}};
  if (!Message.empty())
    Location["message"] = json::Object{{"text", Message}};
  return Location;
}

} // namespace

json::Value diagnosticsToSarif(StringRef Output) {
  // "file:line:col: warning: message [check-name]"
  Regex Diagnostic("^(.+):([0-9]+):([0-9]+): (warning|error|note): (.*)$");
  Regex Named("^(.*) \\[([A-Za-z0-9_.,-]+)\\]$");
  json::Array Results;
  std::set<std::string> Rules;
  json::Object *Current = nullptr;
  SmallVector<StringRef, 256> Lines;
  Output.split(Lines, '\n');
  for (StringRef Line : Lines) {
    SmallVector<StringRef, 6> Match;
    if (!Diagnostic.match(Line.rtrim("\r"), &Match))
      continue;
    unsigned LineNo = 0, Column = 0;
    Match[2].getAsInteger(10, LineNo);
    Match[3].getAsInteger(10, Column);
    StringRef Kind = Match[4];
    StringRef Message = Match[5];
    if (Kind == "note") {
      if (!Current)
        continue;
      json::Array *Related = Current->getArray("relatedLocations");
      Related->push_back(location(Match[1], LineNo, Column, Message));
      continue;
    }
    std::string Rule = Kind == "error" ? "clang-diagnostic-error" : "";
    SmallVector<StringRef, 3> NameMatch;
    if (Named.match(Message, &NameMatch)) {
      Message = NameMatch[1];
      Rule = NameMatch[2].split(',').first.str();
    }
    Rules.insert(Rule);
    Results.push_back(json::Object{
        {"ruleId", Rule},
        {"level", Kind == "error" ? "error" : "warning"},
        {"message", json::Object{{"text", Message}}},
        {"locations", json::Array{location(Match[1], LineNo, Column)}},
        {"relatedLocations", json::Array{}}});
    Current = Results.back().getAsObject();
  }
  json::Array RuleList;
  for (const std::string &Rule : Rules) {
    json::Object R{{"id", Rule}};
    if (StringRef(Rule).starts_with("cuda-"))
      R["helpUri"] = "rules/" + Rule + ".md";
    RuleList.push_back(std::move(R));
  }
  json::Object Driver{{"name", "cuda-tidy"},
                      {"informationUri", "rules/"},
                      {"rules", std::move(RuleList)}};
  return json::Object{
      {"version", "2.1.0"},
      {"runs", json::Array{json::Object{
                   {"tool", json::Object{{"driver", std::move(Driver)}}},
                   {"results", std::move(Results)}}}}};
}

} // namespace cuda_tidy
