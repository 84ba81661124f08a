// SwiGLU, hand-written tile IR template (ELT, EXT, TRUNC, BLK): out = silu(gate) * up with
// silu(a) = a / (1 + exp(-a)), element-wise over n elements in f32.
func.func @swiglu(%out: !tile.ptr<ELT>, %a: !tile.ptr<ELT>, %b: !tile.ptr<ELT>, %n: i64)
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
  %neg = arith.negf %af : tensor<BLKxf32>
  %e = math.exp %neg : tensor<BLKxf32>
  %one = arith.constant dense<1.0> : tensor<BLKxf32>
  %den = arith.addf %one, %e : tensor<BLKxf32>
  %act = arith.divf %af, %den : tensor<BLKxf32>                          // silu(a)
  %y = arith.mulf %act, %bf : tensor<BLKxf32>
  %ye = TRUNC %y : tensor<BLKxf32> to tensor<BLKxELT>
  %os = tile.splat %out : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %op = tile.addptr %os, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  tile.store %op, %ye, %m : tensor<BLKx!tile.ptr<ELT>>
  return
}
