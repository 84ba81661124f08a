// RUN: tessel-opt %s --tile-gpu-allocate-shared-memory | FileCheck %s

// An mbarrier's bytes may be used for something else only after mbarrier.inval (PTX ISA,
// "mbarrier.inval"): a barrier that is never invalidated keeps its bytes although its live
// range ends with its last wait, so a buffer allocated after that wait goes past it; after an
// inval_barrier (MemFree on the barrier's state) the bytes are free again.

#bl = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#plain = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

// CHECK-LABEL: func.func @kept
// CHECK:       tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<1xi64
// CHECK:       tile_gpu.local_alloc {offset = 16 : i32} : !tile_gpu.memdesc<8x8xf16
func.func @kept(%x: tensor<8x8xf16, #bl>, %n: i32) attributes {tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bar = tile_gpu.local_alloc : !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<1xi64, #b>
  scf.for %k = %c0 to %n step %c1 : i32 {
    tile_nv.wait_barrier %bar, %k : !tile_gpu.memdesc<1xi64, #b>
  }
  %t = tile_gpu.local_alloc : !tile_gpu.memdesc<8x8xf16, #plain>
  tile_gpu.local_store %x, %t : tensor<8x8xf16, #bl> -> !tile_gpu.memdesc<8x8xf16, #plain>
  return
}

// CHECK-LABEL: func.func @invalidated
// CHECK:       tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<1xi64
// CHECK:       tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<8x8xf16
func.func @invalidated(%x: tensor<8x8xf16, #bl>, %n: i32) attributes {tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bar = tile_gpu.local_alloc : !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<1xi64, #b>
  scf.for %k = %c0 to %n step %c1 : i32 {
    tile_nv.wait_barrier %bar, %k : !tile_gpu.memdesc<1xi64, #b>
  }
  tile_nv.inval_barrier %bar : !tile_gpu.memdesc<1xi64, #b>
  %t = tile_gpu.local_alloc : !tile_gpu.memdesc<8x8xf16, #plain>
  tile_gpu.local_store %x, %t : tensor<8x8xf16, #bl> -> !tile_gpu.memdesc<8x8xf16, #plain>
  return
}
