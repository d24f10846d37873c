//===--- ExpressionDependence.h - What an expression depends on -*- C++ -*-===//
//
// The value model of the dependence fixpoint (DependenceFixpoint.h): what an
// expression may depend on in a LocalState, which storage an lvalue
// designates, and why a value depends on the thread (its witness). The
// fixpoint owns the states and transfers the statements; this class answers
// its questions about expressions, reading a callee's summary where an
// expression calls one, and keeps what it learns about the function's
// variables on the way: the references bound to locals, the members of the
// implicit object that have bits of their own (dep::objectMember), the
// captures of a lambda, and where each variable's dependence came from.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_EXPRESSIONDEPENDENCE_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_EXPRESSIONDEPENDENCE_H

#include "analysis/dependence/LocalState.h"
#include "analysis/dependence/ThreadDependence.h"
#include "analysis/dependence/UniformityProofs.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <optional>

namespace clang::cuda_tidy {

/// What an lvalue designates: a tracked local variable (wholly or in
/// part), or storage reached through a parameter or the implicit object.
/// For a local, Path names the part; Exact says the lvalue is exactly
/// that part (so a store replaces its value) rather than somewhere in it.
struct LValueRoot {
  const VarDecl *Var = nullptr;
  unsigned Path = 0;
  bool Exact = false;
  int Param = -1;
  bool Object = false;
  /// The member of the implicit object the lvalue lies in, if one.
  const FieldDecl *ObjectMember = nullptr;
  DepSet IndexDeps = 0;
};

/// The arguments of \p CE that correspond to the callee's parameters, and the
/// implicit object if any. Operator calls to methods carry the object as
/// their first argument.
struct CallShape {
  const Expr *Object = nullptr;
  llvm::SmallVector<const Expr *, 4> Args;
};
CallShape getCallShape(const CallExpr *CE);

/// Whether \p Field is a member of the object \p Method is called on.
bool isOwnMember(const FunctionDecl *Method, const FieldDecl *Field);

/// The bits a witness explains: the thread when the value differs between
/// threads, else what makes it differ between blocks or clusters.
inline DepSet witnessBits(DepSet Deps) {
  return Deps & dep::Thread ? dep::Thread : Deps & (dep::Block | dep::Cluster);
}

/// The dependence of expressions in one function body, \p R's, in the states
/// of its fixpoint; the parts of locals are named by \p Paths.
class ExpressionDependence {
public:
  ExpressionDependence(ThreadDependenceAnalysis &Analysis,
                       FunctionDependence &R, AnalysisDeclContext &AC,
                       MemberPaths &Paths)
      : Analysis(Analysis), R(R), AC(AC), Paths(Paths),
        SharedReads(R.Function, *R.Graph) {}

  /// Whether \p VD is a local of the function's own (a register of the
  /// thread), whose dependence the states track.
  bool isTracked(const VarDecl *VD) const;
  /// Makes \p Reference, a reference bound to the whole of the local
  /// \p Target, another name of \p Target.
  void bindAlias(const VarDecl *Reference, const VarDecl *Target) {
    Aliases[Reference] = Target;
  }

  // Dependence of expressions in a state.
  DepSet valueDeps(const Expr *E, const LocalState &S);
  DepSet loadDeps(const Expr *E, const LocalState &S);
  DepSet addressDeps(const Expr *E, const LocalState &S);
  DepSet callDeps(const CallExpr *CE, const LocalState &S);
  DepSet varDeps(const VarDecl *VD, const LocalState &S);
  /// The dependence of the members a callee reads of \p Object, by slot of
  /// \p Members.
  llvm::SmallVector<DepSet, 2>
  objectMemberDeps(const Expr *Object,
                   llvm::ArrayRef<const FieldDecl *> Members,
                   const LocalState &S);

  // The storage an lvalue, or the target of a pointer, designates.
  LValueRoot lvalueRoot(const Expr *E, const LocalState &S);
  LValueRoot pointerRoot(const Expr *E, const LocalState &S);

  /// Why \p E has the dependence bits \p Bits (dep::Thread, or Block and
  /// Cluster); empty if it has none of them.
  ThreadWitness witness(const Expr *E, const LocalState &S, DepSet Bits,
                        unsigned Depth = 0);
  ThreadWitness witness(const Expr *E, const LocalState &S) {
    return witness(E, S, witnessBits(widenLane(valueDeps(E, S))));
  }
  /// Where each variable's thread dependence came from (\p Bits has
  /// dep::Thread), or its dependence on the block or cluster. The fixpoint
  /// records an origin where an assignment first gives a variable the bits.
  llvm::DenseMap<const VarDecl *, ThreadWitness> &origins(DepSet Bits) {
    return Bits & dep::Thread ? Origins : BlockOrigins;
  }

private:
  /// Where a load of \p E reads in a tracked local: the variable, the part
  /// (the innermost one known exactly) and the dependence of any index on
  /// the way that is not constant. Var is null if \p E is no such load.
  struct PartRead {
    const VarDecl *Var = nullptr;
    unsigned Path = 0;
    /// No index on the way that is not constant: Path is the part read.
    bool Exact = true;
    DepSet IndexDeps = 0;
  };
  PartRead partRead(const Expr *E, const LocalState &S);
  /// The step from \p ME's base to the member it names, or null where the
  /// member may share storage with another (a union's) or is a reference.
  static const void *memberStep(const MemberExpr *ME);

  // Classification of variables.
  bool isCaptured(const VarDecl *VD) const;
  const VarDecl *resolveAlias(const VarDecl *VD) const;
  int paramIndex(const VarDecl *VD) const;

  /// The bit of member \p Field of the implicit object (see
  /// dep::objectMember), or dep::Object when the bits are used up.
  DepSet memberBit(const FieldDecl *Field);
  /// The field of the lambda whose body is analysed that captures \p VD,
  /// if any.
  const FieldDecl *captureField(const VarDecl *VD);

  // Lane-only values (see the file comment of ThreadDependence.h).
  bool laneRules() const { return R.Kernel && Analysis.getOptions().LaneRules; }
  bool oneWarpRule() const {
    return laneRules() && Analysis.getOptions().OneWarpRule;
  }
  /// The argument a full-warp reduction \p CE reduces.
  const Expr *reducedArgument(const CallExpr *CE) {
    return warpReducedArgument(CE, AC.getASTContext());
  }
  /// Whether \p ASE's base is an array variable that a lane-only index
  /// keeps lane-only: a local array of the thread's own, or a shared one
  /// read where SharedReads says it is settled.
  bool keepsLane(const ArraySubscriptExpr *ASE);

  ThreadDependenceAnalysis &Analysis;
  FunctionDependence &R;
  AnalysisDeclContext &AC;
  MemberPaths &Paths;
  llvm::DenseMap<const VarDecl *, const VarDecl *> Aliases;
  SettledSharedReads SharedReads;
  std::optional<llvm::DenseMap<const ValueDecl *, FieldDecl *>> CaptureFields;
  /// Where a variable's thread dependence came from, and where its
  /// dependence on the block or cluster came from.
  llvm::DenseMap<const VarDecl *, ThreadWitness> Origins, BlockOrigins;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_EXPRESSIONDEPENDENCE_H
