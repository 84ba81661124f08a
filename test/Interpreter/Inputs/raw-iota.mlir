// o[i] = i for i < n (as the element type of o), 8 lanes; used by tessel-run-raw-args.test.
func.func @iota(%o: !tile.ptr<i32>, %n: i32) attributes {tile.kernel} {
  %r = tile.arange 0, 8 : tensor<8xi32>
  %ns = tile.splat %n : i32 -> tensor<8xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<8xi32>
  %os = tile.splat %o : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %op = tile.addptr %os, %r : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %op, %r, %m : tensor<8x!tile.ptr<i32>>
  return
}

// o[i] = 2 * o[i] for i < n, 4 lanes of f32.
func.func @twice(%o: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %ns = tile.splat %n : i32 -> tensor<4xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<4xi32>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32>>
  %op = tile.addptr %os, %r : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  %v = tile.load %op, %m : tensor<4x!tile.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<4xf32>
  %d = arith.mulf %v, %two : tensor<4xf32>
  tile.store %op, %d, %m : tensor<4x!tile.ptr<f32>>
  return
}
