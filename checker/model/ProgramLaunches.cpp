//===--- ProgramLaunches.cpp - Launches seen across a program -------------===//

#include "model/ProgramLaunches.h"
#include "clang/Index/USRGeneration.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <memory>
#include <mutex>

namespace clang::cuda_tidy {

std::string IndexedLaunch::where() const {
  return (llvm::sys::path::filename(File) + ":" + llvm::Twine(Line)).str();
}

llvm::StringRef mainFileName(const SourceManager &SM) {
  OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID());
  return Main ? SM.getFileManager().getCanonicalName(*Main) : "";
}

std::string kernelKey(const FunctionDecl *Kernel) {
  llvm::SmallString<128> USR;
  if (index::generateUSRForDecl(Kernel, USR))
    return "";
  return std::string(USR);
}

namespace {

llvm::json::Value toJSON(const IndexedLaunch &L) {
  llvm::json::Object O{{"kernel", L.Kernel},
                       {"name", L.Name},
                       {"file", L.File},
                       {"line", L.Line}};
  if (L.Block)
    O["block"] =
        llvm::json::Array{L.Block->Dim[0], L.Block->Dim[1], L.Block->Dim[2]};
  if (L.Bytes)
    O["bytes"] = *L.Bytes;
  return O;
}

std::optional<IndexedLaunch> fromJSON(const llvm::json::Value &V) {
  const llvm::json::Object *O = V.getAsObject();
  if (!O)
    return std::nullopt;
  IndexedLaunch L;
  auto Kernel = O->getString("kernel");
  auto File = O->getString("file");
  auto Line = O->getInteger("line");
  if (!Kernel || !File || !Line)
    return std::nullopt;
  L.Kernel = Kernel->str();
  L.Name = O->getString("name").value_or("").str();
  L.File = File->str();
  L.Line = *Line;
  if (const llvm::json::Array *Block = O->getArray("block")) {
    if (Block->size() != 3)
      return std::nullopt;
    BlockShape Shape;
    for (unsigned I = 0; I < 3; ++I) {
      auto Dim = (*Block)[I].getAsInteger();
      if (!Dim || *Dim < 1)
        return std::nullopt;
      Shape.Dim[I] = *Dim;
    }
    L.Block = Shape;
  }
  if (auto Bytes = O->getInteger("bytes"))
    L.Bytes = *Bytes;
  return L;
}

} // namespace

const ProgramLaunches *ProgramLaunches::load(llvm::StringRef Dir) {
  // clang-tidy analyses its files one after another in one process; the
  // index is read for the first and kept.
  static std::mutex Lock;
  static llvm::StringMap<std::unique_ptr<ProgramLaunches>> Loaded;
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, Inserted] = Loaded.try_emplace(Dir);
  if (!Inserted)
    return It->second.get();
  std::error_code EC;
  auto Index = std::make_unique<ProgramLaunches>();
  bool Any = false;
  for (llvm::sys::fs::directory_iterator File(Dir, EC), End; File != End && !EC;
       File.increment(EC)) {
    if (llvm::sys::path::extension(File->path()) != ".json")
      continue;
    auto Buffer = llvm::MemoryBuffer::getFile(File->path());
    if (!Buffer)
      continue;
    auto Parsed = llvm::json::parse((*Buffer)->getBuffer());
    if (!Parsed) {
      llvm::consumeError(Parsed.takeError());
      continue;
    }
    const llvm::json::Object *Root = Parsed->getAsObject();
    const llvm::json::Array *Launches =
        Root ? Root->getArray("launches") : nullptr;
    if (!Launches)
      continue;
    Any = true;
    for (const llvm::json::Value &V : *Launches) {
      auto L = fromJSON(V);
      if (!L)
        continue;
      auto &Known = Index->ByKernel[L->Kernel];
      bool Seen = llvm::any_of(Known, [&](const IndexedLaunch &Other) {
        return Other.File == L->File && Other.Line == L->Line;
      });
      if (!Seen)
        Known.push_back(std::move(*L));
    }
  }
  if (Any)
    It->second = std::move(Index);
  return It->second.get();
}

bool ProgramLaunches::write(llvm::StringRef Dir, llvm::StringRef MainFile,
                            llvm::ArrayRef<IndexedLaunch> Launches) {
  llvm::SmallString<256> Model(Dir);
  llvm::sys::path::append(Model, llvm::sys::path::filename(MainFile) +
                                     "-%%%%%%%%.json");
  int FD;
  llvm::SmallString<256> Path;
  if (llvm::sys::fs::createUniqueFile(Model, FD, Path))
    return false;
  llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
  llvm::json::Array Array;
  for (const IndexedLaunch &L : Launches)
    Array.push_back(toJSON(L));
  Out << llvm::formatv(
      "{0:2}", llvm::json::Value(llvm::json::Object{
                   {"unit", MainFile}, {"launches", std::move(Array)}}));
  return !Out.has_error();
}

std::vector<const IndexedLaunch *>
ProgramLaunches::launchesOf(llvm::StringRef Key,
                            llvm::StringRef MainFile) const {
  std::vector<const IndexedLaunch *> Result;
  auto It = ByKernel.find(Key);
  if (It == ByKernel.end())
    return Result;
  for (const IndexedLaunch &L : It->second)
    if (L.File != MainFile)
      Result.push_back(&L);
  return Result;
}

} // namespace clang::cuda_tidy
