//===--- SyntaxFacts.h - What a statement's syntax alone says ---*- C++ -*-===//
//
// The stages of the dependence analysis (ThreadDependence.h) read a few
// facts off the syntax before any dataflow: the variable an expression
// names, the variables a statement reads or may write, an expression's
// constant value. They live here so that every stage asks them alike.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_DEPENDENCE_SYNTAXFACTS_H
#define CUDA_TIDY_ANALYSIS_DEPENDENCE_SYNTAXFACTS_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/SmallPtrSet.h"
#include <optional>

namespace clang::cuda_tidy {

/// The variable \p E names, through parentheses and implicit casts.
const VarDecl *namedVariable(const Expr *E);

/// The integer value of \p E when it is a constant expression.
std::optional<llvm::APSInt> constantValue(const Expr *E,
                                          const ASTContext &Context);

bool isSharedVariable(const VarDecl *VD);

/// Whether \p S (the body, condition or increment of a loop) writes one of
/// \p Watched or lets it escape: any use of one that is not a plain read of
/// its value counts.
bool writesAny(const Stmt *S,
               const llvm::SmallPtrSetImpl<const VarDecl *> &Watched);

/// Collects the variables \p E reads.
void collectVariables(const Stmt *E,
                      llvm::SmallPtrSetImpl<const VarDecl *> &Vars);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_DEPENDENCE_SYNTAXFACTS_H
