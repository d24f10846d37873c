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

#include "analysis/SharedAccesses.h"
#include "analysis/dependence/ThreadDependence.h"
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

/// The shared-memory accesses of one kernel of a parsed snippet, collected
/// as SharedMemoryRaceAnalysis collects them: the input of the race
/// analysis's stages.
class KernelAccesses {
public:
  KernelAccesses(ParsedCuda &P, llvm::StringRef Kernel);
  /// Whether the kernel was found and its dependence analysed.
  bool ok() const { return Collector != nullptr; }
  SharedAccessCollector &collector() { return *Collector; }
  const SharedAccess &operator[](unsigned I) const {
    return Collector->accesses()[I];
  }
  /// The index of the \p N th access, in collection order, whose expression
  /// (the lvalue; the pointer for an atomic) is spelled \p Text; the number
  /// of accesses when there is none.
  unsigned find(llvm::StringRef Text, unsigned N = 0) const;

private:
  ASTContext &Context;
  ThreadDependenceAnalysis Dependence;
  std::unique_ptr<SharedAccessCollector> Collector;
};

} // namespace clang::cuda_tidy::test

#endif // CUDA_TIDY_TEST_UNIT_ANALYSIS_ANALYSISTEST_H
