//===- LinearLayout.h - layouts as linear maps over bits --------*- C++ -*-===//
//
// Every distributed layout of a power-of-two tile is a linear map over GF(2) from the bits of
// (register, lane, warp) to the bits of the element's coordinates: each input bit has a basis
// vector (the coordinates it selects), and a thread's element is the XOR of the bases of the
// bits that are set:
//
//   coord(r, l, w) = XOR_{i: r_i = 1} reg[i]  ^  XOR_{i: l_i = 1} lane[i]  ^  XOR_{i: w_i = 1}
//   warp[i]
//
// A zero basis means replication (lanes or warps that hold the same elements). This is the
// model of Triton's linear layouts, restricted to what Tessel needs: it gives one index
// computation for blocked, slice, mma, mfma, wmma and dot-operand layouts, and lets tests compare
// layouts instead of special-casing each pair.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILEGPU_IR_LINEARLAYOUT_H
#define TESSEL_DIALECT_TILEGPU_IR_LINEARLAYOUT_H

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/SmallVector.h"
#include <array>
#include <optional>
#include <string>

namespace tessel::tile_gpu {

struct LinearLayout {
  enum Input { Register = 0, Lane = 1, Warp = 2 };
  using Coord = llvm::SmallVector<int64_t, 2>;

  /// Tensor shape (powers of two); every coordinate is taken modulo it.
  llvm::SmallVector<int64_t> shape;
  /// bases[in][i]: coordinates selected by bit i of input `in`.
  std::array<llvm::SmallVector<Coord>, 3> bases;

  unsigned numRegisters() const { return 1u << bases[Register].size(); }
  unsigned numLanes() const { return 1u << bases[Lane].size(); }
  unsigned numWarps() const { return 1u << bases[Warp].size(); }

  /// Appends a basis for the next bit of `in`; coordinates are reduced modulo the shape.
  void addBasis(Input in, Coord c);
  /// Coordinates of register `reg` of lane `lane` in warp `warp`.
  Coord apply(unsigned reg, unsigned lane, unsigned warp) const;
  /// The XOR of the bases of the set bits of `value` for one input.
  Coord applyInput(Input in, unsigned value) const;
  /// True when every element of the tensor is held by some (register, lane, warp).
  bool isSurjective() const;
  bool operator==(const LinearLayout &o) const { return shape == o.shape && bases == o.bases; }
  std::string toString() const;

  //===--- helpers for address math (base + constant per register) ----------===//
  /// True when, in every dimension, no coordinate bit is set both by a register basis and by a
  /// lane or warp basis: a thread's coordinates are then (lane/warp part) + (register part),
  /// so an address is one run-time base plus a compile-time offset per register.
  bool registersDisjointFromThreads() const;
  /// Consecutive registers that hold consecutive elements along `dim` starting at register 0:
  /// 2^n when register bases 0..n-1 are (.., 1, ..), (.., 2, ..), ... along `dim` alone.
  unsigned contiguousRegisters(unsigned dim) const;
  /// How many of the highest coordinate bits of `dim` no lane or warp basis touches: 2^n
  /// slices along `dim` can then be told apart by the register index alone.
  unsigned registerOnlyHighBits(unsigned dim) const;
};

/// The linear layout of a tensor type with a blocked, slice, mma, mfma, wmma or dot_op encoding,
/// for the lanes of its warp; nullopt for other encodings or non-power-of-two shapes. Registers are
/// numbered as the lowering packs them (ThreadElems order for blocked and slice layouts).
std::optional<LinearLayout> toLinearLayout(mlir::RankedTensorType type);

/// Number of elements a thread holds of `type` (its LLVM struct's length); 0 when the
/// encoding is not a distributed layout.
unsigned getElemsPerThread(mlir::RankedTensorType type);

/// Warp size a matrix-unit encoding implies (32 for mma and wmma, 64 for mfma); 0 for others.
unsigned getImpliedWarpSize(mlir::Attribute encoding);

} // namespace tessel::tile_gpu

#endif // TESSEL_DIALECT_TILEGPU_IR_LINEARLAYOUT_H
