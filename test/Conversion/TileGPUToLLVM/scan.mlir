// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize --cse | FileCheck %s

// 256 elements over 4 warps (2 per thread): stored row-major to scratch, each of the 128
// threads scans a chunk of 2 in place (one combine) and writes its total, 7 Hillis-Steele
// rounds over the 128 totals (each: read, barrier, write, barrier), the previous chunk's prefix
// combined into each element of the chunk, and the elements read back. Scratch: 1 KB of data,
// 512 B of totals, 8 B per thread.
#b = #tile_gpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @cumsum
// CHECK-SAME:    tile_gpu.shared = 2560 : i32
// CHECK:         nvvm.barrier0
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK:         llvm.fadd
// CHECK-COUNT-16: nvvm.barrier0
// CHECK-NOT:     nvvm.shfl.sync
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

// Rows of a (32, 8) tile scanned along axis 1 from the end on one warp: 8 elements per line,
// 32 lines, one thread per line: no Hillis-Steele rounds, so the barriers around the store to
// scratch and before the read back are all (the reductions after it stay in the warp).
// Scratch: 1 KB of data, 128 B of totals, 8 B for each of the 32 threads.
#r = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @row_scan_reverse
// CHECK-SAME:    tile_gpu.shared = 1408 : i32
// CHECK-COUNT-3: nvvm.barrier0
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
