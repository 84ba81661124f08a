//===- Passes.td - the NVIDIA adapter's layout passes ------*- tablegen -*-===//
#ifndef TESSEL_NVIDIA_TRANSFORMS_PASSES_TD
#define TESSEL_NVIDIA_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TileNVWarpgroupDot : Pass<"tile-nv-warpgroup-dot", "mlir::ModuleOp"> {
  let summary = "tile.dot in a wgmma (mma version 3) layout onto tile_nv.warpgroup_dot";
  let description = [{
    wgmma reads A and B from shared memory. A dot whose result has an mma version 3 layout
    takes each operand from the buffer it was local_loaded from (the pipelined K loop's ring
    stage, placed by the adapter in the hardware-swizzled placement) or, for an operand in
    registers, from a new buffer it is stored to:

      %a = local_load %sa                 tile_nv.fence_async_shared
      %b = local_load %sb          ->     %t = tile_nv.warpgroup_dot %sa, %sb, %acc
      %d = tile.dot %a, %b, %acc          %d = tile_nv.warpgroup_dot_wait %t {pendings = 0}

    The fence makes the operands' ordinary and cp.async writes visible to wgmma's
    asynchronous proxy; it goes right after the last async_wait before the dot (where this
    thread's copies are complete), else right before the dot, so that the barrier
    tile-gpu-insert-barriers adds ahead of the read follows it.

    A dot in a loop that accumulates into an iteration argument keeps one group in flight
    (pendings = 1: iteration k's wgmma runs while iteration k + 1 waits for its copies and
    issues the next), with a wait for the last group after the loop, when the loop's writes to
    the operands' rings go to stages other than the one read and the one read the iteration
    before (the ring has the extra stage of TargetInfo::getDotOperandExtraStages). Other dots
    wait for their own group (pendings = 0).
  }];
  let dependentDialects = ["::tessel::tile_nv::TileNVDialect",
                           "::tessel::tile_gpu::TileGPUDialect"];
}

def TileNVTensorMapLoads : Pass<"tile-nv-tensor-map-loads", "mlir::ModuleOp"> {
  let summary = "Block-pointer loads kept for TMA that no pipeline staged: one copy in place";
  let description = [{
    A load the adapter keeps for its bulk tensor copies (TargetInfo::loadsBlockThroughTensorMap)
    is normally staged by tile-gpu-pipeline. One that was not (its loop's rings do not fit in
    shared memory even with two stages, or the loop is not innermost) is copied where it is:

      %t = tile.load %bp ...             buffer + one barrier (local_alloc)
      %a = convert_layout %t       ->    init_barrier, barrier_expect (box bytes), TMA copy,
                                         wait_barrier (phase 0), inval_barrier
                                         %a = local_load %buffer

    with a fresh barrier each time (initialized and invalidated around the copy), so the code
    is right in any loop nest; tile-gpu-insert-barriers orders the barrier's and the buffer's
    uses. Slower than the pipeline (three barriers per copy and no overlap) but never an error.
  }];
  let dependentDialects = ["::tessel::tile_nv::TileNVDialect",
                           "::tessel::tile_gpu::TileGPUDialect"];
}

def TileNVTensorMapStores : Pass<"tile-nv-tensor-map-stores", "mlir::ModuleOp"> {
  let summary = "Block-pointer stores kept for TMA: the tile through shared memory, one bulk copy";
  let description = [{
    A store the adapter keeps for a bulk tensor copy (TargetInfo::storesBlockThroughTensorMap,
    asked for by the kernel's tile.tma_store) becomes

      %v = convert_layout %acc            buffer (local_alloc, the copy's swizzled placement)
      tile.store %bp, %v            ->    local_store %acc, fence_async_shared, barrier,
                                          async_tma_copy_local_to_global (thread 0 issues it
                                          and waits until the buffer has been read)

    writing the value in the layout it was computed in (a layout conversion feeding only the
    store is skipped: the buffer takes its place). Where the tensor ends inside the box the
    copy writes nothing, as the store's boundary check would.
  }];
  let dependentDialects = ["::tessel::tile_nv::TileNVDialect",
                           "::tessel::tile_gpu::TileGPUDialect"];
}

def TileNVWarpSpecialize : Pass<"tile-nv-warp-specialize", "mlir::ModuleOp"> {
  let summary = "A producer warpgroup for the pipelined TMA + wgmma K loop (tile.warp_specialize)";
  let description = [{
    A kernel with `tile.warp_specialize` (the config's `warp_specialize`) runs after
    tile-gpu-insert-barriers. Its pipelined K loop has every warp both wait for and issue the
    TMA copies and run the wgmma; here one more warpgroup, after the num_warps warps the layouts
    cover (so no layout changes), issues the copies, and the others only compute (CUTLASS's
    and Triton's warp-specialized Hopper GEMM):

      allocs, full[s] inits                  allocs, full[s] inits, empty[s] inits (one arrival
      barrier                                  per consumer thread), barrier of all threads
      prologue: copies 0 .. S-2              if (thread_id >= num_warps * 32) {
      for k:                                   setmaxnreg.dec    (producer)
        wait full[k % R]                       for n:  wait empty[n % R] (parity n / R + 1),
        copies k + S - 1                               expect_tx + copies into full[n % R]
        wgmma; wait(1)                       } else {
      wait(0); epilogue                        setmaxnreg.inc    (consumers)
                                               for k:  wait full[k % R]; wgmma; wait(1);
                                                       arrive empty[(k - 1) % R] (k > 0)
                                               wait(0); epilogue
                                             }

    The producer's loop runs in its first warp (a branch on tile_nv.warp_id, which ptxas knows
    to be warp-uniform; nothing waits for the other three warps, which could otherwise fall
    two rounds of the ring behind, where the parity no longer tells phases apart), and its
    copies are issued by that warp's first thread (`leader`). Every barrier after the
    branch becomes `bar.sync 1, num_warps * 32` (tile_nv.named_barrier), and the lowering's
    own barriers in the kernel do the same (the producer never arrives). The kernel gets
    `tile.producer_warps = 4`: it launches num_warps + 4 warps (the metadata's num_warps).
    A kernel without such a loop is an error at its definition; one whose dot does not run on
    wgmma (f32 on FMA units) gets a warning and stays as it is.

    A persistent kernel's K loop in a loop over tiles (tile-gpu-pipeline set its rings up
    before it): the producer gets the tile loop with only the copies and their addresses, the
    consumers keep the whole loop. Each tile's consumers release its last stage right after
    the K loop, and every op of the tile loop that uses scratch moves past the empty ring, so
    the producer fills the next tile's stages while the consumers run the epilogue.
  }];
  let dependentDialects = ["::tessel::tile_nv::TileNVDialect",
                           "::tessel::tile_gpu::TileGPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

def TileNVClusterMulticast : Pass<"tile-nv-cluster-multicast", "mlir::ModuleOp"> {
  let summary = "Clusters of two CTAs that multicast the TMA copies they share (tile.cluster_size)";
  let description = [{
    A warp-specialized kernel (tile-nv-warp-specialize) with `tile.cluster_size = 2` (the
    config's `cluster_size`) runs in clusters of two programs along the grid's x, 2c and
    2c + 1 (the PTX entry gets `.reqnctapercluster 2, 1, 1`; the grid's x must be even). A
    TMA copy whose coordinates are the same in both programs (decided at run time: the pass
    computes them again for program_id(0) ^ 1) is read from L2 once: each CTA copies half of
    the box's rows into both CTAs (`multicast`, with a half-box tensor map added to the
    module). So that a stage is refilled only when both CTAs have read it:

      empty[s] inits: consumer threads       empty[s] inits: consumer threads + consumer warps
      barrier of all threads                 barrier of all threads, cluster barrier
      producer: copies                       producer: copies, `multicast %same`, then a
                                               cluster barrier after its loop
      consumers: arrive empty[s]             consumers: arrive empty[s]; lane 0 of each warp
                                               also arrives on the peer's empty[s] (`cta`);
                                               after the loop a cluster barrier, then the
                                               epilogue (whose scratch may reuse the rings)

    Both programs must run the same number of K iterations (an error otherwise, as for a
    copy computed in a way the pass cannot redo for the peer). A variant without a producer
    warpgroup (no TMA: no stride known to be 1) keeps one CTA per cluster, with a warning.
  }];
  let dependentDialects = ["::tessel::tile_nv::TileNVDialect",
                           "::tessel::tile_gpu::TileGPUDialect", "::mlir::scf::SCFDialect",
                           "::mlir::arith::ArithDialect"];
}

#endif // TESSEL_NVIDIA_TRANSFORMS_PASSES_TD
