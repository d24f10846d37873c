//===--- KernelLaunches.cpp - Kernels and their launch shapes -------------===//

#include "KernelLaunches.h"

using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

void KernelLaunches::addLaunch(const CUDAKernelCallExpr *Launch,
                               ASTContext &Context) {
  const FunctionDecl *Kernel = Launch->getDirectCallee();
  if (!Kernel)
    return;
  if (const FunctionDecl *Definition = Kernel->getDefinition())
    Kernel = Definition;
  std::optional<BlockShape> Shape =
      Launch->getConfig()->getNumArgs() > 1
          ? evaluateBlockShape(Launch->getConfig()->getArg(1), Context)
          : std::nullopt;
  if (!Shape) {
    Unknown.insert(Kernel);
    return;
  }
  auto &Known = Shapes[Kernel];
  for (const BlockShape &Other : Known)
    if (Other.Dim == Shape->Dim)
      return;
  if (Known.size() < 4)
    Known.push_back(*Shape);
}

llvm::ArrayRef<BlockShape>
KernelLaunches::shapesOf(const FunctionDecl *Kernel) const {
  if (Unknown.count(Kernel))
    return {};
  auto It = Shapes.find(Kernel);
  if (It == Shapes.end())
    return {};
  return It->second;
}

std::optional<BlockShape> parseBlockShape(llvm::StringRef Text) {
  BlockShape Shape;
  Shape.Assumed = true;
  llvm::SmallVector<llvm::StringRef, 3> Parts;
  Text.split(Parts, ',');
  if (Parts.empty() || Parts.size() > 3)
    return std::nullopt;
  for (unsigned I = 0; I < Parts.size(); ++I)
    if (Parts[I].trim().getAsInteger(10, Shape.Dim[I]) || Shape.Dim[I] <= 0)
      return std::nullopt;
  if (Shape.threads() > 1024)
    return std::nullopt;
  return Shape;
}

std::optional<std::vector<BlockShape>> parseBlockShapes(llvm::StringRef Text) {
  std::vector<BlockShape> Shapes;
  llvm::SmallVector<llvm::StringRef, 4> Parts;
  Text.split(Parts, ';', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef Part : Parts) {
    auto Shape = parseBlockShape(Part);
    if (!Shape)
      return std::nullopt;
    Shapes.push_back(*Shape);
  }
  if (Shapes.empty())
    return std::nullopt;
  return Shapes;
}

} // namespace clang::tidy::cuda_tidy
