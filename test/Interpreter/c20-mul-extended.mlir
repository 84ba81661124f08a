// Case C20 (interpreter part): arith.mulsi_extended / mului_extended run on the interpreter
// (they were rejected): the low and high halves of the 2w-bit product. Signed high halves of
// -1 * -1, INT_MIN * 2, INT_MAX^2, 5 * 7: 0, -1, 1073741823, 0; unsigned: 4294967294 (-2),
// 1 (0x80000000 * 2 = 2^32), 1073741823, 0. The DSL form
// cast<i32>((cast<i64>(x) * cast<i64>(y)) >> 32), which canonicalizes to mulsi_extended, is
// test/tools/tesselc/mul-extended.test (interpreter and GPU lowering).
// RUN: tessel-run %s --kernel k --grid 1 --arg 'x@i32:[-1,-2147483648,2147483647,5]' --arg 'y@i32:[-1,2,2147483647,7]' --arg 'o@i32[16]' | FileCheck %s
// CHECK: o = [1, 0, 1, 35, 0, -1, 1073741823, 0, 1, 0, 1, 35, -2, 1, 1073741823, 0]
// i64: the high half of a 128-bit product: (2^62) * 4 = 2^64 -> high 1; -1 * 3 -> high -1.
// RUN: tessel-run %s --kernel k64 --grid 1 --arg 'x@i64:[4611686018427387904,-1]' --arg 'y@i64:[4,3]' --arg 'o@i64[4]' | FileCheck %s --check-prefix=I64
// I64: o = [0, -3, 1, -1]
func.func @k(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %px = tile.addptr %xs, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %ys = tile.splat %y : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %py = tile.addptr %ys, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %a = tile.load %px : tensor<4x!tile.ptr<i32>>
  %b = tile.load %py : tensor<4x!tile.ptr<i32>>
  %lo, %hi = arith.mulsi_extended %a, %b : tensor<4xi32>
  %ulo, %uhi = arith.mului_extended %a, %b : tensor<4xi32>
  %os = tile.splat %o : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %q0 = tile.addptr %os, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %q1 = tile.addptr %q0, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %q2 = tile.addptr %q1, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %q3 = tile.addptr %q2, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %q0, %lo : tensor<4x!tile.ptr<i32>>
  tile.store %q1, %hi : tensor<4x!tile.ptr<i32>>
  tile.store %q2, %ulo : tensor<4x!tile.ptr<i32>>
  tile.store %q3, %uhi : tensor<4x!tile.ptr<i32>>
  return
}
func.func @k64(%x: !tile.ptr<i64>, %y: !tile.ptr<i64>, %o: !tile.ptr<i64>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %xs = tile.splat %x : !tile.ptr<i64> -> tensor<2x!tile.ptr<i64>>
  %px = tile.addptr %xs, %r : tensor<2x!tile.ptr<i64>>, tensor<2xi32>
  %ys = tile.splat %y : !tile.ptr<i64> -> tensor<2x!tile.ptr<i64>>
  %py = tile.addptr %ys, %r : tensor<2x!tile.ptr<i64>>, tensor<2xi32>
  %a = tile.load %px : tensor<2x!tile.ptr<i64>>
  %b = tile.load %py : tensor<2x!tile.ptr<i64>>
  %lo, %hi = arith.mulsi_extended %a, %b : tensor<2xi64>
  %os = tile.splat %o : !tile.ptr<i64> -> tensor<2x!tile.ptr<i64>>
  %q0 = tile.addptr %os, %r : tensor<2x!tile.ptr<i64>>, tensor<2xi32>
  %c2 = arith.constant dense<2> : tensor<2xi32>
  %q1 = tile.addptr %q0, %c2 : tensor<2x!tile.ptr<i64>>, tensor<2xi32>
  tile.store %q0, %lo : tensor<2x!tile.ptr<i64>>
  tile.store %q1, %hi : tensor<2x!tile.ptr<i64>>
  return
}
