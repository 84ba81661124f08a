//===- TileNV.h - the tile_nv dialect ---------------------------*- C++ -*-===//
#ifndef TESSEL_NVIDIA_DIALECT_TILENV_H
#define TESSEL_NVIDIA_DIALECT_TILENV_H

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tessel::tile_nv {
/// An mbarrier's phase and pending transaction count (see TileNVOps.td).
struct MBarrierStateResource : public mlir::SideEffects::Resource::Base<MBarrierStateResource> {
  llvm::StringRef getName() final { return "<MBarrierState>"; }
};
} // namespace tessel::tile_nv

#include "tessel/NVIDIA/Dialect/TileNVDialect.h.inc"

#define GET_OP_CLASSES
#include "tessel/NVIDIA/Dialect/TileNVOps.h.inc"

#endif // TESSEL_NVIDIA_DIALECT_TILENV_H
