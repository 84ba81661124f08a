//===- Specialize.h - divisibility specialization of variants ---*- C++ -*-===//
//
// Triton specializes integer arguments that are multiples of 16 when it JIT-compiles. Tessel
// compiles ahead of time, so tesselc emits, next to a GPU variant, a specialized twin in which
// the integer arguments whose divisibility would widen some load or store are assumed to be
// multiples of kSpecializationDivisibility, and those whose being 1 widens an access (unit
// strides) equal to 1; the runtime picks the twin when the launch's values satisfy it (and
// checks them). With n_cols a multiple of 8, a masked bf16 row is read in
// 16-byte vectors even when it is 1000 elements wide.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DRIVER_SPECIALIZE_H
#define TESSEL_DRIVER_SPECIALIZE_H

#include "tessel/Driver/Metadata.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <map>
#include <string>
#include <vector>

namespace tessel::driver {

/// 8 elements: a 16-byte vector of 16-bit types, two of 32-bit ones.
inline constexpr int kSpecializationDivisibility = 8;

/// What a specialized twin assumes of the kernel's integer arguments (argument indices).
struct Specialization {
  std::vector<unsigned> multiples; ///< multiples of the divisibility
  std::vector<unsigned> ones;      ///< equal to 1 (unit strides: Triton specializes them too)
  bool empty() const { return multiples.empty() && ones.empty(); }
};

/// The assumptions that widen some tile load or store of `kernel`: arguments equal to 1 (each
/// kept only if it widens an access), then the multiples some access needs. Empty when no
/// assumption helps.
Specialization findSpecialization(mlir::func::FuncOp kernel, int divisibility);

/// Rewrites `kernel` under `s`: multiples get `tile.divisibility`, ones get `tile.equal_to = 1`
/// and their uses become the constant 1 (folded away).
void applySpecialization(mlir::func::FuncOp kernel, const Specialization &s, int divisibility);

/// A twin asked for by name (tesselc --twin=SUFFIX:ARG=1,ARG=0,ARG%N,...): the arguments
/// assumed equal to 1 (unit strides), those assumed 0 (offsets that vanish, such as RoPE's
/// cos_half_offset for tables of D/2 columns), and per factor N those assumed multiples of N.
struct TwinRequest {
  std::string suffix;
  std::vector<unsigned> ones, zeros;
  std::map<int, std::vector<unsigned>> multiples;
};

/// Parses `text` against the variant's arguments (integer scalars only). On failure `error`
/// names the item that is not ARG=1, ARG=0 or ARG%N.
std::optional<TwinRequest>
parseTwinRequest(llvm::StringRef text, const std::vector<ArgMetadata> &args, std::string &error);

/// Rewrites `kernel` under `r` and records the promises in `args` (divisibility, equal_to).
void applyTwinRequest(mlir::func::FuncOp kernel, const TwinRequest &r,
                      std::vector<ArgMetadata> &args);

} // namespace tessel::driver

#endif // TESSEL_DRIVER_SPECIALIZE_H
