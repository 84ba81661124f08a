//===- TileGPU.h - the tile_gpu layout dialect ------------------*- C++ -*-===//
#ifndef TESSEL_DIALECT_TILEGPU_IR_TILEGPU_H
#define TESSEL_DIALECT_TILEGPU_IR_TILEGPU_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace tessel::tile_gpu {
/// Shared memory written asynchronously and made visible by a wait on a barrier (Hopper's bulk
/// tensor copies, completed on an mbarrier): an op that declares its write on this resource
/// needs a barrier before it when other threads may still read or write those bytes, but none
/// after it, as every reader waits for the barrier itself (tile-gpu-insert-barriers).
struct AsyncWriteResource : public mlir::SideEffects::Resource::Base<AsyncWriteResource> {
  llvm::StringRef getName() final { return "<AsyncWrite>"; }
};

/// True for the resources whose effects touch a buffer's bytes (memory: the default resource,
/// or AsyncWriteResource); an effect on any other resource is on hardware state that the
/// bytes hold (an adapter's barrier), which the allocator keeps until it is freed and the
/// barrier pass leaves to the adapter.
inline bool isMemoryResource(mlir::SideEffects::Resource *resource) {
  return llvm::isa<mlir::SideEffects::DefaultResource, AsyncWriteResource>(resource);
}
} // namespace tessel::tile_gpu

#include "tessel/Dialect/TileGPU/IR/TileGPUDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUTypes.h.inc"

#define GET_OP_CLASSES
#include "tessel/Dialect/TileGPU/IR/TileGPUOps.h.inc"

#include "tessel/Dialect/TileGPU/IR/Layout.h"

namespace tessel::tile_gpu {
/// True for an op whose lowering may stage data through scratch shared memory (layout
/// conversions, trans, reshape, cross-warp reductions and scans, FMA dots, atomics whose old
/// value every thread reads): tile-gpu-allocate-shared-memory places its scratch past the live
/// buffers and tile-gpu-insert-barriers treats it as touching all of shared memory.
bool mayUseScratch(mlir::Operation *op);

/// The shape a tile of `shape` takes on the GPU: each dimension rounded up to a power of two, as
/// tile-gpu-pad-shapes lays it out (its logical shape kept in tile_gpu.logical_shape).
llvm::SmallVector<int64_t> paddedShape(llvm::ArrayRef<int64_t> shape);

/// Adds the bytes [lo, hi) to `op`'s tile_gpu.scratch_held (pairs kept sorted): bytes past its
/// scratch_offset that hold hardware state (a barrier not invalidated), which the lowering
/// places the op's scratch clear of.
void addScratchHeld(mlir::Operation *op, int64_t lo, int64_t hi);

/// The stage of a ring (a local_alloc of S stages) that a memdesc_index selects. The pipeline
/// indexes rings with `(x + c) % S` (or a constant c; x is then null), which tells stages of one
/// iteration apart; `known` is false for any other index (only the ring is known).
struct RingStage {
  LocalAllocOp ring;
  mlir::Value x;
  int64_t c = 0, stages = 0;
  bool known = true;
};
/// The ring stage `memdesc` designates; none when it is not a memdesc_index of a local_alloc.
std::optional<RingStage> getRingStage(mlir::Value memdesc);
} // namespace tessel::tile_gpu
#include "tessel/Dialect/TileGPU/IR/LinearLayout.h"

#endif // TESSEL_DIALECT_TILEGPU_IR_TILEGPU_H
