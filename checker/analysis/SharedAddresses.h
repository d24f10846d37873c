//===--- SharedAddresses.h - What a 32-bit shared address points at -*- C++
//-*-===//
//
// Inline PTX names shared memory by 32-bit addresses made with
// `__cvta_generic_to_shared`, often in a helper (a wrapper of one `cp.async`
// instruction, ggml's `ggml_cuda_cvta_generic_to_shared`) and offset after
// the conversion (`tile32 + off`). This finds the pointer such an address
// was made from, in the caller's terms, so that the asynchronous copy is
// recorded as a write of that pointer's bytes.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_SHAREDADDRESSES_H
#define CUDA_TIDY_ANALYSIS_SHAREDADDRESSES_H

#include "analysis/SymbolicIndex.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"

namespace clang::cuda_tidy {

/// \p Pointer as written, before its conversion to `void *` (after an
/// array's decay).
const Expr *beforeVoidCast(const Expr *Pointer);

/// The pointer a 32-bit shared address was made from, and a byte offset
/// added to it after the conversion (`tile32 + off`), null if none.
struct SharedAddress {
  const Expr *Pointer = nullptr;
  const Expr *ByteOffset = nullptr;
};

class SharedAddressResolver {
public:
  SharedAddressResolver(ASTContext &Context, SymbolicTranslator &Sym)
      : Context(Context), Sym(Sym) {}

  /// The pointer a 32-bit shared address was made from
  /// (`__cvta_generic_to_shared(&tile[t])`, directly, through a local
  /// initialised with it, or through a helper returning the conversion of
  /// its parameter); null when it was not.
  const Expr *pointerOf(const Expr *Address, unsigned Depth = 0);
  /// pointerOf(), and a byte offset added after the conversion.
  SharedAddress addressOf(const Expr *Address);
  /// The caller's expression that \p E, an operand inside the wrapper
  /// \p Definition called by \p Call, stands for: an argument, through the
  /// wrapper's parameters and the locals it initialises from them (when
  /// nothing in the wrapper changes them; Clang's ExprMutationAnalyzer
  /// decides); with \p AddressOf set when \p E is the 32-bit shared address
  /// of that (pointer) expression. Null when \p E depends on anything else.
  const Expr *callerOperand(const Expr *E, const CallExpr *Call,
                            const FunctionDecl *Definition, bool &AddressOf,
                            unsigned Depth = 0);

private:
  ASTContext &Context;
  SymbolicTranslator &Sym;
};

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_SHAREDADDRESSES_H
