//===--- Shard.h - one part of a compile database ---------------*- C++ -*-===//
//
// A CI matrix analyses a large database on several machines:
// `cuda-tidy -p build --shard=K/N` analyses the K-th of N parts of its
// translation units, and `--merge-sarif`/`--merge-baseline` combine what the
// parts wrote. A unit belongs to part 1 + (xxh3_64 of its path) mod N, the
// path taken relative to the directory cuda-tidy runs in (the repository's
// root in CI) as the baseline writes it. A hash rather than the unit's rank
// in the sorted database, so that a unit stays in its part when others are
// added or removed, and a per-part result cache (--cache-dir) keeps its
// entry; the order of the database never matters.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TOOLS_SHARD_H
#define CUDA_TIDY_TOOLS_SHARD_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace cuda_tidy {

struct Shard {
  /// 1-based.
  unsigned Index = 1;
  unsigned Count = 1;

  /// Parses "K/N" with 1 <= K <= N.
  static llvm::Expected<Shard> parse(llvm::StringRef Text);

  /// Whether the unit at \p RelativePath (see relativeToRoot) is this
  /// part's.
  bool contains(llvm::StringRef RelativePath) const;
};

} // namespace cuda_tidy

#endif // CUDA_TIDY_TOOLS_SHARD_H
