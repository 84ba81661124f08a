// RUN: tessel-opt %s -split-input-file --tile-lower-block-pointers=target=cuda:sm_80 --tile-gpu-assign-layouts | FileCheck %s

// What AxisInfo sees of the lowered addresses, through the layouts tile-gpu-assign-layouts
// picks (elements per thread: the widest access AxisInfo allows). A block pointer whose
// order[0] dimension has the constant stride 1 is contiguous along it: with the base, the
// shape, the other stride and the offsets multiples of 16, a thread reads 8 f16 (16 bytes)
// at a time.
// CHECK: #[[V:.+]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @aligned(
// CHECK: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x32x!tile.ptr<f16>, #[[V]]>
func.func @aligned(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i64 {tile.divisibility = 16 : i32}, %K: i64 {tile.divisibility = 16 : i32}, %s: i64 {tile.divisibility = 16 : i32}, %om: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %a, [%M, %K], [%s, %c1], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  %t = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x32xf16>>
  %ob = tile.make_block_ptr %o, [%M, %K], [%s, %c1], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  tile.store %ob, %t : !tile.block_ptr<tensor<64x32xf16>>
  return
}

// -----

// The same with a row stride of unknown alignment: rows start anywhere, so the runs along the
// contiguous dimension are read one f16 at a time: AxisInfo counts the row term (0 .. 63) *
// stride as a multiple of the stride's divisibility, not of row 0's.
// CHECK: #[[S:.+]] = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @unaligned_rows(
// CHECK: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<64x32x!tile.ptr<f16>, #[[S]]>
func.func @unaligned_rows(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i64 {tile.divisibility = 16 : i32}, %K: i64 {tile.divisibility = 16 : i32}, %s: i64, %om: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %a, [%M, %K], [%s, %c1], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  %t = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x32xf16>>
  %ob = tile.make_block_ptr %o, [%M, %K], [%s, %c1], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  tile.store %ob, %t : !tile.block_ptr<tensor<64x32xf16>>
  return
}

// -----

// Column-major (order [0, 1], stride 1 along dimension 0): contiguous along dimension 0.
// CHECK: #[[C:.+]] = #tile_gpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @columns(
// CHECK: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<32x64x!tile.ptr<f16>, #[[C]]>
func.func @columns(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %M: i64 {tile.divisibility = 16 : i32}, %K: i64 {tile.divisibility = 16 : i32}, %s: i64 {tile.divisibility = 16 : i32}, %om: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %a, [%M, %K], [%c1, %s], [%om, %c0] {order = array<i32: 0, 1>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<32x64xf16>>
  %t = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<32x64xf16>>
  %ob = tile.make_block_ptr %o, [%M, %K], [%c1, %s], [%om, %c0] {order = array<i32: 0, 1>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<32x64xf16>>
  tile.store %ob, %t : !tile.block_ptr<tensor<32x64xf16>>
  return
}
