//===--- StoredValues.h - What plain stores write ---------------*- C++ -*-===//
//
// A fact the race analysis's decision uses (SharedMemoryRace.h, step 4):
// two writes of one value to the same bytes leave them as either would
// alone, so a pair of stores races only where the values differ. This
// gives the values two stores write a symbolic form, and says when they are
// certainly one value.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_RACE_STOREDVALUES_H
#define CUDA_TIDY_ANALYSIS_RACE_STOREDVALUES_H

#include "analysis/race/RaceCommon.h"
#include "llvm/ADT/DenseMap.h"
#include <optional>
#include <utility>

namespace clang::cuda_tidy {

/// What a plain store writes: a symbolic value, or an index into an
/// array that is read (directly, or through a pure helper given a pointer
/// into it), or a pure helper's argument. Two stores of equal keys and
/// equal values store one value.
struct StoredValue {
  const VarDecl *Array = nullptr;       // The array read, if any.
  const FunctionDecl *Helper = nullptr; // The pure helper called, if any.
  SymId Value = -1;                     // -1: no symbolic form.
  /// Value is the bit pattern of a floating-point constant.
  bool FloatBits = false;
  bool sameKey(const StoredValue &Other) const {
    return Array == Other.Array && Helper == Other.Helper &&
           FloatBits == Other.FloatBits;
  }
};

/// What two plain stores of a pair write, as far as a race between them
/// goes.
struct StoreComparison {
  /// They certainly store one value: no race.
  bool OneValue = false;
  /// The values they store, when both have a symbolic form of one key: a
  /// witness must show them different.
  std::optional<std::pair<SymId, SymId>> Values;
};

/// The values plain stores write, followed through pure helpers and arrays
/// that are the same in every thread.
class StoredValues {
public:
  explicit StoredValues(const KernelRaceContext &K);

  /// Compares what \p A and \p B store; \p SameAccess: they are one
  /// access, run by two threads.
  StoreComparison compare(const SharedAccess &A, const SharedAccess &B,
                          bool SameAccess);

private:
  /// What the plain store of \p Stored writes.
  StoredValue storedValue(const Expr *Stored);
  /// Whether \p E reads a by-value parameter of the kernel, or a member of
  /// one, that nothing in the kernel changes: the same in every thread.
  bool isUnchangedParameter(const Expr *E) const;
  /// The value of \p E as an integer or as a pointer into an array that
  /// holds the same values for every thread (Array set, Value the element
  /// index); Value -1 when neither.
  StoredValue argumentValue(const Expr *E) const;
  /// Whether \p Array names memory that is not shared and is the same
  /// array in every thread.
  bool isSameArrayInEveryThread(const VarDecl *Array) const;

  SymbolicTranslator &Sym;
  ASTContext &Context;
  const FunctionDependence &Deps;
  const FunctionDecl *Kernel;
  /// Pure helpers found so far (isPureFunction).
  llvm::DenseMap<const FunctionDecl *, bool> PureFunctions;
  mutable llvm::DenseMap<const ParmVarDecl *, bool> UnchangedParameters;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_RACE_STOREDVALUES_H
