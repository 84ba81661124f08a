// tile-lower-block-pointers keeps the interpreter's semantics: every kernel below runs on the
// interpreter as written (block pointers) and after the pass (masked loads and stores of
// pointer tiles), with the same output, which the CHECK lines state by hand.
// RUN: tessel-opt %s --tile-lower-block-pointers=target=cuda:sm_80 -o %t.mlir
// RUN: FileCheck %s --check-prefix=LOWERED --implicit-check-not=block_ptr --implicit-check-not=tile.advance < %t.mlir
// RUN: tessel-run %s --kernel walk --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' | FileCheck %s --check-prefix=WALK
// RUN: tessel-run %t.mlir --kernel walk --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' | FileCheck %s --check-prefix=WALK
// RUN: tessel-run %s --kernel pick --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' --arg 'flag@i64=1' | FileCheck %s --check-prefix=PICK1
// RUN: tessel-run %t.mlir --kernel pick --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' --arg 'flag@i64=1' | FileCheck %s --check-prefix=PICK1
// RUN: tessel-run %s --kernel pick --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' --arg 'flag@i64=0' | FileCheck %s --check-prefix=PICK0
// RUN: tessel-run %t.mlir --kernel pick --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' --arg 'flag@i64=0' | FileCheck %s --check-prefix=PICK0
// RUN: tessel-run %s --kernel copy --grid 1 --arg 'a@i32[10]=iota' --arg 'o@i32[10]' --arg 'n@i64=10' | FileCheck %s --check-prefix=COPY
// RUN: tessel-run %t.mlir --kernel copy --grid 1 --arg 'a@i32[10]=iota' --arg 'o@i32[10]' --arg 'n@i64=10' | FileCheck %s --check-prefix=COPY
// RUN: tessel-run %s --kernel cube --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' | FileCheck %s --check-prefix=CUBE
// RUN: tessel-run %t.mlir --kernel cube --grid 1 --arg 'a@f32[24]=iota' --arg 'o@f32[8]' | FileCheck %s --check-prefix=CUBE
// RUN: tessel-run %s --kernel nopad --grid 1 --arg 'a@f32[3]=iota' --arg 'o@f32[4]' --arg 'n@i64=3' | FileCheck %s --check-prefix=NOPAD
// RUN: tessel-run %t.mlir --kernel nopad --grid 1 --arg 'a@f32[3]=iota' --arg 'o@f32[4]' --arg 'n@i64=3' | FileCheck %s --check-prefix=NOPAD

// The lowered kernels have no block pointers left; walk's masks test both bounds.
// LOWERED-LABEL: func.func @walk(
// LOWERED: scf.for
// LOWERED: arith.cmpi slt
// LOWERED: arith.cmpi sge
// LOWERED: tile.load %{{.+}}, %{{.+}}, %{{.+}} : tensor<2x4x!tile.ptr<f32>>

// A (2, 4) block of the (4, 6) row-major a[r, c] = 6r + c, from (-1, -2), advanced by (1, 2)
// three times in an scf.for and summed: rows below 0 and columns outside [0, 6) read zeros.
// k = 0: rows -1, 0, columns -2..1 -> [0, 0, 0, 0], [0, 0, 0, 1]; k = 1: rows 0, 1, columns
// 0..3; k = 2: rows 1, 2, columns 2..5.
// WALK: o = [8, 10, 12, 14, 20, 22, 24, 27]
func.func @walk(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c6 = arith.constant 6 : i64
  %cm1 = arith.constant -1 : i64
  %cm2 = arith.constant -2 : i64
  %zero = arith.constant dense<0.0> : tensor<2x4xf32>
  %bp = tile.make_block_ptr %a, [%c4, %c6], [%c6, %c1], [%cm1, %cm2] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  %r:2 = scf.for %k = %c0 to %c3 step %c1 iter_args(%acc = %zero, %p = %bp) -> (tensor<2x4xf32>, !tile.block_ptr<tensor<2x4xf32>>) : i64 {
    %t = tile.load %p boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<2x4xf32>>
    %s = arith.addf %acc, %t : tensor<2x4xf32>
    %n = tile.advance %p, [%c1, %c2] : !tile.block_ptr<tensor<2x4xf32>>
    scf.yield %s, %n : tensor<2x4xf32>, !tile.block_ptr<tensor<2x4xf32>>
  }
  %ob = tile.make_block_ptr %o, [%c2, %c4], [%c4, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  tile.store %ob, %r#0 : !tile.block_ptr<tensor<2x4xf32>>
  return
}

// scf.if picks a block pointer: rows 2..3, columns 3..6 of a (the then branch advances
// (1, 3) by a row), or a transposed view (shape (6, 4), strides (1, 6), order (0, 1)) at
// (4, 2): element (i, j) is a[j, i], columns 4 and 5 outside. Out of bounds: NaN.
// PICK1: o = [15, 16, 17, nan, 21, 22, 23, nan]
// PICK0: o = [16, 22, nan, nan, 17, 23, nan, nan]
func.func @pick(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>, %flag: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c6 = arith.constant 6 : i64
  %cond = arith.cmpi ne, %flag, %c0 : i64
  %rows = tile.make_block_ptr %a, [%c4, %c6], [%c6, %c1], [%c1, %c3] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  %cols = tile.make_block_ptr %a, [%c6, %c4], [%c1, %c6], [%c4, %c2] {order = array<i32: 0, 1>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  %bp = scf.if %cond -> (!tile.block_ptr<tensor<2x4xf32>>) {
    %down = tile.advance %rows, [%c1, %c0] : !tile.block_ptr<tensor<2x4xf32>>
    scf.yield %down : !tile.block_ptr<tensor<2x4xf32>>
  } else {
    scf.yield %cols : !tile.block_ptr<tensor<2x4xf32>>
  }
  %t = tile.load %bp boundary_check = [0, 1] padding = nan : !tile.block_ptr<tensor<2x4xf32>>
  %ob = tile.make_block_ptr %o, [%c2, %c4], [%c4, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x4xf32>>
  tile.store %ob, %t : !tile.block_ptr<tensor<2x4xf32>>
  return
}

// scf.while copies n = 10 i32 in blocks of 4, both block pointers carried and advanced: the
// last block reads and writes only elements 8 and 9 (the boundary check on the store keeps the
// others from being written, which the interpreter would report as out of bounds).
// COPY: o = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
func.func @copy(%a: !tile.ptr<i32>, %o: !tile.ptr<i32>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c4 = arith.constant 4 : i64
  %src = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<i32> -> !tile.block_ptr<tensor<4xi32>>
  %dst = tile.make_block_ptr %o, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<i32> -> !tile.block_ptr<tensor<4xi32>>
  %r:3 = scf.while (%i = %c0, %s = %src, %d = %dst) : (i64, !tile.block_ptr<tensor<4xi32>>, !tile.block_ptr<tensor<4xi32>>) -> (i64, !tile.block_ptr<tensor<4xi32>>, !tile.block_ptr<tensor<4xi32>>) {
    %more = arith.cmpi slt, %i, %n : i64
    scf.condition(%more) %i, %s, %d : i64, !tile.block_ptr<tensor<4xi32>>, !tile.block_ptr<tensor<4xi32>>
  } do {
  ^bb0(%j: i64, %s2: !tile.block_ptr<tensor<4xi32>>, %d2: !tile.block_ptr<tensor<4xi32>>):
    %t = tile.load %s2 boundary_check = [0] padding = zero : !tile.block_ptr<tensor<4xi32>>
    tile.store %d2, %t boundary_check = [0] : !tile.block_ptr<tensor<4xi32>>
    %j4 = arith.addi %j, %c4 : i64
    %s3 = tile.advance %s2, [%c4] : !tile.block_ptr<tensor<4xi32>>
    %d3 = tile.advance %d2, [%c4] : !tile.block_ptr<tensor<4xi32>>
    scf.yield %j4, %s3, %d3 : i64, !tile.block_ptr<tensor<4xi32>>, !tile.block_ptr<tensor<4xi32>>
  }
  return
}

// A (2, 2, 2) block of the (2, 3, 4) row-major a (strides 12, 4, 1) at (1, 2, 3): only
// (1, 2, 3) = 1 * 12 + 2 * 4 + 3 = 23 is inside; the other lanes read zeros.
// CUBE: o = [23, 0, 0, 0, 0, 0, 0, 0]
func.func @cube(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %c4 = arith.constant 4 : i64
  %c8 = arith.constant 8 : i64
  %c12 = arith.constant 12 : i64
  %bp = tile.make_block_ptr %a, [%c2, %c3, %c4], [%c12, %c4, %c1], [%c1, %c2, %c3] {order = array<i32: 2, 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<2x2x2xf32>>
  %t = tile.load %bp boundary_check = [0, 1, 2] padding = zero : !tile.block_ptr<tensor<2x2x2xf32>>
  %f = tile.reshape %t : tensor<2x2x2xf32> -> tensor<8xf32>
  %ob = tile.make_block_ptr %o, [%c8], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<8xf32>>
  tile.store %ob, %f : !tile.block_ptr<tensor<8xf32>>
  return
}

// Without padding the lanes outside the checked dimension are undefined (poison on the
// interpreter) and read no memory: 4 lanes from position n - 2 = 1 of a 3-element a.
// NOPAD: o = [1, 2, poison, poison]
func.func @nopad(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c4 = arith.constant 4 : i64
  %at = arith.subi %n, %c2 : i64
  %bp = tile.make_block_ptr %a, [%n], [%c1], [%at] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<4xf32>>
  %t = tile.load %bp boundary_check = [0] : !tile.block_ptr<tensor<4xf32>>
  %ob = tile.make_block_ptr %o, [%c4], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<4xf32>>
  tile.store %ob, %t : !tile.block_ptr<tensor<4xf32>>
  return
}
