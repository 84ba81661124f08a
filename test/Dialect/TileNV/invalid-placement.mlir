// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// warpgroup_dot accepts only placements wgmma swizzles in hardware (rows of blockCols *
// element bytes = 128, 64 or 32 bytes, vec * element bytes = 16, perPhase / maxPhase 1 / 8,
// 2 / 4, 4 / 2, no padding): 256-byte rows, or blockCols without the XOR (maxPhase = 1), would
// be read through descriptors that do not match what local_store wrote.

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s256 = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 128}>
func.func @rows_of_256_bytes(%a: !tile_gpu.memdesc<64x128xbf16, #s256>, %b: !tile_gpu.memdesc<128x128xbf16, #s256>, %c: tensor<64x128xf32, #mma>) {
  // expected-error-re @below {{operand placement {{.+}} is not a swizzle wgmma reads for}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<64x128xbf16, #s256>, !tile_gpu.memdesc<128x128xbf16, #s256>, tensor<64x128xf32, #mma> -> tensor<64x128xf32, #mma>
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#unswizzled = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 0, blockCols = 64}>
func.func @unswizzled_blocks(%a: !tile_gpu.memdesc<128x64xbf16, #unswizzled>, %b: !tile_gpu.memdesc<64x128xbf16, #s>, %c: tensor<128x128xf32, #mma>) {
  // expected-error-re @below {{operand placement {{.+}} is not a swizzle wgmma reads for}}
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #unswizzled>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  return
}
