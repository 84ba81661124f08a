// Masked row max (case C9), hand-written tile IR template (ELT, EXT, BLK).
// out[row] (f32) = max(in[row, :n_cols]); masked-off lanes load -inf and never win.
func.func @row_max(%out: !tile.ptr<f32>, %in: !tile.ptr<ELT>, %stride: i64, %n_cols: i64)
    attributes {tile.kernel} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %rowoff = arith.muli %row, %stride : i64
  %inrow = tile.addptr %in, %rowoff : !tile.ptr<ELT>, i64
  %c0 = arith.constant 0 : i64
  %cb = arith.constant BLK : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %cols = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>            // (BLK)
  %ns = tile.splat %n_cols : i64 -> tensor<BLKxi64>
  %ninf = arith.constant dense<0xFF800000> : tensor<BLKxf32>
  %ninfE = TRUNC %ninf : tensor<BLKxf32> to tensor<BLKxELT>
  %ins = tile.splat %inrow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
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
  %o = tile.addptr %out, %row : !tile.ptr<f32>, i64
  tile.store %o, %mx : !tile.ptr<f32>
  return
}
