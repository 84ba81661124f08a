// Block pointers whose block is not a power of two: a (3, 5) block of the (M, N) row-major a,
// rows from pid * 3, with boundary checks on both dimensions; the block is copied to o and
// summed along its rows into s. tile-lower-block-pointers makes masked pointer tiles of it,
// tile-gpu-pad-shapes pads them to (4, 8) and ANDs the boundary masks with the padding's.
func.func @bp(%a: !tile.ptr<f32>, %o: !tile.ptr<f32>, %s: !tile.ptr<f32>, %m: i64, %n: i64) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c3 = arith.constant 3 : i64
  %pid = tile.program_id 0
  %p64 = arith.extsi %pid : i32 to i64
  %row = arith.muli %p64, %c3 : i64
  %src = tile.make_block_ptr %a, [%m, %n], [%n, %c1], [%row, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<3x5xf32>>
  %dst = tile.make_block_ptr %o, [%m, %n], [%n, %c1], [%row, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<3x5xf32>>
  %t = tile.load %src boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<3x5xf32>>
  tile.store %dst, %t boundary_check = [0, 1] : !tile.block_ptr<tensor<3x5xf32>>
  %r = tile.reduce(%t) axis = 1 : (tensor<3x5xf32>) -> tensor<3xf32> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    tile.yield %z : f32
  }
  %sp = tile.make_block_ptr %s, [%m], [%c1], [%row] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<3xf32>>
  tile.store %sp, %r boundary_check = [0] : !tile.block_ptr<tensor<3xf32>>
  return
}
