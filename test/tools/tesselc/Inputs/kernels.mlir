// Two kernels and a helper in tile IR.
module {
  func.func private @twice(%x: tensor<64xf32>) -> tensor<64xf32> {
    %s = arith.addf %x, %x : tensor<64xf32>
    return %s : tensor<64xf32>
  }
  func.func @double(%out: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %in: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 2 : i32} {
    %r = tile.arange 0, 64 : tensor<64xi32>
    %pi = tile.splat %in : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %pin = tile.addptr %pi, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    %x = tile.load %pin : tensor<64x!tile.ptr<f32>>
    %y = func.call @twice(%x) : (tensor<64xf32>) -> tensor<64xf32>
    %po = tile.splat %out : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
    %pout = tile.addptr %po, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
    tile.store %pout, %y : tensor<64x!tile.ptr<f32>>
    return
  }
  func.func @zero(%out: !tile.ptr<i32>) attributes {tile.kernel} {
    %c0 = arith.constant 0 : i32
    tile.store %out, %c0 : !tile.ptr<i32>
    return
  }
}
