// RUN: tessel-opt %s --tile-nv-warpgroup-dot | FileCheck %s

// With one wgmma group in flight across iterations (pendings = 1), the accumulator registers
// are being written while the next iteration runs: a loop that also reads the iteration
// argument elsewhere (the arith.addf below) must wait for each group (pendings = 0) and needs no
// wait after the loop.
// CHECK-LABEL: func.func @acc_read_in_loop
// CHECK:       scf.for
// CHECK:         tile_nv.warpgroup_dot %
// CHECK-NEXT:    tile_nv.warpgroup_dot_wait %{{.+}} {pendings = 0 : i32}
// CHECK:         scf.yield
// CHECK-NEXT:  }
// CHECK-NOT:   tile_nv.warpgroup_dot_wait
// CHECK:       return

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
func.func @acc_read_in_loop(%pa: tensor<128x64x!tile.ptr<bf16>, #ba>, %pb: tensor<64x128x!tile.ptr<bf16>, #bb>, %n: i32) -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %ra = tile_gpu.local_alloc : !tile_gpu.memdesc<4x128x64xbf16, #s>
  %rb = tile_gpu.local_alloc : !tile_gpu.memdesc<4x64x128xbf16, #s>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %count = %c0, %sum = %zero) -> (tensor<128x128xf32, #mma>, i32, tensor<128x128xf32, #mma>) : i32 {
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
    // A second use of the iteration argument.
    %s2 = arith.addf %sum, %acc : tensor<128x128xf32, #mma>
    scf.yield %d, %next, %s2 : tensor<128x128xf32, #mma>, i32, tensor<128x128xf32, #mma>
  }
  tile_gpu.async_wait {num = 0 : i32}
  return %r#0, %r#2 : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
}
