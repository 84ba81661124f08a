// RUN: tessel-opt %s --split-input-file --tile-nv-warp-specialize --tile-nv-cluster-multicast --verify-diagnostics | FileCheck %s

// warp-specialize.mlir's ring (64x64x64 tiles, 2 stages, a ring of 3) in a cluster of two,
// with coordinates from program_id: A's rows from pid % 2 (they differ between programs 2c
// and 2c + 1), B's columns from pid / 2 (the same). The pass cannot tell that from the IR's
// arithmetic alone, so it computes both again for pid ^ 1 before the branch and lets each copy
// multicast where its coordinates match: `multicast %same map M`, M a half box (64 x 32)
// appended to the module's maps. The empty barriers count 128 local threads and the peer's 4
// warps; lane 0 of each consumer warp also arrives on the peer's; cluster barriers follow the
// inits and each side's K loop (before the consumers' epilogue).
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

// CHECK:       module attributes {tessel.tensor_maps = [{base = 0 : i64, box = [64, 64]}, {base = 1 : i64, box = [64, 64]}, {base = 0 : i64, box = [64, 32]}, {base = 1 : i64, box = [64, 32]}]}
// CHECK-LABEL: func.func @ring
// CHECK-SAME:    tile.cluster_size = 2 : i32
// CHECK:         %[[PID:.+]] = tile.program_id 0
// CHECK-NEXT:    %[[C1:.+]] = arith.constant 1 : i32
// CHECK-NEXT:    %[[PEER:.+]] = arith.xori %[[PID]], %[[C1]] : i32
// CHECK:         %[[COL:.+]] = arith.divsi %[[PID]], %c2_i32
// CHECK-NEXT:    %[[BCOL:.+]] = arith.muli %[[COL]], %c64_i32
// CHECK-NEXT:    %[[ROW:.+]] = arith.remsi %[[PID]], %c2_i32
// CHECK-NEXT:    %[[AROW:.+]] = arith.muli %[[ROW]], %c64_i32
// CHECK-COUNT-3: tile_nv.init_barrier %{{.+}}, 1 :
// CHECK-COUNT-3: tile_nv.init_barrier %{{.+}}, 132 :
// CHECK-NEXT:    tile_nv.named_barrier 0, 256
// CHECK-NEXT:    %[[TID:.+]] = tile_nv.thread_id : i32
// CHECK-NEXT:    %[[P:.+]] = arith.cmpi uge, %[[TID]], %c128_i32 : i32
// CHECK-NEXT:    %[[PROW:.+]] = arith.remsi %[[PEER]], %c2_i32
// CHECK-NEXT:    %[[PAROW:.+]] = arith.muli %[[PROW]], %c64_i32
// CHECK-NEXT:    %[[SAMEA:.+]] = arith.cmpi eq, %[[AROW]], %[[PAROW]] : i32
// CHECK-NEXT:    %[[PCOL:.+]] = arith.divsi %[[PEER]], %c2_i32
// CHECK-NEXT:    %[[PBCOL:.+]] = arith.muli %[[PCOL]], %c64_i32
// CHECK-NEXT:    %[[SAMEB:.+]] = arith.cmpi eq, %[[BCOL]], %[[PBCOL]] : i32
// CHECK-NEXT:    tile_nv.cluster_barrier
// CHECK-NEXT:    scf.if %[[P]] {
// CHECK-NEXT:      tile_nv.set_max_nreg 40
// CHECK-NEXT:      tile_nv.warp_id
// CHECK-NEXT:      arith.cmpi eq
// CHECK-NEXT:      scf.if
// CHECK-NEXT:        tile_nv.barrier_expect %{{.+}}, 16384, %{{.+}} {leader = 128 : i32}
// CHECK-NEXT:        tile_nv.async_tma_copy_global_to_local %arg0[0] [%c0_i32, %[[AROW]]] {{.+}} multicast %[[SAMEA]] map 2 {leader = 128 : i32}
// CHECK-NEXT:        tile_nv.async_tma_copy_global_to_local %arg0[1] [%[[BCOL]], %c0_i32] {{.+}} multicast %[[SAMEB]] map 3 {leader = 128 : i32}
// CHECK-NEXT:        scf.for
// CHECK:               tile_nv.wait_barrier
// The loop's K offset is carried from a constant by constant steps: the same in both.
// CHECK:               tile_nv.async_tma_copy_global_to_local %arg0[0] [%{{.+}}, %[[AROW]]] {{.+}} multicast %[[SAMEA]] map 2 {leader = 128 : i32}
// CHECK-NEXT:          tile_nv.async_tma_copy_global_to_local %arg0[1] [%[[BCOL]], %{{.+}}] {{.+}} multicast %[[SAMEB]] map 3 {leader = 128 : i32}
// After each side's K loop, a cluster barrier: the producer's (all four warps, after the one
// that ran the loop)...
// CHECK:               scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      tile_nv.cluster_barrier
// CHECK-NEXT:    } else {
// CHECK:             tile_nv.arrive_barrier %[[PE:.+]], %[[NOTFIRST:.+]] :
// CHECK-NEXT:        %[[T:.+]] = tile_nv.thread_id : i32
// CHECK:             %[[LANE:.+]] = arith.andi %[[T]], %c31_i32 : i32
// CHECK:             %[[FIRST:.+]] = arith.cmpi eq, %[[LANE]], %c0_i32{{.*}} : i32
// CHECK:             %[[RANK:.+]] = tile_nv.cluster_cta_rank : i32
// CHECK:             %[[OTHER:.+]] = arith.xori %[[RANK]], %c1_i32{{.*}} : i32
// CHECK-NEXT:        %[[WARP:.+]] = arith.andi %[[NOTFIRST]], %[[FIRST]] : i1
// CHECK-NEXT:        tile_nv.arrive_barrier %[[PE]], %[[WARP]] cta %[[OTHER]] :
// ... and the consumers', before the epilogue (whose scratch may reuse the rings, where the
// peer's last arrivals land).
// CHECK:             scf.yield
// CHECK-NEXT:      }
// CHECK-NEXT:      tile_nv.cluster_barrier
// CHECK-NEXT:      tile_nv.warpgroup_dot_wait %{{.+}} {pendings = 0 : i32}
// CHECK-NEXT:      tile_nv.named_barrier 1, 128
// CHECK-NEXT:    }
// CHECK-NEXT:    return
module attributes {tessel.tensor_maps = [{base = 0 : i64, box = [64, 64]}, {base = 1 : i64, box = [64, 64]}]} {
func.func @ring(%maps: !tile.ptr<i8, 0>, %n: i64) attributes {tile.num_stages = 2 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32, tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %pid = tile.program_id 0
  %col = arith.divsi %pid, %c2 : i32
  %bcol = arith.muli %col, %c64 : i32
  %row = arith.remsi %pid, %c2 : i32
  %arow = arith.muli %row, %c64 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<3x64x64xf16, #s>
  %bm = tile_gpu.local_alloc {offset = 24576 : i32} : !tile_gpu.memdesc<3x64x64xf16, #s>
  %bars = tile_gpu.local_alloc {offset = 49152 : i32} : !tile_gpu.memdesc<3x1xi64, #b>
  %bar0 = tile_gpu.memdesc_index %bars[%c0] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar0, 1 : !tile_gpu.memdesc<1xi64, #b>
  %bar1 = tile_gpu.memdesc_index %bars[%c1] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar1, 1 : !tile_gpu.memdesc<1xi64, #b>
  %bar2 = tile_gpu.memdesc_index %bars[%c2] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar2, 1 : !tile_gpu.memdesc<1xi64, #b>
  %in0 = arith.cmpi sgt, %n, %c0_i64 : i64
  %a0 = tile_gpu.memdesc_index %a[%c0] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
  %b0 = tile_gpu.memdesc_index %bm[%c0] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
  tile_gpu.barrier
  tile_nv.barrier_expect %bar0, 16384, %in0 : !tile_gpu.memdesc<1xi64, #b>
  tile_nv.async_tma_copy_global_to_local %maps[0] [%c0, %arow] %a0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  tile_nv.async_tma_copy_global_to_local %maps[1] [%bcol, %c0] %b0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  %r:3 = scf.for %k = %c0_i64 to %n step %c1_i64 iter_args(%acc = %cst, %off = %c64, %count = %c0) -> (tensor<64x64xf32, #mma>, i32, i32) : i64 {
    %round = arith.divui %count, %c3 : i32
    %slot = arith.remui %count, %c3 : i32
    %full = tile_gpu.memdesc_index %bars[%slot] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
    tile_nv.wait_barrier %full, %round : !tile_gpu.memdesc<1xi64, #b>
    %as = tile_gpu.memdesc_index %a[%slot] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %bs = tile_gpu.memdesc_index %bm[%slot] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %kahead = arith.addi %k, %c1_i64 : i64
    %cahead = arith.addi %count, %c1 : i32
    %in = arith.cmpi slt, %kahead, %n : i64
    %ns = arith.remui %cahead, %c3 : i32
    %an = tile_gpu.memdesc_index %a[%ns] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %bn = tile_gpu.memdesc_index %bm[%ns] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %barn = tile_gpu.memdesc_index %bars[%ns] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
    tile_nv.barrier_expect %barn, 16384, %in : !tile_gpu.memdesc<1xi64, #b>
    tile_gpu.barrier
    tile_nv.async_tma_copy_global_to_local %maps[0] [%off, %arow] %an, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    tile_nv.async_tma_copy_global_to_local %maps[1] [%bcol, %off] %bn, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    %d = tile_nv.warpgroup_dot %as, %bs, %acc : !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %w = tile_nv.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
    %off2 = arith.addi %off, %c64 : i32
    %next = arith.addi %count, %c1 : i32
    scf.yield %w, %off2, %next : tensor<64x64xf32, #mma>, i32, i32
  }
  %f = tile_nv.warpgroup_dot_wait %r#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
  tile_gpu.barrier
  return
}

}

// -----

// A cluster needs the producer warpgroup whose copies it multicasts.
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
// expected-error @+1 {{cluster_size: a cluster multicasts the TMA copies of a producer warpgroup: set warp_specialize=1 too}}
func.func @no_producer(%x: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, tile.cluster_size = 2 : i32} {
  return
}

// -----

// expected-error @+1 {{cluster_size: clusters of 4 CTAs are not supported; cluster_size is 1 or 2}}
func.func @four(%x: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, tile.cluster_size = 4 : i32} {
  return
}

// -----

// Each program of the pair waits for the other's releases: a trip count that depends on
// program_id(0) could leave one waiting forever.
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
module attributes {tessel.tensor_maps = [{base = 0 : i64, box = [64, 64]}, {base = 1 : i64, box = [64, 64]}]} {
// expected-error @+1 {{cluster_size: the K loop's trip count may differ between the two programs of a cluster (it is computed from program_id(0)}}
func.func @uneven(%maps: !tile.ptr<i8, 0>, %kk: i64) attributes {tile.num_stages = 2 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32, tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %pid = tile.program_id 0
  %col = arith.divsi %pid, %c2 : i32
  %bcol = arith.muli %col, %c64 : i32
  %row = arith.remsi %pid, %c2 : i32
  %arow = arith.muli %row, %c64 : i32
  %pid64 = arith.extsi %pid : i32 to i64
  %n = arith.addi %kk, %pid64 : i64
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<3x64x64xf16, #s>
  %bm = tile_gpu.local_alloc {offset = 24576 : i32} : !tile_gpu.memdesc<3x64x64xf16, #s>
  %bars = tile_gpu.local_alloc {offset = 49152 : i32} : !tile_gpu.memdesc<3x1xi64, #b>
  %bar0 = tile_gpu.memdesc_index %bars[%c0] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar0, 1 : !tile_gpu.memdesc<1xi64, #b>
  %bar1 = tile_gpu.memdesc_index %bars[%c1] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar1, 1 : !tile_gpu.memdesc<1xi64, #b>
  %bar2 = tile_gpu.memdesc_index %bars[%c2] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar2, 1 : !tile_gpu.memdesc<1xi64, #b>
  %in0 = arith.cmpi sgt, %n, %c0_i64 : i64
  %a0 = tile_gpu.memdesc_index %a[%c0] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
  %b0 = tile_gpu.memdesc_index %bm[%c0] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
  tile_gpu.barrier
  tile_nv.barrier_expect %bar0, 16384, %in0 : !tile_gpu.memdesc<1xi64, #b>
  tile_nv.async_tma_copy_global_to_local %maps[0] [%c0, %arow] %a0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  tile_nv.async_tma_copy_global_to_local %maps[1] [%bcol, %c0] %b0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  %r:3 = scf.for %k = %c0_i64 to %n step %c1_i64 iter_args(%acc = %cst, %off = %c64, %count = %c0) -> (tensor<64x64xf32, #mma>, i32, i32) : i64 {
    %round = arith.divui %count, %c3 : i32
    %slot = arith.remui %count, %c3 : i32
    %full = tile_gpu.memdesc_index %bars[%slot] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
    tile_nv.wait_barrier %full, %round : !tile_gpu.memdesc<1xi64, #b>
    %as = tile_gpu.memdesc_index %a[%slot] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %bs = tile_gpu.memdesc_index %bm[%slot] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %kahead = arith.addi %k, %c1_i64 : i64
    %cahead = arith.addi %count, %c1 : i32
    %in = arith.cmpi slt, %kahead, %n : i64
    %ns = arith.remui %cahead, %c3 : i32
    %an = tile_gpu.memdesc_index %a[%ns] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %bn = tile_gpu.memdesc_index %bm[%ns] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %barn = tile_gpu.memdesc_index %bars[%ns] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
    tile_nv.barrier_expect %barn, 16384, %in : !tile_gpu.memdesc<1xi64, #b>
    tile_gpu.barrier
    tile_nv.async_tma_copy_global_to_local %maps[0] [%off, %arow] %an, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    tile_nv.async_tma_copy_global_to_local %maps[1] [%bcol, %off] %bn, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    %d = tile_nv.warpgroup_dot %as, %bs, %acc : !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %w = tile_nv.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
    %off2 = arith.addi %off, %c64 : i32
    %next = arith.addi %count, %c1 : i32
    scf.yield %w, %off2, %next : tensor<64x64xf32, #mma>, i32, i32
  }
  %f = tile_nv.warpgroup_dot_wait %r#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
  tile_gpu.barrier
  return
}

}

// -----

// A coordinate computed through an op with regions: the pass cannot redo it for the peer.
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
module attributes {tessel.tensor_maps = [{base = 0 : i64, box = [64, 64]}, {base = 1 : i64, box = [64, 64]}]} {
func.func @through_if(%maps: !tile.ptr<i8, 0>, %n: i64) attributes {tile.num_stages = 2 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32, tile.cluster_size = 2 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
  %pid = tile.program_id 0
  %col = arith.divsi %pid, %c2 : i32
  %low = arith.cmpi slt, %pid, %c2 : i32
  %bcol = scf.if %low -> i32 {
    %x = arith.muli %col, %c64 : i32
    scf.yield %x : i32
  } else {
    scf.yield %c0 : i32
  }
  %row = arith.remsi %pid, %c2 : i32
  %arow = arith.muli %row, %c64 : i32
  %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<3x64x64xf16, #s>
  %bm = tile_gpu.local_alloc {offset = 24576 : i32} : !tile_gpu.memdesc<3x64x64xf16, #s>
  %bars = tile_gpu.local_alloc {offset = 49152 : i32} : !tile_gpu.memdesc<3x1xi64, #b>
  %bar0 = tile_gpu.memdesc_index %bars[%c0] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar0, 1 : !tile_gpu.memdesc<1xi64, #b>
  %bar1 = tile_gpu.memdesc_index %bars[%c1] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar1, 1 : !tile_gpu.memdesc<1xi64, #b>
  %bar2 = tile_gpu.memdesc_index %bars[%c2] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar2, 1 : !tile_gpu.memdesc<1xi64, #b>
  %in0 = arith.cmpi sgt, %n, %c0_i64 : i64
  %a0 = tile_gpu.memdesc_index %a[%c0] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
  %b0 = tile_gpu.memdesc_index %bm[%c0] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
  tile_gpu.barrier
  tile_nv.barrier_expect %bar0, 16384, %in0 : !tile_gpu.memdesc<1xi64, #b>
  tile_nv.async_tma_copy_global_to_local %maps[0] [%c0, %arow] %a0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  // expected-error @+1 {{cluster_size: this TMA copy's coordinates are computed in a way the pass does not follow}}
  tile_nv.async_tma_copy_global_to_local %maps[1] [%bcol, %c0] %b0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  %r:3 = scf.for %k = %c0_i64 to %n step %c1_i64 iter_args(%acc = %cst, %off = %c64, %count = %c0) -> (tensor<64x64xf32, #mma>, i32, i32) : i64 {
    %round = arith.divui %count, %c3 : i32
    %slot = arith.remui %count, %c3 : i32
    %full = tile_gpu.memdesc_index %bars[%slot] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
    tile_nv.wait_barrier %full, %round : !tile_gpu.memdesc<1xi64, #b>
    %as = tile_gpu.memdesc_index %a[%slot] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %bs = tile_gpu.memdesc_index %bm[%slot] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %kahead = arith.addi %k, %c1_i64 : i64
    %cahead = arith.addi %count, %c1 : i32
    %in = arith.cmpi slt, %kahead, %n : i64
    %ns = arith.remui %cahead, %c3 : i32
    %an = tile_gpu.memdesc_index %a[%ns] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %bn = tile_gpu.memdesc_index %bm[%ns] : !tile_gpu.memdesc<3x64x64xf16, #s> -> !tile_gpu.memdesc<64x64xf16, #s>
    %barn = tile_gpu.memdesc_index %bars[%ns] : !tile_gpu.memdesc<3x1xi64, #b> -> !tile_gpu.memdesc<1xi64, #b>
    tile_nv.barrier_expect %barn, 16384, %in : !tile_gpu.memdesc<1xi64, #b>
    tile_gpu.barrier
    tile_nv.async_tma_copy_global_to_local %maps[0] [%off, %arow] %an, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    tile_nv.async_tma_copy_global_to_local %maps[1] [%bcol, %off] %bn, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    %d = tile_nv.warpgroup_dot %as, %bs, %acc : !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<64x64xf16, #s>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %w = tile_nv.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<64x64xf32, #mma>
    %off2 = arith.addi %off, %c64 : i32
    %next = arith.addi %count, %c1 : i32
    scf.yield %w, %off2, %next : tensor<64x64xf32, #mma>, i32, i32
  }
  %f = tile_nv.warpgroup_dot_wait %r#0 {pendings = 0 : i32} : tensor<64x64xf32, #mma>
  tile_gpu.barrier
  return
}

}

// -----

// cluster_size = 1 (or none) leaves the kernel alone.
// CHECK-LABEL: func.func @single
// CHECK-NOT:     tile_nv.cluster_barrier
func.func @single(%x: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, tile.cluster_size = 1 : i32} {
  return
}
