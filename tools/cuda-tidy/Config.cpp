//===--- Config.cpp - what the user's clang-tidy configuration says -------===//

#include "Config.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/YAMLParser.h"

using namespace llvm;

namespace cuda_tidy {

bool configNamesChecks(StringRef Text) {
  SourceMgr Sources;
  // Parse errors are clang-tidy's to report; keep them off the terminal.
  Sources.setDiagHandler([](const SMDiagnostic &, void *) {});
  yaml::Stream Stream(Text, Sources);
  for (yaml::Document &Document : Stream) {
    auto *Mapping = dyn_cast_or_null<yaml::MappingNode>(Document.getRoot());
    if (!Mapping)
      continue;
    for (yaml::KeyValueNode &Entry : *Mapping) {
      auto *Key = dyn_cast_or_null<yaml::ScalarNode>(Entry.getKey());
      SmallString<16> Storage;
      if (Key && Key->getValue(Storage) == "Checks")
        return true;
      // Read the value so that the stream moves on to the next key.
      if (yaml::Node *Value = Entry.getValue())
        Value->skip();
    }
  }
  return false;
}

} // namespace cuda_tidy
