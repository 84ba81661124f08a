//===- Passes.h - Tessel's tile-level and layout passes ---------*- C++ -*-===//
#ifndef TESSEL_TRANSFORMS_PASSES_H
#define TESSEL_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"
#include "tessel/Dialect/Tile/IR/Tile.h"
#include "tessel/Dialect/TileGPU/IR/TileGPU.h"

namespace tessel {
#define GEN_PASS_DECL
#include "tessel/Transforms/Passes.h.inc"
#define GEN_PASS_REGISTRATION
#include "tessel/Transforms/Passes.h.inc"
} // namespace tessel

#endif // TESSEL_TRANSFORMS_PASSES_H
