//===--- WitnessRecord.h - A warning's witness, for reproducers -*- C++ -*-===//
//
// Every warning names a block shape, two threads and the values that make
// its defect happen; the notes say them in words. For `cuda-tidy
// --repro-dir` (issue 24: every finding proven on the user's own GPU) the
// checks also write them as data: when the environment variable
// CUDA_TIDY_WITNESS_FILE names a file, each warning appends one JSON line to
// it, built where the check holds the structured witness, with what a
// reproducer needs to launch the kernel that warned:
//
//   check, file, line, column   the warning's place: the key cuda-tidy joins
//                               the record to the printed finding by
//   translation_unit            the main file, which a reproducer includes
//   kernel                      the instance that warned: its name, how a
//                               launch spells it (`ns::k<float, 256>`)
//   block, grid, dynamic_shared_bytes, cooperative
//                               the witness's block, the smallest grid it
//                               needs, the bytes its launch passes
//   parameters                  each parameter's type and kind (pointer,
//                               scalar, struct) and, for a scalar the witness
//                               or the launch fixes, its value and from where;
//                               for a pointer whose memory the witness needs
//                               to hold one value, that value (fill_value)
//   lines                       the source lines of the accesses involved
//   threads                     the two threads of a race (threadIdx of each,
//                               in the order of lines)
//   expect                      what the check predicts a tool sees
//   cannot_reproduce            why no launch can show it, when the witness
//                               needs what a launch cannot give (input data,
//                               a pointer chased through memory)
//
// Without the variable nothing is built: the record costs a getenv a check.
//
//===----------------------------------------------------------------------===//

#ifndef CUDA_TIDY_WITNESSRECORD_H
#define CUDA_TIDY_WITNESSRECORD_H

#include "analysis/SharedAccesses.h"
#include "model/LaunchModel.h"
#include "clang/AST/Decl.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"
#include <array>
#include <clang-tidy/ClangTidyCheck.h>
#include <cstdint>
#include <optional>
#include <string>

namespace clang::tidy::cuda_tidy {

struct WitnessRecord {
  std::string Check;
  /// Where the warning is.
  SourceLocation Where;
  /// The kernel to launch (the instance that warned).
  const FunctionDecl *Kernel = nullptr;
  clang::cuda_tidy::BlockShape Block;
  std::array<std::int64_t, 3> Grid = {1, 1, 1};
  /// The dynamic shared bytes to launch with; none: the reproducer's
  /// default (the kernel uses a pool whose launch is not known).
  std::optional<std::int64_t> DynamicSharedBytes;
  /// A grid-wide barrier: launched with cudaLaunchCooperativeKernel.
  bool Cooperative = false;
  /// The parameters' values the witness needs.
  llvm::SmallVector<std::pair<const ParmVarDecl *, std::int64_t>, 4> Values;
  /// Pointer parameters whose memory the witness needs filled with one
  /// value (the input data a race's guard tests, InputFill).
  llvm::SmallVector<std::pair<const ParmVarDecl *, std::int64_t>, 1> Fills;
  /// The places involved (the two accesses, the barrier and its condition).
  llvm::SmallVector<SourceLocation, 2> Places;
  /// The threads of the block the witness names, in the order of Places
  /// (threadIdx of each); empty when it names none.
  llvm::SmallVector<std::array<std::int64_t, 3>, 2> Threads;
  /// What the check predicts a tool sees ("op": "ld", "ideal": 1, ...).
  llvm::json::Object Expect;
  /// Why no launch can show the defect; empty when one can.
  std::string CannotReproduce;
};

/// Whether records are wanted (CUDA_TIDY_WITNESS_FILE is set).
bool witnessRecordsWanted();

/// Fills what \p R's launches tell about its kernel under its block shape:
/// the dynamic shared bytes and the values of integer parameters that the
/// launch of that shape passes, its grid when the defect is between blocks
/// (\p NeedsGrid), the cluster the kernel declares, and whether it is
/// launched cooperatively.
void addLaunchFacts(WitnessRecord &R, const clang::cuda_tidy::LaunchModel &M,
                    bool NeedsGrid);

/// The kernel \p F is, or the first of \p Kernels that calls it (directly
/// or through up to three functions); null when none does.
const FunctionDecl *
kernelReaching(const FunctionDecl *F,
               llvm::ArrayRef<const FunctionDecl *> Kernels);

/// The function whose body holds \p S; null when none does.
const FunctionDecl *enclosingFunction(const Stmt *S, ASTContext &Context);

/// What the confirmations.json that CUDA_TIDY_CONFIRMATIONS names
/// (cuda-tidy-confirm's) says of the warning of \p Check at \p Where:
/// "confirmed on NVIDIA H200: racecheck, ...", the note cuda-clangd shows
/// under it; none when it names no such warning (or no file is set).
std::optional<std::string> confirmationNote(llvm::StringRef Check,
                                            SourceLocation Where,
                                            const SourceManager &SM);

/// Adds confirmationNote's note, if any, under the warning of \p Check
/// (named \p Name) at \p Where.
void noteConfirmation(ClangTidyCheck &Check, llvm::StringRef Name,
                      SourceLocation Where, const SourceManager &SM);

/// Appends \p R as one JSON line to the file CUDA_TIDY_WITNESS_FILE names.
void writeWitness(const WitnessRecord &R, ASTContext &Context);

} // namespace clang::tidy::cuda_tidy

#endif // CUDA_TIDY_WITNESSRECORD_H
