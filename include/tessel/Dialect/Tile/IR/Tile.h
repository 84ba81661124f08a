//===- Tile.h - the tile dialect --------------------------------*- C++ -*-===//
//
// Include this to use the tile dialect: its dialect class, types, attributes and ops.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DIALECT_TILE_IR_TILE_H
#define TESSEL_DIALECT_TILE_IR_TILE_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessel/Dialect/Tile/IR/TileDialect.h.inc"
#include "tessel/Dialect/Tile/IR/TileEnums.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessel/Dialect/Tile/IR/TileTypes.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/Tile/IR/TileAttrs.h.inc"

#define GET_OP_CLASSES
#include "tessel/Dialect/Tile/IR/TileOps.h.inc"

namespace tessel::tile {

/// The pointee type of a !tile.ptr, of the element of a tile of them, or the block tensor type
/// of a !tile.block_ptr; null for anything else.
mlir::Type getPointeeType(mlir::Type ptrLike);

/// The shape of a tile type; empty for a scalar.
llvm::ArrayRef<int64_t> getShapeOrScalar(mlir::Type type);

/// `elementType` with the shape (and layout encoding) of `like`; a scalar when `like` is one.
mlir::Type withShapeOf(mlir::Type like, mlir::Type elementType);

/// True when `a` and `b` have the same shape and element type, whatever their encodings.
bool sameShapeAndElementType(mlir::Type a, mlir::Type b);

/// True when `op` is a func.func marked `tile.kernel`.
bool isKernel(mlir::Operation *op);

/// "[64, 128]" for diagnostics; "scalar" for rank 0.
std::string shapeToString(llvm::ArrayRef<int64_t> shape);

} // namespace tessel::tile

#endif // TESSEL_DIALECT_TILE_IR_TILE_H
