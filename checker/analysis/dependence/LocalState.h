//===--- LocalState.h - What each local may depend on, part by part -*- C++
//-*-//
//
// The lattice of the dependence fixpoint (DependenceFixpoint.h): at a point
// of the function, what each tracked local variable may depend on, as a
// whole and in the parts of it (members, elements at constant indices) that
// were written on their own; see "Parts of local aggregates" in
// ThreadDependence.h. A state holds only the variables that depend on
// something, so that it stays as small as the set of such variables.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_LOCALSTATE_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_LOCALSTATE_H

#include "analysis/dependence/ThreadDependence.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <utility>
#include <vector>

namespace clang::cuda_tidy {

/// What a tracked local may depend on: the variable as a whole, and
/// apart from that the parts of it (members, elements at constant
/// indices) written on their own since it was last written whole. A part
/// has the value of its nearest listed enclosing part, else Whole, plus
/// those of the parts listed inside it.
struct VarState {
  DepSet Whole = 0;
  /// By path (see MemberPaths), sorted.
  llvm::SmallVector<std::pair<unsigned, DepSet>, 2> Parts;
  bool operator==(const VarState &Other) const {
    return Whole == Other.Whole && Parts == Other.Parts;
  }
  bool operator!=(const VarState &Other) const { return !(*this == Other); }
  bool empty() const {
    return !Whole &&
           llvm::all_of(Parts, [](const auto &P) { return P.second == 0; });
  }
};

/// The dataflow's state at one point: the tracked locals that depend on
/// something, each with its VarState.
using LocalState = llvm::DenseMap<const VarDecl *, VarState>;

/// Paths to parts of a local aggregate, interned: 0 is the variable
/// itself, each other path a step (a field, or an element at a constant
/// index) from its parent. Reading, writing and joining a VarState ask
/// which path encloses which, so those operations of the lattice live here
/// too.
class MemberPaths {
public:
  /// Deeper paths are not told apart: the last step that fits stands for
  /// what lies below it.
  static constexpr unsigned MaxDepth = 6;

  unsigned child(unsigned Parent, const void *Step) {
    if (Nodes[Parent].Depth >= MaxDepth)
      return Parent;
    auto [It, New] = Index.try_emplace({Parent, Step}, Nodes.size());
    if (New)
      Nodes.push_back({Parent, Step, Nodes[Parent].Depth + 1});
    return It->second;
  }
  /// Whether \p Outer is \p Inner or encloses it.
  bool encloses(unsigned Outer, unsigned Inner) const {
    while (Nodes[Inner].Depth > Nodes[Outer].Depth)
      Inner = Nodes[Inner].Parent;
    return Inner == Outer;
  }
  /// The path without trailing element steps: what a pointer or a
  /// reference to an element may reach by arithmetic.
  unsigned withoutElements(unsigned Path) const {
    while (Path && isElementStep(Nodes[Path].Step))
      Path = Nodes[Path].Parent;
    return Path;
  }
  static const void *elementStep(uint64_t Index) {
    return reinterpret_cast<const void *>(uintptr_t(Index << 1 | 1));
  }
  static bool isElementStep(const void *Step) {
    return reinterpret_cast<uintptr_t>(Step) & 1;
  }

  /// The dependence of part \p Path of \p VS, with the parts inside it.
  DepSet readPart(const VarState &VS, unsigned Path) const;
  /// The value \p VS gives part \p Path apart from the parts listed inside
  /// it: that of the nearest listed part enclosing it, else Whole.
  DepSet enclosingValue(const VarState &VS, unsigned Path) const;
  /// Stores \p Value into part \p Path of \p VS: a strong store replaces
  /// what the part held, a weak one adds to it.
  void writePart(VarState &VS, unsigned Path, DepSet Value, bool Strong) const;
  /// The state of a variable where two paths meet: each part holds what it
  /// holds on either path.
  VarState join(const VarState &A, const VarState &B) const;

private:
  struct Node {
    unsigned Parent;
    const void *Step;
    unsigned Depth;
  };
  std::vector<Node> Nodes{{0, nullptr, 0}};
  llvm::DenseMap<std::pair<unsigned, const void *>, unsigned> Index;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_LOCALSTATE_H
