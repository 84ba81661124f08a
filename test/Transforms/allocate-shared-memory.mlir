// RUN: tessel-opt %s --tile-gpu-allocate-shared-memory | FileCheck %s

#a = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile_gpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#sh = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0}>

module attributes {tile.target = "cuda:sm_80"} {
// CHECK-LABEL: func.func @live_ranges
func.func @live_ranges(%x: tensor<64x32xf16, #a>, %y: tensor<32x64xf16, #a>, %n: i32) -> tensor<64x32xf16, #b> attributes {tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // CHECK: tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<2x64x32xf16
  %ring = tile_gpu.local_alloc : !tile_gpu.memdesc<2x64x32xf16, #sh>
  // Live at the same time as the ring: placed after its 8192 bytes.
  // CHECK: tile_gpu.local_alloc {offset = 8192 : i32} : !tile_gpu.memdesc<64x32xf16
  %other = tile_gpu.local_alloc : !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.local_store %x, %other : tensor<64x32xf16, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
  // A use inside a loop keeps the ring alive to the loop's end; the second buffer's last use
  // is before the loop, so the loop's layout conversions take their scratch from its bytes.
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x32xf16, #a>) : i32 {
    %s = arith.remui %k, %c1 : i32
    %st = tile_gpu.memdesc_index %ring[%s] : !tile_gpu.memdesc<2x64x32xf16, #sh> -> !tile_gpu.memdesc<64x32xf16, #sh>
    // CHECK: tile_gpu.convert_layout {{.*}} {tile_gpu.scratch_offset = 8192 : i32}
    // CHECK: tile_gpu.convert_layout {{.*}} {tile_gpu.scratch_offset = 8192 : i32}
    %t = tile_gpu.convert_layout %acc : tensor<64x32xf16, #a> -> tensor<64x32xf16, #b>
    %u = tile_gpu.convert_layout %t : tensor<64x32xf16, #b> -> tensor<64x32xf16, #a>
    tile_gpu.local_store %u, %st : tensor<64x32xf16, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
    %v = tile_gpu.local_load %st : !tile_gpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #a>
    scf.yield %v : tensor<64x32xf16, #a>
  }
  // Both buffers are dead after the loop: a new buffer reuses offset 0, and once it is dead too
  // the epilogue's scratch starts at 0 (no attribute).
  // CHECK: tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<32x64xf16
  %late = tile_gpu.local_alloc : !tile_gpu.memdesc<32x64xf16, #sh>
  tile_gpu.local_store %y, %late : tensor<32x64xf16, #a> -> !tile_gpu.memdesc<32x64xf16, #sh>
  // CHECK: tile_gpu.local_store
  // CHECK-NOT: scratch_offset
  // CHECK: return
  %out = tile_gpu.convert_layout %r : tensor<64x32xf16, #a> -> tensor<64x32xf16, #b>
  return %out : tensor<64x32xf16, #b>
}
}
