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

def TileStripDeviceAsserts : Pass<"tile-strip-device-asserts", "mlir::ModuleOp"> {
  let summary = "Remove tile.assert (device_assert) from a compile without --debug";
  let description = [{
    device_assert checks cost instructions and registers in every program, so, as Triton keeps
    them only under TRITON_DEBUG, tesselc keeps them only with --debug and runs this pass
    otherwise. tile.print (device_print) stays: asking for output is asking for it.
  }];
}

def TileLowerBlockPointers : Pass<"tile-lower-block-pointers", "mlir::ModuleOp"> {
  let summary = "Replace block pointers by their components and masked loads and stores";
  let description = [{
    Every !tile.block_ptr value becomes its components: the base pointer and i64 shape,
    strides and offsets. tile.advance adds to the offsets; scf.for, scf.if and scf.while carry
    the components instead (an scf.for iter_arg that the body only advances carries its
    offsets alone). A load or store through a block pointer becomes one through a tile of
    pointers with the interpreter's semantics:

      tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x32xf16>>
        ->
      %ptrs = base + sum_d (offset_d + arange(0, B_d)) * stride_d       (64-bit, broadcast)
      %mask = AND over the checked d of 0 <= offset_d + arange(0, B_d) < shape_d
      tile.load %ptrs, %mask, %zeros                                     (padding nan: NaNs)

    without a mask when no dimension is checked and without `other` when there is no padding
    (out-of-bounds lanes are undefined); a store writes nothing for out-of-bounds lanes. The
    addresses are a scalar start plus per-lane offsets; along the first dimension of `order`
    whose stride is the constant 1 the lanes are contiguous (AxisInfo vectorizes them), the
    other dimensions count their lanes from 1 so that AxisInfo derives their rows' alignment
    from the stride. A load that the target keeps for its bulk tensor copies
    (TargetInfo::loadsBlockThroughTensorMap, asked on the input) stays a block-pointer load,
    through a tile.make_block_ptr of the current components right before it. Loops around
    the new accesses get loop-invariant code motion. Block pointers passed to functions or
    through other ops are errors.
  }];
  let options = [
    Option<"target", "target", "std::string", "\"\"",
           "target (default: the module's tile.target)">
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::mlir::scf::SCFDialect"];
}

def TileGPUPadShapes : Pass<"tile-gpu-pad-shapes", "mlir::ModuleOp"> {
  let summary = "Pad tiles whose dimensions are not powers of two, masking the padding off";
  let description = [{
    GPU layouts tile power-of-two shapes. Every dimension that is not one is padded to the next
    power of two (arange(0, 48) becomes arange(0, 64)), and the padding is kept out of every
    result: loads, stores and atomic_rmw AND their mask with "index < logical size" (padding
    lanes touch no memory), assert conditions hold in padding lanes, a reduce along a padded
    axis (and a reverse scan) sees its combiner's identity there (add, mul, max, min, and, or,
    xor) or, for other combiners, carries an i1 validity operand that makes padding elements
    drop out of the combination. Ops whose results were padded carry `tile_gpu.logical_shape`
    (the unpadded shape of their first padded tile result). dot, atomic_cas, print, block-pointer
    accesses and reshapes that would move elements across padding get a located error instead.
    Power-of-two kernels are left untouched.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect", "::tessel::tile_gpu::TileGPUDialect"];
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
    layout a conversion asks for. A conversion feeding only a narrowing cast moves after it. A
    conversion out of a matrix unit's accumulator layout moves below the element-wise ops it
    feeds whose other operands rebuild in that layout (cheap producers, and rows or columns
    broadcast over the tile, converted to slices of the accumulator's layout), when the values
    leaving them convert fewer bytes: a GEMM epilogue runs in the accumulator's layout and
    converts the narrowed result.
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

def TileGPUPipeline : Pass<"tile-gpu-pipeline", "mlir::ModuleOp"> {
  let summary = "Software-pipeline the loads that feed a loop's matrix-unit dots";
  let description = [{
    In an scf.for, a tile.load whose only use is a convert_layout to a dot operand is staged
    into a ring of `num_stages` shared-memory buffers num_stages - 1 iterations ahead and read
    back with a local_load. The adapter says how (TargetInfo::getDotOperandStaging): an
    asynchronous copy (NVIDIA sm_80+: cp.async, read back through ldmatrix), or a load into
    registers whose local_store comes after the dot (AMD's global -> LDS staging; NVIDIA runs
    narrower than 4 bytes). The schedule, per iteration k of the new loop:

      async_wait {num = num_stages - 2}       // (async copies) iteration k's have landed
      local_load ring[k % num_stages]          // (tile-gpu-insert-barriers puts a barrier first)
      async_copy ... -> ring[(k + num_stages - 1) % num_stages]; async_commit_group
      %next = tile.load ...                    // (register staging) iteration k + num_stages - 1
      ... the rest of the body (the dot) ...
      local_store %next -> ring[(k + num_stages - 1) % num_stages]

    with a prologue issuing iterations 0 .. num_stages - 2 and an async_wait {num = 0} after
    the loop. The address computation of the pipelined loads (their backward slice in the body,
    including loop-carried pointers advanced by the loop) is cloned for the iteration ahead;
    copies past the loop's end are masked off. The ring's placement is the adapter's
    (TargetInfo::getDotOperandSharedEncoding; default swizzled, AMD padded), and a ring has
    TargetInfo::getDotOperandExtraStages more stages than the schedule needs where the matrix
    unit still reads an earlier stage when the copies are issued (NVIDIA wgmma). A load is left
    synchronous when the adapter declines it (dtype, layout, register budget), when `other` is
    not zero, or when its address depends on values the loop computes otherwise. Reads
    num_stages from the kernel's `tile.num_stages` (1 disables).

    A loop whose loads are the adapter's bulk tensor copies (TMA), directly in the body of
    another scf.for (a persistent kernel's loop over tiles), gets its rings and their barriers
    once, before that loop, and its iteration count starts at the count the tile loop carries
    (the sum of the earlier tiles' trip counts) instead of 0: every stage index and barrier
    phase is then count % stages and count / stages across all of a program's tiles, with no
    barrier initialized twice, and the ring stays allocated through the epilogue (whose
    scratch goes past it).
  }];
  let options = [
    Option<"target", "target", "std::string", "\"\"",
           "target (default: the module's tile.target)">,
    Option<"perfFallbackError", "perf-fallback-error", "bool", "false",
           "lowering num_stages to fit shared memory is an error instead of a remark">
  ];
  let dependentDialects = ["::tessel::tile_gpu::TileGPUDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def TileGPUSplitDotK : Pass<"tile-gpu-split-dot-k", "mlir::ModuleOp"> {
  let summary = "Read a dot's shared-memory operands K slice by K slice";
  let description = [{
    A tile.dot on a matrix-unit layout whose operands are both local_loads (the pipelined
    GEMM's) becomes a chain of dots over K slices of `k-slice` elements, each reading its
    operands through memdesc_subview right before it:

      %a = local_load %sa : memdesc<128x64xf16>     %a0 = local_load (memdesc_subview %sa[0, 0])
      %b = local_load %sb : memdesc<64x256xf16>  -> %b0 = local_load (memdesc_subview %sb[0, 0])
      %d = tile.dot %a, %b, %acc                    %d0 = tile.dot %a0, %b0, %acc
                                                    ... K / k-slice times, %d = the last one

    so that the operand registers of one slice are live at a time, not the whole K extent:
    on 8 warps a 128x256 tile holds 128 accumulator registers per thread, and its 128x64 and
    64x256 operands 128 more; a 16-wide slice holds 32. The sum runs over K in the same order.
    (Triton's Prefetch pass slices dots the same way.) `k-slice` 0 (the default) takes one
    matrix-unit K step of 16-bit operands: 16 elements; dots of other operand widths are left
    whole.
  }];
  let options = [
    Option<"kSlice", "k-slice", "int64_t", "0",
           "elements of K per slice (0: 16, the K of mma.sync m16n8k16)">
  ];
  let dependentDialects = ["::tessel::tile_gpu::TileGPUDialect"];
}

def TileGPUAllocateSharedMemory : Pass<"tile-gpu-allocate-shared-memory", "mlir::ModuleOp"> {
  let summary = "Give every shared-memory buffer an offset from its live range";
  let description = [{
    A buffer (tile_gpu.local_alloc) lives from its allocation to its last use through
    memdesc_index, local_load, local_store and async copies; a use inside a loop that the
    allocation is outside of keeps it alive to the loop's end. Buffers are placed first-fit, in
    order of allocation, at 16-byte aligned offsets that no buffer live at the same time covers
    (`offset` on local_alloc). Ops whose lowering may use scratch (tile_gpu::mayUseScratch) get
    `tile_gpu.scratch_offset`: the end of the buffers live there, so that the scratch of the
    epilogue's layout conversion reuses the pipeline's ring once the loop is done, and
    `tile_gpu.scratch_held`: the [lo, hi) bytes past that start of buffers whose live range has
    ended but which still hold hardware state (an adapter's barrier never invalidated: their
    bytes are not reused), which the lowering's scratch steps over. The kernel's
    total shared memory (buffers and scratch) is known after the lowering (`tile_gpu.shared`).
  }];
}

def TileGPUInsertBarriers : Pass<"tile-gpu-insert-barriers", "mlir::ModuleOp"> {
  let summary = "Insert barriers between conflicting shared-memory accesses of different threads";
  let description = [{
    Walks each kernel tracking the buffer accesses since the last barrier; before a read of a
    buffer (stage) with a pending write, or a write with a pending read or write, it inserts
    tile_gpu.barrier. Stages of a ring are told apart when their indices are
    `(x + c1) % S` and `(x + c2) % S` of the same x with c1 != c2 (mod S) in one iteration;
    across a loop's back edge the whole buffer counts. Ops that may use scratch bring their own
    barriers and count as touching all of shared memory. Loops are analysed to a fixpoint
    (accesses pending at the end of the body reach its start).
  }];
  let dependentDialects = ["::tessel::tile_gpu::TileGPUDialect"];
}

#endif // TESSEL_TRANSFORMS_PASSES_TD
