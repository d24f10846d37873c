//===--- DependenceFixpoint.h - The dataflow over one body ------*- C++ -*-===//
//
// The fixpoint of the dependence analysis (ThreadDependence.h): the forward
// dataflow over the CFG of one body, from LocalState to LocalState, iterated
// together with the control-dependence taint until the branch conditions no
// longer change. It transfers statements (assignments, declarations, calls'
// effects through pointers, references and the object, constructors'
// initialisers, inline asm), asks ExpressionDependence what expressions
// depend on, ControlFacts which branches decide whether a block runs, and
// the uniformity proofs where a condition's plain dependence says too much;
// and it writes the answers into the FunctionDependence: the conditions'
// dependence sets and witnesses, the variables', the calls' arguments', the
// summary and the barrier sites.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_DEPENDENCEFIXPOINT_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_DEPENDENCEFIXPOINT_H

#include "analysis/dependence/ExpressionDependence.h"
#include "analysis/dependence/LocalState.h"
#include "analysis/dependence/ThreadDependence.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/Analysis/AnalysisDeclContext.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"

namespace clang::cuda_tidy {

/// Builds a FunctionDependence: the forward dataflow over the CFG, iterated
/// with the control-dependence taint to a fixpoint. \p R comes with its
/// function, CFG and ControlFacts; run() fills in the rest.
class DependenceFixpoint {
public:
  DependenceFixpoint(ThreadDependenceAnalysis &Analysis, FunctionDependence &R,
                     AnalysisDeclContext &AC)
      : Analysis(Analysis), R(R), AC(AC), Values(Analysis, R, AC, Paths) {}

  void run();

private:
  // Transfer.
  void transferBlock(const CFGBlock *B, LocalState &S);
  void transfer(const Stmt *St, LocalState &S, DepSet Control);
  void assign(const Expr *LHS, DepSet Value, bool Strong, LocalState &S,
              const Expr *Source);
  void applyWrite(const LValueRoot &Root, DepSet Value, bool Strong,
                  LocalState &S, const Expr *Source);
  void callEffects(const CallExpr *CE, LocalState &S, DepSet Control);
  void addMemberWrite(const FieldDecl *Field, DepSet Value);
  /// A local declared with a constructor that has a summary: its members
  /// get what the constructor writes into each. False if \p Init is no such
  /// construction.
  bool construct(const VarDecl *VD, const Expr *Init, LocalState &S);
  /// A constructor's initialiser: a member's writes that member; a base
  /// class's, what the base's constructor writes into each of its members
  /// (every member of the base if it has no summary); a delegating one, what
  /// the target constructor writes.
  void initialize(const CXXCtorInitializer *Init, LocalState &S);
  /// The members of \p Record and of its bases.
  void allFields(const CXXRecordDecl *Record,
                 llvm::SmallVectorImpl<const FieldDecl *> &Fields) const;
  void setVar(const VarDecl *VD, DepSet Value, bool Strong, LocalState &S,
              const Expr *Source, unsigned Path = 0);

  /// \p Deps, the dependence of the condition of \p B, made exact for a
  /// `for` loop whose trip count is uniform by arithmetic (see
  /// uniformTripCountTerms).
  DepSet uniformLoopConditionDeps(const CFGBlock *B, DepSet Deps,
                                  const LocalState &S);
  void findBarrierSites();
  DepSet controlTaint(const CFGBlock *B, bool Escaping);

  ThreadDependenceAnalysis &Analysis;
  FunctionDependence &R;
  AnalysisDeclContext &AC;
  /// The parts of locals that the states name.
  MemberPaths Paths;
  ExpressionDependence Values;
  /// The thread dependence of the branches that decide whether a block
  /// runs. For values that stay in the function's locals, branches whose
  /// other side only leaves the function are left out: the threads that
  /// leave never see those values. Values that escape (returned, stored
  /// through parameters) keep every branch.
  llvm::DenseMap<const CFGBlock *, DepSet> ControlTaint, EscapingTaint;
  /// Taint applied to the statements being transferred.
  DepSet CurrentControl = 0;
  DepSet CurrentEscaping = 0;
  const CFGBlock *CurrentBlock = nullptr;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_DEPENDENCEFIXPOINT_H
