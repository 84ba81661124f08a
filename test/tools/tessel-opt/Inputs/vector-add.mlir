module attributes {tile.target = "interpreter"} {
  func.func @vector_add(%out: !tile.ptr<f32>, %x: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
    %pid = tile.program_id 0
    %offs = tile.arange 0, 128 : tensor<128xi32>
    %ns = tile.splat %n : i32 -> tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %xp = tile.addptr %xs, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    %v = tile.load %xp, %mask : tensor<128x!tile.ptr<f32>>
    %os = tile.splat %out : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
    %op = tile.addptr %os, %offs : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
    tile.store %op, %v, %mask : tensor<128x!tile.ptr<f32>>
    return
  }
}
