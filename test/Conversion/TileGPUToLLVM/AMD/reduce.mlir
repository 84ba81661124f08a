// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 --canonicalize --cse | FileCheck %s

// 4096 elements over 8 wavefronts of 64 lanes: 8 per thread, a 6-step butterfly over the lanes
// (xor 1, 2, 4, 8 through DPP, 16 through ds_swizzle, 32 through ds_bpermute: the only step
// that crosses the two 32-lane halves), then the 8 wavefront partials through LDS between
// barriers with their workgroup fences.
#b = #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: llvm.func @sum
// CHECK-SAME:    tile_gpu.shared = 32 : i32
// CHECK-DAG:     %[[C32:.*]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-DAG:     %[[SWAP16:.*]] = llvm.mlir.constant(16415 : i32) : i32
// CHECK-DAG:     %[[ROR8:.*]] = llvm.mlir.constant(296 : i32) : i32
// CHECK-DAG:     %[[SHL4:.*]] = llvm.mlir.constant(260 : i32) : i32
// CHECK-DAG:     %[[SHR4:.*]] = llvm.mlir.constant(276 : i32) : i32
// CHECK-DAG:     %[[QP2301:.*]] = llvm.mlir.constant(78 : i32) : i32
// CHECK-DAG:     %[[QP1032:.*]] = llvm.mlir.constant(177 : i32) : i32
// CHECK-DAG:     %[[ALL:.*]] = llvm.mlir.constant(15 : i32) : i32
// CHECK-DAG:     %[[BANKS13:.*]] = llvm.mlir.constant(10 : i32) : i32
// CHECK-DAG:     %[[BANKS02:.*]] = llvm.mlir.constant(5 : i32) : i32
// CHECK-DAG:     %[[C63:.*]] = llvm.mlir.constant(63 : i32) : i32
// CHECK:         %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK:         %[[LANE:.*]] = llvm.and %[[TID]], %[[C63]]
// xor 1: quad_perm [1,0,3,2] over all rows and banks
// CHECK:         llvm.call_intrinsic "llvm.amdgcn.update.dpp"(%{{.*}}, %{{.*}}, %[[QP1032]], %[[ALL]], %[[ALL]], %{{.*}})
// CHECK:         llvm.fadd
// xor 2: quad_perm [2,3,0,1]
// CHECK:         llvm.call_intrinsic "llvm.amdgcn.update.dpp"(%{{.*}}, %{{.*}}, %[[QP2301]], %[[ALL]], %[[ALL]], %{{.*}})
// CHECK:         llvm.fadd
// xor 4: row_shr:4 into banks 1 and 3, then row_shl:4 into banks 0 and 2 over it
// CHECK:         %[[UP:.*]] = llvm.call_intrinsic "llvm.amdgcn.update.dpp"(%{{.*}}, %[[X4:.*]], %[[SHR4]], %[[ALL]], %[[BANKS13]], %{{.*}})
// CHECK-NEXT:    llvm.call_intrinsic "llvm.amdgcn.update.dpp"(%[[UP]], %[[X4]], %[[SHL4]], %[[ALL]], %[[BANKS02]], %{{.*}})
// CHECK:         llvm.fadd
// xor 8: row_ror:8
// CHECK:         llvm.call_intrinsic "llvm.amdgcn.update.dpp"(%{{.*}}, %{{.*}}, %[[ROR8]], %[[ALL]], %[[ALL]], %{{.*}})
// CHECK:         llvm.fadd
// xor 16: ds_swizzle bit mode, xor_mask 0x10
// CHECK:         rocdl.ds_swizzle %{{.*}}, %[[SWAP16]] : (i32, i32) -> i32
// CHECK:         llvm.fadd
// xor 32: ds_bpermute from byte address (lane ^ 32) * 4
// CHECK:         %[[SRC:.*]] = llvm.xor %[[LANE]], %[[C32]]
// CHECK:         %[[ADDR:.*]] = llvm.shl %[[SRC]], %{{.*}}
// CHECK:         rocdl.ds_bpermute %[[ADDR]], %{{.*}} : (i32, i32) -> i32
// CHECK:         llvm.fadd
// CHECK-NOT:     llvm.amdgcn.update.dpp
// CHECK:         llvm.fence syncscope("workgroup") release
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    llvm.fence syncscope("workgroup") acquire
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         llvm.fence syncscope("workgroup") release
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    llvm.fence syncscope("workgroup") acquire
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @sum(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c = tile.arange 0, 4096 : tensor<4096xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %c : tensor<4096x!tile.ptr<f32>, #b>, tensor<4096xi32, #b>
  %v = tile.load %pp : tensor<4096x!tile.ptr<f32>, #b>
  %s = tile.reduce(%v) axis = 0 : (tensor<4096xf32, #b>) -> f32 {
  ^bb0(%a: f32, %x: f32):
    %t = arith.addf %a, %x : f32
    tile.yield %t : f32
  }
  tile.store %o, %s : !tile.ptr<f32>
  return
}

// Rows of 128 over 16 lanes (4 rows per wavefront): the butterfly stops at xor 8, all DPP,
// and the rows stay inside a wavefront: no LDS, no barrier.
#r = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @row_max
// CHECK-COUNT-5: llvm.call_intrinsic "llvm.amdgcn.update.dpp"
// CHECK-NOT:     rocdl.ds_swizzle
// CHECK-NOT:     rocdl.ds_bpermute
// CHECK-NOT:     rocdl.s.barrier
// CHECK:         llvm.return
func.func @row_max(%x: tensor<16x128xf32, #r>) -> tensor<16xf32, #tile_gpu.slice<{dim = 1, parent = #r}>> {
  %m = tile.reduce(%x) axis = 1 : (tensor<16x128xf32, #r>) -> tensor<16xf32, #tile_gpu.slice<{dim = 1, parent = #r}>> {
  ^bb0(%a: f32, %y: f32):
    %t = arith.maximumf %a, %y : f32
    tile.yield %t : f32
  }
  return %m : tensor<16xf32, #tile_gpu.slice<{dim = 1, parent = #r}>>
}

// Columns: the 4 lanes along dim 0 are 16 apart, so the butterfly is xor 16 then xor 32, for
// each of the 8 columns a thread holds.
// CHECK-LABEL: llvm.func @col_sum
// CHECK-NOT:     llvm.amdgcn.update.dpp
// CHECK-COUNT-8: rocdl.ds_swizzle
// CHECK-COUNT-8: rocdl.ds_bpermute
// CHECK-NOT:     rocdl.ds_swizzle
// CHECK-NOT:     rocdl.ds_bpermute
// CHECK:         llvm.return
func.func @col_sum(%x: tensor<4x128xf32, #r>) -> tensor<128xf32, #tile_gpu.slice<{dim = 0, parent = #r}>> {
  %m = tile.reduce(%x) axis = 0 : (tensor<4x128xf32, #r>) -> tensor<128xf32, #tile_gpu.slice<{dim = 0, parent = #r}>> {
  ^bb0(%a: f32, %y: f32):
    %t = arith.addf %a, %y : f32
    tile.yield %t : f32
  }
  return %m : tensor<128xf32, #tile_gpu.slice<{dim = 0, parent = #r}>>
}

// 64-bit values travel as two 32-bit halves: two swizzles per step.
#s = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: llvm.func @i64_max
// CHECK-COUNT-2: rocdl.ds_swizzle
// CHECK-COUNT-2: rocdl.ds_bpermute
// CHECK:         llvm.return
func.func @i64_max(%x: tensor<64xi64, #s>) -> i64 {
  %m = tile.reduce(%x) axis = 0 : (tensor<64xi64, #s>) -> i64 {
  ^bb0(%a: i64, %y: i64):
    %t = arith.maxsi %a, %y : i64
    tile.yield %t : i64
  }
  return %m : i64
}
