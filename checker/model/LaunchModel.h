//===--- LaunchModel.h - The launches of a program's kernels ----*- C++ -*-===//
//
// One resolver for the launches every check reads: for each kernel of the
// translation unit (and, with a launch index, of the program) it answers
// where and how the kernel is launched and what each launch gives it, so
// that the checks analyse a kernel with the same facts about its launches.
//
// ## A launch
// A launch (KernelLaunch) is one place that starts a kernel, with
//  - its kind, how it is spelled: `kernel<<<grid, block, bytes>>>(args)`;
//    cudaLaunchKernel or cudaLaunchCooperativeKernel (kernel, grid, block,
//    args, bytes); cudaLaunchKernelEx or cudaLaunchKernelExC, whose
//    cudaLaunchConfig_t's members are the last ones assigned before the
//    call;
//  - its route, how the kernel reaches it: named at the launch; through a
//    local function pointer the launching function sets (`kernel =
//    &transposeNaive; kernel<<<g, b>>>(...)`: one launch for every kernel it
//    is set to); inside a launch helper, a function that launches one of its
//    parameters (`template <class K> void launch(K k, dim3 b) { k<<<g, b>>>
//    (); }`, ggml's launch_fattn), at each call that passes it a kernel by
//    name, through a local pointer, or through the caller's own parameter,
//    four helpers deep; or in another file, as the launch index
//    (ProgramLaunches.h) records it;
//  - where it came from: the function it is written in, its "file:line",
//    and for a helper's launch the call that hands the kernel on;
//  - its configuration: grid, block and dynamic bytes as the expressions
//    written there, with the constants HostValues (HostValues.h) gives them
//    along the launch's own path: the block's shape, the byte count, and for
//    a `<<<...>>>` launch the values it passes for integer parameters
//    (BlockShape::Arguments) and the relations it gives between parameters
//    and its block (ArgumentRelation: `tilew = blockDim.x + 2 * r`). What is
//    no constant the dynamic-shared check translates into symbolic terms
//    over host values (SymbolicIndex.h);
//  - when its block is no constant, why (KernelLaunch::Unresolved). A launch
//    whose kernel cannot be told (through a pointer set elsewhere) is listed
//    with why as well (unresolved()).
//
// ## How
// The checks hand the model each function definition outside system
// headers as clang-tidy matches it (collect()). A function's launches, and
// its calls that hand a kernel or a function pointer on, are read from its
// body once, when first asked. resolve(), at the end of the translation
// unit, names each launch's kernel, evaluates its configuration with one
// HostValues per launching function, follows the block through the
// members of the structs that hold it (LaunchExtents.cpp) and through the
// launch helpers' parameters (the bytes too), and adds the index's
// launches: each launch is resolved once, whichever question is asked of
// it. The barrier check's questions resolve on first asking.
//
// ## What each check asks
// Every question reads every launch of the kernel that the model resolves,
// by every route and kind; each check keeps only its own rule for what a
// launch tells it.
//  - cuda-shared-memory-race and cuda-bank-conflict: the block shapes to
//    analyse a kernel with (shapesFor) and the relations its launches give
//    its parameters (relationsOf). A kernel handed to an API launch or a
//    helper has no relations: its arguments are not read there. When a
//    launch's block is no constant, the kernel is analysed with assumed
//    shapes, and the notes name that launch and say why
//    (unevaluatedLaunchesOf, describeShapeOrigin).
//  - cuda-divergent-barrier: whether every launch gives the block an x
//    extent that is a multiple of 32 (launchesHaveWarpRows: the launch's
//    shape, or its x extent alone, read in the launching function and, for
//    a helper's launch, at the call one level up); and whether every
//    launch's block is exactly an early exit's bound
//    (launchesBindExitBound).
//  - cuda-dynamic-shared-bounds: the launches whose bytes it compares with
//    what the kernel reaches (byteCountLaunches): every launch of a kernel
//    defined here whose block is written, and other files' launches whose
//    block and bytes the index knows; and the cudaFuncSetAttribute calls
//    that raise a kernel's limit (sharedSizeAttributes).
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_MODEL_LAUNCHMODEL_H
#define CUDA_TIDY_MODEL_LAUNCHMODEL_H

#include "analysis/SharedAccesses.h"
#include "model/HostValues.h"
#include "model/ProgramLaunches.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

/// How a launch is spelled.
enum class LaunchKind {
  Chevron,           // kernel<<<grid, block, bytes, stream>>>(args...)
  LaunchKernel,      // cudaLaunchKernel(kernel, grid, block, args, bytes)
  CooperativeKernel, // cudaLaunchCooperativeKernel(the same)
  LaunchKernelEx,    // cudaLaunchKernelEx(&config, kernel, args...)
  LaunchKernelExC,   // cudaLaunchKernelExC(&config, kernel, argv)
};

/// How the launched kernel reaches the launch.
enum class LaunchRoute {
  Named,        // the launch names it
  LocalPointer, // a local function pointer the launching function sets to it
  Helper,       // a parameter of a launch helper, at a call that passes it
  OtherFile,    // a `<<<...>>>` launch in another file, from the index
};

/// One launch of one kernel.
struct KernelLaunch {
  /// Its definition when the translation unit has one.
  const FunctionDecl *Kernel = nullptr;
  LaunchKind Kind = LaunchKind::Chevron;
  LaunchRoute Route = LaunchRoute::Named;
  /// The launch: the `<<<...>>>` call or the API call (inside the helper
  /// for Route::Helper); null for another file's launch.
  const CallExpr *Call = nullptr;
  /// The function Call is written in; null for another file's launch.
  const FunctionDecl *Caller = nullptr;
  /// Route::Helper: the call that hands the kernel to a helper, in the
  /// function that names the kernel (or sets the pointer to it), and that
  /// function.
  const CallExpr *HelperCall = nullptr;
  const FunctionDecl *HelperCaller = nullptr;
  /// "main.cu:12": where Call is, or the line the index names; empty when
  /// the launch is in no file (a built-in buffer).
  std::string From;
  /// "main.cu:40": where HelperCall is.
  std::string HelperFrom;
  /// The configuration as written; null where the launch passes none
  /// (Bytes, Grid of an unread config) or the model cannot read it (Block of
  /// a cudaLaunchKernelEx whose config's blockDim is not assigned before).
  const Expr *Grid = nullptr;
  const Expr *Block = nullptr;
  const Expr *Bytes = nullptr;
  /// The kernel's arguments, when the launch passes them one by one.
  llvm::SmallVector<const Expr *, 8> Args;
  bool ArgsKnown = false;
  /// Route::Helper: the arguments as the launch inside the helper writes
  /// them, in the helper's terms (its parameters, forwarded); what the
  /// hand-off call passes for those parameters is HelperCall's.
  llvm::SmallVector<const Expr *, 8> HelperArgs;
  /// The block's shape when it is a constant along the launch's path
  /// (through the members of a struct that holds it, and through the
  /// parameters of the helpers it is passed down); for a `<<<...>>>` launch
  /// named or through a local pointer, with the constant values it passes
  /// for integer parameters (Arguments, ArgumentsFrom); for another file's,
  /// with Origin "launched in ...".
  std::optional<BlockShape> Shape;
  /// The dynamic shared bytes when a constant (0 when none is passed),
  /// followed through the parameters of helpers as the block is.
  std::optional<std::int64_t> ConstantBytes;
  /// The relations this launch gives the kernel's parameters
  /// (ArgumentRelation); read for `<<<...>>>` launches named or through a
  /// local pointer.
  llvm::SmallVector<ArgumentRelation, 1> Relations;
  /// Why Shape is none, as a note says it ("it comes from parameter 'b' of
  /// 'launch'"); empty when it is known.
  std::string Unresolved;
};

/// A cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
/// value) call.
struct SharedSizeAttribute {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Kernel = nullptr;
  const Expr *Value = nullptr;
};

/// A launch the model could not evaluate, and why. Kernel is null when the
/// launch's kernel cannot be told.
struct UnresolvedLaunch {
  const CallExpr *Call = nullptr;
  const FunctionDecl *Kernel = nullptr;
  std::string Why;
};

class LaunchModel {
public:
  explicit LaunchModel(ASTContext &Context);
  ~LaunchModel();
  LaunchModel(const LaunchModel &) = delete;
  LaunchModel &operator=(const LaunchModel &) = delete;

  /// Registers the matchers whose results collect() takes: kernel
  /// definitions ("kernel") and every other function definition ("host"),
  /// both outside system headers.
  static void registerMatchers(ast_matchers::MatchFinder *Finder,
                               ast_matchers::MatchFinder::MatchCallback *Check);
  /// Records what \p Result matched; nothing once the unit has an error.
  void collect(const ast_matchers::MatchFinder::MatchResult &Result);
  /// Records a kernel defined in the unit; its own launches (from device
  /// code) are launches too, whose arguments no relation describes.
  void addKernel(const FunctionDecl *Kernel);
  /// Records a function whose body may launch kernels: a host function, or
  /// a `__device__` one.
  void addFunction(const FunctionDecl *Function);

  /// Resolves every launch of the recorded functions and, with \p Index,
  /// adds the recorded kernels' launches in the program's other files.
  /// Call once, after the last collect(); the questions below but the
  /// barrier check's read what it resolved.
  void resolve(const ProgramLaunches *Index = nullptr);
  /// Writes every launch of the unit, by every route and kind, to the launch
  /// index in \p Dir (the pre-pass), resolving them first; false on
  /// failure.
  bool writeIndex(llvm::StringRef Dir);

  /// The kernels defined in the unit, in the order they were recorded.
  llvm::ArrayRef<const FunctionDecl *> kernels() const { return Kernels; }
  /// The other functions recorded, in that order.
  llvm::ArrayRef<const FunctionDecl *> functions() const { return Functions; }
  /// Every launch resolved, in the order of the unit: the launches of each
  /// function as written, then those inside helpers, then other files'.
  llvm::ArrayRef<KernelLaunch> launches() const { return Launches; }
  /// The launches of \p Kernel (a definition), in that order.
  std::vector<const KernelLaunch *>
  launchesOf(const FunctionDecl *Kernel) const;
  /// The launches of \p Kernel whose block is no constant, in that order:
  /// what a note names when the kernel is analysed with assumed shapes.
  std::vector<const KernelLaunch *>
  unevaluatedLaunchesOf(const FunctionDecl *Kernel) const;
  /// The launches without a known block, and those whose kernel cannot be
  /// told.
  std::vector<UnresolvedLaunch> unresolved() const;
  /// The grid of \p Launch when it is a constant along the launch's path.
  std::optional<BlockShape> grid(const KernelLaunch &Launch);

  /// The constant block shapes of \p Kernel's launches in the unit, by
  /// every route and kind (at most four, each with the argument values all its
  /// launches pass); empty when there is none or one whose shape is not a
  /// constant.
  llvm::ArrayRef<BlockShape> shapesOf(const FunctionDecl *Kernel) const;
  /// The relations between its parameters, its block and the arguments
  /// that every launch of \p Kernel in the unit gives (BlockShape::Relations);
  /// none when a launch passes something else, the kernel is handed to a
  /// call whose arguments are not read (an API launch, a helper), is
  /// launched from device code, or is launched in another file too.
  llvm::SmallVector<ArgumentRelation, 1>
  relationsOf(const FunctionDecl *Kernel) const;
  /// The block shapes to analyse \p Kernel with, the best knowledge first:
  /// shapesOf and the constant shapes of its launches in other files (their
  /// Origin names the file); else, when there is none or one not a
  /// constant, the shapes its own code is written for (BlockShapeInference.h),
  /// with their Origin; else none, and the analyses fall back on
  /// __launch_bounds__ and \p Assumed. Each carries relationsOf. The race and
  /// bank checks ask here, so that both analyse a kernel with the same
  /// shapes.
  llvm::SmallVector<BlockShape, 2>
  shapesFor(const FunctionDecl *Kernel, ThreadDependenceAnalysis &Dependence,
            const AssumedShapes &Assumed) const;

  /// Whether \p Kernel has at least one launch in the recorded functions
  /// and every one gives its block an x extent that is a constant multiple
  /// of 32, so that each warp is 32 consecutive x of one row and a lane is
  /// `threadIdx.x % 32`. Read: every launch the model resolves, with its
  /// constant shape, or else the x extent alone as the block is written
  /// (the config's blockDim for cudaLaunchKernelEx(C)), through members of
  /// objects whose constructors copy them from their arguments (as ggml's
  /// `ggml_cuda_kernel_launch(kernel, params, ...)` does) and, for a
  /// helper's launch, from the argument of the call one level up. Passing
  /// the kernel to anything else (`cudaFuncGetAttributes`) is no launch.
  bool launchesHaveWarpRows(const FunctionDecl *Kernel);
  /// Whether \p Kernel has at least one launch in the recorded functions
  /// and every one gives its block exactly the bound of
  /// an early exit `threadIdx.<Dim> >= bound` as threads in dimension \p Dim:
  /// the constant \p Value of the kernel's instantiation, or what the launch
  /// passes for \p Parameter (a launch whose arguments are not read, an API
  /// or helper launch, passes nothing known). The launch's dimension may be a
  /// variable the launching function never changes: the same one passed for \p
  /// Parameter, or one a `switch` on it has fixed to \p Value (`switch (k) {
  /// case 32: kernel<32><<<g, dim3(32, k)>>>(...); break; }`). No thread then
  /// leaves at the exit.
  bool launchesBindExitBound(const FunctionDecl *Kernel, unsigned Dim,
                             std::optional<std::int64_t> Value,
                             const ParmVarDecl *Parameter);

  /// The launches the dynamic-shared check compares with the kernel's
  /// reach: the launches of kernels with a body whose block is written, by
  /// every route and kind, then other files' launches with a constant block
  /// and byte count.
  std::vector<const KernelLaunch *> byteCountLaunches() const;
  llvm::ArrayRef<SharedSizeAttribute> sharedSizeAttributes() const {
    return SizeAttributes;
  }
  /// The values of \p Function's variables, built on first use and kept
  /// for the unit.
  HostValues &valuesIn(const FunctionDecl *Function);

private:
  /// A call in a function's body that the model reads: a launch of
  /// \p Launch's kind, or (none) a call that hands a kernel or a function
  /// pointer on.
  struct Site {
    const CallExpr *Call = nullptr;
    std::optional<LaunchKind> Launch;
  };
  /// A launch (Written: a `<<<...>>>` or API launch and the function it is
  /// written in) of Helper's parameter KernelParameter; its block is Shape
  /// when that is known there, else BlockPath of parameter BlockParameter's
  /// argument, else unknown (Why); its bytes likewise.
  struct HelperLaunch {
    const FunctionDecl *Helper = nullptr;
    unsigned KernelParameter = 0;
    KernelLaunch Written;
    std::optional<BlockShape> Shape;
    std::optional<unsigned> BlockParameter;
    llvm::SmallVector<const FieldDecl *, 2> BlockPath;
    std::string Why;
    std::optional<std::int64_t> ConstantBytes;
    std::optional<unsigned> BytesParameter;
    unsigned Depth = 0;
  };
  /// What the launches of one kernel give, merged over them.
  struct KernelFacts {
    llvm::SmallVector<unsigned, 2> Launches; // Indices into Launches.
    llvm::SmallVector<BlockShape, 2> Shapes;
    bool AnyUnknownShape = false;
    /// False once a launch or a use gives arguments no relation describes.
    bool RelationsKnown = true;
    /// Whether Relations was read from a launch: a kernel with none has no
    /// relations.
    bool Launched = false;
    llvm::SmallVector<ArgumentRelation, 1> Relations;
  };

  llvm::ArrayRef<Site> sitesOf(const FunctionDecl *Function);
  /// The launches of the recorded functions, named and through local
  /// pointers, with their values; the calls that hand kernels on.
  void resolveLaunches();
  void resolveChevron(const CUDAKernelCallExpr *Launch,
                      const FunctionDecl *Caller);
  void resolveApiLaunch(const CallExpr *Call, LaunchKind Kind,
                        const FunctionDecl *Caller);
  void readHandOff(const CallExpr *Call);
  /// Records \p Written, a launch of parameter \p KernelParameter of the
  /// function it is written in, for the calls of that helper to resolve.
  void addHelperLaunch(const KernelLaunch &Written, unsigned KernelParameter);
  void resolveHelperLaunches();
  /// The block shape \p Block (with \p Path the members to read of it)
  /// has at \p At in \p Function: read by HostValues, else followed
  /// through the locals and constructions that hold it (LaunchExtents.cpp).
  /// When it is read from a parameter of \p Function, \p Param is set and
  /// \p Path holds the members to read of that parameter's argument.
  std::optional<BlockShape>
  readBlock(const Expr *Block, llvm::SmallVectorImpl<const FieldDecl *> &Path,
            const Stmt *At, const FunctionDecl *Function,
            std::optional<unsigned> &Param);
  /// Whether \p Launch, of a kernel with lane rules, gives its block an x
  /// extent that is a constant multiple of 32 (LaunchExtents.cpp).
  bool hasWarpRows(const KernelLaunch &Launch);
  /// Whether \p Launch gives its block's dimension \p Dim the exit bound
  /// of launchesBindExitBound.
  bool bindsExitBound(const KernelLaunch &Launch, unsigned Dim,
                      std::optional<std::int64_t> Value,
                      const ParmVarDecl *Parameter);
  void addIndexed(const ProgramLaunches &Index);
  /// Appends \p Launch and merges it into its kernel's facts.
  void add(KernelLaunch Launch);
  /// Adds \p Launch's shape to its kernel's shapes.
  void addShape(KernelFacts &Facts, const KernelLaunch &Launch);
  /// Merges the relations of \p Launch into those of the kernel's other
  /// launches: only a relation every launch gives stays.
  void addRelations(KernelFacts &Facts, const KernelLaunch &Launch);
  /// A launch or a use of \p Kernel whose arguments cannot be read: no
  /// relation holds.
  void dropRelations(const FunctionDecl *Kernel) {
    Facts[Kernel].RelationsKnown = false;
  }
  const KernelFacts *factsOf(const FunctionDecl *Kernel) const;
  /// "main.cu:12" for \p E, or empty when it is in no file.
  std::string where(const Expr *E) const;

  ASTContext &Context;
  llvm::SmallVector<const FunctionDecl *, 8> Kernels;
  llvm::SmallVector<const FunctionDecl *, 16> Functions;
  /// Each function's sites, in the order of its body; a vector keeps its
  /// elements where they are when the map grows.
  llvm::DenseMap<const FunctionDecl *, std::vector<Site>> Sites;
  llvm::DenseMap<const FunctionDecl *, std::unique_ptr<HostValues>> Values;
  std::vector<KernelLaunch> Launches;
  llvm::DenseMap<const FunctionDecl *, KernelFacts> Facts;
  std::vector<SharedSizeAttribute> SizeAttributes;
  std::vector<UnresolvedLaunch> Unnamed;
  llvm::SmallVector<HelperLaunch, 2> HelperLaunches;
  std::vector<std::pair<const CallExpr *, const FunctionDecl *>> PointerCalls;
  bool LaunchesResolved = false;
  bool Resolved = false;
};

/// How a note says where the block shape \p Shape a kernel is analysed
/// with comes from: "" for a launch in this translation unit, " (launched in
/// main.cu:12)" for another file's; for an assumed shape, why no launch gave
/// it: " (assumed: the block of the launch at main.cu:40 is not a
/// constant)" when the kernel has launches, \p Unevaluated
/// (LaunchModel::unevaluatedLaunchesOf), none with a constant block; " (assumed
/// from the extents of 's': no launch of this kernel was found)" when it has
/// none.
std::string
describeShapeOrigin(const BlockShape &Shape,
                    llvm::ArrayRef<const KernelLaunch *> Unevaluated);

/// Whether every block of \p Kernel is one warp: its `__launch_bounds__`
/// allow at most 32 threads, or it has at least one launch in \p Launches'
/// recorded functions and each gives a constant block of at most 32
/// threads.
bool launchesAreOneWarp(LaunchModel &Launches, const FunctionDecl *Kernel,
                        const ASTContext &Context);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_MODEL_LAUNCHMODEL_H
