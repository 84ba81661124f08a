// y[row, :] = x[row, :] * rsqrt(mean(x[row, :]^2) + eps) * w, bf16 rows of at most 4096;
// one program per row, 4 warps, statistics in f32.
func.func @rmsnorm(%y: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                   %x: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                   %w: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                   %stride: i64 {tile.divisibility = 16 : i32},
                   %n_cols: i64 {tile.divisibility = 16 : i32}, %eps: f32)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %off = arith.muli %row, %stride : i64
  %xrow = tile.addptr %x, %off : !tile.ptr<bf16>, i64
  %yrow = tile.addptr %y, %off : !tile.ptr<bf16>, i64
  %r = tile.arange 0, 4096 : tensor<4096xi32>
  %cols = arith.extsi %r : tensor<4096xi32> to tensor<4096xi64>           // (BLOCK)
  %ns = tile.splat %n_cols : i64 -> tensor<4096xi64>
  %m = arith.cmpi slt, %cols, %ns : tensor<4096xi64>
  %zero = arith.constant dense<0.0> : tensor<4096xbf16>
  %xs = tile.splat %xrow : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %xp = tile.addptr %xs, %cols : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi64>
  %xv = tile.load %xp, %m, %zero : tensor<4096x!tile.ptr<bf16>>
  %xf = arith.extf %xv : tensor<4096xbf16> to tensor<4096xf32>
  %sq = arith.mulf %xf, %xf : tensor<4096xf32>
  %ss = tile.reduce(%sq) axis = 0 : (tensor<4096xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %nf = arith.sitofp %n_cols : i64 to f32
  %mean = arith.divf %ss, %nf : f32
  %me = arith.addf %mean, %eps : f32
  %rstd = math.rsqrt %me : f32
  %rs = tile.splat %rstd : f32 -> tensor<4096xf32>
  %ws = tile.splat %w : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %wp = tile.addptr %ws, %cols : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi64>
  %wv = tile.load %wp, %m, %zero : tensor<4096x!tile.ptr<bf16>>
  %wf = arith.extf %wv : tensor<4096xbf16> to tensor<4096xf32>
  %n1 = arith.mulf %xf, %rs : tensor<4096xf32>
  %n2 = arith.mulf %n1, %wf : tensor<4096xf32>
  %yb = arith.truncf %n2 : tensor<4096xf32> to tensor<4096xbf16>
  %ys = tile.splat %yrow : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %yp = tile.addptr %ys, %cols : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi64>
  tile.store %yp, %yb, %m : tensor<4096x!tile.ptr<bf16>>
  return
}
