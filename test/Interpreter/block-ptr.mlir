// Block pointers: make_block_ptr over a (3, 5) row-major tensor, a (2, 4) block at (2, 3):
// boundary_check on both dimensions with padding = zero / nan / none (poison), advance, and a
// store with boundary_check that writes only the in-bounds part.
// RUN: tessel-run %s --kernel bp_load --grid 1 --arg 'a@f32[15]=iota' --arg 'o@f32[24]' | FileCheck %s --check-prefix=LOAD
// RUN: tessel-run %s --kernel bp_store --grid 1 --arg 'a@f32[15]=0' | FileCheck %s --check-prefix=STORE

// Rows 2..3 x cols 3..6 of a[r, c] = 5r + c: row 2 -> 13, 14, pad, pad; row 3 -> all pad.
// LOAD: o = [13, 14, 0, 0, 0, 0, 0, 0, 13, 14, nan, nan, nan, nan, nan, nan, 8, 9, poison, poison, 13, 14, poison, poison]
func.func @bp_load(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c5 = arith.constant 5 : i64
  %cm1 = arith.constant -1 : i64
  %bp = tile.make_block_ptr %a, [%c3, %c5], [%c5, %c1], [%c2, %c3] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  %z = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<2x4xf32>>
  %n = tile.load %bp boundary_check = [0, 1] padding = nan : !tile.block_ptr<tensor<2x4xf32>>
  // Moved up one row: rows 1..2, only the columns are checked (rows are in bounds).
  %up = tile.advance %bp, [%cm1, %c0] : !tile.block_ptr<tensor<2x4xf32>>
  %p = tile.load %up boundary_check = [1] : !tile.block_ptr<tensor<2x4xf32>>
  %r = tile.arange 0, 8 : tensor<8xi32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %q0 = tile.addptr %po, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %zf = tile.reshape %z : tensor<2x4xf32> -> tensor<8xf32>
  tile.store %q0, %zf : tensor<8x!tile.ptr<f32>>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %q1 = tile.addptr %q0, %c8 : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %nf = tile.reshape %n : tensor<2x4xf32> -> tensor<8xf32>
  tile.store %q1, %nf : tensor<8x!tile.ptr<f32>>
  %q2 = tile.addptr %q1, %c8 : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %pf = tile.reshape %p : tensor<2x4xf32> -> tensor<8xf32>
  tile.store %q2, %pf : tensor<8x!tile.ptr<f32>>
  return
}

// The (2, 4) block at (2, 3) stores 1..8: only (2, 3) and (2, 4) are inside.
// STORE: a = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2]
func.func @bp_store(%a: !tile.ptr<f32>) attributes {tile.kernel} {
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c5 = arith.constant 5 : i64
  %bp = tile.make_block_ptr %a, [%c3, %c5], [%c5, %c1], [%c2, %c3] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  %v = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]> : tensor<2x4xf32>
  tile.store %bp, %v boundary_check = [0, 1] : !tile.block_ptr<tensor<2x4xf32>>
  return
}
