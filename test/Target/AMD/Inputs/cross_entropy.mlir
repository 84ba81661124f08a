// loss[row] = logsumexp(logits[row, :]) - logits[row, label[row]] over rows of any length
// (vocabularies of 128K), bf16 logits: one program per row loops over column blocks of 4096
// with an online softmax, the running max and the rescaled sum as scalar loop carries.
func.func @cross_entropy(%loss: !tile.ptr<f32>,
                         %logits: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                         %labels: !tile.ptr<i64>,
                         %stride: i64 {tile.divisibility = 16 : i32},
                         %n_cols: i64 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pid = tile.program_id 0
  %row = arith.extsi %pid : i32 to i64
  %off = arith.muli %row, %stride : i64
  %lrow = tile.addptr %logits, %off : !tile.ptr<bf16>, i64
  %r = tile.arange 0, 4096 : tensor<4096xi32>
  %cols = arith.extsi %r : tensor<4096xi32> to tensor<4096xi64>           // (BLOCK)
  %ns = tile.splat %n_cols : i64 -> tensor<4096xi64>
  %ninf = arith.constant dense<0xFF80> : tensor<4096xbf16>
  %ls = tile.splat %lrow : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %c0 = arith.constant 0 : i64
  %cb = arith.constant 4096 : i64
  %m0 = arith.constant 0xFF800000 : f32
  %s0 = arith.constant 0.0 : f32
  %res:2 = scf.for %c = %c0 to %n_cols step %cb iter_args(%mi = %m0, %si = %s0) -> (f32, f32) : i64 {
    %cs = tile.splat %c : i64 -> tensor<4096xi64>
    %offs = arith.addi %cs, %cols : tensor<4096xi64>
    %mask = arith.cmpi slt, %offs, %ns : tensor<4096xi64>
    %p = tile.addptr %ls, %offs : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi64>
    %x = tile.load %p, %mask, %ninf evict = evict_first : tensor<4096x!tile.ptr<bf16>>
    %xf = arith.extf %x : tensor<4096xbf16> to tensor<4096xf32>
    %bmax = tile.reduce(%xf) axis = 0 : (tensor<4096xf32>) -> f32 {
    ^bb0(%u: f32, %v: f32):
      %w = arith.maximumf %u, %v : f32
      tile.yield %w : f32
    }
    %mn = arith.maximumf %mi, %bmax : f32
    %mns = tile.splat %mn : f32 -> tensor<4096xf32>
    %d = arith.subf %xf, %mns : tensor<4096xf32>
    %e = math.exp %d : tensor<4096xf32>
    %bsum = tile.reduce(%e) axis = 0 : (tensor<4096xf32>) -> f32 {
    ^bb0(%u: f32, %v: f32):
      %w = arith.addf %u, %v : f32
      tile.yield %w : f32
    }
    %dm = arith.subf %mi, %mn : f32
    %scale = math.exp %dm : f32
    %sr = arith.mulf %si, %scale : f32
    %sn = arith.addf %sr, %bsum : f32
    scf.yield %mn, %sn : f32, f32
  }
  %lse0 = math.log %res#1 : f32
  %lse = arith.addf %lse0, %res#0 : f32
  %lp = tile.addptr %labels, %row : !tile.ptr<i64>, i64
  %label = tile.load %lp : !tile.ptr<i64>
  %tp = tile.addptr %lrow, %label : !tile.ptr<bf16>, i64
  %t = tile.load %tp : !tile.ptr<bf16>
  %tf = arith.extf %t : bf16 to f32
  %l = arith.subf %lse, %tf : f32
  %op = tile.addptr %loss, %row : !tile.ptr<f32>, i64
  tile.store %op, %l : !tile.ptr<f32>
  return
}
