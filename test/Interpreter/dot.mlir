// tile.dot: f16 inputs accumulate in f32; precision = tf32 rounds f32 inputs to 10 mantissa
// bits first; i8 x i8 accumulates in i32.
// RUN: tessel-run %s --kernel dot_f16 --grid 1 --arg 'a@f16:[1,2,3,4,5,6]' --arg 'b@f16:[1,0.5,-1,2,0.25,1]' --arg 'o@f32[4]' | FileCheck %s --check-prefix=F16
// RUN: tessel-run %s --kernel dot_tf32 --grid 1 --arg 'a@f32:[1.0009765625,1.00048828125]' --arg 'o@f32[2]' | FileCheck %s --check-prefix=TF32
// RUN: tessel-run %s --kernel dot_i8 --grid 1 --arg 'a@i8:[127,127,-128,-128]' --arg 'o@i32[1]' | FileCheck %s --check-prefix=I8

// a (2, 3) = [[1, 2, 3], [4, 5, 6]], b (3, 2) = [[1, 0.5], [-1, 2], [0.25, 1]], c = 1.
// F16: o = [0.75, 8.5, 1.5, 19]
func.func @dot_f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r6 = tile.arange 0, 6 : tensor<6xi32>
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<6x!tile.ptr<f16>>
  %pa2 = tile.addptr %pa, %r6 : tensor<6x!tile.ptr<f16>>, tensor<6xi32>
  %av = tile.load %pa2 : tensor<6x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<6x!tile.ptr<f16>>
  %pb2 = tile.addptr %pb, %r6 : tensor<6x!tile.ptr<f16>>, tensor<6xi32>
  %bv = tile.load %pb2 : tensor<6x!tile.ptr<f16>>
  %am = tile.reshape %av : tensor<6xf16> -> tensor<2x3xf16>
  %bm = tile.reshape %bv : tensor<6xf16> -> tensor<3x2xf16>
  %c = arith.constant dense<1.0> : tensor<2x2xf32>
  %d = tile.dot %am, %bm, %c : tensor<2x3xf16> * tensor<3x2xf16> -> tensor<2x2xf32>
  %df = tile.reshape %d : tensor<2x2xf32> -> tensor<4xf32>
  %r4 = tile.arange 0, 4 : tensor<4xi32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %q = tile.addptr %po, %r4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %q, %df : tensor<4x!tile.ptr<f32>>
  return
}

// (1 + 2^-10) and (1 + 2^-11) squared: ieee keeps them, tf32 rounds 1 + 2^-11 (a tie) to 1.
// TF32: o = [1.00195408, 1]
func.func @dot_tf32(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %x = tile.load %a : !tile.ptr<f32>
  %c1 = arith.constant 1 : i32
  %a1 = tile.addptr %a, %c1 : !tile.ptr<f32>, i32
  %y = tile.load %a1 : !tile.ptr<f32>
  %xt = tile.splat %x : f32 -> tensor<1x1xf32>
  %yt = tile.splat %y : f32 -> tensor<1x1xf32>
  %z = arith.constant dense<0.0> : tensor<1x1xf32>
  %d0 = tile.dot %xt, %xt, %z : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
  %d1 = tile.dot %yt, %yt, %z precision = tf32 : tensor<1x1xf32> * tensor<1x1xf32> -> tensor<1x1xf32>
  %s0 = tile.reshape %d0 : tensor<1x1xf32> -> tensor<1xf32>
  %s1 = tile.reshape %d1 : tensor<1x1xf32> -> tensor<1xf32>
  %r = tile.arange 0, 1 : tensor<1xi32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
  %q = tile.addptr %po, %r : tensor<1x!tile.ptr<f32>>, tensor<1xi32>
  tile.store %q, %s0 : tensor<1x!tile.ptr<f32>>
  %one = arith.constant dense<1> : tensor<1xi32>
  %q1 = tile.addptr %q, %one : tensor<1x!tile.ptr<f32>>, tensor<1xi32>
  tile.store %q1, %s1 : tensor<1x!tile.ptr<f32>>
  return
}

// [127, 127] . [-128, -128] = -32512 (no i8 overflow: products accumulate in i32).
// I8: o = [-32512]
func.func @dot_i8(%a: !tile.ptr<i8>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %pa = tile.splat %a : !tile.ptr<i8> -> tensor<2x!tile.ptr<i8>>
  %pa2 = tile.addptr %pa, %r : tensor<2x!tile.ptr<i8>>, tensor<2xi32>
  %x = tile.load %pa2 : tensor<2x!tile.ptr<i8>>
  %two = arith.constant dense<2> : tensor<2xi32>
  %pb = tile.addptr %pa2, %two : tensor<2x!tile.ptr<i8>>, tensor<2xi32>
  %y = tile.load %pb : tensor<2x!tile.ptr<i8>>
  %xm = tile.reshape %x : tensor<2xi8> -> tensor<1x2xi8>
  %ym = tile.reshape %y : tensor<2xi8> -> tensor<2x1xi8>
  %z = arith.constant dense<0> : tensor<1x1xi32>
  %d = tile.dot %xm, %ym, %z : tensor<1x2xi8> * tensor<2x1xi8> -> tensor<1x1xi32>
  %s = tile.reshape %d : tensor<1x1xi32> -> tensor<1xi32>
  %r1 = tile.arange 0, 1 : tensor<1xi32>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<1x!tile.ptr<i32>>
  %q = tile.addptr %po, %r1 : tensor<1x!tile.ptr<i32>>, tensor<1xi32>
  tile.store %q, %s : tensor<1x!tile.ptr<i32>>
  return
}
