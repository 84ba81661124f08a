// out[row, :] = softmax(in[row, :]) for rows of at most 4096 bf16 elements; one program per
// row, 8 warps. Masked-off lanes load -inf: they never win the max and add exp(-inf) = 0.
func.func @softmax(%out: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                   %in: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                   %stride: i64 {tile.divisibility = 16 : i32},
                   %n_cols: i64 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %off = arith.muli %row, %stride : i64
  %inrow = tile.addptr %in, %off : !tile.ptr<bf16>, i64
  %outrow = tile.addptr %out, %off : !tile.ptr<bf16>, i64
  %r = tile.arange 0, 4096 : tensor<4096xi32>
  %cols = arith.extsi %r : tensor<4096xi32> to tensor<4096xi64>           // (BLOCK)
  %ns = tile.splat %n_cols : i64 -> tensor<4096xi64>
  %m = arith.cmpi slt, %cols, %ns : tensor<4096xi64>
  %ninf = arith.constant dense<0xFF80> : tensor<4096xbf16>
  %ins = tile.splat %inrow : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %p = tile.addptr %ins, %cols : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi64>
  %x = tile.load %p, %m, %ninf : tensor<4096x!tile.ptr<bf16>>
  %xf = arith.extf %x : tensor<4096xbf16> to tensor<4096xf32>
  %mx = tile.reduce(%xf) axis = 0 : (tensor<4096xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %w = arith.maximumf %u, %v : f32
    tile.yield %w : f32
  }
  %mxs = tile.splat %mx : f32 -> tensor<4096xf32>
  %d = arith.subf %xf, %mxs : tensor<4096xf32>
  %e = math.exp %d : tensor<4096xf32>
  %sum = tile.reduce(%e) axis = 0 : (tensor<4096xf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %w = arith.addf %u, %v : f32
    tile.yield %w : f32
  }
  %sums = tile.splat %sum : f32 -> tensor<4096xf32>
  %y = arith.divf %e, %sums : tensor<4096xf32>
  %yb = arith.truncf %y : tensor<4096xf32> to tensor<4096xbf16>
  %outs = tile.splat %outrow : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %q = tile.addptr %outs, %cols : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi64>
  tile.store %q, %yb, %m : tensor<4096x!tile.ptr<bf16>>
  return
}
