// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize --cse | FileCheck %s

// 256 elements over 4 warps (2 per thread): the run of 2 scanned in the thread (one combine),
// a butterfly of 5 xor shuffles over the 32 lanes (each step: the lane prefix and the warp
// total, both orders of the total for a non-commutative combiner), the 4 warp totals through
// 16 B of shared memory between two barriers, each thread walking the 3 totals before the last
// warp's, and the prefixes combined into both elements.
#b = #tile_gpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @cumsum
// CHECK-SAME:    tile_gpu.shared = 16 : i32
// CHECK:         llvm.fadd
// CHECK-COUNT-5: nvvm.shfl.sync  bfly
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         nvvm.barrier0
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK-NEXT:    nvvm.barrier0
// CHECK-COUNT-3: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
// CHECK-NOT:     nvvm.barrier0
// CHECK-NOT:     llvm.load %{{.*}} : !llvm.ptr<3>
// CHECK:         llvm.return
func.func @cumsum(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c = tile.arange 0, 256 : tensor<256xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %c : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  %v = tile.load %pp : tensor<256x!tile.ptr<f32>, #b>
  %s = tile.scan(%v) axis = 0 : (tensor<256xf32, #b>) -> tensor<256xf32, #b> {
  ^bb0(%a: f32, %x: f32):
    %t = arith.addf %a, %x : f32
    tile.yield %t : f32
  }
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>, #b>
  %op = tile.addptr %os, %c : tensor<256x!tile.ptr<f32>, #b>, tensor<256xi32, #b>
  tile.store %op, %s : tensor<256x!tile.ptr<f32>, #b>
  return
}

// Rows of a (32, 8) tile scanned along axis 1 from the end on one warp: each line lies in one
// thread, so the scan is 7 combines per line in registers: no shuffle, no shared memory.
#r = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @row_scan_reverse
// CHECK-SAME:    tile_gpu.shared = 0 : i32
// CHECK-COUNT-7: llvm.mul
// CHECK-NOT:     nvvm.barrier0
func.func @row_scan_reverse(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %v = arith.constant dense<3> : tensor<32x8xi32, #r>
  %s = tile.scan(%v) axis = 1 reverse : (tensor<32x8xi32, #r>) -> tensor<32x8xi32, #r> {
  ^bb0(%a: i32, %x: i32):
    %t = arith.muli %a, %x : i32
    tile.yield %t : i32
  }
  %red = tile.reduce(%s) axis = 1 : (tensor<32x8xi32, #r>) -> tensor<32xi32, #tile_gpu.slice<{dim = 1, parent = #r}>> {
  ^bb0(%a: i32, %x: i32):
    %t = arith.addi %a, %x : i32
    tile.yield %t : i32
  }
  %all = tile.reduce(%red) axis = 0 : (tensor<32xi32, #tile_gpu.slice<{dim = 1, parent = #r}>>) -> i32 {
  ^bb0(%a: i32, %x: i32):
    %t = arith.addi %a, %x : i32
    tile.yield %t : i32
  }
  tile.store %p, %all : !tile.ptr<i32>
  return
}

// A layout without a blocked root (an mma accumulator) goes through shared memory: stored
// row-major, each thread scans a chunk of one row in place, Hillis-Steele rounds over the
// chunk totals, the prefixes combined back, read back.
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#m = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [16, 2], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @mma_scan
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         nvvm.barrier0
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         llvm.fadd
func.func @mma_scan(%p: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %v = arith.constant dense<1.0> : tensor<16x8xf32, #mma>
  %s = tile.scan(%v) axis = 1 : (tensor<16x8xf32, #mma>) -> tensor<16x8xf32, #mma> {
  ^bb0(%a: f32, %x: f32):
    %t = arith.addf %a, %x : f32
    tile.yield %t : f32
  }
  %sb = tile_gpu.convert_layout %s : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #m>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #m>
  tile.store %ps, %sb : tensor<16x8x!tile.ptr<f32>, #m>
  return
}
