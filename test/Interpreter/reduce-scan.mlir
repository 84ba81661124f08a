// tile.reduce and tile.scan: fast-path combiners (addf, maximumf, minimumf, addi), the NaN
// policy (maximumf propagates NaN; max over -inf is -inf), case C8 (a [16, 1] tile reduced
// along axis 0), argmax as a general two-operand combiner region, and inclusive scans.
// RUN: tessel-run %s --kernel rows --grid 1 --arg 'x@f32:[1,-2,3,-4,5,6,7,8]' --arg 'o@f32[6]' | FileCheck %s --check-prefix=ROWS
// RUN: tessel-run %s --kernel nan_policy --grid 1 --arg 'x@f32:[1,nan,3,-inf,-inf,-inf]' --arg 'o@f32[4]' | FileCheck %s --check-prefix=NAN
// RUN: tessel-run %s --kernel c8 --grid 1 --arg 'x@f32:[3,-1,4,1,-5,9,2,-6,5,3,-5,8,9,-7,9,3]' --arg 'o@f32[2]' | FileCheck %s --check-prefix=C8
// RUN: tessel-run %s --kernel argmax --grid 1 --arg 'x@f32:[3,9,4,9,-5,2,7]' --arg 'o@i32[1]' | FileCheck %s --check-prefix=ARGMAX
// RUN: tessel-run %s --kernel scans --grid 1 --arg 'x@i32:[1,2,3,4,5]' --arg 'o@i32[15]' | FileCheck %s --check-prefix=SCAN

// x as (2, 4): row sums along axis 1, column maxima along axis 0.
// ROWS: o = [-2, 26, 5, 6, 7, 8]
func.func @rows(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.arange 0, 8 : tensor<8xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %p = tile.addptr %px, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %v = tile.load %p : tensor<8x!tile.ptr<f32>>
  %m = tile.reshape %v : tensor<8xf32> -> tensor<2x4xf32>
  %s = tile.reduce(%m) axis = 1 : (tensor<2x4xf32>) -> tensor<2xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %c = tile.reduce(%m) axis = 0 : (tensor<2x4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    tile.yield %t : f32
  }
  %r2 = tile.arange 0, 2 : tensor<2xi32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<2x!tile.ptr<f32>>
  %q = tile.addptr %po, %r2 : tensor<2x!tile.ptr<f32>>, tensor<2xi32>
  tile.store %q, %s : tensor<2x!tile.ptr<f32>>
  %r4 = tile.arange 2, 6 : tensor<4xi32>
  %po4 = tile.splat %o : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %q4 = tile.addptr %po4, %r4 : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  tile.store %q4, %c : tensor<4x!tile.ptr<f32>>
  return
}

// max(1, nan, 3) = nan (maximumf); max(-inf, -inf, -inf) = -inf; sum with NaN is NaN;
// maxnumf ignores the NaN: 3.
// NAN: o = [nan, -inf, nan, 3]
func.func @nan_policy(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.arange 0, 3 : tensor<3xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<3x!tile.ptr<f32>>
  %p = tile.addptr %px, %r : tensor<3x!tile.ptr<f32>>, tensor<3xi32>
  %a = tile.load %p : tensor<3x!tile.ptr<f32>>
  %c3 = arith.constant dense<3> : tensor<3xi32>
  %p2 = tile.addptr %p, %c3 : tensor<3x!tile.ptr<f32>>, tensor<3xi32>
  %b = tile.load %p2 : tensor<3x!tile.ptr<f32>>
  %ma = tile.reduce(%a) axis = 0 : (tensor<3xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.maximumf %u, %v : f32
    tile.yield %t : f32
  }
  %mb = tile.reduce(%b) axis = 0 : (tensor<3xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.maximumf %u, %v : f32
    tile.yield %t : f32
  }
  %sa = tile.reduce(%a) axis = 0 : (tensor<3xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %na = tile.reduce(%a) axis = 0 : (tensor<3xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.maxnumf %v, %u : f32
    tile.yield %t : f32
  }
  tile.store %o, %ma : !tile.ptr<f32>
  %c1 = arith.constant 1 : i32
  %o1 = tile.addptr %o, %c1 : !tile.ptr<f32>, i32
  tile.store %o1, %mb : !tile.ptr<f32>
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<f32>, i32
  tile.store %o2, %sa : !tile.ptr<f32>
  %o3 = tile.addptr %o2, %c1 : !tile.ptr<f32>, i32
  tile.store %o3, %na : !tile.ptr<f32>
  return
}

// Case C8, a [16, 1] tile reduced along axis 0 with max and with sum: 9 and 32.
// C8: o = [9, 32]
func.func @c8(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.arange 0, 16 : tensor<16xi32>
  %rc = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<16x1x!tile.ptr<f32>>
  %p = tile.addptr %px, %rc : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
  %v = tile.load %p : tensor<16x1x!tile.ptr<f32>>
  %m = tile.reduce(%v) axis = 0 : (tensor<16x1xf32>) -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    tile.yield %t : f32
  }
  %s = tile.reduce(%v) axis = 0 : (tensor<16x1xf32>) -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %r1 = tile.arange 0, 1 : tensor<1xi32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
  %q = tile.addptr %po, %r1 : tensor<1x!tile.ptr<f32>>, tensor<1xi32>
  tile.store %q, %m : tensor<1x!tile.ptr<f32>>
  %c1 = arith.constant dense<1> : tensor<1xi32>
  %q1 = tile.addptr %q, %c1 : tensor<1x!tile.ptr<f32>>, tensor<1xi32>
  tile.store %q1, %s : tensor<1x!tile.ptr<f32>>
  return
}

// argmax with ties taking the lower index (a general combiner region, run vectorized).
// ARGMAX: o = [1]
func.func @argmax(%x: !tile.ptr<f32>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 7 : tensor<7xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<7x!tile.ptr<f32>>
  %p = tile.addptr %px, %r : tensor<7x!tile.ptr<f32>>, tensor<7xi32>
  %v = tile.load %p : tensor<7x!tile.ptr<f32>>
  %m, %i = tile.reduce(%v, %r) axis = 0 : (tensor<7xf32>, tensor<7xi32>) -> (f32, i32) {
  ^bb0(%av: f32, %ai: i32, %bv: f32, %bi: i32):
    %gt = arith.cmpf ogt, %av, %bv : f32
    %eq = arith.cmpf oeq, %av, %bv : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %keep = arith.ori %gt, %tie : i1
    %rv = arith.select %keep, %av, %bv : f32
    %ri = arith.select %keep, %ai, %bi : i32
    tile.yield %rv, %ri : f32, i32
  }
  tile.store %o, %i : !tile.ptr<i32>
  return
}

// Inclusive cumsum, reverse cumsum, and a general-region scan (a cumsum through a two-op region).
// SCAN: o = [1, 3, 6, 10, 15, 15, 14, 12, 9, 5, 1, 3, 6, 10, 15]
func.func @scans(%x: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 5 : tensor<5xi32>
  %px = tile.splat %x : !tile.ptr<i32> -> tensor<5x!tile.ptr<i32>>
  %p = tile.addptr %px, %r : tensor<5x!tile.ptr<i32>>, tensor<5xi32>
  %v = tile.load %p : tensor<5x!tile.ptr<i32>>
  %c = tile.scan(%v) axis = 0 : (tensor<5xi32>) -> tensor<5xi32> {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    tile.yield %t : i32
  }
  %rc = tile.scan(%v) axis = 0 reverse : (tensor<5xi32>) -> tensor<5xi32> {
  ^bb0(%a: i32, %b: i32):
    %t = arith.addi %a, %b : i32
    tile.yield %t : i32
  }
  %g = tile.scan(%v) axis = 0 : (tensor<5xi32>) -> tensor<5xi32> {
  ^bb0(%a: i32, %b: i32):
    %one = arith.constant 0 : i32
    %t = arith.addi %a, %b : i32
    %u = arith.addi %t, %one : i32
    tile.yield %u : i32
  }
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<5x!tile.ptr<i32>>
  %q = tile.addptr %po, %r : tensor<5x!tile.ptr<i32>>, tensor<5xi32>
  tile.store %q, %c : tensor<5x!tile.ptr<i32>>
  %c5 = arith.constant dense<5> : tensor<5xi32>
  %q1 = tile.addptr %q, %c5 : tensor<5x!tile.ptr<i32>>, tensor<5xi32>
  tile.store %q1, %rc : tensor<5x!tile.ptr<i32>>
  %q2 = tile.addptr %q1, %c5 : tensor<5x!tile.ptr<i32>>, tensor<5xi32>
  tile.store %q2, %g : tensor<5x!tile.ptr<i32>>
  return
}
