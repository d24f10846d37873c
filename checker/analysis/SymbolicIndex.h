//===--- SymbolicIndex.h - Index expressions as small programs --*- C++ -*-===//
//
// Shared-memory indices and the guards around them, translated from Clang
// expressions into a small expression language that can be evaluated for a
// concrete thread, block shape and loop iteration. The race and bank checks
// decide questions such as "can two threads of the block touch the same
// element" by evaluating these for every thread of a block, which handles
// `%`, `/`, shifts, XOR swizzles and `min` as easily as affine forms, and is
// exact for the block shape being considered.
//
// Leaves:
//  - threadIdx.{x,y,z} and blockDim.{x,y,z} (concrete in an environment);
//  - constants (anything Clang can fold, template arguments included);
//  - atoms: block-uniform values the evaluation does not know (kernel
//    parameters, blockIdx, uniform locals), and loop counters whose values
//    can be listed (`for (s = blockDim.x / 2; s > 0; s >>= 1)`);
//  - Unknown: anything else (a thread-dependent local with several
//    definitions, a load from memory). Evaluation then fails and the
//    question is undecided.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_SYMBOLICINDEX_H
#define CUDA_TIDY_ANALYSIS_SYMBOLICINDEX_H

#include "analysis/dependence/ThreadDependence.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

struct SyncEvent;

using SymId = int;

struct SymNode {
  enum Kind {
    Const,
    Thread,
    BlockDim,
    Atom,
    Unknown,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    LAnd,
    LOr,
    Not,
    Neg,
    BitNot,
    Select,
    Min,
    Max
  };
  Kind K = Unknown;
  std::int64_t Value =
      0; // Const value; dimension for Thread/BlockDim; atom id.
  SymId A = -1, B = -1, C = -1;
};

/// A block-uniform value the evaluation does not know, or a loop counter.
struct SymAtom {
  const VarDecl *Var = nullptr; // The variable, or null for blockIdx & co.
  std::string Name;
  /// For a loop counter: the loop and the values the counter takes, in
  /// order. Empty when the values cannot be listed.
  const Stmt *Loop = nullptr;
  SymId Init = -1, Bound = -1, Step = -1;
  SymNode::Kind Compare = SymNode::Lt; // Counter `Compare` Bound keeps going.
  SymNode::Kind StepOp = SymNode::Add; // Counter = Counter `StepOp` Step.
  /// The counter starts at a thread-dependent value and moves by a uniform
  /// additive step (`for (i = threadIdx.x; i < n; i += blockDim.x)`): the
  /// atom is then the iteration number, the same in every thread, and the
  /// counter is translated as Init + iteration * Step.
  bool IterationNumber = false;
  bool isLoopCounter() const { return Loop != nullptr; }
  /// blockIdx.{x,y,z}: existential like a thread (some block runs the
  /// code), not an unknown the answer must hold for.
  bool isBlockIndex() const {
    return !Var && llvm::StringRef(Name).starts_with("blockIdx");
  }
};

/// A concrete point at which to evaluate: one thread of one block shape.
struct SymEnv {
  std::int64_t Tid[3] = {0, 0, 0};
  std::int64_t Dim[3] = {1, 1, 1};
  const std::int64_t *Atoms = nullptr; // Indexed by atom id.
};

/// Translates expressions of one function into symbolic form.
class SymbolicTranslator {
public:
  SymbolicTranslator(ASTContext &Context, const FunctionDecl *Function,
                     const FunctionDependence *Dependence);

  SymId translate(const Expr *E);
  /// The value of \p Id at \p Env; none when it involves Unknown, an atom
  /// the environment does not give, or a division by zero.
  std::optional<std::int64_t> evaluate(SymId Id, const SymEnv &Env) const {
    return evaluateIn(Id, Env, /*Within32=*/false);
  }
  /// The same, but none also when any subterm's value leaves the 32-bit
  /// signed range (or a left shift counts past 31). Where this has a value,
  /// ExactQuery's 32-bit encoding of \p Id has the same value at that point
  /// (its operators are signed like these, and no operand wraps).
  std::optional<std::int64_t> evaluate32(SymId Id, const SymEnv &Env) const {
    return evaluateIn(Id, Env, /*Within32=*/true);
  }
  /// The values a loop counter takes in a block of shape \p Env.Dim, in
  /// order; empty when they cannot be listed. Bounds may use the values of
  /// other atoms in \p Env only when \p UseAtoms is set.
  std::vector<std::int64_t> loopValues(unsigned Atom, const SymEnv &Env,
                                       bool UseAtoms = false) const;
  bool usesThread(SymId Id) const;
  bool isUnknown(SymId Id) const;
  void collectAtoms(SymId Id, llvm::SmallVectorImpl<unsigned> &Atoms) const;
  /// The highest threadIdx dimension (0, 1, 2) written explicitly in any
  /// expression translated so far.
  unsigned highestThreadDimension() const { return HighestDim; }

  /// Lets expressions of \p Callee be translated too (its locals and loop
  /// counters), with its parameters standing for \p Arguments (translated
  /// in the caller; -1 for a parameter with no symbolic value).
  void enterCallee(const FunctionDecl *Callee, llvm::ArrayRef<SymId> Arguments);
  void leaveCallee();

  /// For a helper analysed as a piece of its kernel: the function's
  /// parameter \p Param stands for \p Value (the call's argument, translated
  /// here) wherever it is used. Ignored when the body assigns \p Param.
  void substituteParameter(const ParmVarDecl *Param, SymId Value);

  /// The value of parameter \p Param of the function, as a use of it
  /// translates.
  SymId parameter(const ParmVarDecl *Param) {
    return translateVar(Param, nullptr);
  }
  SymId constant(std::int64_t V);
  SymId binary(SymNode::Kind K, SymId A, SymId B);
  SymId linearThreadId();

  const std::vector<SymAtom> &atoms() const { return Atoms; }
  /// The atom of variable \p VD, if a translation has made one.
  std::optional<unsigned> atomOf(const VarDecl *VD) const {
    auto It = AtomIds.find(static_cast<const void *>(VD));
    if (It == AtomIds.end())
      return std::nullopt;
    return It->second;
  }
  const SymNode &node(SymId Id) const { return Nodes[Id]; }

  /// Counts assignments to each local variable of the function (other than
  /// its initialisation); a variable assigned nowhere is replaced by its
  /// initialiser when translated.
  unsigned assignmentsTo(const VarDecl *VD) const {
    return Assignments.lookup(VD);
  }

private:
  std::optional<std::int64_t> evaluateIn(SymId Id, const SymEnv &Env,
                                         bool Within32) const;
  std::optional<std::int64_t> evaluateNode(SymId Id, const SymEnv &Env,
                                           bool Within32) const;
  SymId add(SymNode N);
  SymId translateVar(const VarDecl *VD, const Expr *Use);
  SymId atomFor(const VarDecl *VD, std::string Name);
  /// The rank a cooperative group's member query returns, in threads'
  /// terms: `block.thread_rank()`, a static tile's `thread_rank()` and, for
  /// tiles of 32, `meta_group_rank()`; -1 for any other event.
  SymId groupRank(const SyncEvent &Query);
  /// The value of a call of a function that only declares locals and
  /// returns one expression, translated in place; -1 for any other call.
  SymId inlineExpressionCall(const CallExpr *CE);
  SymId restoreAfterInline(
      llvm::ArrayRef<std::pair<const VarDecl *, std::optional<SymId>>> Saved,
      const FunctionDecl *Definition, SymId Value);
  void findLoopCounters(const Stmt *S);
  std::vector<std::int64_t> listValues(const SymAtom &Atom,
                                       const SymEnv &Plain) const;
  void addLoopCounter(const ForStmt *For);
  void addWhileCounter(const WhileStmt *While,
                       llvm::ArrayRef<const Stmt *> Before);
  void registerCounter(const Stmt *Loop, const VarDecl *Counter,
                       const Expr *Init, SymNode::Kind Compare,
                       const Expr *Bound, SymNode::Kind StepOp,
                       const Expr *Step);
  void countAssignments(const Stmt *S);

  ASTContext &Context;
  const FunctionDecl *Function;
  const FunctionDependence *Dependence;
  std::vector<SymNode> Nodes;
  std::vector<SymAtom> Atoms;
  llvm::DenseMap<const VarDecl *, unsigned> Assignments;
  llvm::DenseMap<const VarDecl *, const Stmt *> LoopCounters;
  llvm::SmallPtrSet<const VarDecl *, 4> ThreadCounters;
  llvm::DenseMap<const VarDecl *, SymId> VarCache;
  llvm::DenseMap<const void *, unsigned> AtomIds;
  llvm::DenseMap<const VarDecl *, SymId> Substitutions;
  llvm::DenseMap<const VarDecl *, SymId> EntrySubstitutions;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Scanned;
  /// Locals whose one definition is an `asm` read of `%laneid`.
  llvm::SmallPtrSet<const VarDecl *, 4> LaneIds;
  unsigned Depth = 0;
  unsigned HighestDim = 0;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_SYMBOLICINDEX_H
