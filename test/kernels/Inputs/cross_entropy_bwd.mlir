// Cross-entropy backward, hand-written tile IR template (ELT, EXT, TRUNC, BLK). One program
// per row: the log-sum-exp online over vocabulary blocks (as the forward), then
//   dlogits[row, j] = (exp(x_j - lse) - (j == label)) * grad_scale[row]
// computed in f32 and rounded once (case C2); ignored rows get 0 (cases C3, C4: grad_scale
// holds each token's upstream gradient, already divided by #non-ignored rows for a mean).
func.func @cross_entropy_bwd(%dlogits: !tile.ptr<ELT>, %logits: !tile.ptr<ELT>,
                             %labels: !tile.ptr<i64>, %grad_scale: !tile.ptr<f32>, %stride: i64,
                             %n_cols: i64, %ignore: i64) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %rowoff = arith.muli %row, %stride : i64
  %xrow = tile.addptr %logits, %rowoff : !tile.ptr<ELT>, i64
  %grow = tile.addptr %dlogits, %rowoff : !tile.ptr<ELT>, i64
  %lp = tile.addptr %labels, %row : !tile.ptr<i64>, i64
  %label = tile.load %lp : !tile.ptr<i64>
  %ignored = arith.cmpi eq, %label, %ignore : i64
  %gp = tile.addptr %grad_scale, %row : !tile.ptr<f32>, i64
  %g = tile.load %gp : !tile.ptr<f32>
  %f0 = arith.constant 0.0 : f32
  %gs = arith.select %ignored, %f0, %g : f32
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
  %gss = tile.splat %gs : f32 -> tensor<BLKxf32>
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
    %diff = arith.subf %prob, %oh : tensor<BLKxf32>
    %gr = arith.mulf %diff, %gss : tensor<BLKxf32>
    %gre = TRUNC %gr : tensor<BLKxf32> to tensor<BLKxELT>
    %q = tile.addptr %gsp, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    tile.store %q, %gre, %mask : tensor<BLKx!tile.ptr<ELT>>
  }
  return
}
