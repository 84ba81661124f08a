// Case C11: integer -> bf16 rounds once to nearest even. 2^62 + 2^54 + 1 lies just above the
// midpoint 2^62 + 2^54 of bf16's neighbours 2^62 and 2^62 + 2^55, so it rounds up to
// 4.64771482e18; rounding it first to a double (or an f32) makes it that midpoint, which ties
// to even: 4.61168602e18. The same for its negation, for its bits read as unsigned
// (1.38350581e19), and for i32 2^30 + 2^22 + 1 (through f32: 2^30). The values reach the
// kernel exactly (case C15).
// RUN: tessel-run %s --kernel i64_to_bf16 --grid 1 --arg 'x@i64:[4629700416936869889,-4629700416936869889,-1,3]' --arg 's@bf16[4]' --arg 'u@bf16[4]' | FileCheck %s --check-prefix=I64
// RUN: tessel-run %s --kernel i32_to_bf16 --grid 1 --arg 'x@i32:[1077936129,-1077936129]' --arg 's@bf16[2]' | FileCheck %s --check-prefix=I32

// I64: s = [4.64771482e+18, -4.64771482e+18, -1, 3]
// I64: u = [4.64771482e+18, 1.38350581e+19, 1.84467441e+19, 3]
func.func @i64_to_bf16(%x: !tile.ptr<i64>, %s: !tile.ptr<bf16>, %u: !tile.ptr<bf16>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %px = tile.splat %x : !tile.ptr<i64> -> tensor<4x!tile.ptr<i64>>
  %p = tile.addptr %px, %r : tensor<4x!tile.ptr<i64>>, tensor<4xi32>
  %v = tile.load %p : tensor<4x!tile.ptr<i64>>
  %a = arith.sitofp %v : tensor<4xi64> to tensor<4xbf16>
  %b = arith.uitofp %v : tensor<4xi64> to tensor<4xbf16>
  %ps = tile.splat %s : !tile.ptr<bf16> -> tensor<4x!tile.ptr<bf16>>
  %qs = tile.addptr %ps, %r : tensor<4x!tile.ptr<bf16>>, tensor<4xi32>
  tile.store %qs, %a : tensor<4x!tile.ptr<bf16>>
  %pu = tile.splat %u : !tile.ptr<bf16> -> tensor<4x!tile.ptr<bf16>>
  %qu = tile.addptr %pu, %r : tensor<4x!tile.ptr<bf16>>, tensor<4xi32>
  tile.store %qu, %b : tensor<4x!tile.ptr<bf16>>
  return
}

// I32: s = [1.08213043e+09, -1.08213043e+09]
func.func @i32_to_bf16(%x: !tile.ptr<i32>, %s: !tile.ptr<bf16>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %px = tile.splat %x : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %p = tile.addptr %px, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  %v = tile.load %p : tensor<2x!tile.ptr<i32>>
  %a = arith.sitofp %v : tensor<2xi32> to tensor<2xbf16>
  %ps = tile.splat %s : !tile.ptr<bf16> -> tensor<2x!tile.ptr<bf16>>
  %qs = tile.addptr %ps, %r : tensor<2x!tile.ptr<bf16>>, tensor<2xi32>
  tile.store %qs, %a : tensor<2x!tile.ptr<bf16>>
  return
}
