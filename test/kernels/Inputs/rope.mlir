// RoPE (rotate-half) on q and k in place, hand-written tile IR template (ELT, EXT, TRUNC, BLK
// >= head_dim / 2). q is (B, HQ, S, D), k is (B, HK, S, D), cos and sin are (B, S, D) (one
// table per batch, case C5). Program (t, h) with t = b * S + s rotates head h of token t in q
// when h < HQ and in k when h < HK, so any head counts work, a single k head included:
//   y[:D/2] = x1 * cos[:D/2] - x2 * sin[:D/2],  y[D/2:] = x2 * cos[D/2:] + x1 * sin[D/2:].
func.func @rotate_half(%x: !tile.ptr<ELT>, %base: i64, %half: i64, %d: tensor<BLKxi64>,
                       %m: tensor<BLKxi1>, %c1: tensor<BLKxf32>, %c2: tensor<BLKxf32>,
                       %s1: tensor<BLKxf32>, %s2: tensor<BLKxf32>) {
  %zero = arith.constant dense<0.0> : tensor<BLKxf32>
  %zeroE = TRUNC %zero : tensor<BLKxf32> to tensor<BLKxELT>
  %row = tile.addptr %x, %base : !tile.ptr<ELT>, i64
  %rs = tile.splat %row : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %p1 = tile.addptr %rs, %d : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %hs = tile.splat %half : i64 -> tensor<BLKxi64>
  %p2 = tile.addptr %p1, %hs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %x1e = tile.load %p1, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
  %x2e = tile.load %p2, %m, %zeroE : tensor<BLKx!tile.ptr<ELT>>
  %x1 = EXT %x1e : tensor<BLKxELT> to tensor<BLKxf32>
  %x2 = EXT %x2e : tensor<BLKxELT> to tensor<BLKxf32>
  %a = arith.mulf %x1, %c1 : tensor<BLKxf32>
  %b = arith.mulf %x2, %s1 : tensor<BLKxf32>
  %y1 = arith.subf %a, %b : tensor<BLKxf32>
  %c = arith.mulf %x2, %c2 : tensor<BLKxf32>
  %e = arith.mulf %x1, %s2 : tensor<BLKxf32>
  %y2 = arith.addf %c, %e : tensor<BLKxf32>
  %y1e = TRUNC %y1 : tensor<BLKxf32> to tensor<BLKxELT>
  %y2e = TRUNC %y2 : tensor<BLKxf32> to tensor<BLKxELT>
  tile.store %p1, %y1e, %m : tensor<BLKx!tile.ptr<ELT>>
  tile.store %p2, %y2e, %m : tensor<BLKx!tile.ptr<ELT>>
  return
}

func.func @rope(%q: !tile.ptr<ELT>, %k: !tile.ptr<ELT>, %cos: !tile.ptr<ELT>, %sin: !tile.ptr<ELT>,
                %seq_len: i64, %n_qh: i64, %n_kh: i64, %head_dim: i64)
    attributes {tile.kernel} {
  %p0 = tile.program_id 0
  %p1 = tile.program_id 1
  %t = arith.extsi %p0 : i32 to i64                                      // b * S + s
  %h = arith.extsi %p1 : i32 to i64
  %b = arith.divsi %t, %seq_len : i64
  %s = arith.remsi %t, %seq_len : i64
  %c2i = arith.constant 2 : i64
  %half = arith.divsi %head_dim, %c2i : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %d = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>               // (BLK)
  %hs = tile.splat %half : i64 -> tensor<BLKxi64>
  %dm = arith.cmpi slt, %d, %hs : tensor<BLKxi64>
  %zero = arith.constant dense<0.0> : tensor<BLKxf32>
  %zeroE = TRUNC %zero : tensor<BLKxf32> to tensor<BLKxELT>
  // cos/sin rows of token t: (D) at t * D.
  %csoff = arith.muli %t, %head_dim : i64
  %crow = tile.addptr %cos, %csoff : !tile.ptr<ELT>, i64
  %srow = tile.addptr %sin, %csoff : !tile.ptr<ELT>, i64
  %cs = tile.splat %crow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %ss = tile.splat %srow : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %cp1 = tile.addptr %cs, %d : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %cp2 = tile.addptr %cp1, %hs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %sp1 = tile.addptr %ss, %d : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %sp2 = tile.addptr %sp1, %hs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %c1e = tile.load %cp1, %dm, %zeroE : tensor<BLKx!tile.ptr<ELT>>
  %c2e = tile.load %cp2, %dm, %zeroE : tensor<BLKx!tile.ptr<ELT>>
  %s1e = tile.load %sp1, %dm, %zeroE : tensor<BLKx!tile.ptr<ELT>>
  %s2e = tile.load %sp2, %dm, %zeroE : tensor<BLKx!tile.ptr<ELT>>
  %c1 = EXT %c1e : tensor<BLKxELT> to tensor<BLKxf32>
  %c2 = EXT %c2e : tensor<BLKxELT> to tensor<BLKxf32>
  %s1 = EXT %s1e : tensor<BLKxELT> to tensor<BLKxf32>
  %s2 = EXT %s2e : tensor<BLKxELT> to tensor<BLKxf32>
  // q: head h of token (b, s) at ((b * HQ + h) * S + s) * D, when h < HQ.
  %qon = arith.cmpi slt, %h, %n_qh : i64
  %qons = tile.splat %qon : i1 -> tensor<BLKxi1>
  %qm = arith.andi %dm, %qons : tensor<BLKxi1>
  %qb0 = arith.muli %b, %n_qh : i64
  %qb1 = arith.addi %qb0, %h : i64
  %qb2 = arith.muli %qb1, %seq_len : i64
  %qb3 = arith.addi %qb2, %s : i64
  %qbase = arith.muli %qb3, %head_dim : i64
  func.call @rotate_half(%q, %qbase, %half, %d, %qm, %c1, %c2, %s1, %s2)
      : (!tile.ptr<ELT>, i64, i64, tensor<BLKxi64>, tensor<BLKxi1>, tensor<BLKxf32>, tensor<BLKxf32>, tensor<BLKxf32>, tensor<BLKxf32>) -> ()
  // k: the same with HK.
  %kon = arith.cmpi slt, %h, %n_kh : i64
  %kons = tile.splat %kon : i1 -> tensor<BLKxi1>
  %km = arith.andi %dm, %kons : tensor<BLKxi1>
  %kb0 = arith.muli %b, %n_kh : i64
  %kb1 = arith.addi %kb0, %h : i64
  %kb2 = arith.muli %kb1, %seq_len : i64
  %kb3 = arith.addi %kb2, %s : i64
  %kbase = arith.muli %kb3, %head_dim : i64
  func.call @rotate_half(%k, %kbase, %half, %d, %km, %c1, %c2, %s1, %s2)
      : (!tile.ptr<ELT>, i64, i64, tensor<BLKxi64>, tensor<BLKxi1>, tensor<BLKxf32>, tensor<BLKxf32>, tensor<BLKxf32>, tensor<BLKxf32>) -> ()
  return
}
