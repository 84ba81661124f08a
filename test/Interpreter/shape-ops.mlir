// Shape ops: splat, expand_dims + broadcast (outer sum), trans, reshape, program_id and
// num_programs on a 2-D grid.
// RUN: tessel-run %s --kernel outer --grid 1 --arg 'o@i32[12]' | FileCheck %s --check-prefix=OUTER
// RUN: tessel-run %s --kernel grid --grid 3,2 --arg 'o@i32[12]' | FileCheck %s --check-prefix=GRID

// o[i, j] = 10 * i + j for a (3, 4) tile, stored transposed as (4, 3) and reshaped to (12).
// OUTER: o = [0, 10, 20, 1, 11, 21, 2, 12, 22, 3, 13, 23]
func.func @outer(%o: !tile.ptr<i32>) attributes {tile.kernel} {
  %i = tile.arange 0, 3 : tensor<3xi32>
  %j = tile.arange 0, 4 : tensor<4xi32>
  %ten = arith.constant dense<10> : tensor<3xi32>
  %i10 = arith.muli %i, %ten : tensor<3xi32>
  %ic = tile.expand_dims %i10 {axis = 1 : i32} : tensor<3xi32> -> tensor<3x1xi32>
  %jr = tile.expand_dims %j {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %ib = tile.broadcast %ic : tensor<3x1xi32> -> tensor<3x4xi32>
  %jb = tile.broadcast %jr : tensor<1x4xi32> -> tensor<3x4xi32>
  %v = arith.addi %ib, %jb : tensor<3x4xi32>
  %t = tile.trans %v {order = array<i32: 1, 0>} : tensor<3x4xi32> -> tensor<4x3xi32>
  %flat = tile.reshape %t : tensor<4x3xi32> -> tensor<12xi32>
  %k = tile.arange 0, 12 : tensor<12xi32>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<12x!tile.ptr<i32>>
  %p = tile.addptr %po, %k : tensor<12x!tile.ptr<i32>>, tensor<12xi32>
  tile.store %p, %flat : tensor<12x!tile.ptr<i32>>
  return
}

// Each program (x, y) writes x, y, num_programs(0), num_programs(1) at 4 * (y * 3 + x) / 2...
// here: o[2 * (y * 3 + x)] = x, o[2 * (y * 3 + x) + 1] = y * 100 + n0 * 10 + n1.
// GRID: o = [0, 32, 1, 32, 2, 32, 0, 132, 1, 132, 2, 132]
func.func @grid(%o: !tile.ptr<i32>) attributes {tile.kernel} {
  %x = tile.program_id 0
  %y = tile.program_id 1
  %n0 = tile.num_programs 0
  %n1 = tile.num_programs 1
  %c3 = arith.constant 3 : i32
  %c2 = arith.constant 2 : i32
  %c10 = arith.constant 10 : i32
  %c100 = arith.constant 100 : i32
  %row = arith.muli %y, %c3 : i32
  %lin = arith.addi %row, %x : i32
  %off = arith.muli %lin, %c2 : i32
  %p0 = tile.addptr %o, %off : !tile.ptr<i32>, i32
  tile.store %p0, %x : !tile.ptr<i32>
  %c1 = arith.constant 1 : i32
  %p1 = tile.addptr %p0, %c1 : !tile.ptr<i32>, i32
  %a = arith.muli %y, %c100 : i32
  %b = arith.muli %n0, %c10 : i32
  %s = arith.addi %a, %b : i32
  %s2 = arith.addi %s, %n1 : i32
  tile.store %p1, %s2 : !tile.ptr<i32>
  return
}
