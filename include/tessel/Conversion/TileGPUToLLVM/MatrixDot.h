//===- MatrixDot.h - what every matrix-unit dot lowering reads --*- C++ -*-===//
//
// The adapters lower tile.dot to their matrix instructions (mma.sync, MFMA, WMMA) from
// operands already in dot_op layouts. Each starts from the same view of the op: the operand
// types, a's dot_op encoding, the result's encoding, the problem's size and warps, and this
// thread's registers of a, b and c.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_CONVERSION_TILEGPUTOLLVM_MATRIXDOT_H
#define TESSEL_CONVERSION_TILEGPUTOLLVM_MATRIXDOT_H

#include "tessel/Conversion/TileGPUToLLVM/Utility.h"

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <optional>

namespace tessel {

/// A tile.dot whose result has the matrix-unit encoding `EncT` (MmaEncodingAttr,
/// MfmaEncodingAttr, WmmaEncodingAttr): a is M x K, b K x N, on wm x wn warps. validM x validN
/// is the product's part of the result: tile-gpu-pad-shapes' logical shape on the dot when it
/// padded M or N to a power of two (BLOCK_N = 96 in 128), else M x N.
template <class EncT> struct MatrixDot {
  mlir::RankedTensorType aType, bType, dType;
  tile_gpu::DotOperandEncodingAttr aEnc;
  EncT enc;
  int64_t M, N, K, wm, wn, validM, validN;

  /// The view of `op`, or nullopt unless a is in a dot_op layout and the result in `EncT`.
  static std::optional<MatrixDot> match(tile::DotOp op) {
    MatrixDot dot;
    dot.aType = mlir::cast<mlir::RankedTensorType>(op.getA().getType());
    dot.bType = mlir::cast<mlir::RankedTensorType>(op.getB().getType());
    dot.dType = mlir::cast<mlir::RankedTensorType>(op.getD().getType());
    dot.aEnc = mlir::dyn_cast_if_present<tile_gpu::DotOperandEncodingAttr>(dot.aType.getEncoding());
    dot.enc = mlir::dyn_cast_if_present<EncT>(dot.dType.getEncoding());
    if (!dot.aEnc || !dot.enc)
      return std::nullopt;
    dot.M = dot.aType.getDimSize(0);
    dot.K = dot.aType.getDimSize(1);
    dot.N = dot.bType.getDimSize(1);
    dot.wm = dot.enc.getWarpsPerCTA()[0];
    dot.wn = dot.enc.getWarpsPerCTA()[1];
    dot.validM = dot.M;
    dot.validN = dot.N;
    if (auto logical = op->getAttrOfType<mlir::DenseI64ArrayAttr>(
            tile_gpu::TileGPUDialect::getLogicalShapeAttrName());
        logical && logical.size() == 2) {
      dot.validM = std::clamp<int64_t>(logical[0], 1, dot.M);
      dot.validN = std::clamp<int64_t>(logical[1], 1, dot.N);
    }
    return dot;
  }

  /// Of `reps` repetitions along a dimension whose instruction covers `instr` rows or columns
  /// on each of `warps` warps (repetition r spans [r * instr * warps, (r + 1) * instr * warps)
  /// in every matrix-unit layout here), those that reach below `valid`: the rest hold only
  /// padding, for every warp, and keep c's registers unmultiplied.
  static int64_t usedReps(int64_t reps, int64_t instr, int64_t warps, int64_t valid) {
    return std::min<int64_t>(reps, llvm::divideCeil(valid, instr * warps));
  }
};

/// This thread's registers of a dot's a, b and c, unpacked in that order.
struct DotRegisters {
  llvm::SmallVector<mlir::Value> a, b, c;
};
inline DotRegisters unpackDotOperands(mlir::OpBuilder &b, mlir::Location loc,
                                      tile::DotOp::Adaptor adaptor) {
  // A braced list evaluates in order: the unpacking IR stays a, b, c.
  return DotRegisters{unpackStruct(b, loc, adaptor.getA()), unpackStruct(b, loc, adaptor.getB()),
                      unpackStruct(b, loc, adaptor.getC())};
}

} // namespace tessel

#endif // TESSEL_CONVERSION_TILEGPUTOLLVM_MATRIXDOT_H
