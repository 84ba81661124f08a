//===- TileDebugOps.cpp - device_print and device_assert ------------------===//
//
// Verifiers of tile.print and tile.assert (TileOps.td describes them).
//
//===----------------------------------------------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"

using namespace mlir;
using namespace tessel::tile;

LogicalResult PrintOp::verify() {
  // Operands that are tiles share one shape: each printed line shows one element of each.
  ArrayRef<int64_t> shape;
  for (Value v : getArgs())
    if (auto t = dyn_cast<RankedTensorType>(v.getType())) {
      if (!shape.empty() && t.getShape() != shape)
        return emitOpError("prints tiles of one shape per line; got ")
               << t << " after a tile of shape [" << shape << "]";
      shape = t.getShape();
    }
  return success();
}
