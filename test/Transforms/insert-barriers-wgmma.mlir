// RUN: tessel-opt %s --tile-gpu-insert-barriers | FileCheck %s

// warpgroup_dot takes part in barrier insertion through its declared reads of A and B: other
// threads' stores to an operand need a barrier before it (after the fence that
// tile-nv-warpgroup-dot put after the stores), a store after it to an operand (WAR) needs one
// too; a buffer it does not read needs none.
#a = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 64]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>

// CHECK-LABEL: func.func @operands_from_registers
// CHECK:       tile_gpu.local_store %arg0, %[[A:[0-9]+]] :
// CHECK-NEXT:  tile_gpu.local_store %arg1, %[[B:[0-9]+]] :
// CHECK-NEXT:  tile_nv.fence_async_shared
// CHECK-NEXT:  tile_gpu.barrier
// CHECK-NEXT:  tile_nv.warpgroup_dot %[[A]], %[[B]]
// CHECK-NEXT:  tile_nv.warpgroup_dot_wait
// CHECK-NEXT:  tile_gpu.local_store %arg0, %[[OTHER:[0-9]+]] :
// CHECK-NEXT:  tile_gpu.barrier
// CHECK-NEXT:  tile_gpu.local_store %arg0, %[[A]] :
module attributes {tile.target = "cuda:sm_90a"} {
func.func @operands_from_registers(%x: tensor<64x64xbf16, #a>, %y: tensor<64x64xbf16, #a>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %sa = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x64xbf16, #s>
  %sb = tile_gpu.local_alloc {offset = 8192 : i32} : !tile_gpu.memdesc<64x64xbf16, #s>
  %sc = tile_gpu.local_alloc {offset = 16384 : i32} : !tile_gpu.memdesc<64x64xbf16, #s>
  tile_gpu.local_store %x, %sa : tensor<64x64xbf16, #a> -> !tile_gpu.memdesc<64x64xbf16, #s>
  tile_gpu.local_store %y, %sb : tensor<64x64xbf16, #a> -> !tile_gpu.memdesc<64x64xbf16, #s>
  tile_nv.fence_async_shared
  %d = tile_nv.warpgroup_dot %sa, %sb, %acc : !tile_gpu.memdesc<64x64xbf16, #s>, !tile_gpu.memdesc<64x64xbf16, #s>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %w = tile_nv.warpgroup_dot_wait %d {pendings = 0 : i32} : tensor<64x64xf32, #mma>
  tile_gpu.local_store %x, %sc : tensor<64x64xbf16, #a> -> !tile_gpu.memdesc<64x64xbf16, #s>
  tile_gpu.local_store %x, %sa : tensor<64x64xbf16, #a> -> !tile_gpu.memdesc<64x64xbf16, #s>
  return %w : tensor<64x64xf32, #mma>
}
}
