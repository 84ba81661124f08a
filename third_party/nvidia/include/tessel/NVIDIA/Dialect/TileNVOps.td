//===- TileNVOps.td - NVIDIA-only ops that survive passes ---*- tablegen -*-===//
//
// The tile_nv dialect holds what the NVIDIA adapter must express in the layout IR because
// later passes (shared-memory allocation, barrier insertion) have to see it: Hopper's
// warpgroup matrix multiply, which reads its operands straight from shared memory and runs
// asynchronously, and the fences it needs. Everything else NVIDIA-specific is lowering detail
// and lives in the adapter's conversion patterns.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_NVIDIA_DIALECT_TILENVOPS_TD
#define TESSEL_NVIDIA_DIALECT_TILENVOPS_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "tessel/Dialect/Tile/IR/TileTypes.td"

def TileNV_Dialect : Dialect {
  let name = "tile_nv";
  let cppNamespace = "::tessel::tile_nv";
  let summary = "NVIDIA matrix-unit and asynchronous-proxy ops of the layout IR";
  let dependentDialects = ["::tessel::tile_gpu::TileGPUDialect"];
}

class TileNV_Op<string mnemonic, list<Trait> traits = []> : Op<TileNV_Dialect, mnemonic, traits>;

def TileNV_MemDesc : Type<CPred<"::llvm::isa<::tessel::tile_gpu::MemDescType>($_self)">,
                          "a shared-memory tile", "::tessel::tile_gpu::MemDescType">;

def TileNV_WarpgroupDotOp : TileNV_Op<"warpgroup_dot"> {
  let summary = "D = A B + C on Hopper's wgmma, operands in shared memory, asynchronous";
  let description = [{
    ```mlir
    %d = tile_nv.warpgroup_dot %a, %b, %c
           : !tile_gpu.memdesc<128x64xbf16, #shared_a>, !tile_gpu.memdesc<64x256xbf16, #shared_b>,
             tensor<128x256xf32, #mma3> -> tensor<128x256xf32, #mma3>
    ```
    A is (M, K), B is (K, N), both f16 or bf16 in a hardware-swizzled placement
    (`#tile_gpu.shared` with blockCols, getMmaSwizzledSharedEncoding), either dimension
    contiguous; C and D are f32 in an mma version 3 layout. Each warpgroup issues
    wgmma.mma_async.m64nNk16 over its rows and every 16-element step of K, after a wgmma.fence,
    and commits them as one group. The result's registers are not ready until a
    `warpgroup_dot_wait` that leaves fewer groups pending returns them; the operands' shared
    memory must not be overwritten before then. Writes to the operands through ordinary stores
    or cp.async must be made visible to the asynchronous proxy first (`fence_async_shared`,
    then a barrier).

    `valid_n` (optional): the columns of D before it are the product's, those from it on are
    padding (tile-gpu-pad-shapes pads a BLOCK_N such as 96 to 128): the instructions cover
    only the first valid_n columns, rounded up to wgmma's step of 8 (m64n96 for 96), and the
    padding's registers keep C's values. B's rows past valid_n are never read.
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "A (M, K)", [MemRead]>:$a,
                       Arg<TileNV_MemDesc, "B (K, N)", [MemRead]>:$b,
                       AnyRankedTensor:$c,
                       OptionalAttr<I64Attr>:$valid_n);
  let results = (outs AnyRankedTensor:$d);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` qualified(type($a)) `,` qualified(type($b)) `,` type($c)
    `->` type($d)
  }];
  let hasVerifier = 1;
}

def TileNV_WarpgroupDotWaitOp : TileNV_Op<"warpgroup_dot_wait", [AllTypesMatch<["inputs", "outputs"]>]> {
  let summary = "Wait until at most `pendings` warpgroup_dot groups of this warpgroup are in flight";
  let description = [{
    ```mlir
    %d2 = tile_nv.warpgroup_dot_wait %d {pendings = 0 : i32} : tensor<128x256xf32, #mma3>
    ```
    wgmma.wait_group: returns its inputs (results of earlier warpgroup_dots) once they are
    complete, so that their uses cannot move above the wait.
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, I32Attr:$pendings);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let assemblyFormat = "$inputs attr-dict `:` type($inputs)";
}

def TileNV_FenceAsyncSharedOp : TileNV_Op<"fence_async_shared"> {
  let summary = "Make this thread's shared-memory writes visible to the asynchronous proxy";
  let description = [{
    fence.proxy.async.shared::cta: writes by st.shared or cp.async become visible to wgmma and
    TMA reads that are ordered after the fence (by a barrier, for other threads' writes).
  }];
  let assemblyFormat = "attr-dict";
}

//===----------------------------------------------------------------------===//
// mbarriers and bulk tensor copies (TMA)
//===----------------------------------------------------------------------===//

def TileNV_AsyncWrite : Resource<"::tessel::tile_gpu::AsyncWriteResource">;
// The phase and transaction count of an mbarrier: arrivals and waits change them, which keeps
// those ops alive, but they order nothing for tile-gpu-insert-barriers (the hardware does).
def TileNV_MBarrierState : Resource<"::tessel::tile_nv::MBarrierStateResource">;

def TileNV_InitBarrierOp : TileNV_Op<"init_barrier"> {
  let summary = "Initialize an mbarrier with its expected arrival count";
  let description = [{
    ```mlir
    tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    mbarrier.init.shared::cta.b64 by thread 0, then fence.mbarrier_init so that the bulk copies
    see the initialized barrier. `bar` is one 8-byte barrier (a stage of a ring of them). Other
    threads may use it after a barrier (tile-gpu-insert-barriers puts one there: the write is
    declared).
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "barrier", [MemWrite]>:$barrier, I32Attr:$count);
  let assemblyFormat = "$barrier `,` $count attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileNV_InvalBarrierOp : TileNV_Op<"inval_barrier"> {
  let summary = "Invalidate an mbarrier so that its memory may be initialized or used again";
  let description = [{
    ```mlir
    tile_nv.inval_barrier %bar : !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    mbarrier.inval.shared::cta.b64 by thread 0, after every thread's last wait on it (the write
    is declared: tile-gpu-insert-barriers puts a barrier between those waits and it). It frees
    the barrier's state (MemFree on it): only then may tile-gpu-allocate-shared-memory place
    another buffer over its bytes.
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "barrier", [MemWrite, MemFree<TileNV_MBarrierState>]>:$barrier);
  let assemblyFormat = "$barrier attr-dict `:` qualified(type($barrier))";
  let hasVerifier = 1;
}

def TileNV_BarrierExpectOp : TileNV_Op<"barrier_expect"> {
  let summary = "Arrive on an mbarrier and expect `bytes` more bytes of asynchronous copies";
  let description = [{
    ```mlir
    tile_nv.barrier_expect %bar, 49152, %pred : !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    mbarrier.arrive.expect_tx by thread 0 (or thread `leader`) when `pred`: the barrier's phase
    completes once its arrivals are in and the copies that complete on it
    (async_tma_copy_global_to_local) have written `bytes` bytes.
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "barrier", [MemRead, MemWrite<TileNV_MBarrierState>]>:$barrier,
                       I32Attr:$bytes, I1:$pred, OptionalAttr<I32Attr>:$leader);
  let assemblyFormat = "$barrier `,` $bytes `,` $pred attr-dict `:` qualified(type($barrier))";
}

def TileNV_WaitBarrierOp : TileNV_Op<"wait_barrier"> {
  let summary = "Wait until the mbarrier's phase of parity `phase` completes";
  let description = [{
    ```mlir
    tile_nv.wait_barrier %bar, %phase : !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    Every thread spins on mbarrier.try_wait.parity(phase & 1). Afterwards the bytes the barrier's
    copies wrote are visible to the waiting thread: no further barrier is needed to read them.
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "barrier", [MemRead, MemWrite<TileNV_MBarrierState>]>:$barrier,
                       I32:$phase);
  let assemblyFormat = "$barrier `,` $phase attr-dict `:` qualified(type($barrier))";
}

def TileNV_AsyncTMACopyGlobalToLocalOp : TileNV_Op<"async_tma_copy_global_to_local",
                                                  [AttrSizedOperandSegments]> {
  let summary = "Bulk tensor copy (TMA) of a box of a global tensor into shared memory";
  let description = [{
    ```mlir
    tile_nv.async_tma_copy_global_to_local %maps[0] [%k, %m] %dst, %bar, %pred
        : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x64xbf16, #swizzled>, !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    `maps` is the kernel's array of 128-byte tensor maps (CUtensorMap, built by the runtime from
    the kernel's `tensor_maps` metadata), a kernel parameter passed by value and addressed as a
    generic pointer (address space 0); `map` selects one. `coords` (i32, innermost dimension
    first) is the box's first element; elements outside the tensor read as the map's fill
    (zero). The destination is in the hardware-swizzled placement of the map's swizzle
    (`#tile_gpu.shared` with blockCols): one cp.async.bulk.tensor per column block of blockCols
    elements, issued by thread 0 (or thread `leader`: a warp-specialized kernel's producer)
    when `pred`, completing on `barrier` (whose barrier_expect accounts for the bytes).

    With `multicast %same map M` (a 2-CTA cluster, tile-nv-cluster-multicast): where `same`
    holds, the two CTAs of the cluster copy the same box, so each copies half of its rows
    (the box's outer dimension; map M is the half box) at the same place in both CTAs' shared
    memory (cp.async.bulk.tensor ... .multicast::cluster, CTA mask 0b11), completing on the
    barrier at the same offset in each: each CTA still receives the whole box. Where `same`
    does not hold, the copy is the plain one.
  }];
  let arguments = (ins Tile_PtrType:$maps, I32Attr:$map, Variadic<I32>:$coords,
                       Arg<TileNV_MemDesc, "destination", [MemWrite<TileNV_AsyncWrite>]>:$dst,
                       Arg<TileNV_MemDesc, "barrier", [MemRead]>:$barrier, I1:$pred,
                       Optional<I1>:$multicast, OptionalAttr<I32Attr>:$multicast_map,
                       OptionalAttr<I32Attr>:$leader);
  let assemblyFormat = [{
    $maps `[` $map `]` `[` $coords `]` $dst `,` $barrier `,` $pred
    (`multicast` $multicast^ `map` $multicast_map)? attr-dict `:`
    qualified(type($maps)) `,` qualified(type($dst)) `,` qualified(type($barrier))
  }];
  let hasVerifier = 1;
}

// Writes global memory (the default resource): without an effect of its own the op, which has
// no results, would count as dead wherever a pass erases unused readers.
def TileNV_AsyncTMACopyLocalToGlobalOp : TileNV_Op<"async_tma_copy_local_to_global",
                                                  [MemoryEffects<[MemWrite]>]> {
  let summary = "Bulk tensor copy (TMA) of a shared-memory tile into a box of a global tensor";
  let description = [{
    ```mlir
    tile_nv.async_tma_copy_local_to_global %maps[1] [%n, %m] %src
        : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x256xbf16, #swizzled>
    ```
    The store counterpart of async_tma_copy_global_to_local, with its `maps`, `map` and
    `coords` (i32, innermost dimension first: the box's first element). `src` is in the
    hardware-swizzled placement of the map's swizzle; thread 0 issues one
    cp.async.bulk.tensor.Nd.global.shared::cta.bulk_group per column block of blockCols
    elements, commits them as one bulk group and waits until they have read `src`
    (cp.async.bulk.wait_group.read 0), so that the buffer may be reused or the program exit
    after the op; the global writes complete asynchronously. Elements of the box outside the
    tensor are not written. The writes of every thread to `src` must precede the op behind
    fence_async_shared and a barrier of all threads.
  }];
  let arguments = (ins Tile_PtrType:$maps, I32Attr:$map, Variadic<I32>:$coords,
                       Arg<TileNV_MemDesc, "source", [MemRead]>:$src);
  let assemblyFormat = [{
    $maps `[` $map `]` `[` $coords `]` $src attr-dict `:` qualified(type($maps)) `,`
    qualified(type($src))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Warp specialization (tile-nv-warp-specialize)
//===----------------------------------------------------------------------===//

def TileNV_ArriveBarrierOp : TileNV_Op<"arrive_barrier"> {
  let summary = "Every thread where `pred` arrives on an mbarrier";
  let description = [{
    ```mlir
    tile_nv.arrive_barrier %empty, %pred : !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    mbarrier.arrive.shared::cta.b64 by each thread where `pred`: a warp-specialized kernel's
    consumers release a ring stage to the producer (the barrier counts every consumer thread).

    ```mlir
    tile_nv.arrive_barrier %empty, %pred cta %peer : !tile_gpu.memdesc<1xi64, #shared1d>
    ```
    With `cta`, the arrival is on the barrier at the same offset in CTA `cta` of the cluster
    (mapa, then mbarrier.arrive.shared::cluster.b64 at the default .release.cta scope, as
    CUTLASS's ClusterBarrier::arrive(cta_id)): a 2-CTA cluster's consumers release a stage that
    their peer's producer multicasts into.
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "barrier", [MemRead, MemWrite<TileNV_MBarrierState>]>:$barrier,
                       I1:$pred, Optional<I32>:$cta);
  let assemblyFormat = [{
    $barrier `,` $pred (`cta` $cta^)? attr-dict `:` qualified(type($barrier))
  }];
}

def TileNV_ClusterBarrierOp : TileNV_Op<"cluster_barrier"> {
  let summary = "barrier.cluster.arrive + barrier.cluster.wait: every thread of the cluster";
  let description = [{
    ```mlir
    tile_nv.cluster_barrier
    ```
    Every thread of every CTA of the cluster arrives (release) and waits (acquire). After the
    mbarrier inits it makes them visible to the peer CTA's copies and arrivals; before the
    kernel returns it keeps a CTA's shared memory alive until its peer sends nothing more.
  }];
  let assemblyFormat = "attr-dict";
}

def TileNV_ClusterCTARankOp : TileNV_Op<"cluster_cta_rank", [Pure]> {
  let summary = "The CTA's rank in its cluster (%cluster_ctarank), as i32";
  let description = [{
    ```mlir
    %rank = tile_nv.cluster_cta_rank : i32
    ```
    0 or 1 in a cluster of two along the grid's x: program_id(0) modulo 2.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileNV_NamedBarrierOp : TileNV_Op<"named_barrier"> {
  let summary = "bar.sync `id`, `threads`: a barrier of the first `threads` threads";
  let description = [{
    ```mlir
    tile_nv.named_barrier 1, 128
    ```
    Hardware barrier `id` over `threads` threads (a multiple of 32). A warp-specialized kernel's
    consumers synchronize on barrier 1 without the producer warps, which never arrive there;
    barrier 0 over every thread is __syncthreads.
  }];
  let arguments = (ins I32Attr:$id, I32Attr:$threads);
  let assemblyFormat = "$id `,` $threads attr-dict";
}

def TileNV_SetMaxNRegOp : TileNV_Op<"set_max_nreg"> {
  let summary = "setmaxnreg: change this warpgroup's per-thread register budget";
  let description = [{
    ```mlir
    tile_nv.set_max_nreg 40          // setmaxnreg.dec.sync.aligned.u32 40
    tile_nv.set_max_nreg 232 inc     // setmaxnreg.inc.sync.aligned.u32 232
    ```
    Every thread of a warpgroup executes it (sm_90a). `regs` is a multiple of 8 in [24, 256];
    `dec` gives registers back to the CTA's pool, `inc` waits until the pool has them.
  }];
  let arguments = (ins I32Attr:$regs, UnitAttr:$inc);
  let assemblyFormat = "$regs (`inc` $inc^)? attr-dict";
  let hasVerifier = 1;
}

def TileNV_ThreadIdOp : TileNV_Op<"thread_id", [Pure]> {
  let summary = "The thread's index in the program (threadIdx.x), as i32";
  let description = [{
    ```mlir
    %tid = tile_nv.thread_id : i32
    ```
    A warp-specialized kernel branches on it: threads at or past num_warps * 32 are the
    producer warpgroup.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def TileNV_WarpIdOp : TileNV_Op<"warp_id", [Pure]> {
  let summary = "The warp's index in the program (threadIdx.x / 32), known warp-uniform";
  let description = [{
    ```mlir
    %warp = tile_nv.warp_id : i32
    ```
    threadIdx.x / 32 read from lane 0 (shfl.sync.idx, as CUTLASS's canonical_warp_idx_sync),
    so that ptxas knows every lane has the same value: code under a branch on it stays on the
    uniform datapath. A warp-specialized kernel's producer loop runs in one warp by it; a
    branch on thread_id made ptxas treat that loop as divergent (per-lane registers,
    convergence barriers) and cost a persistent GEMM 8-40% on the H200.
  }];
  let results = (outs I32:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

#endif // TESSEL_NVIDIA_DIALECT_TILENVOPS_TD
