//===--- Sarif.cpp - findings as SARIF 2.1.0 ------------------------------===//

#include "Sarif.h"
#include "Baseline.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"
#include <map>
#include <set>
#include <string>

using namespace llvm;

namespace cuda_tidy {

namespace {

/// The first sentence of each rules/<check>.md, which is also the check
/// class's summary (test/gate/sarif-schema.test keeps the two equal).
const StringMap<StringRef> RuleSummaries = {
    {"cuda-bank-conflict",
     "Finds shared-memory accesses whose layout puts several lanes of a warp "
     "in the same bank, and predicts the conflict degree the hardware "
     "counters will measure."},
    {"cuda-divergent-barrier",
     "Finds block-wide barriers that some threads of a block may reach while "
     "other threads of the same block do not."},
    {"cuda-dynamic-shared-bounds",
     "Finds kernel launches whose dynamic shared memory is smaller than what "
     "the kernel's `extern __shared__` accesses reach, missing, or larger "
     "than the launch can get."},
    {"cuda-shared-memory-race",
     "Finds two threads of a block that touch the same shared-memory "
     "element, at least one of them writing, with no barrier between the two "
     "accesses."},
};

class SarifWriter {
public:
  explicit SarifWriter(StringRef Root) : Root(Root) {}

  json::Object artifact(StringRef File) const {
    std::string Relative =
        Root.empty() ? File.str() : relativeToRoot(File, Root);
    if (sys::path::is_absolute(Relative))
      return json::Object{{"uri", fileUri(Relative)}};
    if (Root.empty())
      return json::Object{{"uri", Relative}};
    return json::Object{{"uri", Relative}, {"uriBaseId", "%SRCROOT%"}};
  }

  static std::string fileUri(StringRef Path) {
    std::string Uri = "file://";
    std::string Slashed = sys::path::convert_to_slash(Path);
    if (!StringRef(Slashed).starts_with("/"))
      Uri += "/";
    for (char C : Slashed) {
      if (isAlnum(C) || StringRef("/-._~").contains(C))
        Uri += C;
      else
        Uri += "%" + utohexstr(static_cast<unsigned char>(C), false, 2);
    }
    return Uri;
  }

  json::Object location(const DiagnosticLine &D, bool WithMessage) const {
    json::Object Physical{{"artifactLocation", artifact(D.File)}};
    if (D.Line)
      Physical["region"] = json::Object{
          {"startLine", D.Line}, {"startColumn", std::max(1u, D.Column)}};
    json::Object Location{{"physicalLocation", std::move(Physical)}};
    if (WithMessage)
      Location["message"] = json::Object{{"text", D.Message}};
    return Location;
  }

  /// The warning's location, with its enclosing function as the logical
  /// location: the fingerprint hashes the function, so a merge of logs
  /// (readSarifFindings) needs it to write the same fingerprints again.
  json::Object primaryLocation(const Finding &F) const {
    json::Object Location = location(F.Where, /*WithMessage=*/false);
    if (!F.Function.empty())
      Location["logicalLocations"] = json::Array{json::Object{
          {"fullyQualifiedName", F.Function}, {"kind", "function"}}};
    return Location;
  }

  json::Array fixes(const Finding &F) const {
    // One fix per file and description: the replacements a diagnostic and
    // each of its notes carry.
    std::map<std::string, json::Array> ByFile;
    for (const Replacement &R : F.Fixes)
      ByFile[R.File].push_back(json::Object{
          {"deletedRegion",
           json::Object{{"byteOffset", R.Offset}, {"byteLength", R.Length}}},
          {"insertedContent", json::Object{{"text", R.Text}}}});
    json::Array Changes;
    for (auto &[File, Replacements] : ByFile)
      Changes.push_back(
          json::Object{{"artifactLocation", artifact(File)},
                       {"replacements", std::move(Replacements)}});
    json::Array Fixes;
    if (!Changes.empty())
      Fixes.push_back(json::Object{
          {"description",
           json::Object{{"text", "apply the fix-its of '" + F.Check + "'"}}},
          {"artifactChanges", std::move(Changes)}});
    return Fixes;
  }

  json::Value log(ArrayRef<Finding> Findings) const {
    json::Array Results;
    std::set<std::string> Rules;
    // Identical findings in one function are told apart by their order.
    std::map<std::string, unsigned> Occurrences;
    for (const Finding &F : Findings) {
      std::string Rule = F.Check.empty() ? "clang-diagnostic-unknown" : F.Check;
      Rules.insert(Rule);
      std::string Identity = Rule + "\n" + relativeToRoot(F.Where.File, Root) +
                             "\n" + F.Function + "\n" + F.Where.Message;
      Identity += "\n" + std::to_string(Occurrences[Identity]++);
      json::Array Related;
      unsigned Id = 0;
      for (const DiagnosticLine &Note : F.Notes) {
        json::Object Location = location(Note, /*WithMessage=*/true);
        Location["id"] = Id++;
        Related.push_back(std::move(Location));
      }
      json::Object Result{
          {"ruleId", Rule},
          {"level", F.Level == "error" ? "error" : "warning"},
          {"message", json::Object{{"text", F.Where.Message}}},
          {"locations", json::Array{primaryLocation(F)}},
          {"relatedLocations", std::move(Related)},
          {"partialFingerprints",
           json::Object{{"cudaTidyFinding/v1",
                         utohexstr(xxh3_64bits(Identity), false, 16)}}}};
      json::Array Fixes = fixes(F);
      if (!Fixes.empty())
        Result["fixes"] = std::move(Fixes);
      if (F.Confirmation)
        Result["properties"] =
            json::Object{{"confirmation", json::Value(*F.Confirmation)}};
      Results.push_back(std::move(Result));
    }
    json::Array RuleList;
    for (const std::string &Rule : Rules) {
      json::Object R{{"id", Rule}};
      auto Summary = RuleSummaries.find(Rule);
      if (Summary != RuleSummaries.end()) {
        R["shortDescription"] = json::Object{{"text", Summary->second}};
        R["helpUri"] = "rules/" + Rule + ".md";
      } else if (Rule == "clang-diagnostic-error") {
        R["shortDescription"] =
            json::Object{{"text", "The code does not compile under Clang, so "
                                  "its kernels are not analysed."}};
      }
      RuleList.push_back(std::move(R));
    }
    json::Object Driver{{"name", "cuda-tidy"}, {"rules", std::move(RuleList)}};
    json::Object Run{{"tool", json::Object{{"driver", std::move(Driver)}}},
                     {"results", std::move(Results)}};
    if (!Root.empty()) {
      std::string Base = fileUri(Root);
      if (!StringRef(Base).ends_with("/"))
        Base += "/";
      Run["originalUriBaseIds"] =
          json::Object{{"%SRCROOT%", json::Object{{"uri", Base}}}};
    }
    return json::Object{
        {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
        {"version", "2.1.0"},
        {"runs", json::Array{std::move(Run)}}};
  }

private:
  StringRef Root;
};

} // namespace

json::Value findingsToSarif(ArrayRef<Finding> Findings, StringRef Root) {
  return SarifWriter(Root).log(Findings);
}

json::Value diagnosticsToSarif(StringRef Output) {
  return findingsToSarif(parseClangTidyOutput(Output), "");
}

namespace {

/// The inverse of SarifWriter: the findings of a log it wrote.
class SarifReader {
public:
  explicit SarifReader(StringRef Root) : Root(Root) {}

  /// The path an artifact location names: a %SRCROOT%-relative URI is
  /// resolved against this merge's root, a file URI decoded.
  std::string path(const json::Object *Artifact) const {
    std::string Uri(Artifact ? Artifact->getString("uri").value_or("") : "");
    StringRef Rest(Uri);
    if (Artifact && Artifact->getString("uriBaseId") == "%SRCROOT%") {
      SmallString<256> Path(Root);
      sys::path::append(Path, sys::path::Style::posix, Rest);
      return std::string(Path);
    }
    if (!Rest.consume_front("file://"))
      return Uri;
    std::string Decoded;
    for (size_t I = 0; I < Rest.size(); ++I) {
      unsigned Byte;
      if (Rest[I] == '%' && I + 2 < Rest.size() &&
          !Rest.substr(I + 1, 2).getAsInteger(16, Byte)) {
        Decoded += static_cast<char>(Byte);
        I += 2;
      } else {
        Decoded += Rest[I];
      }
    }
    return Decoded;
  }

  DiagnosticLine line(const json::Object &Location) const {
    DiagnosticLine D;
    if (const json::Object *Message = Location.getObject("message"))
      D.Message = Message->getString("text").value_or("").str();
    const json::Object *Physical = Location.getObject("physicalLocation");
    if (!Physical)
      return D;
    D.File = path(Physical->getObject("artifactLocation"));
    if (const json::Object *Region = Physical->getObject("region")) {
      D.Line = Region->getInteger("startLine").value_or(0);
      D.Column = Region->getInteger("startColumn").value_or(0);
    }
    return D;
  }

  Expected<Finding> finding(const json::Value &Value) const {
    const json::Object *Result = Value.getAsObject();
    const json::Array *Locations =
        Result ? Result->getArray("locations") : nullptr;
    if (!Result || !Result->getString("ruleId") || !Locations ||
        Locations->empty() || !Locations->front().getAsObject())
      return createStringError("a result without a rule or a location");
    Finding F;
    F.Check = Result->getString("ruleId")->str();
    F.Level = Result->getString("level") == "error" ? "error" : "warning";
    const json::Object &Primary = *Locations->front().getAsObject();
    F.Where = line(Primary);
    if (const json::Object *Message = Result->getObject("message"))
      F.Where.Message = Message->getString("text").value_or("").str();
    if (const json::Array *Logical = Primary.getArray("logicalLocations"))
      if (!Logical->empty() && Logical->front().getAsObject())
        F.Function = Logical->front()
                         .getAsObject()
                         ->getString("fullyQualifiedName")
                         .value_or("")
                         .str();
    if (const json::Array *Related = Result->getArray("relatedLocations"))
      for (const json::Value &Note : *Related)
        if (const json::Object *Location = Note.getAsObject())
          F.Notes.push_back(line(*Location));
    if (const json::Array *Fixes = Result->getArray("fixes"))
      for (const json::Value &Fix : *Fixes)
        addFixes(F, Fix);
    return F;
  }

private:
  void addFixes(Finding &F, const json::Value &Fix) const {
    const json::Object *Object = Fix.getAsObject();
    const json::Array *Changes =
        Object ? Object->getArray("artifactChanges") : nullptr;
    if (!Changes)
      return;
    for (const json::Value &Change : *Changes) {
      const json::Object *C = Change.getAsObject();
      const json::Array *Replacements =
          C ? C->getArray("replacements") : nullptr;
      if (!Replacements)
        continue;
      std::string File = path(C->getObject("artifactLocation"));
      for (const json::Value &R : *Replacements) {
        const json::Object *O = R.getAsObject();
        const json::Object *Deleted =
            O ? O->getObject("deletedRegion") : nullptr;
        const json::Object *Inserted =
            O ? O->getObject("insertedContent") : nullptr;
        if (!Deleted)
          continue;
        F.Fixes.push_back(
            {File, unsigned(Deleted->getInteger("byteOffset").value_or(0)),
             unsigned(Deleted->getInteger("byteLength").value_or(0)),
             Inserted ? Inserted->getString("text").value_or("").str() : ""});
      }
    }
  }

  StringRef Root;
};

} // namespace

std::string sarifRoot(const json::Value &Log) {
  const json::Object *Object = Log.getAsObject();
  const json::Array *Runs = Object ? Object->getArray("runs") : nullptr;
  if (!Runs)
    return "";
  for (const json::Value &Run : *Runs) {
    const json::Object *R = Run.getAsObject();
    const json::Object *Bases =
        R ? R->getObject("originalUriBaseIds") : nullptr;
    const json::Object *Base = Bases ? Bases->getObject("%SRCROOT%") : nullptr;
    if (Base)
      if (std::optional<StringRef> Uri = Base->getString("uri")) {
        json::Object Artifact{{"uri", *Uri}};
        std::string Path = SarifReader("").path(&Artifact);
        StringRef Trimmed(Path);
        return Trimmed.size() > 1 ? Trimmed.rtrim('/').str() : Path;
      }
  }
  return "";
}

Expected<std::vector<Finding>> readSarifFindings(const json::Value &Log,
                                                 StringRef Root) {
  const json::Object *Object = Log.getAsObject();
  const json::Array *Runs = Object ? Object->getArray("runs") : nullptr;
  if (!Runs || Object->getString("version") != "2.1.0")
    return createStringError(
        "not a SARIF 2.1.0 log (an object with \"version\": \"2.1.0\" and "
        "\"runs\")");
  SarifReader Reader(Root);
  std::vector<Finding> Findings;
  for (const json::Value &Run : *Runs) {
    const json::Object *R = Run.getAsObject();
    const json::Array *Results = R ? R->getArray("results") : nullptr;
    if (!Results)
      continue;
    for (const json::Value &Result : *Results) {
      Expected<Finding> F = Reader.finding(Result);
      if (!F)
        return createStringError("result " +
                                 std::to_string(Findings.size() + 1) + ": " +
                                 toString(F.takeError()));
      // A confirmation (Repro.h) travels through a merge.
      if (const json::Object *O = Result.getAsObject())
        if (const json::Object *Properties = O->getObject("properties"))
          if (const json::Value *C = Properties->get("confirmation"))
            F->Confirmation = *C;
      Findings.push_back(std::move(*F));
    }
  }
  return Findings;
}

} // namespace cuda_tidy
