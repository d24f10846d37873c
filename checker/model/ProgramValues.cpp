//===--- ProgramValues.cpp - What one run of the program launches ---------===//

#include "model/ProgramValues.h"
#include "model/HostValues.h"
#include "model/LaunchSites.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace clang::cuda_tidy {
namespace {

using Bindings = llvm::DenseMap<const ParmVarDecl *, std::int64_t>;

/// The first call of \p F among the bodies of \p Functions, and the
/// function it is in; null when none calls it.
std::pair<const CallExpr *, const FunctionDecl *>
firstCallOf(const FunctionDecl *F,
            llvm::ArrayRef<const FunctionDecl *> Functions) {
  for (const FunctionDecl *In : Functions) {
    const CallExpr *Found = nullptr;
    forEachCall(In, [&](const CallExpr *Call) {
      if (!Found && !isa<CUDAKernelCallExpr>(Call) &&
          definitionOf(Call->getDirectCallee()) == F)
        Found = Call;
    });
    if (Found)
      return {Found, definitionOf(In)};
  }
  return {nullptr, nullptr};
}

/// The parameter \p Block names as a launch's block: `b`, `dim3(b)`.
const ParmVarDecl *blockParameter(const Expr *Block) {
  if (!Block)
    return nullptr;
  Block = Block->IgnoreParenImpCasts();
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(Block)) {
    if (Construct->getNumArgs() == 0)
      return nullptr;
    for (unsigned I = 1; I < Construct->getNumArgs(); ++I)
      if (!isa<CXXDefaultArgExpr>(Construct->getArg(I)))
        return nullptr;
    Block = Construct->getArg(0)->IgnoreParenImpCasts();
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Block);
  const auto *Param = Ref ? dyn_cast<ParmVarDecl>(Ref->getDecl()) : nullptr;
  return Param && Param->getType()->isIntegralOrEnumerationType() ? Param
                                                                  : nullptr;
}

} // namespace

ProgramValues programValues(const LaunchModel &Model,
                            const KernelLaunch &Launch,
                            const std::array<std::int64_t, 3> &Block,
                            ASTContext &Context) {
  ProgramValues Out;
  const FunctionDecl *Caller = definitionOf(Launch.Caller);
  const FunctionDecl *Kernel = definitionOf(Launch.Kernel);
  if (!Launch.Call || !Caller || !Kernel || !Launch.ArgsKnown ||
      Launch.Route == LaunchRoute::Helper)
    return Out;
  // The chain of first calls, innermost first.
  llvm::SmallVector<std::pair<const CallExpr *, const FunctionDecl *>, 4> Chain;
  llvm::SmallPtrSet<const FunctionDecl *, 4> Seen = {Caller};
  for (const FunctionDecl *F = Caller; Chain.size() < 4;) {
    auto [Call, In] = firstCallOf(F, Model.functions());
    if (!Call || !In || !Seen.insert(In).second)
      break;
    Chain.push_back({Call, In});
    F = In;
  }
  Bindings Bound;
  for (auto It = Chain.rbegin(); It != Chain.rend(); ++It) {
    auto [Call, In] = *It;
    Out.Callers.push_back(In);
    HostValues Values(In, Context, std::move(Bound));
    Bound = Bindings();
    const FunctionDecl *Callee = definitionOf(Call->getDirectCallee());
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams();
         ++I)
      if (Callee->getParamDecl(I)->getType()->isIntegralOrEnumerationType())
        if (std::optional<std::int64_t> V =
                Values.evaluate(Call->getArg(I), Call))
          Bound[Callee->getParamDecl(I)] = *V;
  }
  Out.Callers.push_back(Caller);
  // A one-dimensional block passed through a parameter: the witness's.
  if (const ParmVarDecl *P = blockParameter(Launch.Block))
    if (Block[1] == 1 && Block[2] == 1)
      Bound[P] = Block[0];
  HostValues Values(Caller, Context, std::move(Bound));
  for (unsigned I = 0; I < Launch.Args.size() && I < Kernel->getNumParams();
       ++I) {
    const ParmVarDecl *Param = Kernel->getParamDecl(I);
    if (Param->getType()->isIntegralOrEnumerationType())
      if (std::optional<std::int64_t> V =
              Values.evaluate(Launch.Args[I], Launch.Call))
        Out.Arguments.push_back({Param, *V});
  }
  Out.Bytes = Launch.Bytes ? Values.evaluate(Launch.Bytes, Launch.Call)
                           : std::optional<std::int64_t>(0);
  return Out;
}

} // namespace clang::cuda_tidy
