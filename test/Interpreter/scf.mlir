// scf.for with loop-carried tiles (including a yield that swaps them), scf.if with results,
// scf.while, and func.call of a helper.
// RUN: tessel-run %s --kernel loops --grid 1 --arg 'o@i64[6]' --arg i64=5 | FileCheck %s --check-prefix=LOOPS
// RUN: tessel-run %s --kernel collatz --grid 1 --arg 'o@i64[1]' --arg i64=27 | FileCheck %s --check-prefix=WHILE

// sum_{i<5} i = 10; fib via a swap-yield: (a, b) -> (b, a + b) five times from (0, 1): 5, 8;
// if n > 3 then 100 else 200; square(n) through func.call = 25; a zero-trip loop keeps 7.
// LOOPS: o = [10, 5, 8, 100, 25, 7]
func.func @square(%x: i64) -> i64 {
  %y = arith.muli %x, %x : i64
  return %y : i64
}
func.func @loops(%o: !tile.ptr<i64>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %c0) -> (i64) : i64 {
    %t = arith.addi %acc, %i : i64
    scf.yield %t : i64
  }
  %a0 = tile.splat %c0 : i64 -> tensor<2xi64>
  %b0 = tile.splat %c1 : i64 -> tensor<2xi64>
  %fa, %fb = scf.for %i = %c0 to %n step %c1 iter_args(%a = %a0, %b = %b0) -> (tensor<2xi64>, tensor<2xi64>) : i64 {
    %t = arith.addi %a, %b : tensor<2xi64>
    scf.yield %b, %t : tensor<2xi64>, tensor<2xi64>
  }
  %big = arith.cmpi sgt, %n, %c3 : i64
  %sel = scf.if %big -> (i64) {
    %h = arith.constant 100 : i64
    scf.yield %h : i64
  } else {
    %h = arith.constant 200 : i64
    scf.yield %h : i64
  }
  %sq = func.call @square(%n) : (i64) -> i64
  %seven = arith.constant 7 : i64
  %z = scf.for %i = %n to %c0 step %c1 iter_args(%acc = %seven) -> (i64) : i64 {
    scf.yield %c0 : i64
  }
  %r = tile.arange 0, 2 : tensor<2xi32>
  %fav = tile.reduce(%fa) axis = 0 : (tensor<2xi64>) -> i64 {
  ^bb0(%x: i64, %y: i64):
    %m = arith.maxsi %x, %y : i64
    tile.yield %m : i64
  }
  %fbv = tile.reduce(%fb) axis = 0 : (tensor<2xi64>) -> i64 {
  ^bb0(%x: i64, %y: i64):
    %m = arith.maxsi %x, %y : i64
    tile.yield %m : i64
  }
  tile.store %o, %s : !tile.ptr<i64>
  %o1 = tile.addptr %o, %c1 : !tile.ptr<i64>, i64
  tile.store %o1, %fav : !tile.ptr<i64>
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<i64>, i64
  tile.store %o2, %fbv : !tile.ptr<i64>
  %o3 = tile.addptr %o2, %c1 : !tile.ptr<i64>, i64
  tile.store %o3, %sel : !tile.ptr<i64>
  %o4 = tile.addptr %o3, %c1 : !tile.ptr<i64>, i64
  tile.store %o4, %sq : !tile.ptr<i64>
  %o5 = tile.addptr %o4, %c1 : !tile.ptr<i64>, i64
  tile.store %o5, %z : !tile.ptr<i64>
  return
}

// Collatz steps of 27: 111.
// WHILE: o = [111]
func.func @collatz(%o: !tile.ptr<i64>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %x, %steps = scf.while (%v = %n, %k = %c0) : (i64, i64) -> (i64, i64) {
    %go = arith.cmpi ne, %v, %c1 : i64
    scf.condition(%go) %v, %k : i64, i64
  } do {
  ^bb0(%v: i64, %k: i64):
    %r = arith.remsi %v, %c2 : i64
    %even = arith.cmpi eq, %r, %c0 : i64
    %h = arith.divsi %v, %c2 : i64
    %t = arith.muli %v, %c3 : i64
    %t1 = arith.addi %t, %c1 : i64
    %nv = arith.select %even, %h, %t1 : i64
    %nk = arith.addi %k, %c1 : i64
    scf.yield %nv, %nk : i64, i64
  }
  tile.store %o, %steps : !tile.ptr<i64>
  return
}
