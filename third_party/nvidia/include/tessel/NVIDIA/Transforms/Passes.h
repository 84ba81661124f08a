//===- Passes.h - the NVIDIA adapter's layout passes ------------*- C++ -*-===//
#ifndef TESSEL_NVIDIA_TRANSFORMS_PASSES_H
#define TESSEL_NVIDIA_TRANSFORMS_PASSES_H

#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/NVIDIA/Dialect/TileNV.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace tessel::tile_nv {
#define GEN_PASS_DECL
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tessel/NVIDIA/Transforms/Passes.h.inc"
} // namespace tessel::tile_nv

#endif // TESSEL_NVIDIA_TRANSFORMS_PASSES_H
