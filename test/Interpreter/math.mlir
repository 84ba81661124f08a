// math ops on f32, f16 arithmetic rounded once per op (round to nearest even), index_cast and
// i1 extensions.
// RUN: tessel-run %s --kernel math_f32 --grid 1 --arg 'x@f32:[0.5,2]' --arg 'o@f32[22]' | FileCheck %s --check-prefix=MATH
// RUN: tessel-run %s --kernel f16_round --grid 1 --arg 'x@f16:[2048,2048,0.1,65504]' --arg 'o@f16[4]' | FileCheck %s --check-prefix=F16
// RUN: tessel-run %s --kernel ints --grid 1 --arg 'o@i64[4]' | FileCheck %s --check-prefix=INTS

// exp2, log, log2, sin, cos, tanh, erf, floor(x * 3), ceil(x * 3), rsqrt, powf(x, 3):
// MATH: o = [1.41421354, 4, -0.693147182, 0.693147182, -1, 1, 0.47942555, 0.909297407, 0.87758255, -0.416146845, 0.462117165, 0.964027584, 0.520499885, 0.995322287, 1, 6, 2, 6, 1.41421354, 0.707106769, 0.125, 8]
func.func @math_f32(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<2x!tile.ptr<f32>>
  %p = tile.addptr %px, %r : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  %v = tile.load %p : tensor<2x!tile.ptr<f32>>
  %three = arith.constant dense<3.0> : tensor<2xf32>
  %v3 = arith.mulf %v, %three : tensor<2xf32>
  %a0 = math.exp2 %v : tensor<2xf32>
  %a1 = math.log %v : tensor<2xf32>
  %a2 = math.log2 %v : tensor<2xf32>
  %a3 = math.sin %v : tensor<2xf32>
  %a4 = math.cos %v : tensor<2xf32>
  %a5 = math.tanh %v : tensor<2xf32>
  %a6 = math.erf %v : tensor<2xf32>
  %a7 = math.floor %v3 : tensor<2xf32>
  %a8 = math.ceil %v3 : tensor<2xf32>
  %a9 = math.rsqrt %v : tensor<2xf32>
  %a10 = math.powf %v, %three : tensor<2xf32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<2x!tile.ptr<f32>>
  %two = arith.constant dense<2> : tensor<2xi32>
  %q0 = tile.addptr %po, %r : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q0, %a0 : tensor<2x!tile.ptr<f32>>
  %q1 = tile.addptr %q0, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q1, %a1 : tensor<2x!tile.ptr<f32>>
  %q2 = tile.addptr %q1, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q2, %a2 : tensor<2x!tile.ptr<f32>>
  %q3 = tile.addptr %q2, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q3, %a3 : tensor<2x!tile.ptr<f32>>
  %q4 = tile.addptr %q3, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q4, %a4 : tensor<2x!tile.ptr<f32>>
  %q5 = tile.addptr %q4, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q5, %a5 : tensor<2x!tile.ptr<f32>>
  %q6 = tile.addptr %q5, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q6, %a6 : tensor<2x!tile.ptr<f32>>
  %q7 = tile.addptr %q6, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q7, %a7 : tensor<2x!tile.ptr<f32>>
  %q8 = tile.addptr %q7, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q8, %a8 : tensor<2x!tile.ptr<f32>>
  %q9 = tile.addptr %q8, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q9, %a9 : tensor<2x!tile.ptr<f32>>
  %q10 = tile.addptr %q9, %two : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q10, %a10 : tensor<2x!tile.ptr<f32>>
  return
}

// f16: 2048 + 1 is a tie between 2048 and 2050 (even: 2048); 2048 + 3 = 2051 ties to 2052;
// f16(0.1) * 3 = 1228.5 * 2^-12 ties to even (1228 * 2^-12); 65504 + 32 overflows to inf (65536 is past the max's midpoint 65520).
// F16: o = [2048, 2052, 0.299804688, inf]
func.func @f16_round(%x: !tile.ptr<f16>, %o: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %px = tile.splat %x : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %p = tile.addptr %px, %r : tensor<4x!tile.ptr<f16>>, tensor<4xi32>
  %v = tile.load %p : tensor<4x!tile.ptr<f16>>
  %a = arith.constant dense<[1.0, 3.0, 0.0, 32.0]> : tensor<4xf16>
  %m = arith.constant dense<[1.0, 1.0, 3.0, 1.0]> : tensor<4xf16>
  %vm = arith.mulf %v, %m : tensor<4xf16>
  %s = arith.addf %vm, %a : tensor<4xf16>
  %po = tile.splat %o : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %q = tile.addptr %po, %r : tensor<4x!tile.ptr<f16>>, tensor<4xi32>
  tile.store %q, %s : tensor<4x!tile.ptr<f16>>
  return
}

// extui / extsi of i1 true: 1 / -1; index_cast of -5 (i32) to index and back to i64; trunci
// of 300 to i8 then extsi: 44.
// INTS: o = [1, -1, -5, 44]
func.func @ints(%o: !tile.ptr<i64>) attributes {tile.kernel} {
  %t = arith.constant true
  %a = arith.extui %t : i1 to i64
  %b = arith.extsi %t : i1 to i64
  %m5 = arith.constant -5 : i32
  %i = arith.index_cast %m5 : i32 to index
  %c = arith.index_cast %i : index to i64
  %big = arith.constant 300 : i64
  %tr = arith.trunci %big : i64 to i8
  %d = arith.extsi %tr : i8 to i64
  %c1 = arith.constant 1 : i64
  tile.store %o, %a : !tile.ptr<i64>
  %o1 = tile.addptr %o, %c1 : !tile.ptr<i64>, i64
  tile.store %o1, %b : !tile.ptr<i64>
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<i64>, i64
  tile.store %o2, %c : !tile.ptr<i64>
  %o3 = tile.addptr %o2, %c1 : !tile.ptr<i64>, i64
  tile.store %o3, %d : !tile.ptr<i64>
  return
}
