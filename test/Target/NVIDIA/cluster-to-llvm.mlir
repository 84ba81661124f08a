// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// The cluster ops on cuda:sm_90a. A multicast copy of a (64 x 128) bf16 box, rows 64 wide
// (one 128-byte column block of 64 elements, so 2 blocks): where `same` is false, the plain
// copy (2 cp.async.bulk.tensor through map 0); where it holds, this CTA's half of the rows
// (rank x 32 of the 64: the destination moves by rank x 32 rows x 128 bytes per block, the
// row coordinate by rank x 32) through the half box's map 1, multicast to both CTAs (mask
// 0b11 in a 16-bit register). A remote arrival maps the barrier's address into the peer with
// mapa. The cluster barrier is barrier.cluster's arrive and wait.

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

module attributes {tile.num_warps = 4 : i32, tessel.tensor_maps = [{}, {}]} {
// CHECK-LABEL: llvm.func @cluster
// CHECK-SAME:    tile.cluster_size = 2 : i32
func.func @cluster(%maps: !tile.ptr<i8, 0> {tile.divisibility = 64 : i32, tile_nv.tensor_maps}, %x: i32, %y: i32, %p: i1, %same: i1, %cta: i32) attributes {tile.kernel, tile.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  %ring = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x128xbf16, #s>
  %bar = tile_gpu.local_alloc {offset = 16384 : i32} : !tile_gpu.memdesc<1xi64, #b>
  // CHECK:      %[[SAME:.+]] = llvm.zext %arg4 : i1 to i32
  // CHECK:      %[[OTHER:.+]] = llvm.xor %[[SAME]], %{{.+}} : i32
  // CHECK:      %[[PLAIN:.+]] = llvm.and %{{.+}}, %[[OTHER]] : i32
  // CHECK-COUNT-2: @p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5]; }", "r,r,l,r,r,r" %[[PLAIN]],
  // CHECK:      llvm.getelementptr %{{.+}}[128] : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK:      %[[HALF:.+]] = llvm.mlir.constant(32 : i32) : i32
  // CHECK:      %[[RANK:.+]] = llvm.inline_asm asm_dialect = att "mov.u32 $0, %cluster_ctarank;", "=r"  : () -> i32
  // CHECK:      %[[ROWS:.+]] = llvm.mul %[[RANK]], %[[HALF]] : i32
  // CHECK:      %[[MASK:.+]] = llvm.mlir.constant(3 : i16) : i16
  // CHECK:      %[[MC:.+]] = llvm.and %{{.+}}, %[[SAME]] : i32
  // Block 0: rank x 32 rows of 128 bytes into the stage, row coordinate y + rank x 32.
  // CHECK:      %[[BASE0:.+]] = llvm.add %[[SMEM:.+]], %{{.+}} : i32
  // CHECK-NEXT: %[[ROWBYTES:.+]] = llvm.mlir.constant(128 : i32) : i32
  // CHECK-NEXT: %[[OFF0:.+]] = llvm.mul %[[ROWS]], %[[ROWBYTES]] : i32
  // CHECK-NEXT: %[[DST0:.+]] = llvm.add %[[BASE0]], %[[OFF0]] : i32
  // CHECK-NEXT: %[[ROW:.+]] = llvm.add %arg2, %[[ROWS]] : i32
  // CHECK:      @p cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [$1], [$2, {$3, $4}], [$5], $6; }", "r,r,l,r,r,r,h" %[[MC]], %[[DST0]], %{{.+}}, %arg1, %[[ROW]], %{{.+}}, %[[MASK]]
  // Block 1: 64 rows x 128 bytes further (8192), column coordinate x + 64, the same rows.
  // CHECK:      %[[J:.+]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK-NEXT: %[[BASE1:.+]] = llvm.add %[[SMEM]], %[[J]] : i32
  // CHECK:      %[[OFF1:.+]] = llvm.mul %[[ROWS]], %{{.+}} : i32
  // CHECK-NEXT: %[[DST1:.+]] = llvm.add %[[BASE1]], %[[OFF1]] : i32
  // CHECK:      %[[COL1:.+]] = llvm.add %arg1, %{{.+}} : i32
  // CHECK-NEXT: %[[ROW1:.+]] = llvm.add %arg2, %[[ROWS]] : i32
  // CHECK:      multicast::cluster [$1], [$2, {$3, $4}], [$5], $6; }", "r,r,l,r,r,r,h" %[[MC]], %[[DST1]], %{{.+}}, %[[COL1]], %[[ROW1]], %{{.+}}, %[[MASK]]
  // CHECK-NOT:  cp.async.bulk.tensor
  tile_nv.async_tma_copy_global_to_local %maps[0] [%x, %y] %ring, %bar, %p multicast %same map 1 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x128xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  // CHECK:      "{ .reg .pred p; .reg .b32 remote; setp.ne.b32 p, $0, 0; mapa.shared::cluster.u32 remote, $1, $2; @p mbarrier.arrive.shared::cluster.b64 _, [remote]; }", "r,r,r"
  tile_nv.arrive_barrier %bar, %p cta %cta : !tile_gpu.memdesc<1xi64, #b>
  // CHECK:      "barrier.cluster.arrive.release; barrier.cluster.wait.acquire;", ""
  tile_nv.cluster_barrier
  // warp_id: threadIdx.x / 32 from lane 0, so that ptxas knows it to be warp-uniform.
  // CHECK:      %[[TID:.+]] = nvvm.read.ptx.sreg.tid.x : i32
  // CHECK:      %[[W:.+]] = llvm.lshr %[[TID]], %{{.+}} : i32
  // CHECK-NEXT: llvm.inline_asm asm_dialect = att "shfl.sync.idx.b32 $0, $1, 0, 31, -1;", "=r,r" %[[W]] : (i32) -> i32
  %warp = tile_nv.warp_id : i32
  return
}
}
