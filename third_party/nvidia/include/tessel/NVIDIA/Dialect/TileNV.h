//===- TileNV.h - the tile_nv dialect ---------------------------*- C++ -*-===//
#ifndef TESSEL_NVIDIA_DIALECT_TILENV_H
#define TESSEL_NVIDIA_DIALECT_TILENV_H

#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "tessel/NVIDIA/Dialect/TileNVDialect.h.inc"

#define GET_OP_CLASSES
#include "tessel/NVIDIA/Dialect/TileNVOps.h.inc"

#endif // TESSEL_NVIDIA_DIALECT_TILENV_H
