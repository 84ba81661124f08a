// RMSNorm, hand-written tile IR template (ELT, EXT, TRUNC, BLK).
// out = x / sqrt(mean(x^2) + eps) * w per row; masked-off lanes load 0 (add nothing to x^2).
// The row's rstd goes to rstd_out[row] (f32), as the DSL kernel's.
func.func @rmsnorm(%out: !tile.ptr<ELT>, %rstd_out: !tile.ptr<f32>, %x: !tile.ptr<ELT>,
                   %w: !tile.ptr<ELT>, %stride: i64, %n_cols: i64, %eps: f32)
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
  %os = tile.splat %orow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %st = scf.for %c = %c0 to %n_cols step %cb iter_args(%acc = %zero) -> (tensor<BLKxf32>) : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %v = tile.load %p, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %vf = EXT %v : tensor<BLKxELT> to tensor<BLKxf32>
    %sq = arith.mulf %vf, %vf : tensor<BLKxf32>
    %a = arith.addf %acc, %sq : tensor<BLKxf32>
    scf.yield %a : tensor<BLKxf32>
  }
  %ss = tile.reduce(%st) axis = 0 : (tensor<BLKxf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %t = arith.addf %u, %v : f32
    tile.yield %t : f32
  }
  %nf = arith.sitofp %n_cols : i64 to f32
  %ms = arith.divf %ss, %nf : f32
  %me = arith.addf %ms, %eps : f32
  %rstd = math.rsqrt %me : f32
  %rstds = tile.splat %rstd : f32 -> tensor<BLKxf32>
  %rp = tile.addptr %rstd_out, %row : !tile.ptr<f32>, i64
  tile.store %rp, %rstd : !tile.ptr<f32>
  scf.for %c = %c0 to %n_cols step %cb : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %v = tile.load %p, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %pw = tile.addptr %ws, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %wv = tile.load %pw, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
    %vf = EXT %v : tensor<BLKxELT> to tensor<BLKxf32>
    %wf = EXT %wv : tensor<BLKxELT> to tensor<BLKxf32>
    %n = arith.mulf %vf, %rstds : tensor<BLKxf32>
    %y = arith.mulf %n, %wf : tensor<BLKxf32>
    %ye = TRUNC %y : tensor<BLKxf32> to tensor<BLKxELT>
    %q = tile.addptr %os, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    tile.store %q, %ye, %m : tensor<BLKx!tile.ptr<ELT>>
  }
  return
}
