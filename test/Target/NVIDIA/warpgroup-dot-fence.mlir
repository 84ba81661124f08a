// RUN: tessel-opt %s --tile-nv-warpgroup-dot | FileCheck %s

// A dot with one operand from the pipelined ring (cp.async, completed by the async_wait) and
// the other from registers (a tile.load the pipeliner did not stage): the local_store this pass
// creates for B comes after the async_wait, so the fence_async_shared must follow the store
// (PTX needs fence.proxy.async between st.shared and a wgmma reading that memory), not the wait.
// CHECK-LABEL: func.func @mixed
// CHECK:       scf.for
// CHECK:         tile_gpu.async_wait {num = 1 : i32}
// CHECK:         %[[B:.+]] = tile_gpu.local_alloc : !tile_gpu.memdesc<64x128xbf16, #shared>
// CHECK-NEXT:    tile_gpu.local_store %{{.+}}, %[[B]]
// CHECK-NEXT:    tile_nv.fence_async_shared
// CHECK-NEXT:    tile_nv.warpgroup_dot %{{.+}}, %[[B]], %{{.+}}

#ba = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#bb = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
func.func @mixed(%pa: tensor<128x64x!tile.ptr<bf16>, #ba>, %pb: tensor<64x128x!tile.ptr<bf16>, #bb>, %n: i32) -> tensor<128x128xf32, #mma> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #mma>
  %ra = tile_gpu.local_alloc : !tile_gpu.memdesc<4x128x64xbf16, #s>
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %count = %c0) -> (tensor<128x128xf32, #mma>, i32) : i32 {
    tile_gpu.async_wait {num = 1 : i32}
    %rd = arith.remui %count, %c4 : i32
    %sa = tile_gpu.memdesc_index %ra[%rd] : !tile_gpu.memdesc<4x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    %x = tile_gpu.local_load %sa : !tile_gpu.memdesc<128x64xbf16, #s> -> tensor<128x64xbf16, #opa>
    %y0 = tile.load %pb : tensor<64x128x!tile.ptr<bf16>, #bb>
    %y = tile_gpu.convert_layout %y0 : tensor<64x128xbf16, #bb> -> tensor<64x128xbf16, #opb>
    %ahead = arith.addi %count, %c2 : i32
    %wr = arith.remui %ahead, %c4 : i32
    %wa = tile_gpu.memdesc_index %ra[%wr] : !tile_gpu.memdesc<4x128x64xbf16, #s> -> !tile_gpu.memdesc<128x64xbf16, #s>
    tile_gpu.async_copy_global_to_local %pa, %wa : tensor<128x64x!tile.ptr<bf16>, #ba> -> !tile_gpu.memdesc<128x64xbf16, #s>
    tile_gpu.async_commit_group
    %d = tile.dot %x, %y, %acc : tensor<128x64xbf16, #opa> * tensor<64x128xbf16, #opb> -> tensor<128x128xf32, #mma>
    %next = arith.addi %count, %c1 : i32
    scf.yield %d, %next : tensor<128x128xf32, #mma>, i32
  }
  tile_gpu.async_wait {num = 0 : i32}
  return %r#0 : tensor<128x128xf32, #mma>
}
