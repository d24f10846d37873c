//===--- ByteTouchers.h - Which threads touch each byte ---------*- C++ -*-===//
//
// The exact enumerations of the race analysis (Overlap.h, DataIndexed.h)
// evaluate an access for every thread of the block and look for another
// thread on one of its bytes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_BYTETOUCHERS_H
#define CUDA_TIDY_ANALYSIS_RACE_BYTETOUCHERS_H

#include "llvm/ADT/DenseMap.h"
#include <cstdint>
#include <utility>

namespace clang::cuda_tidy {

/// Which threads touch each byte, for finding two different threads on one
/// byte: up to two threads per byte, the second from another warp than the
/// first when possible. That is enough to find, for any thread, another
/// thread on the byte when there is one (of another warp when asked).
class ByteTouchers {
public:
  explicit ByteTouchers(bool DifferentWarpsOnly)
      : DifferentWarpsOnly(DifferentWarpsOnly) {}
  void add(std::int64_t Byte, std::int64_t Thread) {
    auto &Slot = Slots.try_emplace(Byte, Thread, -1).first->second;
    if (Slot.first != Thread && Slot.second < 0 &&
        (Slot.first / 32 != Thread / 32 || !DifferentWarpsOnly))
      Slot.second = Thread;
  }
  /// A thread other than \p Thread (of another warp when asked) that
  /// touches \p Byte; -1 when none does.
  std::int64_t other(std::int64_t Byte, std::int64_t Thread) const {
    auto It = Slots.find(Byte);
    if (It == Slots.end())
      return -1;
    for (std::int64_t Other : {It->second.first, It->second.second})
      if (Other >= 0 && Other != Thread &&
          (!DifferentWarpsOnly || Other / 32 != Thread / 32))
        return Other;
    return -1;
  }
  bool empty() const { return Slots.empty(); }
  void clear() { Slots.clear(); }

private:
  bool DifferentWarpsOnly;
  llvm::DenseMap<std::int64_t, std::pair<std::int64_t, std::int64_t>> Slots;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_BYTETOUCHERS_H
