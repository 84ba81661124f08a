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
  }];
  let arguments = (ins Arg<TileNV_MemDesc, "A (M, K)", [MemRead]>:$a,
                       Arg<TileNV_MemDesc, "B (K, N)", [MemRead]>:$b,
                       AnyRankedTensor:$c);
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

#endif // TESSEL_NVIDIA_DIALECT_TILENVOPS_TD
