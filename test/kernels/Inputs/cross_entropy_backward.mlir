// Cross-entropy backward, hand-written tile IR template (ELT, EXT, TRUNC, BLK; REDN 0 / 1 / 2
// and REDS none / mean / sum: the forward's reduction). One program per row: the log-sum-exp
// online over vocabulary blocks (as the forward), then, with label smoothing eps and z-loss
// scale z,
//   dlogits[row, j] = (exp(x_j - lse) * (1 + 2 z lse) - (1 - eps) * (j == label)
//                      - eps / n_cols) * g
// computed in f32 and rounded once (case C2), with g = dloss[row] (none: one upstream value per
// token, case C3), dloss[0] (sum) or dloss[0] / n_valid (mean); ignored rows get exactly 0,
// selected rather than multiplied, so a mean over no row gives no NaN (case C4).
func.func @cross_entropy_backward(%dlogits: !tile.ptr<ELT>, %logits: !tile.ptr<ELT>,
                                  %labels: !tile.ptr<i64>, %dloss: !tile.ptr<f32>, %stride: i64,
                                  %dstride: i64, %n_cols: i64, %ignore: i64, %n_valid: i64,
                                  %eps: f32, %zl: f32)
    attributes {tile.kernel, tessel.config = {BLOCK = BLK : i64, reduction = "REDS"}} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %rowoff = arith.muli %row, %stride : i64
  %drowoff = arith.muli %row, %dstride : i64
  %xrow = tile.addptr %logits, %rowoff : !tile.ptr<ELT>, i64
  %grow = tile.addptr %dlogits, %drowoff : !tile.ptr<ELT>, i64
  %lp = tile.addptr %labels, %row : !tile.ptr<i64>, i64
  %label = tile.load %lp : !tile.ptr<i64>
  %ignored = arith.cmpi eq, %label, %ignore : i64
  // The upstream gradient of this row.
  %red = arith.constant REDN : i64
  %c0r = arith.constant 0 : i64
  %c2r = arith.constant 2 : i64
  %isnone = arith.cmpi eq, %red, %c0r : i64
  %issum = arith.cmpi eq, %red, %c2r : i64
  %f0 = arith.constant 0.0 : f32
  %gp = tile.addptr %dloss, %row : !tile.ptr<f32>, i64
  %grow_v = tile.load %gp, %isnone, %f0 : !tile.ptr<f32>
  %g0 = tile.load %dloss : !tile.ptr<f32>
  %nv = arith.sitofp %n_valid : i64 to f32
  %gmean = arith.divf %g0, %nv : f32
  %gred = arith.select %issum, %g0, %gmean : f32
  %g = arith.select %isnone, %grow_v, %gred : f32
  %c0 = arith.constant 0 : i64
  %cb = arith.constant BLK : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %cols = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>            // (BLK)
  %ns = tile.splat %n_cols : i64 -> tensor<BLKxi64>
  %ninf = arith.constant dense<0xFF800000> : tensor<BLKxf32>
  %ninfE = TRUNC %ninf : tensor<BLKxf32> to tensor<BLKxELT>
  %xs = tile.splat %xrow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %gsp = tile.splat %grow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %minf = arith.constant 0xFF800000 : f32
  %m, %d = scf.for %c = %c0 to %n_cols step %cb iter_args(%mo = %minf, %do = %f0) -> (f32, f32) : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %mask = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %xe = tile.load %p, %mask, %ninfE : tensor<BLKx!tile.ptr<ELT>>
    %x = EXT %xe : tensor<BLKxELT> to tensor<BLKxf32>
    %bm = tile.reduce(%x) axis = 0 : (tensor<BLKxf32>) -> f32 {
    ^bb0(%u: f32, %v: f32):
      %w = arith.maximumf %u, %v : f32
      tile.yield %w : f32
    }
    %mn = arith.maximumf %mo, %bm : f32
    %mns = tile.splat %mn : f32 -> tensor<BLKxf32>
    %sh = arith.subf %x, %mns : tensor<BLKxf32>
    %e = math.exp %sh : tensor<BLKxf32>
    %es = tile.reduce(%e) axis = 0 : (tensor<BLKxf32>) -> f32 {
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tile.yield %w : f32
    }
    %dm = arith.subf %mo, %mn : f32
    %rescale = math.exp %dm : f32
    %dr = arith.mulf %do, %rescale : f32
    %dn = arith.addf %dr, %es : f32
    scf.yield %mn, %dn : f32, f32
  }
  %logd = math.log %d : f32
  %lse = arith.addf %m, %logd : f32
  %lses = tile.splat %lse : f32 -> tensor<BLKxf32>
  %labs = tile.splat %label : i64 -> tensor<BLKxi64>
  %gss = tile.splat %g : f32 -> tensor<BLKxf32>
  %igs = tile.splat %ignored : i1 -> tensor<BLKxi1>
  // Per row: the probabilities' factor 1 + 2 z lse, the label's weight 1 - eps, eps / n_cols.
  %onef = arith.constant 1.0 : f32
  %twof = arith.constant 2.0 : f32
  %zl2 = arith.mulf %twof, %zl : f32
  %zlse = arith.mulf %zl2, %lse : f32
  %pscale = arith.addf %onef, %zlse : f32
  %hit = arith.subf %onef, %eps : f32
  %vf = arith.sitofp %n_cols : i64 to f32
  %spread = arith.divf %eps, %vf : f32
  %pss = tile.splat %pscale : f32 -> tensor<BLKxf32>
  %hits = tile.splat %hit : f32 -> tensor<BLKxf32>
  %sprs = tile.splat %spread : f32 -> tensor<BLKxf32>
  %one = arith.constant dense<1.0> : tensor<BLKxf32>
  %zero = arith.constant dense<0.0> : tensor<BLKxf32>
  scf.for %c = %c0 to %n_cols step %cb : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %mask = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %xe = tile.load %p, %mask, %ninfE : tensor<BLKx!tile.ptr<ELT>>
    %x = EXT %xe : tensor<BLKxELT> to tensor<BLKxf32>
    %sh = arith.subf %x, %lses : tensor<BLKxf32>
    %prob = math.exp %sh : tensor<BLKxf32>
    %isl = arith.cmpi eq, %offs, %labs : tensor<BLKxi64>
    %oh = arith.select %isl, %one, %zero : tensor<BLKxi1>, tensor<BLKxf32>
    %pp = arith.mulf %prob, %pss : tensor<BLKxf32>
    %ohh = arith.mulf %oh, %hits : tensor<BLKxf32>
    %diff0 = arith.subf %pp, %ohh : tensor<BLKxf32>
    %diff = arith.subf %diff0, %sprs : tensor<BLKxf32>
    %gr0 = arith.mulf %diff, %gss : tensor<BLKxf32>
    %gr = arith.select %igs, %zero, %gr0 : tensor<BLKxi1>, tensor<BLKxf32>
    %gre = TRUNC %gr : tensor<BLKxf32> to tensor<BLKxELT>
    %q = tile.addptr %gsp, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    tile.store %q, %gre, %mask : tensor<BLKx!tile.ptr<ELT>>
  }
  return
}
