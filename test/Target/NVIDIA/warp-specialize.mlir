// RUN: tessel-opt %s --split-input-file --tile-nv-warp-specialize --verify-diagnostics | FileCheck %s

// The pipelined TMA loop of a 64x64x64 dot (2 stages, a ring of 3: the wgmma keeps one group
// in flight) as tile-gpu-insert-barriers leaves it. The mbarrier inits stay before the branch,
// followed by a barrier of all 256 threads; threads 128..255 (the producer warpgroup) issue
// every copy from their first thread, waiting on the empty barrier of a stage from the second
// round on; threads 0..127 wait on the full barrier, run the wgmma and release the previous
// stage. The epilogue's barrier is among the consumers only.
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

// CHECK-LABEL: func.func @ring
// CHECK-SAME:    tile.producer_warps = 4 : i32
// CHECK:         %[[FULL:.+]] = tile_gpu.local_alloc {offset = 49152 : i32} : !tile_gpu.memdesc<3x1xi64, #{{.+}}>
// CHECK-NEXT:    %[[EMPTY:.+]] = tile_gpu.local_alloc {offset = 49176 : i32} : !tile_gpu.memdesc<3x1xi64, #{{.+}}>
// CHECK-COUNT-3: tile_nv.init_barrier %{{.+}}, 1 :
// CHECK-COUNT-3: tile_nv.init_barrier %{{.+}}, 128 :
// CHECK-NEXT:    tile_nv.named_barrier 0, 256
// CHECK-NEXT:    %[[TID:.+]] = tile_nv.thread_id : i32
// CHECK-NEXT:    %[[P:.+]] = arith.cmpi uge, %[[TID]], %c128_i32 : i32
// CHECK-NEXT:    scf.if %[[P]] {
// CHECK-NEXT:      tile_nv.set_max_nreg 40
// One warp of the four runs the loop: nothing waits for the others, which could fall rounds
// behind the ring's parity. The branch is on warp_id (warp-uniform for ptxas).
// CHECK-NEXT:      %[[WARP:.+]] = tile_nv.warp_id : i32
// CHECK-NEXT:      %[[LEADWARP:.+]] = arith.cmpi eq, %[[WARP]], %c4_i32 : i32
// CHECK-NEXT:      scf.if %[[LEADWARP]] {
// CHECK-NEXT:        tile_nv.barrier_expect %{{.+}}, 16384, %{{.+}} {leader = 128 : i32}
// CHECK-NEXT:        tile_nv.async_tma_copy_global_to_local %arg0[0] {{.+}} {leader = 128 : i32}
// CHECK-NEXT:        tile_nv.async_tma_copy_global_to_local %arg0[1] {{.+}} {leader = 128 : i32}
// CHECK-NEXT:        scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[OFF:.+]] = %c64_i32, %[[N:.+]] = %c0_i32) -> (i32, i32)
// CHECK:               %[[AHEAD:.+]] = arith.addi %[[N]], %c1_i32
// CHECK:               %[[SLOT:.+]] = arith.remui %[[AHEAD]], %c3_i32
// CHECK:               %[[ROUND:.+]] = arith.divui %[[AHEAD]], %c3_i32
// CHECK-NEXT:          %[[PHASE:.+]] = arith.addi %[[ROUND]], %c1_i32
// CHECK-NEXT:          scf.if %[[IN:.+]] {
// CHECK-NEXT:            %[[E:.+]] = tile_gpu.memdesc_index %[[EMPTY]][%[[SLOT]]]
// CHECK-NEXT:            tile_nv.wait_barrier %[[E]], %[[PHASE]]
// CHECK-NEXT:          }
// CHECK-NEXT:          tile_nv.barrier_expect %{{.+}}, 16384, %[[IN]] {leader = 128 : i32}
// CHECK-NEXT:          tile_nv.async_tma_copy_global_to_local %arg0[0] [%[[OFF]], %c0_i32] {{.+}} {leader = 128 : i32}
// CHECK-NEXT:          tile_nv.async_tma_copy_global_to_local %arg0[1] [%c0_i32, %[[OFF]]] {{.+}} {leader = 128 : i32}
// CHECK:               scf.yield
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:    } else {
// CHECK-NEXT:      tile_nv.set_max_nreg 256 inc
// The copies' address (%off) is dead here; LLVM drops it.
// CHECK-NEXT:      scf.for {{.+}} iter_args(%[[ACC:.+]] = %cst, %{{.+}} = %c64_i32, %[[C:.+]] = %c0_i32) -> (tensor<64x64xf32, #mma>, i32, i32)
// CHECK-NEXT:        %[[R:.+]] = arith.divui %[[C]], %c3_i32
// CHECK-NEXT:        %[[S:.+]] = arith.remui %[[C]], %c3_i32
// CHECK-NEXT:        %[[F:.+]] = tile_gpu.memdesc_index %[[FULL]][%[[S]]]
// CHECK-NEXT:        tile_nv.wait_barrier %[[F]], %[[R]]
// CHECK-NEXT:        tile_gpu.memdesc_index
// CHECK-NEXT:        tile_gpu.memdesc_index
// CHECK-NEXT:        %[[D:.+]] = tile_nv.warpgroup_dot
// CHECK-NEXT:        %[[W:.+]] = tile_nv.warpgroup_dot_wait %[[D]] {pendings = 1 : i32}
// CHECK-NEXT:        %[[PREV:.+]] = arith.addi %[[C]], %c2_i32
// CHECK-NEXT:        %[[PS:.+]] = arith.remui %[[PREV]], %c3_i32
// CHECK-NEXT:        %[[NOTFIRST:.+]] = arith.cmpi ne, %[[C]], %c0_i32
// CHECK-NEXT:        %[[PE:.+]] = tile_gpu.memdesc_index %[[EMPTY]][%[[PS]]]
// CHECK-NEXT:        tile_nv.arrive_barrier %[[PE]], %[[NOTFIRST]]
// CHECK-NEXT:        %[[OFF2:.+]] = arith.addi
// CHECK-NEXT:        %[[NEXT:.+]] = arith.addi %[[C]], %c1_i32
// CHECK-NEXT:        scf.yield %[[W]], %[[OFF2]], %[[NEXT]]
// CHECK-NEXT:      }
// CHECK-NEXT:      tile_nv.warpgroup_dot_wait %{{.+}} {pendings = 0 : i32}
// CHECK-NEXT:      tile_nv.named_barrier 1, 128
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @ring(%maps: !tile.ptr<i8, 0>, %n: i64) attributes {tile.num_stages = 2 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %c64 = arith.constant 64 : i32
  %c0_i64 = arith.constant 0 : i64
  %c1_i64 = arith.constant 1 : i64
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
  tile_nv.async_tma_copy_global_to_local %maps[0] [%c0, %c0] %a0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  tile_nv.async_tma_copy_global_to_local %maps[1] [%c0, %c0] %b0, %bar0, %in0 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
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
    tile_nv.async_tma_copy_global_to_local %maps[0] [%off, %c0] %an, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
    tile_nv.async_tma_copy_global_to_local %maps[1] [%c0, %off] %bn, %barn, %in : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xf16, #s>, !tile_gpu.memdesc<1xi64, #b>
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

// -----

// No K loop of wgmma dots: nothing to give a producer.
// expected-error @+1 {{warp_specialize: needs a K loop whose operands are pipelined TMA copies into a wgmma dot}}
func.func @no_loop(%x: i32) attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32} {
  return
}

// -----

// A dot on FMA units (f32 with IEEE products: no wgmma): a warning, and the kernel as it is.
#bl = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @fma_dot
// CHECK-NOT:     tile.producer_warps
// CHECK:         tile.dot
// CHECK-NOT:     tile_nv.set_max_nreg
// expected-warning @+1 {{warp_specialize: ignored in this variant, whose dot does not run on wgmma}}
func.func @fma_dot(%a: tensor<16x16xf32, #bl>, %b: tensor<16x16xf32, #bl>, %c: tensor<16x16xf32, #bl>) -> tensor<16x16xf32, #bl> attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32} {
  %d = tile.dot %a, %b, %c : tensor<16x16xf32, #bl> * tensor<16x16xf32, #bl> -> tensor<16x16xf32, #bl>
  return %d : tensor<16x16xf32, #bl>
}

// -----

// num_stages = 1: no ring to fill.
// expected-error @+1 {{warp_specialize: needs num_stages >= 2: the producer fills a ring of TMA stages that the pipeline builds (num_stages = 1)}}
func.func @one_stage(%x: i32) attributes {tile.num_stages = 1 : i32, tile.num_warps = 4 : i32, tile.warp_specialize = 1 : i32} {
  return
}

// -----

// Without the attribute (or with 0) the pass leaves a kernel alone.
// CHECK-LABEL: func.func @off
// CHECK-NOT:     tile.producer_warps
// CHECK-NOT:     scf.if
func.func @off(%x: i32) attributes {tile.num_warps = 4 : i32, tile.warp_specialize = 0 : i32} {
  return
}
