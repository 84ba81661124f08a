// Vector add in tile IR, written by hand: o[i] = x[i] + y[i] for i < n, BLOCK = 1024.
// The main job runs it through tessel-opt; tesselc accepts it as input too.
module attributes {tile.target = "cuda:sm_90a"} {
func.func @add(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %o: !tile.ptr<f32>, %n: i64) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %p64 = arith.extsi %pid : i32 to i64
  %c = arith.constant 1024 : i64
  %base = arith.muli %p64, %c : i64
  %r = tile.arange 0, 1024 : tensor<1024xi32>
  %r64 = arith.extsi %r : tensor<1024xi32> to tensor<1024xi64>
  %b = tile.splat %base : i64 -> tensor<1024xi64>
  %offs = arith.addi %b, %r64 : tensor<1024xi64>
  %ns = tile.splat %n : i64 -> tensor<1024xi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi64>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %xv = tile.load %xp, %m, %zero cache = cg evict = evict_first : tensor<1024x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
  %yv = tile.load %yp, %m : tensor<1024x!tile.ptr<f32>>
  %s = arith.addf %xv, %yv : tensor<1024xf32>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %os, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi64>
  tile.store %op, %s, %m : tensor<1024x!tile.ptr<f32>>
  return
}
}
