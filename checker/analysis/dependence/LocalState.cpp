//===--- LocalState.cpp - What each local may depend on, part by part -----===//
//
// See LocalState.h.
//
//===----------------------------------------------------------------------===//

#include "analysis/dependence/LocalState.h"

namespace clang::cuda_tidy {

DepSet MemberPaths::enclosingValue(const VarState &VS, unsigned Path) const {
  DepSet Value = VS.Whole;
  unsigned Depth = 0;
  for (const auto &[Part, PartValue] : VS.Parts)
    if (encloses(Part, Path) && Nodes[Part].Depth >= Depth) {
      Value = PartValue;
      Depth = Nodes[Part].Depth;
    }
  return Value;
}

DepSet MemberPaths::readPart(const VarState &VS, unsigned Path) const {
  DepSet Deps = enclosingValue(VS, Path);
  for (const auto &[Part, Value] : VS.Parts)
    if (Part != Path && encloses(Path, Part))
      Deps |= Value;
  return Deps;
}

VarState MemberPaths::join(const VarState &A, const VarState &B) const {
  VarState Joined;
  Joined.Whole = A.Whole | B.Whole;
  for (const VarState *Side : {&A, &B})
    for (const auto &[Part, Value] : Side->Parts)
      if (!llvm::is_contained(llvm::make_first_range(Joined.Parts), Part))
        Joined.Parts.push_back(
            {Part, enclosingValue(A, Part) | enclosingValue(B, Part)});
  llvm::sort(Joined.Parts,
             [](const auto &X, const auto &Y) { return X.first < Y.first; });
  return Joined;
}

void MemberPaths::writePart(VarState &VS, unsigned Path, DepSet Value,
                            bool Strong) const {
  if (Path == 0 && Strong) {
    VS.Whole = Value;
    VS.Parts.clear();
    return;
  }
  if (Path == 0) {
    VS.Whole |= Value;
    for (auto &Part : VS.Parts)
      Part.second |= Value;
    return;
  }
  // A store to the part replaces what lies inside it; a weak one adds to
  // every value inside it, and lists the part with what it held before.
  DepSet Before = Strong ? 0 : enclosingValue(VS, Path);
  llvm::SmallVector<std::pair<unsigned, DepSet>, 2> Parts;
  for (const auto &[Part, Old] : VS.Parts) {
    if (Part == Path || !encloses(Path, Part))
      Parts.push_back({Part, Old});
    else if (!Strong)
      Parts.push_back({Part, Old | Value});
  }
  auto Slot =
      llvm::find_if(Parts, [&](const auto &P) { return P.first == Path; });
  if (Slot == Parts.end()) {
    Parts.push_back({Path, 0});
    Slot = Parts.end() - 1;
  }
  Slot->second = Strong ? Value : Before | Value;
  llvm::sort(Parts,
             [](const auto &A, const auto &B) { return A.first < B.first; });
  VS.Parts = std::move(Parts);
}

} // namespace clang::cuda_tidy
