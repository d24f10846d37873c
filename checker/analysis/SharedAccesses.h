//===--- SharedAccesses.h - The shared-memory accesses of a kernel -*- C++ -*-//
//
// Collects every access a kernel makes to shared memory, with its byte
// offset and the thread-dependent conditions that guard it as symbolic
// expressions (SymbolicIndex.h): the input of the race, bank-conflict and
// dynamic-bounds analyses.
//
// Seen: static `__shared__` arrays, scalars and structs; `extern __shared__`
// pools (every declaration names the same pool, at offset 0); pointers and
// references carved from them (`&s[i]`, `pool + n`, casts, a local pointer
// set once, a `SharedMemory<T>`-style accessor whose body returns the pool);
// and pointers into shared memory passed to `__device__` functions, whose
// accesses are attributed to the call, guarded by the helper's conditions
// stated with the call's arguments.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_ANALYSIS_SHAREDACCESSES_H
#define CUDA_TIDY_ANALYSIS_SHAREDACCESSES_H

#include "analysis/SharedAddresses.h"
#include "analysis/SymbolicIndex.h"
#include "analysis/dependence/ThreadDependence.h"
#include "model/SyncEvents.h"
#include "clang/AST/ParentMap.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace clang::cuda_tidy {

/// A kernel integer parameter that every launch of the kernel in the
/// translation unit passes as one affine form of the launch's block extents
/// and of other integer parameters: `tilew` gets `block.x + 2 * radius`
/// where `r` gets `radius`, so tilew = blockDim.x + 2 * r in every block.
/// The form holds in the 32-bit wrapping arithmetic the launch computes it
/// in (the launch model, LaunchSites.cpp, takes one only when that
/// arithmetic is 32-bit and the parameter 32 bits wide), which is the
/// solver's (ExactQuery.h).
struct ArgumentRelation {
  const ParmVarDecl *Param = nullptr;
  std::int64_t Constant = 0;
  /// The coefficient of blockDim.x, .y, .z.
  std::array<std::int64_t, 3> Dim = {0, 0, 0};
  /// Other parameters and their coefficients; none of them has a relation
  /// of its own.
  llvm::SmallVector<std::pair<const ParmVarDecl *, std::int64_t>, 2> Terms = {};
  /// The launches it is read from ("postProcessGL.cu:247").
  std::string From = "";

  /// Whether the relation holds inside the kernel: the launch's value is
  /// the kernel's only while the kernel assigns neither the parameter nor
  /// any parameter of its form.
  bool holdsIn(const SymbolicTranslator &Sym) const {
    return Sym.assignmentsTo(Param) == 0 &&
           llvm::none_of(Terms, [&](const auto &Term) {
             return Sym.assignmentsTo(Term.first) != 0;
           });
  }
  bool sameForm(const ArgumentRelation &Other) const {
    return Param == Other.Param && Constant == Other.Constant &&
           Dim == Other.Dim && Terms == Other.Terms;
  }
  /// "tilew = blockDim.x + 2 * r".
  std::string str() const {
    std::string Text;
    auto Term = [&](std::int64_t C, const std::string &Name) {
      if (C == 0)
        return;
      if (Text.empty())
        Text += C < 0 ? "-" : "";
      else
        Text += C < 0 ? " - " : " + ";
      std::int64_t Abs = C < 0 ? -C : C;
      if (Name.empty())
        Text += std::to_string(Abs);
      else
        Text += (Abs == 1 ? "" : std::to_string(Abs) + " * ") + Name;
    };
    for (unsigned D = 0; D < 3; ++D)
      Term(Dim[D], std::string("blockDim.") + char('x' + D));
    for (const auto &[Other, C] : Terms)
      Term(C, Other->getNameAsString());
    Term(Constant, "");
    return Param->getNameAsString() + " = " + (Text.empty() ? "0" : Text);
  }
};

struct BlockShape {
  std::array<std::int64_t, 3> Dim = {1, 1, 1};
  /// Not read from the program: an assumption.
  bool Assumed = false;
  /// Where the shape comes from when it is not a launch in the translation
  /// unit ("from the extents of 's'", "launched in main.cu:12"); empty
  /// otherwise.
  std::string Origin = "";
  /// The constant values every launch of this shape passes for some of the
  /// kernel's integer parameters (`Bc` = 32): the analyses take them as
  /// constants. Empty for a shape not read from launches.
  llvm::SmallVector<std::pair<const ParmVarDecl *, std::int64_t>, 4> Arguments =
      {};
  /// The launch the arguments come from ("attention_forward.cu:760").
  std::string ArgumentsFrom = "";
  /// The relations every launch of the kernel in the translation unit
  /// gives its parameters (whatever its shape, so also on shapes not read
  /// from a launch): the analyses take them as facts.
  llvm::SmallVector<ArgumentRelation, 1> Relations = {};
  std::int64_t threads() const { return Dim[0] * Dim[1] * Dim[2]; }
  /// The value every launch passes for \p Param, if one is known.
  std::optional<std::int64_t> argument(const VarDecl *Param) const {
    for (const auto &[Known, Value] : Arguments)
      if (Known == Param)
        return Value;
    return std::nullopt;
  }
  /// The relation the launches give \p Param, if any.
  const ArgumentRelation *relation(const VarDecl *Param) const {
    for (const ArgumentRelation &R : Relations)
      if (R.Param == Param)
        return &R;
    return nullptr;
  }
  /// The value of \p Param's relation when this shape makes it a constant
  /// (every parameter of it is one), wrapped to 32 bits as the launch
  /// computes it.
  std::optional<std::int64_t> relatedValue(const VarDecl *Param) const {
    const ArgumentRelation *R = relation(Param);
    if (!R || argument(Param))
      return std::nullopt;
    std::uint64_t Sum = std::uint64_t(R->Constant);
    for (unsigned D = 0; D < 3; ++D)
      Sum += std::uint64_t(R->Dim[D]) * std::uint64_t(Dim[D]);
    for (const auto &[Other, C] : R->Terms) {
      std::optional<std::int64_t> Value = argument(Other);
      if (!Value)
        return std::nullopt;
      Sum += std::uint64_t(C) * std::uint64_t(*Value);
    }
    return std::int64_t(std::int32_t(std::uint32_t(Sum)));
  }
  /// "(x,y,z)", as diagnostics show a shape.
  std::string str() const {
    return "(" + std::to_string(Dim[0]) + "," + std::to_string(Dim[1]) + "," +
           std::to_string(Dim[2]) + ")";
  }
};

/// Values tried for a block-uniform value the analyses cannot evaluate:
/// small, odd, past a warp, past a typical block. A verdict that holds for
/// every sample does not depend on the value.
inline constexpr std::int64_t UniformSamples[] = {0, 7, 33, 100, 1000};

/// How many ways \p Count unknown values can be given UniformSamples.
inline unsigned sampleCombinations(std::size_t Count) {
  unsigned Combos = 1;
  for (std::size_t I = 0; I < Count; ++I)
    Combos *= std::size(UniformSamples);
  return Combos;
}

/// Gives the atoms \p Sampled their values in combination \p Combo (below
/// sampleCombinations(Sampled.size())), in \p Values indexed by atom.
inline void assignSamples(unsigned Combo, llvm::ArrayRef<unsigned> Sampled,
                          llvm::MutableArrayRef<std::int64_t> Values) {
  for (unsigned Atom : Sampled) {
    Values[Atom] = UniformSamples[Combo % std::size(UniformSamples)];
    Combo /= std::size(UniformSamples);
  }
}

/// Block shapes to assume when no launch says, for kernels whose highest
/// threadIdx dimension is x, y or z.
using AssumedShapes = std::array<std::vector<BlockShape>, 3>;

/// The x, y and z expressions of a launch's block argument: `256`,
/// `dim3(16, 16)`, a copy, or the initialiser of a variable \p FollowVar
/// accepts. A parameter is never followed: its default argument says nothing
/// of what callers pass. A null entry is an omitted component, 1. None when
/// the argument has another form (or the chain is deeper than a person would
/// write, which also stops `dim3 b(b)`).
std::optional<std::array<const Expr *, 3>>
blockArgumentComponents(const Expr *Block,
                        llvm::function_ref<bool(const VarDecl *)> FollowVar);

enum class AccessKind { Read, Write, ReadWrite, Atomic };

/// Where an access inside a called helper runs relative to the barrier the
/// call holds: before the helper's first barrier, after its last, or the
/// helper has none.
enum class CallSegment { Whole, BeforeBarrier, AfterBarrier };

/// How an access is made, when not by the thread's own load or store.
enum class AccessMeans {
  Direct,
  /// An asynchronous copy this thread issued: the write is in flight from
  /// the call until the wait that completes it (AccessOrder::Completes).
  AsyncCopy,
  /// An asynchronous copy a group issued together: some thread of the
  /// group writes each byte, which, is not known; the access stands for it
  /// in thread 0 (its guard), so that every other thread's access of the
  /// bytes meets it.
  GroupCopy,
  /// A CUB block primitive's use of its TempStorage, by every thread: its
  /// contract requires a barrier before the storage is used again.
  Collective,
};

/// One access to shared memory.
struct SharedAccess {
  const Expr *E = nullptr;       // The lvalue (the pointer for atomics).
  const CallExpr *Via = nullptr; // The call when E is inside a callee.
  CallSegment Segment = CallSegment::Whole;
  const Stmt *Anchor = nullptr; // The CFG element that performs it.
  const CFGBlock *Block = nullptr;
  unsigned Index = 0;           // 1-based position of Anchor in Block.
  const void *Object = nullptr; // The variable, or the dynamic pool.
  const VarDecl *Var = nullptr;
  SymId Offset = -1;      // Bytes from the start of Object.
  std::int64_t Width = 0; // Bytes.
  /// When the pointer was cast from another pointee type on the way: the
  /// offset at the cast (AlignedOffset) must be a multiple of Align, the
  /// cast type's alignment (at most the object's own), for the access to
  /// run at all (a misaligned `float4` load faults). Align is 1 otherwise,
  /// where the declared types keep every access aligned.
  SymId AlignedOffset = -1;
  std::int64_t Align = 1;
  AccessKind Kind = AccessKind::Read;
  /// For a plain `=` store: the value stored.
  const Expr *Stored = nullptr;
  bool Volatile = false;
  /// Thread-dependent conditions that must hold (second: with this value).
  llvm::SmallVector<std::pair<SymId, bool>, 2> Guards;
  /// Guarded by a thread-dependent condition that could not be translated.
  bool UnknownGuard = false;
  /// Thread-dependent conditions that could not be translated but test
  /// only input data (isInputTest): a load of a kernel parameter's memory
  /// that the kernel never writes, at any index, compared with a
  /// block-uniform value (`if (work[t * n + k] > 0)`); second: the value
  /// the access needs. Not in UnknownGuard.
  llvm::SmallVector<std::pair<const Expr *, bool>, 1> InputGuards;
  /// Whether some guard was not translated, input tests included.
  bool untranslatedGuard() const {
    return UnknownGuard || !InputGuards.empty();
  }
  /// The local pointer the access goes through, when it was carved out of
  /// shared memory (`float *b = pool + n;`); null otherwise.
  const VarDecl *Carved = nullptr;
  /// `V[Row][...]` on a constant two-dimensional (or more) array: the row
  /// index and the offset within the row, for padding what-ifs.
  SymId Row = -1, WithinRow = -1;
  std::int64_t RowBytes = 0;
  /// `V[Outer]...` on a constant array V, subscripted directly (not through
  /// a pointer moved off the element): the index into V's outermost
  /// dimension, which says how the author sized V (block-shape inference).
  SymId Outer = -1;

  /// How it is made, and by which call (its name, as a diagnostic shows
  /// it: "__pipeline_memcpy_async", "BlockReduce::Sum").
  AccessMeans Means = AccessMeans::Direct;
  /// Made through a pointer from `cluster.map_shared_rank(p, rank)` (or
  /// `__cluster_map_shared_rank`): another block's copy of the variable,
  /// which only a cluster barrier orders against that block's threads.
  bool Remote = false;
  /// Inside a helper that holds barriers, on a path through it that passes
  /// none of them (CalleeIntervals: both before the call's barrier and
  /// after it). Whether that path can run (`if (n <= 0) __syncthreads();`
  /// before `for (i = 0; i < n; ...)` that syncs makes it impossible) is
  /// not decided, so a race with an access outside the call is possible
  /// only.
  bool SkipsHelperBarriers = false;
  /// Placed as it is (Segment) only by a way through the helper that runs
  /// a loop holding its barriers zero times (CalleeIntervals); taken only
  /// with SharedAccessCollector::followZeroTripPaths(), and a race it
  /// makes is possible only, even inside one call.
  bool ZeroTripHelperLoop = false;
  /// Placed before the call's first barrier (BeforeBarrier) or after its
  /// last (AfterBarrier): the counters of the helper's loops around it
  /// whose every iteration passes a barrier. Only the access of the first
  /// (last) iteration of such a loop runs there; the others run between
  /// two of its barriers. The race analysis asks for that iteration.
  llvm::SmallVector<unsigned, 2> FirstIterationOf, LastIterationOf;
  std::string Operation;
  /// For an asynchronous copy, what completes it.
  AsyncTrack Track = AsyncTrack::Primitives;

  bool writes() const { return Kind != AccessKind::Read; }
  bool isDynamic() const;
  bool isAsync() const {
    return Means == AccessMeans::AsyncCopy || Means == AccessMeans::GroupCopy;
  }
};

/// A synchronisation point inside the kernel: a block barrier, a
/// warp-level sync, or another event that orders accesses (the halves of a
/// split barrier, the commits and waits of asynchronous copies).
struct SyncPoint {
  const Stmt *Call = nullptr;
  bool Block = false; // A block barrier.
  bool Warp = false;  // Orders the lanes of a warp.
  /// A named barrier with a thread count (`bar.sync 1, 128`): Block, but
  /// the threads may reach it by different instructions in different roles,
  /// some only arriving (`bar.arrive 1, 128`).
  bool Named = false;
  /// A cluster (or grid) barrier: orders the threads of every block of the
  /// cluster, so accesses of another block's shared memory too; and the
  /// halves of a split cluster barrier.
  bool Cluster = false;
  bool ClusterArrive = false, ClusterWait = false;
  AccessOrder Order; // Beyond Block (Order.Barrier is folded into it).

  /// Whether the thread meets the others here: past it, nothing the others
  /// do afterwards is unordered against what it did before (in its warp, at
  /// least).
  bool meetsOthers() const { return Block || Warp || Order.Wait; }
};

struct CalleeConditions; // CalleeBodies.h

/// Per pointer parameter of a kernel: whether the kernel only loads through
/// it (isInputTest).
using ReadOnlyParams = llvm::DenseMap<const ParmVarDecl *, bool>;

class SharedAccessCollector {
public:
  /// \p Analysis gives the callees' CFGs and barriers (inlineCall()).
  SharedAccessCollector(ThreadDependenceAnalysis &Analysis,
                        const FunctionDependence &Deps);

  /// Collects the accesses and synchronisation points of the kernel.
  void collect();
  /// Before collect(), for a helper analysed as a piece of its kernel:
  /// \p Param (a pointer or a reference) points to the start of the
  /// `__shared__` variable \p Shared at the call analysed. Ignored when the
  /// body assigns the parameter.
  void bindParameter(const ParmVarDecl *Param, const VarDecl *Shared);
  /// Before collect(), likewise: the integer parameter \p Param has the
  /// value of \p Value, an expression of the caller free of its locals
  /// (`threadIdx.x`, what `t` was initialised with).
  void bindValue(const ParmVarDecl *Param, const Expr *Value) {
    Sym.substituteParameter(Param, Sym.translate(Value));
  }

  /// Before collect(): also place a helper's accesses where a way that
  /// runs one of its syncing loops zero times puts them
  /// (SharedAccess::ZeroTripHelperLoop). Off, such a way is not taken: the
  /// caller may well guarantee a trip, and the race is a question of the
  /// values.
  void followZeroTripPaths(bool Follow) { FollowZeroTripPaths = Follow; }

  std::vector<SharedAccess> &accesses() { return Accesses; }
  const std::vector<SyncPoint> &syncPoints() const { return Syncs; }
  /// The sync point performed by a CFG element, if any.
  const SyncPoint *syncAt(const Stmt *S) const;
  SymbolicTranslator &symbols() { return Sym; }
  const ParentMap &parents() const { return Parents; }
  const FunctionDependence &dependence() const { return Deps; }
  ASTContext &context() const { return Context; }
  /// The analysis that gives the callees' CFGs and barriers.
  ThreadDependenceAnalysis &analysis() const { return Analysis; }
  /// Whether a call of \p Callee orders the lanes of a warp at every call:
  /// its body (or a helper it calls) runs `__syncwarp()`, a tile sync or a
  /// `_sync` shuffle or vote outside any branch (issue 10, class 7).
  bool helperSyncsWarp(const FunctionDecl *Callee);

  /// Block shapes to analyse: those of the launches, else the one
  /// __launch_bounds__ gives for a one-dimensional kernel, else the
  /// assumptions for the highest threadIdx dimension used.
  llvm::SmallVector<BlockShape, 3>
  candidateShapes(llvm::ArrayRef<BlockShape> Launches,
                  const AssumedShapes &Assumed) const;

  /// The environment of thread \p Linear of a block of shape \p Shape.
  static SymEnv envFor(std::int64_t Linear, const BlockShape &Shape,
                       const std::int64_t *Atoms);
  /// "(x,y,z)" of thread \p Linear.
  static std::string describeThread(std::int64_t Linear,
                                    const BlockShape &Shape);
  /// "tile[3][5]", "h.scale", "pool[12]" for byte \p Byte of \p Var.
  std::string describeElement(const VarDecl *Var, std::int64_t Byte) const;
  /// Size in bytes of \p Var, or -1 for a dynamic pool.
  std::int64_t sizeOf(const VarDecl *Var) const;

private:
  bool FollowZeroTripPaths = false;
  struct Location {
    const void *Object = nullptr;
    const VarDecl *Var = nullptr;
    SymId Offset = -1;
    SymId Row = -1, WithinRow = -1;
    std::int64_t RowBytes = 0;
    SymId Outer = -1;
    const VarDecl *Carved = nullptr;
    /// The last cast to another pointee type on the way (`reinterpret_cast<
    /// float4 *>(bytes + off)`): the offset it was at and the cast type's
    /// alignment; -1 and 1 when there is none.
    SymId CastOffset = -1;
    std::int64_t CastAlign = 1;
    bool Remote = false; // Through map_shared_rank (SharedAccess::Remote).
  };
  /// What \p VD (a parameter) is bound to: by the call being inlined, or
  /// by bindParameter().
  const Location *boundTo(const VarDecl *VD) const;
  std::optional<Location> locate(const Expr *LValue, unsigned Depth = 0);
  std::optional<Location> locatePointer(const Expr *Pointer,
                                        unsigned Depth = 0);
  SymId plus(SymId Base, const Expr *Index, QualType Element, bool Negate);
  /// Records that \p L's pointer was cast to point to \p To here.
  void noteCast(Location &L, QualType To);
  void addAccess(const Expr *LValue, const Stmt *Anchor, const CFGBlock *B,
                 unsigned Index, AccessKind Kind, bool ThroughPointer,
                 const CallExpr *Via = nullptr,
                 const CalleeConditions *Conditions = nullptr);
  void computeGuards(SharedAccess &A);
  /// Records the event a wrapper performs (wrappedEvent()) at its call.
  void addWrappedEvent(const CallExpr *CE, const CFGBlock *B, unsigned Index);
  /// The sync point at \p S, made if there is none yet.
  SyncPoint &syncPointAt(const Stmt *S);
  /// Records what \p Event at \p S means for the order of accesses, and
  /// the accesses it makes itself (an asynchronous copy's write, a block
  /// primitive's use of its storage).
  /// \p Origin: the statement the event was read from, when not \p S (the
  /// asm statement or call inside a wrapper); \p Target: the destination of
  /// a copy in \p S's terms, when \p Origin's operands are not.
  void addEvent(const SyncEvent &Event, const Stmt *S, const CFGBlock *B,
                unsigned Index, const Stmt *Origin = nullptr,
                const SharedAddress *Target = nullptr);
  void inlineCall(const CallExpr *CE, const CFGBlock *B, unsigned Index);

  ThreadDependenceAnalysis &Analysis;
  ASTContext &Context;
  const FunctionDependence &Deps;
  const FunctionDecl *Kernel;
  SymbolicTranslator Sym;
  SharedAddressResolver Addresses{Context, Sym};
  ParentMap Parents;
  std::vector<SharedAccess> Accesses;
  std::vector<SyncPoint> Syncs;
  llvm::DenseMap<const Stmt *, unsigned> SyncIndex;
  /// Parameters of the callee being inlined that point into shared memory.
  llvm::DenseMap<const VarDecl *, Location> Bindings;
  /// Parameters of the body analysed that point into shared memory.
  llvm::DenseMap<const VarDecl *, Location> EntryBindings;
  llvm::DenseMap<const FunctionDecl *, bool> WarpSyncingHelpers;
  /// wrappedEvent() of each helper called, asked once per helper.
  llvm::DenseMap<const FunctionDecl *, std::optional<WrappedEvent>>
      WrappedEvents;
  ReadOnlyParams ReadOnlyInputs;
};

/// Whether \p Event, read off \p S (a call or an asm statement), orders
/// the lanes of a warp: a modelled warp-level sync, or a call of a helper
/// that syncs the warp at every call (SharedAccessCollector::
/// helperSyncsWarp).
bool ordersWarp(SharedAccessCollector &Col, const SyncEvent &Event,
                const Stmt *S);

/// Whether \p Cond, a condition of \p Kernel the translator cannot follow,
/// tests input data alone: `P[i] op u`, `u op P[i]`, `P[i]` or `!P[i]`,
/// where P is a pointer parameter of the kernel whose memory the kernel
/// only reads (every use of P is a load `P[...]`), i is any index, and u
/// a block-uniform value the translator follows (not at the limit of P's
/// element type, which no element could pass). Filling P's memory with one
/// value then makes the test hold, or fail, in every thread at once.
/// \p ReadOnly keeps, per pointer parameter, whether the kernel only loads
/// through it (ReadOnlyParams).
bool isInputTest(const Expr *Cond, const FunctionDecl *Kernel,
                 SymbolicTranslator &Sym, const ParentMap &Parents,
                 ASTContext &Context, ReadOnlyParams &ReadOnly);

/// One kernel parameter's memory filled with one value: what makes an input
/// test (isInputTest) come out one way in every thread.
struct InputFill {
  const ParmVarDecl *Param = nullptr;
  std::int64_t Value = 0;
};

/// The fills that make \p Cond, an input test of \p Kernel (isInputTest),
/// \p Holds in every thread, added to \p Fills; false when no fill of
/// constants does: a bound that is no integer constant, one parameter that
/// would need two values. Operands that test no input (`k < steps` of
/// `k < steps && w[i] > 0`) are left to the witness, which gave them their
/// values.
bool inputFills(const Expr *Cond, bool Holds, const FunctionDecl *Kernel,
                ASTContext &Context, llvm::SmallVectorImpl<InputFill> &Fills);

} // namespace clang::cuda_tidy

#endif // CUDA_TIDY_ANALYSIS_SHAREDACCESSES_H
