// Case C8: a [16, 1] tile reduced along axis 0 with max and with sum; out = [max, sum].
func.func @c8_reduce_column(%out: !tile.ptr<f32>, %x: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 16 : tensor<16xi32>
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x1x!tile.ptr<f32>>
  %p = tile.addptr %xs, %re : tensor<16x1x!tile.ptr<f32>>, tensor<16x1xi32>
  %v = tile.load %p : tensor<16x1x!tile.ptr<f32>>
  %mx = tile.reduce(%v) axis = 0 : (tensor<16x1xf32>) -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    tile.yield %t : f32
  }
  %sm = tile.reduce(%v) axis = 0 : (tensor<16x1xf32>) -> tensor<1xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %z = tile.arange 0, 1 : tensor<1xi32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<1x!tile.ptr<f32>>
  %o0 = tile.addptr %os, %z : tensor<1x!tile.ptr<f32>>, tensor<1xi32>
  tile.store %o0, %mx : tensor<1x!tile.ptr<f32>>
  %one = arith.constant dense<1> : tensor<1xi32>
  %o1 = tile.addptr %o0, %one : tensor<1x!tile.ptr<f32>>, tensor<1xi32>
  tile.store %o1, %sm : tensor<1x!tile.ptr<f32>>
  return
}
