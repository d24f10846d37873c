//===--- AnalysisTest.cpp - Parsing CUDA code for analysis tests ----------===//

#include "AnalysisTest.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include <string>
#include <vector>

namespace clang::cuda_tidy::test {

using namespace ast_matchers;

ParsedCuda::ParsedCuda(llvm::StringRef Code, Pass P) {
  std::string Inputs = CUDA_TIDY_TEST_INPUTS;
  std::vector<std::string> Args = {
      "-xcuda",
      P == Pass::Device ? "--cuda-device-only" : "--cuda-host-only",
      "-nocudainc",
      "-nocudalib",
      "--cuda-path=" + Inputs + "/CUDA/usr/local/cuda",
      "-isystem",
      Inputs + "/include",
      "-std=c++17",
      "-Wno-unused-value"};
  std::string Source = "#include <cuda_runtime.h>\n"
                       "#include <cooperative_groups.h>\n" +
                       Code.str();
  Unit = tooling::buildASTFromCodeWithArgs(Source, Args, "input.cu");
}

const FunctionDecl *ParsedCuda::function(llvm::StringRef Name) {
  auto Found =
      match(functionDecl(hasName(Name), isDefinition()).bind("f"), context());
  for (const BoundNodes &Node : Found)
    if (const auto *F = Node.getNodeAs<FunctionDecl>("f");
        F && !F->isDependentContext())
      return F;
  return nullptr;
}

const CallExpr *ParsedCuda::call(const FunctionDecl *F,
                                 llvm::StringRef Callee) {
  if (!F || !F->getBody())
    return nullptr;
  auto Found =
      match(stmt(forEachDescendant(
                callExpr(callee(functionDecl(hasName(Callee)))).bind("c"))),
            *F->getBody(), context());
  return Found.empty() ? nullptr : Found.front().getNodeAs<CallExpr>("c");
}

KernelAccesses::KernelAccesses(ParsedCuda &P, llvm::StringRef Kernel)
    : Context(P.context()), Dependence(P.context(), DependenceOptions()) {
  const FunctionDecl *F = P.function(Kernel);
  const FunctionDependence *Deps = F ? Dependence.analyze(F) : nullptr;
  if (!Deps)
    return;
  Collector = std::make_unique<SharedAccessCollector>(Dependence, *Deps);
  Collector->collect();
}

unsigned KernelAccesses::find(llvm::StringRef Text, unsigned N) const {
  const std::vector<SharedAccess> &Accesses = Collector->accesses();
  for (unsigned I = 0; I < Accesses.size(); ++I) {
    llvm::StringRef Spelling = Lexer::getSourceText(
        CharSourceRange::getTokenRange(Accesses[I].E->getSourceRange()),
        Context.getSourceManager(), Context.getLangOpts());
    if (Spelling == Text && N-- == 0)
      return I;
  }
  return Accesses.size();
}

} // namespace clang::cuda_tidy::test
