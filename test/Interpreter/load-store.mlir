// Masked loads and stores: a masked-off lane reads no memory and takes `other`, or the poison
// pattern without `other` (NaN 0x7FDEADBE for f32, 0xDEADBEEF for i32); masked-off stores write
// nothing (the output keeps its poison). Masked-off lanes may point anywhere.
// RUN: tessel-run %s --kernel masked --grid 1 --arg 'in@f32:[1,2,3,4,5,6]' --arg 'o@f32[16]' --arg i64=6 | FileCheck %s --check-prefix=MASK
// RUN: tessel-run %s --kernel poison_int --grid 1 --arg 'in@i32:[7,8]' --arg 'o@i32[4]' | FileCheck %s --check-prefix=PINT
// RUN: tessel-run %s --kernel scalar --grid 1 --arg 'in@i64:[41]' --arg 'o@i64[1]' | FileCheck %s --check-prefix=SCALAR

// Lanes 0..7 with n = 6: o[0:8] = load(other = -1); o[8:16] = load without other, stored
// unmasked: lanes 6 and 7 carry the f32 poison NaN bit for bit.
// MASK: o = [1, 2, 3, 4, 5, 6, -1, -1, 1, 2, 3, 4, 5, 6, poison, poison]
func.func @masked(%in: !tile.ptr<f32>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
  %r = tile.arange 0, 8 : tensor<8xi32>
  %r64 = arith.extsi %r : tensor<8xi32> to tensor<8xi64>
  %ns = tile.splat %n : i64 -> tensor<8xi64>
  %m = arith.cmpi slt, %r64, %ns : tensor<8xi64>
  %pi = tile.splat %in : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %p = tile.addptr %pi, %r64 : tensor<8x!tile.ptr<f32>>, tensor<8xi64>
  %other = arith.constant dense<-1.0> : tensor<8xf32>
  %a = tile.load %p, %m, %other : tensor<8x!tile.ptr<f32>>
  %b = tile.load %p, %m : tensor<8x!tile.ptr<f32>>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %q = tile.addptr %po, %r64 : tensor<8x!tile.ptr<f32>>, tensor<8xi64>
  tile.store %q, %a : tensor<8x!tile.ptr<f32>>
  %c8 = arith.constant dense<8> : tensor<8xi64>
  %q2 = tile.addptr %q, %c8 : tensor<8x!tile.ptr<f32>>, tensor<8xi64>
  tile.store %q2, %b : tensor<8x!tile.ptr<f32>>
  return
}

// The integer poison reaches memory bit for bit: printed as poison.
// PINT: o = [7, 8, poison, poison]
func.func @poison_int(%in: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %two = arith.constant dense<2> : tensor<4xi32>
  %m = arith.cmpi slt, %r, %two : tensor<4xi32>
  %pi = tile.splat %in : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %p = tile.addptr %pi, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  %v = tile.load %p, %m : tensor<4x!tile.ptr<i32>>
  %po = tile.splat %o : !tile.ptr<i32> -> tensor<4x!tile.ptr<i32>>
  %q = tile.addptr %po, %r : tensor<4x!tile.ptr<i32>>, tensor<4xi32>
  tile.store %q, %v : tensor<4x!tile.ptr<i32>>
  return
}

// SCALAR: o = [42]
func.func @scalar(%in: !tile.ptr<i64>, %o: !tile.ptr<i64>) attributes {tile.kernel} {
  %v = tile.load %in : !tile.ptr<i64>
  %c1 = arith.constant 1 : i64
  %w = arith.addi %v, %c1 : i64
  tile.store %o, %w : !tile.ptr<i64>
  return
}
