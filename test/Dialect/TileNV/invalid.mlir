// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// warpgroup_dot's verifier: wgmma multiplies (M, K) x (K, N) f16/bf16 tiles read from the
// hardware-swizzled placement into an f32 accumulator in the mma version 3 layout, K in steps
// of 16. Each case breaks one of these.

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @k_mismatch(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<32x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{shapes do not form (M, K) x (K, N) -> (M, N)}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<32x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @n_mismatch(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x64xf32, #mma>) {
  // expected-error @below {{shapes do not form (M, K) x (K, N) -> (M, N)}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @c_d_differ(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{C and D must have the same type}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf16, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 32}>
func.func @f32_operands(%a: !tile_gpu.memdesc<128x64xf32, #s>, %b: !tile_gpu.memdesc<64x128xf32, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{A and B must both be f16 or both bf16}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xf32, #s>, !tile_gpu.memdesc<64x128xf32, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @mixed_operands(%a: !tile_gpu.memdesc<128x64xf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{A and B must both be f16 or both bf16}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @f16_accumulator(%a: !tile_gpu.memdesc<128x64xf16, #s>, %b: !tile_gpu.memdesc<64x128xf16, #s>, %c: tensor<128x128xf16, #mma>) {
  // expected-error @below {{accumulates in f32}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xf16, #s>, !tile_gpu.memdesc<64x128xf16, #s>, tensor<128x128xf16, #mma> -> tensor<128x128xf16, #mma>
  return
}

// -----

#mma2 = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @mma_v2(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma2>) {
  // expected-error @below {{C must be in an mma version 3 (wgmma) layout}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma2> -> tensor<128x128xf32, #mma2>
  return
}

// -----

#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @blocked_accumulator(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #blocked>) {
  // expected-error @below {{C must be in an mma version 3 (wgmma) layout}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #blocked> -> tensor<128x128xf32, #blocked>
  return
}

// -----

// The ldmatrix placement (no blockCols) is not the layout wgmma's descriptors address.
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#plain = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @b_without_blockcols(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #plain>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{operands must be in a hardware-swizzled placement (#tile_gpu.shared with blockCols), not '!tile_gpu.memdesc<64x128xbf16, #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>>'}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #plain>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#plain = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @a_without_blockcols(%a: !tile_gpu.memdesc<128x64xbf16, #plain>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{operands must be in a hardware-swizzled placement (#tile_gpu.shared with blockCols), not '!tile_gpu.memdesc<128x64xbf16}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #plain>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, blockCols = 32}>
#sb = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @k_step(%a: !tile_gpu.memdesc<128x40xbf16, #s>, %b: !tile_gpu.memdesc<40x128xbf16, #sb>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{K = 40 is not a multiple of wgmma's K step (16)}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x40xbf16, #s>, !tile_gpu.memdesc<40x128xbf16, #sb>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @rank(%a: !tile_gpu.memdesc<2x128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{A, B and C must be 2-D}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<2x128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @valid_n_range(%a: !tile_gpu.memdesc<128x64xbf16, #s>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error @below {{valid_n = 129 is outside the 128 columns of D}}
  %d = tile_nv.warpgroup_dot %a, %b, %c {valid_n = 129 : i64} : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}
