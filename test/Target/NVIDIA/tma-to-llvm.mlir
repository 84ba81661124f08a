// RUN: tessel-opt %s -split-input-file --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// The mbarrier and TMA ops on cuda:sm_90a: thread 0 initializes the barrier and arrives on it
// with the bytes to expect; thread 0 issues one cp.async.bulk.tensor per 64-column block of the
// 128-byte swizzled box: a (64 x 128) bf16 box of a K-contiguous B stage with 256 columns
// becomes 4 copies, block j written j * 128 rows * 128 bytes = 16384 j bytes into the stage at
// coordinate x + 64 j, all completing on the barrier. Every thread waits with
// mbarrier.try_wait.parity on the phase's low bit. The map is at maps + 128 * index, in the
// kernel's last parameter: the module's three maps by value (384 bytes, 64-byte aligned), a
// grid constant whose address the copies take in parameter space.

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

module attributes {tile.num_warps = 4 : i32, tessel.tensor_maps = [{}, {}, {}]} {
// CHECK-LABEL: llvm.func @copy
// CHECK-SAME:    (%{{.+}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<384 x i8>, nvvm.grid_constant}, %{{.+}}: i32
func.func @copy(%maps: !tile.ptr<i8, 0> {tile.divisibility = 64 : i32, tile_nv.tensor_maps}, %x: i32, %y: i32, %phase: i32, %p: i1) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %ring = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<128x256xbf16, #s>
  %bar = tile_gpu.local_alloc {offset = 65536 : i32} : !tile_gpu.memdesc<1xi64, #b>
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p mbarrier.init.shared::cta.b64 [$1], $2; @p fence.mbarrier_init.release.cluster; }", "r,r,r"
  tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<1xi64, #b>
  // CHECK: %[[BYTES:.+]] = llvm.mlir.constant(65536 : i32) : i32
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p mbarrier.arrive.expect_tx.shared::cta.b64 _, [$1], $2; }", "r,r,r" %{{.+}}, %{{.+}}, %[[BYTES]]
  tile_nv.barrier_expect %bar, 65536, %p : !tile_gpu.memdesc<1xi64, #b>
  // CHECK: %[[MAP:.+]] = llvm.getelementptr %{{.+}}[256] : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK: %[[ADDR:.+]] = llvm.ptrtoint %[[MAP]] : !llvm.ptr to i64
  // CHECK-COUNT-4: cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [$1], [$2, {$3, $4}], [$5]; }", "r,r,l,r,r,r"
  // CHECK-NOT: cp.async.bulk.tensor
  tile_nv.async_tma_copy_global_to_local %maps[2] [%x, %y] %ring, %bar, %p : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x256xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  // CHECK: %[[PARITY:.+]] = llvm.and %{{.+}}, %{{.+}} : i32
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred done; wait_barrier_loop: mbarrier.try_wait.parity.shared::cta.b64 done, [$0], $1; @!done bra.uni wait_barrier_loop; }", "r,r" %{{.+}}, %[[PARITY]]
  tile_nv.wait_barrier %bar, %phase : !tile_gpu.memdesc<1xi64, #b>
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p mbarrier.inval.shared::cta.b64 [$1]; }", "r,r"
  tile_nv.inval_barrier %bar : !tile_gpu.memdesc<1xi64, #b>
  return
}
}

// -----

// A TMA store: thread 0 issues one cp.async.bulk.tensor ... global.shared::cta.bulk_group per
// 64-column block of the 128-byte swizzled 64x128 bf16 buffer (block j 64 rows * 128 bytes =
// 8192 j bytes into it, at coordinate x + 64 j), commits them as one bulk group and waits until
// they have read the buffer, all in one predicated statement list.
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
module attributes {tile.num_warps = 4 : i32, tessel.tensor_maps = [{}]} {
// CHECK-LABEL: llvm.func @store
func.func @store(%maps: !tile.ptr<i8, 0> {tile.divisibility = 64 : i32, tile_nv.tensor_maps}, %x: i32, %y: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x128xbf16, #s>
  // CHECK: %[[MAP:.+]] = llvm.getelementptr %{{.+}}[0] : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK: %[[ADDR:.+]] = llvm.ptrtoint %[[MAP]] : !llvm.ptr to i64
  // CHECK: %[[SRC:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
  // CHECK: %[[OFF:.+]] = llvm.mlir.constant(8192 : i32) : i32
  // CHECK: %[[SRC1:.+]] = llvm.add %[[SRC]], %[[OFF]] : i32
  // CHECK: %[[X1:.+]] = llvm.add %{{.+}}, %{{.+}} : i32
  // CHECK: llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $0, 0; @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$3, $4}], [$2]; @p cp.async.bulk.tensor.2d.global.shared::cta.bulk_group [$1, {$6, $7}], [$5]; @p cp.async.bulk.commit_group; @p cp.async.bulk.wait_group.read 0; }", "r,l,r,r,r,r,r,r" %{{.+}}, %[[ADDR]], %{{.+}}, %{{.+}}, %{{.+}}, %[[SRC1]], %[[X1]], %{{.+}}
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %buf : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x128xbf16, #s>
  return
}
}
