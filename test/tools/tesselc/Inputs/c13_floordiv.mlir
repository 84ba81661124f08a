// Case C13: floor and ceiling division of signed integer tiles (x = -7, y = 2 on the interpreter:
// floordiv -4, ceildiv -3).
module {
func.func @k(%x: !tile.ptr<i32>, %y: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 32 : tensor<32xi32>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %px = tile.addptr %xs, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %ys = tile.splat %y : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %py = tile.addptr %ys, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %a = tile.load %px : tensor<32x!tile.ptr<i32>>
  %b = tile.load %py : tensor<32x!tile.ptr<i32>>
  %f = arith.floordivsi %a, %b : tensor<32xi32>
  %c = arith.ceildivsi %a, %b : tensor<32xi32>
  %os = tile.splat %o : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %q = tile.addptr %os, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  tile.store %q, %f : tensor<32x!tile.ptr<i32>>
  %c32 = arith.constant dense<32> : tensor<32xi32>
  %q2 = tile.addptr %q, %c32 : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  tile.store %q2, %c : tensor<32x!tile.ptr<i32>>
  return
}
}
