// Casts: f32 -> bf16/f16 round to nearest even (ties to even), overflow to inf, subnormals;
// f64 -> bf16 rounds once (no double rounding); float -> int saturates, NaN -> 0; bitcasts.
// RUN: tessel-run %s --kernel to_bf16 --grid 1 --arg 'f32:[1.00390625,1.01171875,1.0078125,3.4e38,-0.0,1e-40]' --arg 'o@bf16[6]' --arg 'h@f16[6]' | FileCheck %s --check-prefix=BF16
// RUN: tessel-run %s --kernel f64_to_bf16 --grid 1 --arg 'f64:[1.0039062500001,1.00390625]' --arg 'o@bf16[2]' | FileCheck %s --check-prefix=F64
// RUN: tessel-run %s --kernel to_int --grid 1 --arg 'f32:[3.9,-3.9,1e10,nan]' --arg 'o@i32[4]' --arg 'u@i8[4]' | FileCheck %s --check-prefix=INT
// RUN: tessel-run %s --kernel bits --grid 1 --arg 'f32:[1,-2]' --arg 'o@i32[2]' --arg 'b@i16[2]' | FileCheck %s --check-prefix=BITS

// 1.00390625 = 1 + 2^-8 is a tie between bf16 1 and 1 + 2^-7: even -> 1.
// 1.01171875 = 1 + 3 * 2^-8 ties between 1 + 2^-7 and 1 + 2^-6: even -> 1.015625.
// 3.4e38 is above bf16's max 3.39e38 and its halfway point: inf. 1e-40 stays a bf16
// subnormal (9.18e-41) but is 0 in f16.
// BF16: o = [1, 1.015625, 1.0078125, inf, -0, 9.18354962e-41]
// BF16: h = [1.00390625, 1.01171875, 1.0078125, inf, -0, 0]
func.func @to_bf16(%a: !tile.ptr<f32>, %o: !tile.ptr<bf16>, %h: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = tile.arange 0, 6 : tensor<6xi32>
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<6x!tile.ptr<f32>>
  %pa2 = tile.addptr %pa, %r : tensor<6x!tile.ptr<f32>>, tensor<6xi32>
  %x = tile.load %pa2 : tensor<6x!tile.ptr<f32>>
  %b = arith.truncf %x : tensor<6xf32> to tensor<6xbf16>
  %po = tile.splat %o : !tile.ptr<bf16> -> tensor<6x!tile.ptr<bf16>>
  %p0 = tile.addptr %po, %r : tensor<6x!tile.ptr<bf16>>, tensor<6xi32>
  tile.store %p0, %b : tensor<6x!tile.ptr<bf16>>
  %f = arith.truncf %x : tensor<6xf32> to tensor<6xf16>
  %ph = tile.splat %h : !tile.ptr<f16> -> tensor<6x!tile.ptr<f16>>
  %p1 = tile.addptr %ph, %r : tensor<6x!tile.ptr<f16>>, tensor<6xi32>
  tile.store %p1, %f : tensor<6x!tile.ptr<f16>>
  return
}

// Just above the tie rounds up (a double rounding through f32 would have made it a tie).
// F64: o = [1.0078125, 1]
func.func @f64_to_bf16(%a: !tile.ptr<f64>, %o: !tile.ptr<bf16>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %pa = tile.splat %a : !tile.ptr<f64> -> tensor<2x!tile.ptr<f64>>
  %pa2 = tile.addptr %pa, %r : tensor<2x!tile.ptr<f64>>, tensor<2xi32>
  %x = tile.load %pa2 : tensor<2x!tile.ptr<f64>>
  %b = arith.truncf %x : tensor<2xf64> to tensor<2xbf16>
  %po = tile.splat %o : !tile.ptr<bf16> -> tensor<2x!tile.ptr<bf16>>
  %p0 = tile.addptr %po, %r : tensor<2x!tile.ptr<bf16>>, tensor<2xi32>
  tile.store %p0, %b : tensor<2x!tile.ptr<bf16>>
  return
}

// INT: o = [3, -3, 2147483647, 0]
// INT: u = [3, 0, -1, 0]
func.func @to_int(%a: !tile.ptr<f32>, %o: !tile.ptr<i32>, %u: !tile.ptr<i8>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %pa2 = tile.addptr %pa, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %x = tile.load %pa2 : tensor<4x!tile.ptr<f32>>
  %i = arith.fptosi %x : tensor<4xf32> to tensor<4xi32>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %p0 = tile.addptr %po, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p0, %i : tensor<4x!tile.ptr<i32>>
  %v = arith.fptoui %x : tensor<4xf32> to tensor<4xi8>
  %pu = tile.splat %u : !tile.ptr<i8> -> tensor<4x!tile.ptr<i8>>
  %p1 = tile.addptr %pu, %r : tensor<4x!tile.ptr<i8>>, tensor<4xi32>
  tile.store %p1, %v : tensor<4x!tile.ptr<i8>>
  return
}

// 1.0f = 0x3F800000, -2.0f = 0xC0000000; bf16 -2 = 0xC000 = -16384 as i16.
// BITS: o = [1065353216, -1073741824]
// BITS: b = [16256, -16384]
func.func @bits(%a: !tile.ptr<f32>, %o: !tile.ptr<i32>, %b: !tile.ptr<i16>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<2x!tile.ptr<f32>>
  %pa2 = tile.addptr %pa, %r : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  %x = tile.load %pa2 : tensor<2x!tile.ptr<f32>>
  %i = arith.bitcast %x : tensor<2xf32> to tensor<2xi32>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %p0 = tile.addptr %po, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  tile.store %p0, %i : tensor<2x!tile.ptr<i32>>
  %h = arith.truncf %x : tensor<2xf32> to tensor<2xbf16>
  %hb = arith.bitcast %h : tensor<2xbf16> to tensor<2xi16>
  %pb = tile.splat %b : !tile.ptr<i16> -> tensor<2x!tile.ptr<i16>>
  %p1 = tile.addptr %pb, %r : tensor<2x!tile.ptr<i16>>, tensor<2xi32>
  tile.store %p1, %hb : tensor<2x!tile.ptr<i16>>
  return
}
