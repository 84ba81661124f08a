// RoPE (rotate-half) on q and k in place, hand-written tile IR template (ELT, EXT, TRUNC; HLF =
// head_dim / 2, BH = BLOCK_H >= the number of heads). One program per token (grid B * S) rotates
// every head of q and of k at once as a (BH, HLF) tile; heads beyond n_qh (n_kh) are masked,
// so any head count works, a single k head included (case C5):
//   y[:HLF] = x1 * cos1 - x2 * sin1,  y[HLF:] = x2 * cos2 + x1 * sin2.
// Layouts are strided (q[b, s, h, d] at b * q_batch_stride + s * q_seq_stride + h *
// q_head_stride + d); cos and sin are f32 at b * cos_batch_stride + s * cos_seq_stride + d, the
// second half at + cos_half_offset (0 for tables of HLF columns).
func.func @rotate_heads(%base: !tile.ptr<ELT>, %n_heads: i64, %head_stride: i64,
                        %c1: tensor<BHxHLFxf32>, %c2: tensor<BHxHLFxf32>,
                        %s1: tensor<BHxHLFxf32>, %s2: tensor<BHxHLFxf32>) {
  %hr = tile.arange 0, BH : tensor<BHxi32>
  %h64 = arith.extsi %hr : tensor<BHxi32> to tensor<BHxi64>
  %hc = tile.expand_dims %h64 {axis = 1 : i32} : tensor<BHxi64> -> tensor<BHx1xi64>
  %h = tile.broadcast %hc : tensor<BHx1xi64> -> tensor<BHxHLFxi64>            // (BH, HLF)
  %dr = tile.arange 0, HLF : tensor<HLFxi32>
  %d64 = arith.extsi %dr : tensor<HLFxi32> to tensor<HLFxi64>
  %drow = tile.expand_dims %d64 {axis = 0 : i32} : tensor<HLFxi64> -> tensor<1xHLFxi64>
  %d = tile.broadcast %drow : tensor<1xHLFxi64> -> tensor<BHxHLFxi64>       // (BH, HLF)
  %hss = tile.splat %head_stride : i64 -> tensor<BHxHLFxi64>
  %hoff = arith.muli %h, %hss : tensor<BHxHLFxi64>
  %off = arith.addi %hoff, %d : tensor<BHxHLFxi64>
  %bs = tile.splat %base : !tile.ptr<ELT> -> tensor<BHxHLFx!tile.ptr<ELT>>
  %p1 = tile.addptr %bs, %off : tensor<BHxHLFx!tile.ptr<ELT>>, tensor<BHxHLFxi64>
  %halfc = arith.constant dense<HLF> : tensor<BHxHLFxi64>
  %p2 = tile.addptr %p1, %halfc : tensor<BHxHLFx!tile.ptr<ELT>>, tensor<BHxHLFxi64>
  %ns = tile.splat %n_heads : i64 -> tensor<BHxHLFxi64>
  %m = arith.cmpi slt, %h, %ns : tensor<BHxHLFxi64>
  %x1e = tile.load %p1, %m : tensor<BHxHLFx!tile.ptr<ELT>>
  %x2e = tile.load %p2, %m : tensor<BHxHLFx!tile.ptr<ELT>>
  %x1 = EXT %x1e : tensor<BHxHLFxELT> to tensor<BHxHLFxf32>
  %x2 = EXT %x2e : tensor<BHxHLFxELT> to tensor<BHxHLFxf32>
  %a = arith.mulf %x1, %c1 : tensor<BHxHLFxf32>
  %b = arith.mulf %x2, %s1 : tensor<BHxHLFxf32>
  %y1 = arith.subf %a, %b : tensor<BHxHLFxf32>
  %c = arith.mulf %x2, %c2 : tensor<BHxHLFxf32>
  %e = arith.mulf %x1, %s2 : tensor<BHxHLFxf32>
  %y2 = arith.addf %c, %e : tensor<BHxHLFxf32>
  %y1e = TRUNC %y1 : tensor<BHxHLFxf32> to tensor<BHxHLFxELT>
  %y2e = TRUNC %y2 : tensor<BHxHLFxf32> to tensor<BHxHLFxELT>
  tile.store %p1, %y1e, %m : tensor<BHxHLFx!tile.ptr<ELT>>
  tile.store %p2, %y2e, %m : tensor<BHxHLFx!tile.ptr<ELT>>
  return
}

/// One (HLF) row of a cos/sin table, broadcast over the heads: (BH, HLF).
func.func @table_row(%t: !tile.ptr<f32>, %off: i64) -> tensor<BHxHLFxf32> {
  %row = tile.addptr %t, %off : !tile.ptr<f32>, i64
  %dr = tile.arange 0, HLF : tensor<HLFxi32>
  %rs = tile.splat %row : !tile.ptr<f32> -> tensor<HLFx!tile.ptr<f32>>
  %p = tile.addptr %rs, %dr : tensor<HLFx!tile.ptr<f32>>, tensor<HLFxi32>
  %v = tile.load %p : tensor<HLFx!tile.ptr<f32>>
  %vr = tile.expand_dims %v {axis = 0 : i32} : tensor<HLFxf32> -> tensor<1xHLFxf32>
  %vb = tile.broadcast %vr : tensor<1xHLFxf32> -> tensor<BHxHLFxf32>
  return %vb : tensor<BHxHLFxf32>
}

func.func @rope(%q: !tile.ptr<ELT>, %k: !tile.ptr<ELT>, %cos: !tile.ptr<f32>, %sin: !tile.ptr<f32>,
                %seq_len: i64, %n_qh: i64, %n_kh: i64, %q_batch_stride: i64, %q_seq_stride: i64,
                %q_head_stride: i64, %k_batch_stride: i64, %k_seq_stride: i64,
                %k_head_stride: i64, %cos_batch_stride: i64, %cos_seq_stride: i64,
                %cos_half_offset: i64)
    attributes {tile.kernel, tessel.config = {HALF = HLF : i64, BLOCK_H = BH : i64}} {
  %p0 = tile.program_id 0
  %tok = arith.extsi %p0 : i32 to i64                                     // b * S + s
  %b = arith.divsi %tok, %seq_len : i64
  %s = arith.remsi %tok, %seq_len : i64
  %tb = arith.muli %b, %cos_batch_stride : i64
  %ts = arith.muli %s, %cos_seq_stride : i64
  %table = arith.addi %tb, %ts : i64
  %table2 = arith.addi %table, %cos_half_offset : i64
  %c1 = func.call @table_row(%cos, %table) : (!tile.ptr<f32>, i64) -> tensor<BHxHLFxf32>
  %s1 = func.call @table_row(%sin, %table) : (!tile.ptr<f32>, i64) -> tensor<BHxHLFxf32>
  %c2 = func.call @table_row(%cos, %table2) : (!tile.ptr<f32>, i64) -> tensor<BHxHLFxf32>
  %s2 = func.call @table_row(%sin, %table2) : (!tile.ptr<f32>, i64) -> tensor<BHxHLFxf32>
  %qb = arith.muli %b, %q_batch_stride : i64
  %qs = arith.muli %s, %q_seq_stride : i64
  %qo = arith.addi %qb, %qs : i64
  %qbase = tile.addptr %q, %qo : !tile.ptr<ELT>, i64
  func.call @rotate_heads(%qbase, %n_qh, %q_head_stride, %c1, %c2, %s1, %s2)
      : (!tile.ptr<ELT>, i64, i64, tensor<BHxHLFxf32>, tensor<BHxHLFxf32>, tensor<BHxHLFxf32>,
         tensor<BHxHLFxf32>) -> ()
  %kb = arith.muli %b, %k_batch_stride : i64
  %ks = arith.muli %s, %k_seq_stride : i64
  %ko = arith.addi %kb, %ks : i64
  %kbase = tile.addptr %k, %ko : !tile.ptr<ELT>, i64
  func.call @rotate_heads(%kbase, %n_kh, %k_head_stride, %c1, %c2, %s1, %s2)
      : (!tile.ptr<ELT>, i64, i64, tensor<BHxHLFxf32>, tensor<BHxHLFxf32>, tensor<BHxHLFxf32>,
         tensor<BHxHLFxf32>) -> ()
  return
}
