// LayerNorm forward (case C1), hand-written tile IR template (ELT, EXT, TRUNC, BLK).
// out = (x - mean) / sqrt(var + eps) * w + b per row, biased variance. Masked-off lanes take no
// part in the statistics: x loads 0 there for the mean, and (x - mean) is selected to 0 there
// for the variance (loading 0 alone would add mean^2 per padded lane). The row's mean and rstd
// go to mean_out[row] and rstd_out[row] (f32), as the DSL kernel's.
func.func @layernorm(%out: !tile.ptr<ELT>, %mean_out: !tile.ptr<f32>, %rstd_out: !tile.ptr<f32>,
                     %x: !tile.ptr<ELT>, %w: !tile.ptr<ELT>,
                     %b: !tile.ptr<ELT>, %stride: i64, %n_cols: i64, %eps: f32)
    attributes {tile.kernel} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %rowoff = arith.muli %row, %stride : i64
  %xrow = tile.addptr %x, %rowoff : !tile.ptr<ELT>, i64
  %orow = tile.addptr %out, %rowoff : !tile.ptr<ELT>, i64
  %c0 = arith.constant 0 : i64
  %cb = arith.constant BLK : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %cols = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>            // (BLK)
  %ns = tile.splat %n_cols : i64 -> tensor<BLKxi64>
  %zero = arith.constant dense<0.0> : tensor<BLKxf32>
  %zeroE = TRUNC %zero : tensor<BLKxf32> to tensor<BLKxELT>
  %xs = tile.splat %xrow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %ws = tile.splat %w : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %bs = tile.splat %b : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %os = tile.splat %orow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %nf = arith.sitofp %n_cols : i64 to f32
  // Mean.
  %st = scf.for %c = %c0 to %n_cols step %cb iter_args(%acc = %zero) -> (tensor<BLKxf32>) : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %v = tile.load %p, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %vf = EXT %v : tensor<BLKxELT> to tensor<BLKxf32>
    %a = arith.addf %acc, %vf : tensor<BLKxf32>
    scf.yield %a : tensor<BLKxf32>
  }
  %sum = tile.reduce(%st) axis = 0 : (tensor<BLKxf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %mean = arith.divf %sum, %nf : f32
  %means = tile.splat %mean : f32 -> tensor<BLKxf32>
  // Variance.
  %vt = scf.for %c = %c0 to %n_cols step %cb iter_args(%acc = %zero) -> (tensor<BLKxf32>) : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %v = tile.load %p, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %vf = EXT %v : tensor<BLKxELT> to tensor<BLKxf32>
    %d = arith.subf %vf, %means : tensor<BLKxf32>
    %dm = arith.select %m, %d, %zero : tensor<BLKxi1>, tensor<BLKxf32>
    %sq = arith.mulf %dm, %dm : tensor<BLKxf32>
    %a = arith.addf %acc, %sq : tensor<BLKxf32>
    scf.yield %a : tensor<BLKxf32>
  }
  %vsum = tile.reduce(%vt) axis = 0 : (tensor<BLKxf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %var = arith.divf %vsum, %nf : f32
  %ve = arith.addf %var, %eps : f32
  %rstd = math.rsqrt %ve : f32
  %rstds = tile.splat %rstd : f32 -> tensor<BLKxf32>
  %mp = tile.addptr %mean_out, %row : !tile.ptr<f32>, i64
  tile.store %mp, %mean : !tile.ptr<f32>
  %rp = tile.addptr %rstd_out, %row : !tile.ptr<f32>, i64
  tile.store %rp, %rstd : !tile.ptr<f32>
  // Normalize.
  scf.for %c = %c0 to %n_cols step %cb : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %v = tile.load %p, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %pw = tile.addptr %ws, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %wv = tile.load %pw, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %pb = tile.addptr %bs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %bv = tile.load %pb, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %vf = EXT %v : tensor<BLKxELT> to tensor<BLKxf32>
    %wf = EXT %wv : tensor<BLKxELT> to tensor<BLKxf32>
    %bf = EXT %bv : tensor<BLKxELT> to tensor<BLKxf32>
    %d = arith.subf %vf, %means : tensor<BLKxf32>
    %n = arith.mulf %d, %rstds : tensor<BLKxf32>
    %y0 = arith.mulf %n, %wf : tensor<BLKxf32>
    %y = arith.addf %y0, %bf : tensor<BLKxf32>
    %ye = TRUNC %y : tensor<BLKxf32> to tensor<BLKxELT>
    %q = tile.addptr %os, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    tile.store %q, %ye, %m : tensor<BLKx!tile.ptr<ELT>>
  }
  return
}
