//===--- Shard.cpp - one part of a compile database -----------------------===//

#include "Shard.h"
#include "llvm/Support/xxhash.h"

using namespace llvm;

namespace cuda_tidy {

Expected<Shard> Shard::parse(StringRef Text) {
  auto [IndexText, CountText] = Text.split('/');
  Shard S;
  if (IndexText.getAsInteger(10, S.Index) ||
      CountText.getAsInteger(10, S.Count) || S.Count == 0 || S.Index == 0 ||
      S.Index > S.Count)
    return createStringError("--shard needs K/N with 1 <= K <= N, not '" +
                             Text.str() + "'");
  return S;
}

bool Shard::contains(StringRef RelativePath) const {
  return xxh3_64bits(RelativePath) % Count == Index - 1;
}

} // namespace cuda_tidy
