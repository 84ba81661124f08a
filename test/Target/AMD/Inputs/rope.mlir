// RoPE on a (seq, head_dim) slice, rotate-half form, in place: for a block of 16 positions
// and the two halves of head_dim = 128,
//   x1' = x1 * cos - x2 * sin,   x2' = x2 * cos + x1 * sin,
// with cos/sin tables of shape (seq, 64). Rows and columns come from expand_dims + broadcast
// of 1-D aranges; program (0) = position block, program (1) = head.
func.func @rope(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                %cos: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %sin: !tile.ptr<f32> {tile.divisibility = 16 : i32},
                %seq: i32, %head_stride: i32 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pb = tile.program_id 0
  %ph = tile.program_id 1
  %c16 = arith.constant 16 : i32
  %c64 = arith.constant 64 : i32
  %c128 = arith.constant 128 : i32
  %s0 = arith.muli %pb, %c16 : i32
  %hoff = arith.muli %ph, %head_stride : i32
  %xh = tile.addptr %x, %hoff : !tile.ptr<bf16>, i32
  %ri = tile.arange 0, 16 : tensor<16xi32>
  %s0s = tile.splat %s0 : i32 -> tensor<16xi32>
  %rows = arith.addi %s0s, %ri : tensor<16xi32>                            // (BS)
  %cols = tile.arange 0, 64 : tensor<64xi32>                               // (HALF)
  %re = tile.expand_dims %rows {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %ce = tile.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %rb = tile.broadcast %re : tensor<16x1xi32> -> tensor<16x64xi32>         // (BS, HALF)
  %cbr = tile.broadcast %ce : tensor<1x64xi32> -> tensor<16x64xi32>        // (BS, HALF)
  %seqs = tile.splat %seq : i32 -> tensor<16x64xi32>
  %m = arith.cmpi slt, %rb, %seqs : tensor<16x64xi32>
  // cos / sin: (seq, 64) row-major
  %c64s = tile.splat %c64 : i32 -> tensor<16x64xi32>
  %trow = arith.muli %rb, %c64s : tensor<16x64xi32>
  %toff = arith.addi %trow, %cbr : tensor<16x64xi32>
  %coss = tile.splat %cos : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %cp = tile.addptr %coss, %toff : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %cv = tile.load %cp, %m : tensor<16x64x!tile.ptr<f32>>
  %sins = tile.splat %sin : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %sp = tile.addptr %sins, %toff : tensor<16x64x!tile.ptr<f32>>, tensor<16x64xi32>
  %sv = tile.load %sp, %m : tensor<16x64x!tile.ptr<f32>>
  // x: (seq, 128) row-major per head
  %c128s = tile.splat %c128 : i32 -> tensor<16x64xi32>
  %xrow = arith.muli %rb, %c128s : tensor<16x64xi32>
  %x1off = arith.addi %xrow, %cbr : tensor<16x64xi32>
  %c64t = tile.splat %c64 : i32 -> tensor<16x64xi32>
  %x2off = arith.addi %x1off, %c64t : tensor<16x64xi32>
  %xs = tile.splat %xh : !tile.ptr<bf16> -> tensor<16x64x!tile.ptr<bf16>>
  %x1p = tile.addptr %xs, %x1off : tensor<16x64x!tile.ptr<bf16>>, tensor<16x64xi32>
  %x2p = tile.addptr %xs, %x2off : tensor<16x64x!tile.ptr<bf16>>, tensor<16x64xi32>
  %x1 = tile.load %x1p, %m : tensor<16x64x!tile.ptr<bf16>>
  %x2 = tile.load %x2p, %m : tensor<16x64x!tile.ptr<bf16>>
  %x1f = arith.extf %x1 : tensor<16x64xbf16> to tensor<16x64xf32>
  %x2f = arith.extf %x2 : tensor<16x64xbf16> to tensor<16x64xf32>
  %a = arith.mulf %x1f, %cv : tensor<16x64xf32>
  %b = arith.mulf %x2f, %sv : tensor<16x64xf32>
  %y1 = arith.subf %a, %b : tensor<16x64xf32>
  %c = arith.mulf %x2f, %cv : tensor<16x64xf32>
  %d = arith.mulf %x1f, %sv : tensor<16x64xf32>
  %y2 = arith.addf %c, %d : tensor<16x64xf32>
  %y1b = arith.truncf %y1 : tensor<16x64xf32> to tensor<16x64xbf16>
  %y2b = arith.truncf %y2 : tensor<16x64xf32> to tensor<16x64xbf16>
  tile.store %x1p, %y1b, %m : tensor<16x64x!tile.ptr<bf16>>
  tile.store %x2p, %y2b, %m : tensor<16x64x!tile.ptr<bf16>>
  return
}
