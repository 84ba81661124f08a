//===- TileTypes.cpp - tile dialect types ---------------------------------===//
#include "tessel/Dialect/Tile/IR/Tile.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tessel::tile;

#define GET_TYPEDEF_CLASSES
#include "tessel/Dialect/Tile/IR/TileTypes.cpp.inc"

LogicalResult PtrType::verify(function_ref<InFlightDiagnostic()> emitError, Type pointeeType,
                              unsigned addressSpace) {
  if (!pointeeType.isIntOrFloat() || pointeeType.isIndex())
    return emitError() << "!tile.ptr pointee must be an integer or float type, got " << pointeeType;
  return success();
}

LogicalResult BlockPtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   RankedTensorType blockType) {
  if (!blockType.hasStaticShape())
    return emitError() << "!tile.block_ptr block must have a static shape, got " << blockType;
  if (!blockType.getElementType().isIntOrFloat())
    return emitError() << "!tile.block_ptr block elements must be integers or floats, got "
                       << blockType.getElementType();
  return success();
}

void TileDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "tessel/Dialect/Tile/IR/TileTypes.cpp.inc"
      >();
}
