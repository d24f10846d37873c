//===--- AnalysisTest.h - Parsing CUDA code for analysis tests --*- C++ -*-===//
//
// The analysis unit tests parse a CUDA snippet the way the lit tests do (the
// stub CUDA install of test/Inputs, one pass at a time) and hand the AST to
// an analysis directly, without clang-tidy: each stage is tested through its
// own interface.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_TEST_UNIT_ANALYSIS_ANALYSISTEST_H
#define CUDA_TIDY_TEST_UNIT_ANALYSIS_ANALYSISTEST_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Frontend/ASTUnit.h"
#include "llvm/ADT/StringRef.h"
#include <memory>

namespace clang::cuda_tidy::test {

/// Which compilation pass to parse a snippet in.
enum class Pass { Device, Host };

/// A parsed snippet: `#include <cuda_runtime.h>` and
/// `<cooperative_groups.h>` come first, from the stub install.
class ParsedCuda {
public:
  explicit ParsedCuda(llvm::StringRef Code, Pass P = Pass::Device);
  bool ok() const { return Unit && !Unit->getDiagnostics().hasErrorOccurred(); }
  ASTContext &context() { return Unit->getASTContext(); }
  /// The definition of the function named \p Name (the first instance of a
  /// template), or null.
  const FunctionDecl *function(llvm::StringRef Name);
  /// The first call in \p F to a function named \p Callee, or null.
  const CallExpr *call(const FunctionDecl *F, llvm::StringRef Callee);

private:
  std::unique_ptr<ASTUnit> Unit;
};

} // namespace clang::cuda_tidy::test

#endif // CUDA_TIDY_TEST_UNIT_ANALYSIS_ANALYSISTEST_H
