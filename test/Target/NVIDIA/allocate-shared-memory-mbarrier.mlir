// RUN: tessel-opt %s --tile-gpu-allocate-shared-memory | FileCheck %s
// RUN: tessel-opt %s --tile-gpu-allocate-shared-memory --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s --check-prefix=LLVM

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

// The epilogue's scratch (a layout conversion after the loop) starts where no live buffer is,
// offset 0, but must not cover a kept barrier either: the allocator lists the barrier's bytes
// (tile_gpu.scratch_held) and the lowering places the 4608 bytes of scratch (32 rows of 36
// floats) past them, at 16: the kernel's shared memory is 16 + 4608 bytes (without the step,
// 4608: the scratch over the barrier).
#a = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tile_gpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#f32 = #tile_gpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 0}>
// CHECK-LABEL: func.func @scratch_past_kept
// CHECK:       tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<1xi64
// CHECK:       tile_gpu.convert_layout {{.*}} {tile_gpu.scratch_held = array<i32: 0, 8>}
// CHECK:       tile_gpu.local_alloc {offset = 16 : i32} : !tile_gpu.memdesc<32x32xf32
// LLVM-LABEL:  llvm.func @scratch_past_kept
// LLVM-SAME:   tile_gpu.shared = 4624 : i32
func.func @scratch_past_kept(%n: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %y = arith.constant dense<2.0> : tensor<32x32xf32, #a>
  %bar = tile_gpu.local_alloc : !tile_gpu.memdesc<1xi64, #b>
  tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<1xi64, #b>
  scf.for %k = %c0 to %n step %c1 : i32 {
    tile_nv.wait_barrier %bar, %k : !tile_gpu.memdesc<1xi64, #b>
  }
  %z = tile_gpu.convert_layout %y : tensor<32x32xf32, #a> -> tensor<32x32xf32, #c>
  %o = tile_gpu.local_alloc : !tile_gpu.memdesc<32x32xf32, #f32>
  tile_gpu.local_store %z, %o : tensor<32x32xf32, #c> -> !tile_gpu.memdesc<32x32xf32, #f32>
  return
}
