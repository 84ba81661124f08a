//===- TileGPU.h - the tile_gpu layout dialect ------------------*- C++ -*-===//
#ifndef TESSEL_DIALECT_TILEGPU_IR_TILEGPU_H
#define TESSEL_DIALECT_TILEGPU_IR_TILEGPU_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessel/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUOps.h.inc"

#include "tessel/Dialect/TileGPU/IR/Layout.h"
#include "tessel/Dialect/TileGPU/IR/LinearLayout.h"

#endif // TESSEL_DIALECT_TILEGPU_IR_TILEGPU_H
