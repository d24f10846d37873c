//===--- HostFacts.h - What host code establishes before a launch -*- C++
//-*-===//
//
// Facts the host code of the translation unit establishes about a kernel's
// integer parameters at every one of its launches: that the argument is a
// multiple of a constant, because the launching function checks it before
// the launch and leaves when it does not hold (ggml's `GGML_ASSERT(ne0 %
// QK8_1 == 0)`, `assert(n % 32 == 0)`, `if (n % 32) return;`, or
// `__builtin_assume`), or because the argument is a constant. A fact holds
// only when every launch of the kernel the model resolved gives it, each
// launch passes its arguments one by one, and the variable passed is not
// written anywhere in the launching function.
//
// The checks read these as assumptions about the kernel's unknowns
// (issue 22: assumptions as facts): the warp-mask rule of
// cuda-divergent-barrier asks whether `if (i < n)` splits a warp only for
// values of `n` the launches can pass.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_HOSTFACTS_H
#define CUDA_TIDY_MODEL_HOSTFACTS_H

#include "model/LaunchModel.h"
#include <cstdint>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

/// Parameter Param of the kernel is a multiple of Multiple at every launch.
struct ParameterMultiple {
  const ParmVarDecl *Param = nullptr;
  std::int64_t Multiple = 0;
};

/// The multiples the launches of \p Kernel establish for its integer
/// parameters (see the file comment); none when it has no launch.
std::vector<ParameterMultiple> launchedMultiples(LaunchModel &Launches,
                                                 const FunctionDecl *Kernel,
                                                 ASTContext &Context);

/// The constant \p Condition, known to have value \p Holds, shows \p Var to
/// be a multiple of (`Var % 32 == 0`, `!(Var % 32)`, `(Var & 31) == 0`, the
/// conjuncts of `&&` or, when false, the disjuncts of `||`); 0 when none.
std::int64_t multipleShownBy(const Expr *Condition, bool Holds,
                             const VarDecl *Var, const ASTContext &Context);

/// The condition statement \p S states as a precondition, when it is one:
/// `assert(c)` (`c ? (void)0 : __assert_fail(...)`, `(c) || fail()`),
/// `__builtin_assume(c)`, `[[assume(c)]]`, or `if (c) { ...; __trap(); }`
/// (an `if` without `else` whose branch certainly leaves: a return, a
/// throw, a call that does not return), which states `!c`; null otherwise.
/// \p Holds is set to the truth value the condition has after \p S. A
/// program that breaks it stops (or has undefined behaviour), so the
/// checks may take it as a fact about the values it reads.
const Expr *statedCondition(const Stmt *S, bool &Holds);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_HOSTFACTS_H
