// Row softmax, hand-written tile IR template (ELT, EXT, TRUNC, BLK: see vector_add.mlir).
// One program per row; three passes over column blocks of BLK so rows of any length work:
// the row max, the sum of exp(x - max), then exp(x - max) / sum. Masked-off lanes load -inf
// (case C9): they add exp(-inf) = 0 and never win the max.
func.func @softmax(%out: !tile.ptr<ELT>, %in: !tile.ptr<ELT>, %in_stride: i64, %out_stride: i64,
                   %n_cols: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %inoff = arith.muli %row, %in_stride : i64
  %outoff = arith.muli %row, %out_stride : i64
  %inrow = tile.addptr %in, %inoff : !tile.ptr<ELT>, i64
  %outrow = tile.addptr %out, %outoff : !tile.ptr<ELT>, i64
  %c0 = arith.constant 0 : i64
  %cb = arith.constant BLK : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %cols = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>            // (BLK)
  %ns = tile.splat %n_cols : i64 -> tensor<BLKxi64>
  %ninf = arith.constant dense<0xFF800000> : tensor<BLKxf32>
  %ninfE = TRUNC %ninf : tensor<BLKxf32> to tensor<BLKxELT>
  %zero = arith.constant dense<0.0> : tensor<BLKxf32>
  %ins = tile.splat %inrow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %outs = tile.splat %outrow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  // Pass 1: running max per lane, then across lanes.
  %mt = scf.for %c = %c0 to %n_cols step %cb iter_args(%acc = %ninf) -> (tensor<BLKxf32>) : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %ins, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %x = tile.load %p, %m, %ninfE : tensor<BLKx!tile.ptr<ELT>>
    %xf = EXT %x : tensor<BLKxELT> to tensor<BLKxf32>
    %a = arith.maximumf %acc, %xf : tensor<BLKxf32>
    scf.yield %a : tensor<BLKxf32>
  }
  %mx = tile.reduce(%mt) axis = 0 : (tensor<BLKxf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %w = arith.maximumf %u, %v : f32
    tile.yield %w : f32
  }
  %mxs = tile.splat %mx : f32 -> tensor<BLKxf32>
  // Pass 2: sum of exp(x - max).
  %st = scf.for %c = %c0 to %n_cols step %cb iter_args(%acc = %zero) -> (tensor<BLKxf32>) : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %ins, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %x = tile.load %p, %m, %ninfE : tensor<BLKx!tile.ptr<ELT>>
    %xf = EXT %x : tensor<BLKxELT> to tensor<BLKxf32>
    %d = arith.subf %xf, %mxs : tensor<BLKxf32>
    %e = math.exp %d : tensor<BLKxf32>
    %a = arith.addf %acc, %e : tensor<BLKxf32>
    scf.yield %a : tensor<BLKxf32>
  }
  %sum = tile.reduce(%st) axis = 0 : (tensor<BLKxf32>) -> f32 {
  ^bb0(%u: f32, %v: f32):
    %w = arith.addf %u, %v : f32
    tile.yield %w : f32
  }
  %sums = tile.splat %sum : f32 -> tensor<BLKxf32>
  // Pass 3: normalize and store.
  scf.for %c = %c0 to %n_cols step %cb : i64 {
    %cs = tile.splat %c : i64 -> tensor<BLKxi64>
    %offs = arith.addi %cs, %cols : tensor<BLKxi64>
    %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
    %p = tile.addptr %ins, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    %x = tile.load %p, %m, %ninfE : tensor<BLKx!tile.ptr<ELT>>
    %xf = EXT %x : tensor<BLKxELT> to tensor<BLKxf32>
    %d = arith.subf %xf, %mxs : tensor<BLKxf32>
    %e = math.exp %d : tensor<BLKxf32>
    %y = arith.divf %e, %sums : tensor<BLKxf32>
    %ye = TRUNC %y : tensor<BLKxf32> to tensor<BLKxELT>
    %q = tile.addptr %outs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
    tile.store %q, %ye, %m : tensor<BLKx!tile.ptr<ELT>>
  }
  return
}
