// GeGLU, hand-written tile IR template (ELT, EXT, TRUNC, BLK): out = gelu(gate) * up with the
// exact (erf) GELU 0.5 * a * (1 + erf(a / sqrt(2))), element-wise over n elements in f32.
func.func @geglu(%out: !tile.ptr<ELT>, %a: !tile.ptr<ELT>, %b: !tile.ptr<ELT>, %n: i64)
    attributes {tile.kernel, tessel.config = {BLOCK = BLK : i64}} {
  %pid = tile.program_id 0
  %p64 = arith.extsi %pid : i32 to i64
  %blk = arith.constant BLK : i64
  %start = arith.muli %p64, %blk : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %r64 = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>
  %s = tile.splat %start : i64 -> tensor<BLKxi64>
  %offs = arith.addi %s, %r64 : tensor<BLKxi64>                          // (BLK)
  %ns = tile.splat %n : i64 -> tensor<BLKxi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
  %as = tile.splat %a : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %ap = tile.addptr %as, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %av = tile.load %ap, %m : tensor<BLKx!tile.ptr<ELT>>
  %bs = tile.splat %b : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %bp = tile.addptr %bs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %bv = tile.load %bp, %m : tensor<BLKx!tile.ptr<ELT>>
  %af = EXT %av : tensor<BLKxELT> to tensor<BLKxf32>
  %bf = EXT %bv : tensor<BLKxELT> to tensor<BLKxf32>
  %rs2 = arith.constant dense<0.707106769> : tensor<BLKxf32>
  %half = arith.constant dense<0.5> : tensor<BLKxf32>
  %one = arith.constant dense<1.0> : tensor<BLKxf32>
  %z = arith.mulf %af, %rs2 : tensor<BLKxf32>
  %erf = math.erf %z : tensor<BLKxf32>
  %t = arith.addf %one, %erf : tensor<BLKxf32>
  %ha = arith.mulf %half, %af : tensor<BLKxf32>
  %act = arith.mulf %ha, %t : tensor<BLKxf32>                            // gelu(a), erf form
  %y = arith.mulf %act, %bf : tensor<BLKxf32>
  %ye = TRUNC %y : tensor<BLKxf32> to tensor<BLKxELT>
  %os = tile.splat %out : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %op = tile.addptr %os, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  tile.store %op, %ye, %m : tensor<BLKx!tile.ptr<ELT>>
  return
}
