//===--- HostValues.h - Host values that reach a launch ---------*- C++ -*-===//
//
// What a launch is really given: the block shape and byte count as the
// launching host function computes them along the launch's own path.
//
// A launch argument is often not a literal: `dim3 block(work[0], work[1])`
// with `size_t work[3] = {BLOCK, 1, 1}`, a `const` copy, or
// `if (zeroflux) bytes = a; else bytes = b;` followed by a launch in each
// branch. Each launch must get the value that reaches it, not the first
// definition found in the function.
//
// ## How
// Reaching definitions of one variable at a time over the host function's
// clang::CFG, with ForwardDataflowWorklist. A definition is an element that
// gives the variable a value we can read (its declaration with an
// initialiser, `v = e`, `v = T(...)` for a class); an element that changes
// it in any other way (`v += e`, `v.x = e`, `&v`, passing it by non-const
// reference) is a definition with an unknown value. A value is known at a
// point when every definition reaching it is known and they all evaluate
// to the same integer there. Clang's dataflow framework has no reaching
// definitions, and the lattice here is tiny (a few definitions of one
// variable), so a hand-written fixpoint over bit sets is the simplest fit.
//
// Also read: array elements with a constant index of a local array that is
// never changed after its initialiser, and integer arithmetic over known
// values. Globals are read at their initialiser, as before: a constant
// shape is what such a launch most likely uses. Parameters are not read
// (their defaults say nothing of what callers pass), unless the values of
// one call are bound (ProgramValues.h, for reproducers).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_HOSTVALUES_H
#define CUDA_TIDY_MODEL_HOSTVALUES_H

#include "analysis/SharedAccesses.h"
#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/FoldingSet.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace clang {
class ExprMutationAnalyzer;
} // namespace clang

namespace clang::cuda_tidy {

/// The values of one host function's variables at its statements.
class HostValues {
public:
  /// \p Bound gives values to read for the function's parameters where it
  /// never changes them: what one call of it passes, for a reproducer (the
  /// checks' own questions bind none: a parameter's value at one call says
  /// nothing of the others).
  HostValues(const FunctionDecl *Function, ASTContext &Context,
             llvm::DenseMap<const ParmVarDecl *, std::int64_t> Bound =
                 llvm::DenseMap<const ParmVarDecl *, std::int64_t>());
  ~HostValues();

  /// The integer value of \p E evaluated at \p At (a statement of the
  /// function's body, usually the launch), if every path gives one value.
  std::optional<std::int64_t> evaluate(const Expr *E, const Stmt *At);
  /// The block shape a launch's block argument \p Block has at \p At.
  std::optional<BlockShape> blockShape(const Expr *Block, const Stmt *At);
  /// The single expression that defines local \p Var's value at \p At (its
  /// initialiser or the right side of the assignment that reaches), or
  /// null when several or an unknown change reach.
  const Expr *reachingValue(const VarDecl *Var, const Stmt *At);
  /// Why \p E (an integer or a block argument) has no constant value at
  /// \p At, as a note says it: "it comes from parameter 'b' of 'launch'",
  /// "it is read from memory ('cfg->block')", "'n' has different values on
  /// the paths that reach it".
  std::string whyUnknown(const Expr *E, const Stmt *At);
  /// Whether \p At can run: some way from the function's entry reaches it
  /// without taking a branch's edge that the branch's known condition
  /// rules out (`bool zeroflux = true; ... if (zeroflux) a(); else b();`:
  /// b() cannot run).
  bool reachable(const Stmt *At);
  /// Whether the function's body changes \p Var or lets it be changed
  /// (Clang's ExprMutationAnalyzer: assignments, increments, a non-const
  /// reference or pointer handed on, a non-const member call). One
  /// analyzer serves the body and each answer is kept: a launching
  /// function with dozens of launches asks of the same few variables once
  /// per launch and parameter, and each question is a matcher walk over
  /// the whole body.
  bool mayChange(const VarDecl *Var);

private:
  struct Definition {
    const Stmt *Element = nullptr; // The CFG element that defines.
    const Expr *Value = nullptr;   // Null: changed in an unknown way.
  };
  /// The definitions of \p Var that reach \p At; none when \p At is not in
  /// the CFG.
  std::optional<llvm::SmallVector<Definition, 2>> reaching(const VarDecl *Var,
                                                           const Stmt *At);
  std::optional<std::int64_t> evaluate(const Expr *E, const Stmt *At,
                                       unsigned Depth);
  std::optional<BlockShape> blockShape(const Expr *Block, const Stmt *At,
                                       unsigned Depth);
  std::string whyUnknown(const Expr *E, const Stmt *At, unsigned Depth);
  /// \p S as written, shortened for a note.
  std::string text(const Stmt *S) const;
  /// The CFG element that contains \p S, found through the parent map.
  const Stmt *elementOf(const Stmt *S);
  /// The edges (branch block, successor index) that the branch's condition,
  /// known where it is tested, rules out; computed on first use, with the
  /// reaching definitions of the unpruned graph.
  const llvm::DenseSet<std::pair<const CFGBlock *, unsigned>> &deadEdges();
  bool isDead(const CFGBlock *Pred, const CFGBlock *Succ);
  /// The `if` conditions \p S lies under, each with the arm it is in
  /// (true: then), as far as they are stable: the condition has no side
  /// effects and every variable it reads is defined once in the function
  /// (its declaration) or is a parameter it never assigns, so that it has
  /// one value wherever it is read. The conditions are canonical profiles.
  llvm::SmallVector<std::pair<llvm::FoldingSetNodeID, bool>, 2>
  stableArms(const Stmt *S);
  bool isStableCondition(const Expr *Cond);

  const FunctionDecl *Function;
  ASTContext &Context;
  std::unique_ptr<CFG> Graph;
  std::unique_ptr<ParentMap> Parents;
  /// Each element's block and index in it.
  llvm::DenseMap<const Stmt *, std::pair<const CFGBlock *, unsigned>> Where;
  std::optional<llvm::DenseSet<std::pair<const CFGBlock *, unsigned>>> Dead;
  bool ComputingDead = false;
  llvm::DenseMap<const Expr *, bool> StableConditions;
  std::unique_ptr<ExprMutationAnalyzer> Mutations;
  llvm::DenseMap<const VarDecl *, bool> Changed;
  llvm::DenseMap<const ParmVarDecl *, std::int64_t> Bound;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_HOSTVALUES_H
