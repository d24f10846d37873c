//===--- WitnessRecord.cpp - cuda-tidy ------------------------------------===//

#include "WitnessRecord.h"
#include "model/ProgramValues.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include <cstdlib>
#include <map>
#include <mutex>

using namespace clang::cuda_tidy;

namespace clang::tidy::cuda_tidy {

namespace {

const char *witnessFile() {
  static const char *File = std::getenv("CUDA_TIDY_WITNESS_FILE");
  return File && *File ? File : nullptr;
}

/// What a function's body refers to: the functions it calls and whether it
/// names a dynamic shared pool (an `extern __shared__` array).
struct BodyFacts : RecursiveASTVisitor<BodyFacts> {
  llvm::SmallVector<const FunctionDecl *, 4> Callees;
  bool UsesPool = false;
  bool VisitCallExpr(CallExpr *Call) {
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (const FunctionDecl *Definition = Callee->getDefinition())
        Callees.push_back(Definition);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    if (const auto *Var = dyn_cast<VarDecl>(Ref->getDecl()))
      UsesPool |= Var->hasAttr<CUDASharedAttr>() &&
                  Var->getType()->isIncompleteArrayType();
    return true;
  }
};

BodyFacts factsOf(const FunctionDecl *F) {
  BodyFacts Facts;
  if (F->hasBody())
    Facts.TraverseStmt(F->getBody());
  return Facts;
}

std::optional<std::int64_t> constantOf(const Expr *E, const ASTContext &C) {
  Expr::EvalResult Result;
  if (E && !E->isValueDependent() && E->EvaluateAsInt(Result, C))
    return Result.Val.getInt().getExtValue();
  return std::nullopt;
}

PrintingPolicy spellingPolicy(const ASTContext &Context) {
  PrintingPolicy Policy(Context.getLangOpts());
  // A reproducer includes the translation unit: an anonymous namespace's
  // names are reachable unqualified.
  Policy.SuppressUnwrittenScope = true;
  Policy.PrintAsCanonical = true;
  return Policy;
}

bool hasPointerMembers(const RecordDecl *Record) {
  for (const FieldDecl *Field : Record->fields())
    if (Field->getType()->isPointerType())
      return true;
  return false;
}

/// What a reproducer fills a buffer of \p Pointee with: "float", "double",
/// "half" or "bfloat16" (scalars, or records of them only: `float4`,
/// `__half2`), else "integer" (small integers, safe as indices).
llvm::StringRef fillKind(QualType Pointee) {
  Pointee = Pointee.getCanonicalType();
  if (const auto *Builtin = Pointee->getAs<BuiltinType>()) {
    switch (Builtin->getKind()) {
    case BuiltinType::Float:
      return "float";
    case BuiltinType::Double:
      return "double";
    case BuiltinType::Half:
    case BuiltinType::Float16:
      return "half";
    case BuiltinType::BFloat16:
      return "bfloat16";
    default:
      return "integer";
    }
  }
  const RecordDecl *Record = Pointee->getAsRecordDecl();
  if (!Record || !Record->getDefinition())
    return "integer";
  llvm::StringRef Name = Record->getName();
  if (Name.starts_with("__half"))
    return "half";
  if (Name.starts_with("__nv_bfloat16"))
    return "bfloat16";
  std::optional<llvm::StringRef> Kind;
  for (const FieldDecl *Field : Record->getDefinition()->fields()) {
    llvm::StringRef Of = fillKind(Field->getType());
    if (Kind && *Kind != Of)
      return "integer";
    Kind = Of;
  }
  return Kind.value_or("integer");
}

llvm::json::Object describeParameter(const ParmVarDecl *Param,
                                     ASTContext &Context) {
  QualType Type = Param->getType().getCanonicalType();
  llvm::json::Object P{{"name", Param->getName()},
                       {"type", Type.getAsString(spellingPolicy(Context))}};
  if (const auto *Pointer = Type->getAs<PointerType>()) {
    P["kind"] = "pointer";
    QualType Pointee = Pointer->getPointeeType();
    if (!Pointee->isIncompleteType() && !Pointee->isVoidType()) {
      P["pointee_bytes"] = Context.getTypeSizeInChars(Pointee).getQuantity();
      P["fill"] = fillKind(Pointee);
    }
    const RecordDecl *Record = Pointee->getAsRecordDecl();
    P["holds_pointers"] = Pointee->isPointerType() ||
                          (Record && Record->getDefinition() &&
                           hasPointerMembers(Record->getDefinition()));
  } else if (Type->isIntegralOrEnumerationType()) {
    P["kind"] = Type->isBooleanType() ? "bool" : "integer";
  } else if (Type->isRealFloatingType()) {
    P["kind"] = "floating";
  } else if (const RecordDecl *Record = Type->getAsRecordDecl()) {
    P["kind"] = "struct";
    P["holds_pointers"] =
        Record->getDefinition() && hasPointerMembers(Record->getDefinition());
  } else {
    P["kind"] = "other";
  }
  return P;
}

std::string absolutePath(StringRef File) {
  llvm::SmallString<256> Path(File);
  llvm::sys::fs::make_absolute(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

} // namespace

bool witnessRecordsWanted() { return witnessFile() != nullptr; }

void addLaunchFacts(WitnessRecord &R, const LaunchModel &M, bool NeedsGrid) {
  if (!R.Kernel)
    return;
  ASTContext &Context = R.Kernel->getASTContext();
  const KernelLaunch *Chosen = nullptr;
  for (const KernelLaunch *L : M.launchesOf(R.Kernel)) {
    if (L->Shape && L->Shape->Dim == R.Block.Dim) {
      Chosen = L;
      break;
    }
    if (!Chosen)
      Chosen = L;
  }
  if (Chosen) {
    R.DynamicSharedBytes = Chosen->ConstantBytes;
    R.Cooperative |= Chosen->Kind == LaunchKind::CooperativeKernel;
    auto Known = [&](const ParmVarDecl *Param) {
      return llvm::any_of(R.Values,
                          [&](const auto &V) { return V.first == Param; });
    };
    if (Chosen->Shape)
      for (const auto &[Param, Value] : Chosen->Shape->Arguments)
        if (!Known(Param))
          R.Values.push_back({Param, Value});
    if (Chosen->ArgsKnown)
      for (unsigned I = 0;
           I < Chosen->Args.size() && I < R.Kernel->getNumParams(); ++I) {
        const ParmVarDecl *Param = R.Kernel->getParamDecl(I);
        if (!Known(Param) && Param->getType()->isIntegralOrEnumerationType())
          if (std::optional<std::int64_t> Value =
                  constantOf(Chosen->Args[I], Context))
            R.Values.push_back({Param, *Value});
      }
    // What one run of the program passes where the launch names no
    // constant: the values its callers give (ProgramValues.h).
    ProgramValues Run = programValues(M, *Chosen, R.Block.Dim, Context);
    for (const auto &[Param, Value] : Run.Arguments) {
      unsigned I = Param->getFunctionScopeIndex();
      if (I < R.Kernel->getNumParams() && !Known(R.Kernel->getParamDecl(I)))
        R.Values.push_back({R.Kernel->getParamDecl(I), Value});
    }
    if (!R.DynamicSharedBytes && Run.Bytes)
      R.DynamicSharedBytes = Run.Bytes;
    if (NeedsGrid && Chosen->Grid)
      if (std::optional<BlockShape> Grid =
              const_cast<LaunchModel &>(M).grid(*Chosen))
        R.Grid = Grid->Dim;
  }
  // A kernel that declares no pool gets none; one whose launch passes bytes
  // the model cannot compute may reach a pool through a helper
  // (cuda-samples' SharedMemory<T>), and gets the reproducer's default.
  if (!R.DynamicSharedBytes && !factsOf(R.Kernel).UsesPool &&
      !(Chosen && Chosen->Bytes && !Chosen->ConstantBytes))
    R.DynamicSharedBytes = 0;
  if (const auto *Cluster = R.Kernel->getAttr<CUDAClusterDimsAttr>()) {
    const Expr *Dims[] = {Cluster->getX(), Cluster->getY(), Cluster->getZ()};
    for (unsigned D = 0; D < 3; ++D)
      if (std::optional<std::int64_t> Value = constantOf(Dims[D], Context))
        R.Grid[D] = std::max(R.Grid[D], *Value);
  }
}

const FunctionDecl *
kernelReaching(const FunctionDecl *F,
               llvm::ArrayRef<const FunctionDecl *> Kernels) {
  if (!F || F->hasAttr<CUDAGlobalAttr>())
    return F;
  for (const FunctionDecl *Kernel : Kernels) {
    llvm::SmallVector<const FunctionDecl *, 8> Level = {Kernel};
    llvm::SmallPtrSet<const FunctionDecl *, 8> Seen = {Kernel};
    for (unsigned Depth = 0; Depth < 4 && !Level.empty(); ++Depth) {
      llvm::SmallVector<const FunctionDecl *, 8> Next;
      for (const FunctionDecl *Caller : Level)
        for (const FunctionDecl *Callee : factsOf(Caller).Callees) {
          if (Callee == F->getDefinition() || Callee == F)
            return Kernel;
          if (Seen.insert(Callee).second)
            Next.push_back(Callee);
        }
      Level = std::move(Next);
    }
  }
  return nullptr;
}

const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Context) {
  DynTypedNodeList Parents = Context.getParents(*S);
  while (!Parents.empty()) {
    const DynTypedNode &Parent = Parents[0];
    if (const auto *F = Parent.get<FunctionDecl>())
      return F;
    Parents = Context.getParents(Parent);
  }
  return nullptr;
}

std::optional<std::string> confirmationNote(StringRef Check,
                                            SourceLocation Where,
                                            const SourceManager &SM) {
  // Read once; the key is what confirmations.json names a finding by.
  static std::once_flag Once;
  static std::map<std::string, std::string> Notes;
  std::call_once(Once, [] {
    const char *File = std::getenv("CUDA_TIDY_CONFIRMATIONS");
    if (!File || !*File)
      return;
    auto Text = llvm::MemoryBuffer::getFile(File);
    if (!Text)
      return;
    llvm::Expected<llvm::json::Value> Parsed =
        llvm::json::parse((*Text)->getBuffer());
    if (!Parsed) {
      llvm::consumeError(Parsed.takeError());
      return;
    }
    const llvm::json::Object *Top = Parsed->getAsObject();
    const llvm::json::Array *All =
        Top ? Top->getArray("confirmations") : nullptr;
    for (const llvm::json::Value &V : All ? *All : llvm::json::Array()) {
      const llvm::json::Object *C = V.getAsObject();
      const llvm::json::Object *F = C ? C->getObject("finding") : nullptr;
      std::optional<StringRef> Said = C ? C->getString("text") : std::nullopt;
      if (!F || !Said)
        continue;
      Notes[llvm::formatv("{0}|{1}|{2}|{3}", F->getString("check").value_or(""),
                          F->getString("file").value_or(""),
                          F->getInteger("line").value_or(0),
                          F->getInteger("column").value_or(0))] = Said->str();
    }
  });
  if (Notes.empty())
    return std::nullopt;
  SourceLocation At = SM.getFileLoc(Where);
  llvm::SmallString<256> Real;
  StringRef Name = SM.getFilename(At);
  std::string Path = llvm::sys::fs::real_path(Name, Real) ? absolutePath(Name)
                                                          : std::string(Real);
  auto Found = Notes.find(llvm::formatv("{0}|{1}|{2}|{3}", Check, Path,
                                        SM.getSpellingLineNumber(At),
                                        SM.getSpellingColumnNumber(At)));
  if (Found == Notes.end())
    return std::nullopt;
  return Found->second;
}

void noteConfirmation(ClangTidyCheck &Check, StringRef Name,
                      SourceLocation Where, const SourceManager &SM) {
  if (std::optional<std::string> Note = confirmationNote(Name, Where, SM))
    Check.diag(Where, "%0", DiagnosticIDs::Note) << *Note;
}

void writeWitness(const WitnessRecord &R, ASTContext &Context) {
  const char *File = witnessFile();
  if (!File)
    return;
  const SourceManager &SM = Context.getSourceManager();
  SourceLocation Where = SM.getFileLoc(R.Where);
  llvm::json::Object Record{
      {"check", R.Check},
      {"file", absolutePath(SM.getFilename(Where))},
      {"line", SM.getSpellingLineNumber(Where)},
      {"column", SM.getSpellingColumnNumber(Where)},
  };
  // A warning in a header is reproduced through the unit that included it.
  if (OptionalFileEntryRef Main = SM.getFileEntryRefForID(SM.getMainFileID()))
    Record["translation_unit"] = absolutePath(Main->getName());
  if (R.Kernel) {
    std::string Spelling;
    llvm::raw_string_ostream OS(Spelling);
    R.Kernel->getNameForDiagnostic(OS, spellingPolicy(Context),
                                   /*Qualified=*/true);
    llvm::json::Array Parameters;
    for (const ParmVarDecl *Param : R.Kernel->parameters()) {
      llvm::json::Object P = describeParameter(Param, Context);
      for (const auto &[Known, Value] : R.Values)
        if (Known == Param)
          P["value"] = Value;
      for (const auto &[Known, Value] : R.Fills)
        if (Known == Param)
          P["fill_value"] = Value;
      Parameters.push_back(std::move(P));
    }
    Record["kernel"] =
        llvm::json::Object{{"name", R.Kernel->getName()},
                           {"spelling", Spelling},
                           {"template", R.Kernel->isTemplateInstantiation()},
                           {"parameters", std::move(Parameters)}};
  }
  Record["block"] =
      llvm::json::Array{R.Block.Dim[0], R.Block.Dim[1], R.Block.Dim[2]};
  Record["block_assumed"] = R.Block.Assumed;
  if (!R.Block.Origin.empty())
    Record["block_origin"] = R.Block.Origin;
  Record["grid"] = llvm::json::Array{R.Grid[0], R.Grid[1], R.Grid[2]};
  if (R.DynamicSharedBytes)
    Record["dynamic_shared_bytes"] = *R.DynamicSharedBytes;
  Record["cooperative"] = R.Cooperative;
  llvm::json::Array Lines;
  for (SourceLocation Place : R.Places)
    if (Place.isValid())
      Lines.push_back(SM.getSpellingLineNumber(SM.getFileLoc(Place)));
  Record["lines"] = std::move(Lines);
  if (!R.Threads.empty()) {
    llvm::json::Array Threads;
    for (const auto &T : R.Threads)
      Threads.push_back(llvm::json::Array{T[0], T[1], T[2]});
    Record["threads"] = std::move(Threads);
  }
  if (!R.Expect.empty())
    Record["expect"] = llvm::json::Object(R.Expect);
  if (!R.CannotReproduce.empty())
    Record["cannot_reproduce"] = R.CannotReproduce;
  std::error_code EC;
  llvm::raw_fd_ostream Out(File, EC, llvm::sys::fs::OF_Append);
  if (!EC)
    Out << llvm::formatv("{0}", llvm::json::Value(std::move(Record))) << "\n";
}

} // namespace clang::tidy::cuda_tidy
