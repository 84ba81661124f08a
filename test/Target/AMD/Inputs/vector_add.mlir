// o[i] = x[i] + y[i] for i < n; one program per 4096 elements, f32.
func.func @vector_add(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %y: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %o: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                      %n: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %c = arith.constant 4096 : i32
  %base = arith.muli %pid, %c : i32
  %r = tile.arange 0, 4096 : tensor<4096xi32>
  %b = tile.splat %base : i32 -> tensor<4096xi32>
  %offs = arith.addi %b, %r : tensor<4096xi32>                              // (BLOCK)
  %ns = tile.splat %n : i32 -> tensor<4096xi32>
  %m = arith.cmpi slt, %offs, %ns : tensor<4096xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %xv = tile.load %xp, %m : tensor<4096x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  %yv = tile.load %yp, %m : tensor<4096x!tile.ptr<f32>>
  %s = arith.addf %xv, %yv : tensor<4096xf32>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<4096x!tile.ptr<f32>>, tensor<4096xi32>
  tile.store %op, %s, %m : tensor<4096x!tile.ptr<f32>>
  return
}
