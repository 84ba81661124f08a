// Atomics from 64 programs on 2+ threads: the totals do not depend on the order.
// RUN: tessel-run %s --kernel counts --grid 64 --threads 4 --arg 'sum@i32[2]=0' --arg 'f@f32[1]=0' --arg 'mx@i32[1]=-5' | FileCheck %s --check-prefix=COUNT
// RUN: tessel-run %s --kernel cas --grid 1 --arg 'x@i32:[3,4]' --arg 'old@i32[2]' | FileCheck %s --check-prefix=CAS

// Each program adds its id + 1 to sum[0] and 1 to sum[1] (lane 1 masked off for even ids),
// 0.5 to f, and max(mx, id).
// COUNT: sum = [2080, 32]
// COUNT: f = [32]
// COUNT: mx = [63]
func.func @counts(%sum: !tile.ptr<i32>, %f: !tile.ptr<f32>, %mx: !tile.ptr<i32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %id1 = arith.addi %pid, %c1 : i32
  %r = tile.arange 0, 2 : tensor<2xi32>
  %ps = tile.splat %sum : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %p = tile.addptr %ps, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  // val = [id + 1, 1]; enabled = [true, id is odd]
  %zero = arith.constant dense<0> : tensor<2xi32>
  %lane0 = arith.cmpi eq, %r, %zero : tensor<2xi32>
  %v0 = tile.splat %id1 : i32 -> tensor<2xi32>
  %onev = arith.constant dense<1> : tensor<2xi32>
  %val = arith.select %lane0, %v0, %onev : tensor<2xi1>, tensor<2xi32>
  %rem = arith.remsi %pid, %c2 : i32
  %isodd = arith.cmpi eq, %rem, %c1 : i32
  %odd = tile.splat %isodd : i1 -> tensor<2xi1>
  %en = arith.ori %lane0, %odd : tensor<2xi1>
  %old = tile.atomic_rmw add, acq_rel, gpu, %p, %val, %en : tensor<2x!tile.ptr<i32>>
  %h = arith.constant 0.5 : f32
  %of = tile.atomic_rmw add, relaxed, gpu, %f, %h : !tile.ptr<f32>
  %om = tile.atomic_rmw max, relaxed, gpu, %mx, %pid : !tile.ptr<i32>
  return
}

// Compare-and-swap: x[0] == 3 is replaced by 7, x[1] != 3 stays.
// CAS: x = [7, 4]
// CAS: old = [3, 4]
func.func @cas(%x: !tile.ptr<i32>, %old: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 2 : tensor<2xi32>
  %px = tile.splat %x : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %p = tile.addptr %px, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  %cmp = arith.constant dense<3> : tensor<2xi32>
  %val = arith.constant dense<7> : tensor<2xi32>
  %o = tile.atomic_cas acq_rel, gpu, %p, %cmp, %val : tensor<2x!tile.ptr<i32>>
  %po = tile.splat %old : !tile.ptr<i32> -> tensor<2x!tile.ptr<i32>>
  %q = tile.addptr %po, %r : tensor<2x!tile.ptr<i32>>, tensor<2xi32>
  tile.store %q, %o : tensor<2x!tile.ptr<i32>>
  return
}
