// RUN: tessel-opt %s --tile-nv-warpgroup-dot -split-input-file | FileCheck %s

// tile-nv-warpgroup-dot: a tile.dot in an mma version 3 layout becomes a warpgroup_dot that
// reads its operands from shared memory (the pipelined ring's stage, or a new buffer in the
// hardware-swizzled placement for an operand in registers), after a fence_async_shared, and a
// warpgroup_dot_wait. The wait keeps one group in flight across K iterations only when the
// loop's copies can never overwrite a stage an unfinished wgmma still reads.

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// The pipelined loop of num_stages = 3 with wgmma's extra stage: rings of 4, iteration k reads
// stage k % 4 and copies into (k + 2) % 4, neither k's nor k - 1's stage. The warpgroup_dot
// reads the ring stages themselves (the local_loads are gone); the fence follows the
// async_wait that completes this thread's copies; one group stays in flight (pendings = 1)
// and the loop result waits for the last one (pendings = 0) before any use.
// CHECK-LABEL: func.func @ring4
// CHECK:       %[[RA:.+]] = tile_gpu.local_alloc : !tile_gpu.memdesc<4x128x64xbf16, #shared>
// CHECK:       %[[RB:.+]] = tile_gpu.local_alloc : !tile_gpu.memdesc<4x64x128xbf16, #shared>
// CHECK:       %[[LOOP:.+]]:2 = scf.for {{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[COUNT:.+]] = %{{.+}})
// CHECK-NEXT:    tile_gpu.async_wait {num = 1 : i32}
// CHECK-NEXT:    tile_nv.fence_async_shared
// CHECK-NEXT:    %[[RD:.+]] = arith.remui %[[COUNT]], %c4_i32
// CHECK-NEXT:    %[[SA:.+]] = tile_gpu.memdesc_index %[[RA]][%[[RD]]]
// CHECK-NEXT:    %[[SB:.+]] = tile_gpu.memdesc_index %[[RB]][%[[RD]]]
// CHECK-NOT:     tile_gpu.local_load
// CHECK-NOT:     tile_nv.fence_async_shared
// CHECK:         tile_gpu.async_commit_group
// CHECK-NEXT:    %[[WG:.+]] = tile_nv.warpgroup_dot %[[SA]], %[[SB]], %[[ACC]] : !tile_gpu.memdesc<128x64xbf16, #shared>, !tile_gpu.memdesc<64x128xbf16, #shared>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
// CHECK-NEXT:    %[[W:.+]] = tile_nv.warpgroup_dot_wait %[[WG]] {pendings = 1 : i32} : tensor<128x128xf32, #mma>
// CHECK-NOT:     tile.dot
// CHECK:         scf.yield %[[W]], %{{.+}} : tensor<128x128xf32, #mma>, i32
// CHECK-NEXT:  }
// CHECK-NEXT:  %[[LAST:.+]] = tile_nv.warpgroup_dot_wait %[[LOOP]]#0 {pendings = 0 : i32} : tensor<128x128xf32, #mma>
// CHECK-NEXT:  tile_gpu.async_wait {num = 0 : i32}
// CHECK-NEXT:  return %[[LAST]]
func.func @ring4(%pa: tensor<128x64x!tile.ptr<bf16>, #ba>, %pb: tensor<64x128x!tile.ptr<bf16>, #bb>, %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %ra = tile_gpu.local_alloc : !tile_gpu.memdesc<4x128x64xbf16, #s>
  %rb = tile_gpu.local_alloc : !tile_gpu.memdesc<4x64x128xbf16, #s>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %count = %c0) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tile_gpu.async_wait {num = 1 : i32}
    %rd = arith.remui %count, %c4 : i32
    %sa = tile_gpu.memdesc_index %ra[%rd] : !tile_gpu.memdesc<4x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %x = tile_gpu.local_load %sa : !tile_gpu.memdesc<128x64xbf16, #s> -> tensor<128x64xbf16, #opa>
    %sb = tile_gpu.memdesc_index %rb[%rd] : !tile_gpu.memdesc<4x64x128xbf16, #s> -> !tile_gpu.memdesc<64x128xbf16, #s>
    %y = tile_gpu.local_load %sb : !tile_gpu.memdesc<64x128xbf16, #s> -> tensor<64x128xbf16, #opb>
    %ahead = arith.addi %count, %c2 : i32
    %wr = arith.remui %ahead, %c4 : i32
    %wa = tile_gpu.memdesc_index %ra[%wr] : !tile_gpu.memdesc<4x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    tile_gpu.async_copy_global_to_local %pa, %wa : tensor<128x64x!tile.ptr<bf16>, #ba> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %wb = tile_gpu.memdesc_index %rb[%wr] : !tile_gpu.memdesc<4x64x128xbf16, #s> -> !tile_gpu.memdesc<64x128xbf16, #s>
    tile_gpu.async_copy_global_to_local %pb, %wb : tensor<64x128x!tile.ptr<bf16>, #bb> -> !tile_gpu.memdesc<64x128xbf16, #s>
    tile_gpu.async_commit_group
    %d = tile.dot %x, %y, %acc : tensor<128x64xbf16, #opa> * tensor<64x128xbf16, #opb> -> tensor<128x128xf32, #mma>
    %next = arith.addi %count, %c1 : i32
    scf.yield %d, %next : tensor<128x128xf32, #mma>, i32
  }
  tile_gpu.async_wait {num = 0 : i32}
  return %r#0 : tensor<128x128xf32, #mma>
}

// -----

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// Rings of 3 without the extra stage: iteration k copies into (k + 2) % 3 = (k - 1) % 3, the
// stage iteration k - 1's wgmma reads. Its group must be complete first: each iteration waits
// for its own (pendings = 0) and nothing is left to wait for after the loop.
// CHECK-LABEL: func.func @ring3
// CHECK:       scf.for
// CHECK-NEXT:    tile_gpu.async_wait {num = 1 : i32}
// CHECK-NEXT:    tile_nv.fence_async_shared
// CHECK:         %[[WG:.+]] = tile_nv.warpgroup_dot
// CHECK-NEXT:    %[[W:.+]] = tile_nv.warpgroup_dot_wait %[[WG]] {pendings = 0 : i32}
// CHECK:         scf.yield %[[W]]
// CHECK-NEXT:  }
// CHECK-NOT:   tile_nv.warpgroup_dot_wait
// CHECK:       return
func.func @ring3(%pa: tensor<128x64x!tile.ptr<bf16>, #ba>, %pb: tensor<64x128x!tile.ptr<bf16>, #bb>, %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %ra = tile_gpu.local_alloc : !tile_gpu.memdesc<3x128x64xbf16, #s>
  %rb = tile_gpu.local_alloc : !tile_gpu.memdesc<3x64x128xbf16, #s>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %count = %c0) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tile_gpu.async_wait {num = 1 : i32}
    %rd = arith.remui %count, %c3 : i32
    %sa = tile_gpu.memdesc_index %ra[%rd] : !tile_gpu.memdesc<3x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %x = tile_gpu.local_load %sa : !tile_gpu.memdesc<128x64xbf16, #s> -> tensor<128x64xbf16, #opa>
    %sb = tile_gpu.memdesc_index %rb[%rd] : !tile_gpu.memdesc<3x64x128xbf16, #s> -> !tile_gpu.memdesc<64x128xbf16, #s>
    %y = tile_gpu.local_load %sb : !tile_gpu.memdesc<64x128xbf16, #s> -> tensor<64x128xbf16, #opb>
    %ahead = arith.addi %count, %c2 : i32
    %wr = arith.remui %ahead, %c3 : i32
    %wa = tile_gpu.memdesc_index %ra[%wr] : !tile_gpu.memdesc<3x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    tile_gpu.async_copy_global_to_local %pa, %wa : tensor<128x64x!tile.ptr<bf16>, #ba> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %wb = tile_gpu.memdesc_index %rb[%wr] : !tile_gpu.memdesc<3x64x128xbf16, #s> -> !tile_gpu.memdesc<64x128xbf16, #s>
    tile_gpu.async_copy_global_to_local %pb, %wb : tensor<64x128x!tile.ptr<bf16>, #bb> -> !tile_gpu.memdesc<64x128xbf16, #s>
    tile_gpu.async_commit_group
    %d = tile.dot %x, %y, %acc : tensor<128x64xbf16, #opa> * tensor<64x128xbf16, #opb> -> tensor<128x128xf32, #mma>
    %next = arith.addi %count, %c1 : i32
    scf.yield %d, %next : tensor<128x128xf32, #mma>, i32
  }
  tile_gpu.async_wait {num = 0 : i32}
  return %r#0 : tensor<128x128xf32, #mma>
}

// -----

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// Rings of 4 again, but the copies' stage is indexed by the induction variable, not the count
// the reads use: the pass cannot tell the stages apart and waits for each group.
// CHECK-LABEL: func.func @other_index
// CHECK:       tile_nv.warpgroup_dot_wait %{{.+}} {pendings = 0 : i32}
// CHECK:       scf.yield
// CHECK-NEXT:  }
// CHECK-NOT:   tile_nv.warpgroup_dot_wait
func.func @other_index(%pa: tensor<128x64x!tile.ptr<bf16>, #ba>, %pb: tensor<64x128x!tile.ptr<bf16>, #bb>, %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %ra = tile_gpu.local_alloc : !tile_gpu.memdesc<4x128x64xbf16, #s>
  %rb = tile_gpu.local_alloc : !tile_gpu.memdesc<4x64x128xbf16, #s>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %count = %c0) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tile_gpu.async_wait {num = 1 : i32}
    %rd = arith.remui %count, %c4 : i32
    %sa = tile_gpu.memdesc_index %ra[%rd] : !tile_gpu.memdesc<4x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %x = tile_gpu.local_load %sa : !tile_gpu.memdesc<128x64xbf16, #s> -> tensor<128x64xbf16, #opa>
    %sb = tile_gpu.memdesc_index %rb[%rd] : !tile_gpu.memdesc<4x64x128xbf16, #s> -> !tile_gpu.memdesc<64x128xbf16, #s>
    %y = tile_gpu.local_load %sb : !tile_gpu.memdesc<64x128xbf16, #s> -> tensor<64x128xbf16, #opb>
    %ahead = arith.addi %k, %c2 : i32
    %wr = arith.remui %ahead, %c4 : i32
    %wa = tile_gpu.memdesc_index %ra[%wr] : !tile_gpu.memdesc<4x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    tile_gpu.async_copy_global_to_local %pa, %wa : tensor<128x64x!tile.ptr<bf16>, #ba> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %wb = tile_gpu.memdesc_index %rb[%wr] : !tile_gpu.memdesc<4x64x128xbf16, #s> -> !tile_gpu.memdesc<64x128xbf16, #s>
    tile_gpu.async_copy_global_to_local %pb, %wb : tensor<64x128x!tile.ptr<bf16>, #bb> -> !tile_gpu.memdesc<64x128xbf16, #s>
    tile_gpu.async_commit_group
    %d = tile.dot %x, %y, %acc : tensor<128x64xbf16, #opa> * tensor<64x128xbf16, #opb> -> tensor<128x128xf32, #mma>
    %next = arith.addi %count, %c1 : i32
    scf.yield %d, %next : tensor<128x128xf32, #mma>, i32
  }
  tile_gpu.async_wait {num = 0 : i32}
  return %r#0 : tensor<128x128xf32, #mma>
}

// -----

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bk = #tile_gpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// Operands in registers: each is stored to a new buffer in the 128-byte swizzle placement
// along the contiguous dimension of the layout it is converted from (A: K, row of 64 bf16 =
// 128 bytes; B: K too, order [0, 1]); no async_wait, so the fence goes right before the dot,
// after the stores. Outside a loop the dot waits for its own group.
// CHECK-DAG:   #[[SK:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
// CHECK-DAG:   #[[SKT:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, blockCols = 64}>
// CHECK-LABEL: func.func @registers
// CHECK-NOT:   tile_gpu.convert_layout
// CHECK:       %[[A:.+]] = tile_gpu.local_alloc : !tile_gpu.memdesc<64x64xbf16, #[[SK]]>
// CHECK-NEXT:  tile_gpu.local_store %arg0, %[[A]] : tensor<64x64xbf16, #blocked> -> !tile_gpu.memdesc<64x64xbf16, #[[SK]]>
// CHECK-NEXT:  %[[B:.+]] = tile_gpu.local_alloc : !tile_gpu.memdesc<64x64xbf16, #[[SKT]]>
// CHECK-NEXT:  tile_gpu.local_store %arg1, %[[B]] : tensor<64x64xbf16, #blocked1> -> !tile_gpu.memdesc<64x64xbf16, #[[SKT]]>
// CHECK-NEXT:  tile_nv.fence_async_shared
// CHECK-NEXT:  %[[WG:.+]] = tile_nv.warpgroup_dot %[[A]], %[[B]], %arg2
// CHECK-NEXT:  %[[W:.+]] = tile_nv.warpgroup_dot_wait %[[WG]] {pendings = 0 : i32}
// CHECK-NEXT:  return %[[W]]
func.func @registers(%x: tensor<64x64xbf16, #ba>, %y: tensor<64x64xbf16, #bk>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %xa = tile_gpu.convert_layout %x : tensor<64x64xbf16, #ba> -> tensor<64x64xbf16, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<64x64xbf16, #bk> -> tensor<64x64xbf16, #opb>
  %d = tile.dot %xa, %yb, %acc : tensor<64x64xbf16, #opa> * tensor<64x64xbf16, #opb> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 8]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// Narrow rows: A's K = 32 halves is a 64-byte row (the 64-byte swizzle: perPhase 2, maxPhase
// 4, blocks of 32); B's N = 8 halves is a 16-byte row, narrower than any swizzle, so B is
// placed along its other dimension (K, order [0, 1]), again 64 bytes.
// CHECK-DAG:   #[[S64:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, blockCols = 32}>
// CHECK-DAG:   #[[S64T:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], pad = 0, blockCols = 32}>
// CHECK-LABEL: func.func @narrow
// CHECK:       tile_gpu.local_alloc : !tile_gpu.memdesc<64x32xf16, #[[S64]]>
// CHECK:       tile_gpu.local_alloc : !tile_gpu.memdesc<32x8xf16, #[[S64T]]>
// CHECK:       tile_nv.warpgroup_dot {{.+}} : !tile_gpu.memdesc<64x32xf16, #[[S64]]>, !tile_gpu.memdesc<32x8xf16, #[[S64T]]>, tensor<64x8xf32, #mma> -> tensor<64x8xf32, #mma>
func.func @narrow(%x: tensor<64x32xf16, #ba>, %y: tensor<32x8xf16, #ba>, %acc: tensor<64x8xf32, #mma>) -> tensor<64x8xf32, #mma> {
  %xa = tile_gpu.convert_layout %x : tensor<64x32xf16, #ba> -> tensor<64x32xf16, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<32x8xf16, #ba> -> tensor<32x8xf16, #opb>
  %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #opa> * tensor<32x8xf16, #opb> -> tensor<64x8xf32, #mma>
  return %d : tensor<64x8xf32, #mma>
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// mma.sync (version 2) dots are left alone.
// CHECK-LABEL: func.func @mma_v2
// CHECK-NOT:   tile_nv
// CHECK:       tile.dot
// CHECK-NOT:   tile_nv
func.func @mma_v2(%x: tensor<64x32xf16, #opa>, %y: tensor<32x64xf16, #opb>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %d = tile.dot %x, %y, %acc : tensor<64x32xf16, #opa> * tensor<32x64xf16, #opb> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}
