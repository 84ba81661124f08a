// RUN: tessel-opt %s --tile-gpu-insert-barriers | FileCheck %s

#a = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile_gpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
#sh = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0}>

module attributes {tile.target = "cuda:sm_80"} {
// A write, then reads by other threads: one barrier between; reads after reads need none.
// CHECK-LABEL: func.func @write_then_read
// CHECK:       tile_gpu.local_store
// CHECK-NEXT:  tile_gpu.barrier
// CHECK-NEXT:  tile_gpu.local_load
// CHECK-NEXT:  tile_gpu.local_load
// A write after reads (WAR) needs one too.
// CHECK-NEXT:  tile_gpu.barrier
// CHECK-NEXT:  tile_gpu.local_store
func.func @write_then_read(%x: tensor<64x32xf16, #a>) -> tensor<64x32xf16, #a> {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.local_store %x, %buf : tensor<64x32xf16, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
  %y = tile_gpu.local_load %buf : !tile_gpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #a>
  %z = tile_gpu.local_load %buf : !tile_gpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b>
  tile_gpu.local_store %x, %buf : tensor<64x32xf16, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
  return %y : tensor<64x32xf16, #a>
}

// Different buffers do not conflict. An op that may use scratch starts with a barrier of its
// own (none inserted before it) and may leave any byte in use (one after it).
// CHECK-LABEL: func.func @disjoint_and_scratch
// CHECK:       tile_gpu.local_store
// CHECK-NEXT:  tile_gpu.local_load
// CHECK-NEXT:  tile_gpu.convert_layout
// CHECK-NEXT:  tile_gpu.barrier
// CHECK-NEXT:  tile_gpu.local_load
func.func @disjoint_and_scratch(%x: tensor<64x32xf16, #a>) -> tensor<64x32xf16, #b> {
  %p = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x32xf16, #sh>
  %q = tile_gpu.local_alloc {offset = 4096 : i32} : !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.local_store %x, %p : tensor<64x32xf16, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
  %y = tile_gpu.local_load %q : !tile_gpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #a>
  %z = tile_gpu.convert_layout %y : tensor<64x32xf16, #a> -> tensor<64x32xf16, #b>
  %w = tile_gpu.local_load %q : !tile_gpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #b>
  %s = arith.addf %z, %w : tensor<64x32xf16, #b>
  return %s : tensor<64x32xf16, #b>
}

// The pipelined loop: the read of ring[k % 3] and the copy into ring[(k + 2) % 3] are different
// stages within an iteration, but the copy overwrites the stage the previous iteration read,
// and the wait retires only this thread's copies: one barrier per iteration, after the wait.
// The copies into stages 0 and 1 before the loop need none.
// CHECK-LABEL: func.func @ring
// CHECK-NOT:   tile_gpu.barrier
// CHECK:       scf.for
// CHECK-NEXT:    tile_gpu.async_wait {num = 1 : i32}
// CHECK-NEXT:    arith.remui
// CHECK-NEXT:    tile_gpu.memdesc_index
// CHECK-NEXT:    tile_gpu.barrier
// CHECK-NEXT:    tile_gpu.local_load
// CHECK-NOT:     tile_gpu.barrier
// CHECK:         scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  tile_gpu.async_wait {num = 0 : i32}
// CHECK-NOT:   tile_gpu.barrier
// CHECK:       return
func.func @ring(%p: tensor<64x32x!tile.ptr<f16>, #a>, %n: i32) -> tensor<64x32xf16, #a> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %zero = arith.constant dense<0.0> : tensor<64x32xf16, #a>
  %ring = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<3x64x32xf16, #sh>
  %s0 = tile_gpu.memdesc_index %ring[%c0] : !tile_gpu.memdesc<3x64x32xf16, #sh> -> !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.async_copy_global_to_local %p, %s0 : tensor<64x32x!tile.ptr<f16>, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.async_commit_group
  %s1 = tile_gpu.memdesc_index %ring[%c1] : !tile_gpu.memdesc<3x64x32xf16, #sh> -> !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.async_copy_global_to_local %p, %s1 : tensor<64x32x!tile.ptr<f16>, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
  tile_gpu.async_commit_group
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %count = %c0) -> (tensor<64x32xf16, #a>, i32) : i32 {
    tile_gpu.async_wait {num = 1 : i32}
    %rd = arith.remui %count, %c3 : i32
    %st = tile_gpu.memdesc_index %ring[%rd] : !tile_gpu.memdesc<3x64x32xf16, #sh> -> !tile_gpu.memdesc<64x32xf16, #sh>
    %x = tile_gpu.local_load %st : !tile_gpu.memdesc<64x32xf16, #sh> -> tensor<64x32xf16, #a>
    %w0 = arith.addi %count, %c2 : i32
    %w = arith.remui %w0, %c3 : i32
    %sw = tile_gpu.memdesc_index %ring[%w] : !tile_gpu.memdesc<3x64x32xf16, #sh> -> !tile_gpu.memdesc<64x32xf16, #sh>
    tile_gpu.async_copy_global_to_local %p, %sw : tensor<64x32x!tile.ptr<f16>, #a> -> !tile_gpu.memdesc<64x32xf16, #sh>
    tile_gpu.async_commit_group
    %sum = arith.addf %acc, %x : tensor<64x32xf16, #a>
    %next = arith.addi %count, %c1 : i32
    scf.yield %sum, %next : tensor<64x32xf16, #a>, i32
  }
  tile_gpu.async_wait {num = 0 : i32}
  return %r#0 : tensor<64x32xf16, #a>
}
}
