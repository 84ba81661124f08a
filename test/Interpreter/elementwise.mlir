// Element-wise arith and math ops on tiles: integer wrap-around, defined division by zero and
// over-wide shifts, comparisons, select, and f32 math.
// RUN: tessel-run %s --kernel int_ops --grid 1 --arg 'i32:[7,-7,2147483647,-2147483648]' --arg 'i32:[2,2,1,-1]' --arg 'o@i32[40]' | FileCheck %s --check-prefix=INT
// RUN: tessel-run %s --kernel div_zero --grid 1 --arg 'i32:[5,-5]' --arg 'o@i32[4]' | FileCheck %s --check-prefix=DIV0
// RUN: tessel-run %s --kernel float_ops --grid 1 --arg 'f32:[1.5,-2,0.25,nan]' --arg 'f32:[2,3,-0.5,1]' --arg 'o@f32[36]' | FileCheck %s --check-prefix=FLT
// RUN: tessel-run %s --kernel i8_wrap --grid 1 --arg 'i8:[100,-100]' --arg 'o@i8[2]' | FileCheck %s --check-prefix=I8

// add, sub, mul, divsi, remsi (INT_MIN / -1 wraps), shli, shrui (shift >= 32 gives 0), maxsi,
// cmpi ult, floordivsi:
// INT: o = [9, -5, -2147483648, 2147483647, 5, -9, 2147483646, -2147483647, 14, -14, 2147483647, -2147483648, 3, -3, 2147483647, -2147483648, 1, -1, 0, 0, 28, -28, -2, 0, 1, 1073741822, 1073741823, 0, 7, 2, 2147483647, -1, 0, 0, 0, 1, 3, -4, 2147483647, -2147483648]
func.func @int_ops(%a: !tile.ptr<i32>, %b: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %pa = tile.splat %a : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %pa2 = tile.addptr %pa, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %x = tile.load %pa2 : tensor<4x!tile.ptr<i32>>
  %pb = tile.splat %b : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %pb2 = tile.addptr %pb, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %y = tile.load %pb2 : tensor<4x!tile.ptr<i32>>
  %add = arith.addi %x, %y : tensor<4xi32>
  %sub = arith.subi %x, %y : tensor<4xi32>
  %mul = arith.muli %x, %y : tensor<4xi32>
  %div = arith.divsi %x, %y : tensor<4xi32>
  %rem = arith.remsi %x, %y : tensor<4xi32>
  %shl = arith.shli %x, %y : tensor<4xi32>
  %shr = arith.shrui %x, %y : tensor<4xi32>
  %max = arith.maxsi %x, %y : tensor<4xi32>
  %cmp = arith.cmpi ult, %x, %y : tensor<4xi32>
  %cmpx = arith.extui %cmp : tensor<4xi1> to tensor<4xi32>
  %fd = arith.floordivsi %x, %y : tensor<4xi32>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %p0 = tile.addptr %po, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p0, %add : tensor<4x!tile.ptr<i32>>
  %p1 = tile.addptr %p0, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p1, %sub : tensor<4x!tile.ptr<i32>>
  %p2 = tile.addptr %p1, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p2, %mul : tensor<4x!tile.ptr<i32>>
  %p3 = tile.addptr %p2, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p3, %div : tensor<4x!tile.ptr<i32>>
  %p4 = tile.addptr %p3, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p4, %rem : tensor<4x!tile.ptr<i32>>
  %p5 = tile.addptr %p4, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p5, %shl : tensor<4x!tile.ptr<i32>>
  %p6 = tile.addptr %p5, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p6, %shr : tensor<4x!tile.ptr<i32>>
  %p7 = tile.addptr %p6, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p7, %max : tensor<4x!tile.ptr<i32>>
  %p8 = tile.addptr %p7, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p8, %cmpx : tensor<4x!tile.ptr<i32>>
  %p9 = tile.addptr %p8, %c4 : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %p9, %fd : tensor<4x!tile.ptr<i32>>
  return
}

// x / 0 and x % 0 give the i32 poison marker 0xDEADBEEF (printed as poison), never a trap.
// DIV0: o = [poison, poison, poison, poison]
func.func @div_zero(%a: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %pa = tile.splat %a : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %pa2 = tile.addptr %pa, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  %x = tile.load %pa2 : tensor<2x!tile.ptr<i32>>
  %z = arith.constant dense<0> : tensor<2xi32>
  %d = arith.divsi %x, %z : tensor<2xi32>
  %m = arith.remui %x, %z : tensor<2xi32>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %p0 = tile.addptr %po, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  tile.store %p0, %d : tensor<2x!tile.ptr<i32>>
  %c2 = arith.constant dense<2> : tensor<2xi32>
  %p1 = tile.addptr %p0, %c2 : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  tile.store %p1, %m : tensor<2x!tile.ptr<i32>>
  return
}

// addf, subf, mulf, divf, maximumf and minimumf (NaN propagates), maxnumf (NaN ignored), exp,
// select(x > 0.5, sqrt(x), 0.5) (NaN > 0.5 is false):
// FLT: o = [3.5, 1, -0.25, nan, -0.5, -5, 0.75, nan, 3, -6, -0.125, nan, 0.75, -0.666666687, -0.5, nan, 2, 3, 0.25, nan, 1.5, -2, -0.5, nan, 2, 3, 0.25, 1, 4.48168898, 0.135335281, 1.28402543, nan, 1.22474492, 0.5, 0.5, 0.5]
func.func @float_ops(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %pa2 = tile.addptr %pa, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %x = tile.load %pa2 : tensor<4x!tile.ptr<f32>>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %pb2 = tile.addptr %pb, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %y = tile.load %pb2 : tensor<4x!tile.ptr<f32>>
  %add = arith.addf %x, %y : tensor<4xf32>
  %sub = arith.subf %x, %y : tensor<4xf32>
  %mul = arith.mulf %x, %y : tensor<4xf32>
  %div = arith.divf %x, %y : tensor<4xf32>
  %max = arith.maximumf %x, %y : tensor<4xf32>
  %min = arith.minimumf %x, %y : tensor<4xf32>
  %maxn = arith.maxnumf %x, %y : tensor<4xf32>
  %exp = math.exp %x : tensor<4xf32>
  %sqrt = math.sqrt %x : tensor<4xf32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %c4 = arith.constant dense<4> : tensor<4xi32>
  %p0 = tile.addptr %po, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p0, %add : tensor<4x!tile.ptr<f32>>
  %p1 = tile.addptr %p0, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p1, %sub : tensor<4x!tile.ptr<f32>>
  %p2 = tile.addptr %p1, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p2, %mul : tensor<4x!tile.ptr<f32>>
  %p3 = tile.addptr %p2, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p3, %div : tensor<4x!tile.ptr<f32>>
  %p4 = tile.addptr %p3, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p4, %max : tensor<4x!tile.ptr<f32>>
  %p5 = tile.addptr %p4, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p5, %min : tensor<4x!tile.ptr<f32>>
  %p6 = tile.addptr %p5, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p6, %maxn : tensor<4x!tile.ptr<f32>>
  %p7 = tile.addptr %p6, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %p7, %exp : tensor<4x!tile.ptr<f32>>
  %p8 = tile.addptr %p7, %c4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %half = arith.constant dense<0.5> : tensor<4xf32>
  %cmp = arith.cmpf ogt, %x, %half : tensor<4xf32>
  %sel = arith.select %cmp, %sqrt, %half : tensor<4xi1>, tensor<4xf32>
  tile.store %p8, %sel : tensor<4x!tile.ptr<f32>>
  return
}

// i8 arithmetic wraps: 100 + 100 = -56, -100 - 100 = 56.
// I8: o = [-56, 56]
func.func @i8_wrap(%a: !tile.ptr<i8>, %o: !tile.ptr<i8>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %pa = tile.splat %a : !tile.ptr<i8> -> tensor<2x!tile.ptr<i8>>
  %pa2 = tile.addptr %pa, %r : tensor<2x!tile.ptr<i8>>, tensor<2xi32>
  %x = tile.load %pa2 : tensor<2x!tile.ptr<i8>>
  %c = arith.constant dense<[100, -100]> : tensor<2xi8>
  %s = arith.addi %x, %c : tensor<2xi8>
  %po = tile.splat %o : !tile.ptr<i8> -> tensor<2x!tile.ptr<i8>>
  %p0 = tile.addptr %po, %r : tensor<2x!tile.ptr<i8>>, tensor<2xi32>
  tile.store %p0, %s : tensor<2x!tile.ptr<i8>>
  return
}
