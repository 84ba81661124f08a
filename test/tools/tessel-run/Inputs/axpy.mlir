// out[i] = a * x[i] + y[i] for i < n, 256 lanes per program. The parameters carry names
// (NameLocs, as tesselc writes them), so tessel-run checks --arg labels against them; a is a
// float parameter and n an integer one.
func.func @axpy(%x: !tile.ptr<f32> loc("x"), %y: !tile.ptr<f32> loc("y"), %out: !tile.ptr<f32> loc("out"), %a: f32 loc("a"), %n: i64 loc("n")) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %p64 = arith.extsi %pid : i32 to i64
  %blk = arith.constant 256 : i64
  %base = arith.muli %p64, %blk : i64
  %r = tile.arange 0, 256 : tensor<256xi32>
  %r64 = arith.extsi %r : tensor<256xi32> to tensor<256xi64>
  %b = tile.splat %base : i64 -> tensor<256xi64>
  %offs = arith.addi %b, %r64 : tensor<256xi64>
  %ns = tile.splat %n : i64 -> tensor<256xi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<256xi64>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi64>
  %xv = tile.load %xp, %m : tensor<256x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi64>
  %yv = tile.load %yp, %m : tensor<256x!tile.ptr<f32>>
  %as = tile.splat %a : f32 -> tensor<256xf32>
  %ax = arith.mulf %as, %xv : tensor<256xf32>
  %s = arith.addf %ax, %yv : tensor<256xf32>
  %os = tile.splat %out : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<256x!tile.ptr<f32>>, tensor<256xi64>
  tile.store %op, %s, %m : tensor<256x!tile.ptr<f32>>
  return
}
