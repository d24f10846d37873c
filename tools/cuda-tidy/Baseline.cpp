//===--- Baseline.cpp - known findings a team has not fixed yet -----------===//

#include "Baseline.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"
#include <algorithm>
#include <map>
#include <tuple>

using namespace llvm;

namespace cuda_tidy {

namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string>;

Key keyOf(const Finding &F, StringRef Root) {
  return {F.Check, relativeToRoot(F.Where.File, Root), F.Function,
          F.Where.Message};
}

} // namespace

std::string relativeToRoot(StringRef File, StringRef Root) {
  SmallString<256> Path(File);
  sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  SmallString<256> Base(Root);
  sys::path::remove_dots(Base, /*remove_dot_dot=*/true);
  StringRef Rest(Path);
  if (!Base.empty() && sys::path::is_absolute(Path) &&
      Rest.consume_front(Base) &&
      (Base.ends_with("/") || Rest.empty() ||
       sys::path::is_separator(Rest.front())))
    return sys::path::convert_to_slash(Rest.ltrim("/\\"));
  return sys::path::convert_to_slash(Path);
}

namespace {

json::Value baselineOf(const std::map<Key, unsigned> &Counts) {
  json::Array Entries;
  for (const auto &[K, Count] : Counts) {
    const auto &[Check, File, Function, Message] = K;
    Entries.push_back(json::Object{{"check", Check},
                                   {"file", File},
                                   {"function", Function},
                                   {"message", Message},
                                   {"count", Count}});
  }
  return json::Object{{"version", 1}, {"findings", std::move(Entries)}};
}

} // namespace

json::Value makeBaseline(ArrayRef<Finding> Findings, StringRef Root) {
  std::map<Key, unsigned> Counts;
  for (const Finding &F : Findings)
    ++Counts[keyOf(F, Root)];
  return baselineOf(Counts);
}

json::Value mergeBaselines(ArrayRef<std::vector<BaselineEntry>> Baselines) {
  std::map<Key, unsigned> Counts;
  for (const std::vector<BaselineEntry> &Entries : Baselines)
    for (const BaselineEntry &E : Entries) {
      unsigned &Count = Counts[{E.Check, E.File, E.Function, E.Message}];
      Count = std::max(Count, E.Count);
    }
  return baselineOf(Counts);
}

Expected<std::vector<BaselineEntry>> parseBaseline(StringRef Text) {
  Expected<json::Value> Parsed = json::parse(Text);
  if (!Parsed)
    return createStringError("not JSON: " + toString(Parsed.takeError()));
  const json::Object *Root = Parsed->getAsObject();
  if (!Root || Root->getInteger("version") != 1 || !Root->getArray("findings"))
    return createStringError(
        "not a cuda-tidy baseline (an object with \"version\": 1 and a "
        "\"findings\" array)");
  std::vector<BaselineEntry> Entries;
  for (const json::Value &Value : *Root->getArray("findings")) {
    const json::Object *Object = Value.getAsObject();
    BaselineEntry Entry;
    json::Path::Root Where;
    json::ObjectMapper Mapper(Value, Where);
    std::optional<int64_t> Count =
        Object ? Object->getInteger("count") : std::nullopt;
    if (!Object || !Mapper.map("check", Entry.Check) ||
        !Mapper.map("file", Entry.File) ||
        !Mapper.map("function", Entry.Function) ||
        !Mapper.map("message", Entry.Message) || (Count && *Count < 1) ||
        (Object->get("count") && !Count))
      return createStringError(
          "entry " + std::to_string(Entries.size() + 1) +
          " is not an object with strings \"check\", \"file\", \"function\", "
          "\"message\" and an optional positive \"count\"");
    Entry.Count = Count ? *Count : 1;
    Entries.push_back(std::move(Entry));
  }
  return Entries;
}

BaselineOutcome applyBaseline(ArrayRef<BaselineEntry> Entries,
                              std::vector<Finding> &Findings, StringRef Root) {
  std::map<Key, unsigned> Left;
  for (const BaselineEntry &E : Entries)
    Left[{E.Check, E.File, E.Function, E.Message}] += E.Count;
  BaselineOutcome Outcome;
  erase_if(Findings, [&](const Finding &F) {
    auto Known = Left.find(keyOf(F, Root));
    if (Known == Left.end() || Known->second == 0)
      return false;
    --Known->second;
    ++Outcome.Suppressed;
    return true;
  });
  for (const auto &[K, Count] : Left)
    if (Count) {
      const auto &[Check, File, Function, Message] = K;
      Outcome.NoLongerSeen.push_back({Check, File, Function, Message, Count});
    }
  return Outcome;
}

} // namespace cuda_tidy
