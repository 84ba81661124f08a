//===- Passes.td - Tessel's tile-level and layout passes ---*- tablegen -*-===//
#ifndef TESSEL_TRANSFORMS_PASSES_TD
#define TESSEL_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileCombine : Pass<"tile-combine", "mlir::ModuleOp"> {
  let summary = "Keep uniform parts of pointer arithmetic scalar and tile offsets narrow";
  let description = [{
    Rewrites pointer arithmetic so that the per-program part stays scalar and the per-lane part
    is as narrow as possible (all exact, since tile.addptr is exact in 64 bits):
      addptr(splat(p), splat(s))            -> splat(addptr(p, s))
      addptr(splat(p), splat(s) + t)        -> addptr(splat(addptr(p, s)), t)
      addptr(addptr(p, a), b)               -> addptr(p, a + b)      (same offset type)
      addptr(x, extsi(t))                   -> addptr(x, t)
    so that `x + pid * BLOCK + arange(0, BLOCK)` computed in i64 becomes one scalar base and i32
    lane offsets.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def TileGPUAssignLayouts : Pass<"tile-gpu-assign-layouts", "mlir::ModuleOp"> {
  let summary = "Give every tile a distributed layout (blocked or slice)";
  let description = [{
    Groups tiles that must share a layout (operands and results of element-wise ops, loads,
    stores, loop-carried values), relates the groups through expand_dims and reduce (slices),
    and gives each root group a blocked layout: the fastest dimension is the most contiguous one
    of its pointers, elements per thread along it the widest vector its loads and stores allow
    (AxisInfo), lanes then warps fill the shape, warps avoiding reduced dimensions so reductions
    stay inside a warp. Cheap producers (arange, splat, constants) are duplicated per use first;
    remaining conflicts get a tile_gpu.convert_layout. Reads num_warps from `tile.num_warps`.
  }];
  let options = [
    Option<"threadsPerWarp", "threads-per-warp", "unsigned", "32", "lanes per warp">
  ];
  let dependentDialects = ["::tessel::tile_gpu::TileGPUDialect"];
}

def TileGPURemoveLayoutConversions : Pass<"tile-gpu-remove-layout-conversions",
                                           "mlir::ModuleOp"> {
  let summary = "Remove layout conversions that are not needed";
  let description = [{
    Folds chains of conversions, removes conversions to the same layout, and rematerializes
    cheap producers (splat, arange, constants, and element-wise ops of them) directly in the
    layout a conversion asks for.
  }];
}

def TileGPUAccelerateMatmul : Pass<"tile-gpu-accelerate-matmul", "mlir::ModuleOp"> {
  let summary = "Put each tile.dot on the target's matrix unit, or keep it on FMA with a remark";
  let description = [{
    Asks the target adapter for the first legal entry of its ordered matrix-unit candidates
    (docs/GPUBackends.md lists them per target). When one fits, the dot's result takes its
    accumulator layout, a and b are converted to dot_op layouts tied to it, and the result is
    converted back for its users; an accumulator carried by an scf.for keeps the matrix-unit
    layout across iterations (conversions move out of the loop). When none fits, the dot stays
    in its blocked layout (the FMA lowering) and a remark at the dot's source line names the
    reason; with `perf-fallback-error` the remark is an error (tesselc --Werror=perf-fallback).
  }];
  let options = [
    Option<"target", "target", "std::string", "\"\"",
           "target (default: the module's tile.target)">,
    Option<"perfFallbackError", "perf-fallback-error", "bool", "false",
           "a dot that falls back to FMA is an error instead of a remark">
  ];
  let dependentDialects = ["::tessel::tile_gpu::TileGPUDialect"];
}

#endif // TESSEL_TRANSFORMS_PASSES_TD
