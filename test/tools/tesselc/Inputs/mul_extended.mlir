// Case C20: the high half of a 32x32-bit multiply in its canonical form, arith.mulsi_extended on a tile.
module {
func.func @k(%x: !tile.ptr<i32>, %o: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %r = tile.arange 0, 32 : tensor<32xi32>
  %xs = tile.splat %x : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %p = tile.addptr %xs, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  %v = tile.load %p : tensor<32x!tile.ptr<i32>>
  %lo, %hi = arith.mulsi_extended %v, %v : tensor<32xi32>
  %os = tile.splat %o : !tile.ptr<i32> -> tensor<32x!tile.ptr<i32>>
  %q = tile.addptr %os, %r : tensor<32x!tile.ptr<i32>>, tensor<32xi32>
  tile.store %q, %hi : tensor<32x!tile.ptr<i32>>
  return
}
}
