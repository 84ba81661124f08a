// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{mma layout version 4 is not supported (2: mma.sync m16n8; 3: wgmma m64nN)}}
func.func @mma_version(%x: tensor<16x8xf32, #tile_gpu.mma<{versionMajor = 4, warpsPerCTA = [1, 1], instrShape = [16, 8]}>>) {
  return
}

// -----

// expected-error @below {{mma version 3 stacks warpgroups along M: warpsPerCTA = [4 * g, 1]}}
func.func @wgmma_warps(%x: tensor<64x64xf32, #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [2, 2], instrShape = [64, 64]}>>) {
  return
}

// -----

// expected-error @below {{mma version 3 has instrShape = [64, N] with N a multiple of 8 in [8, 256] (wgmma m64nNk16)}}
func.func @wgmma_instr(%x: tensor<64x64xf32, #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 12]}>>) {
  return
}

// -----

// expected-error @below {{mma version 2 has instrShape = [16, 8]}}
func.func @mma_instr_shape(%x: tensor<16x16xf32, #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 16]}>>) {
  return
}

// -----

// expected-error @below {{mma warpsPerCTA must be two powers of two}}
func.func @mma_warps(%x: tensor<16x8xf32, #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [3, 1], instrShape = [16, 8]}>>) {
  return
}

// -----

// expected-error @below {{mfma nonKDim must be 32 or 16, got 8}}
func.func @mfma_nonkdim(%x: tensor<16x16xf32, #tile_gpu.mfma<{nonKDim = 8, warpsPerCTA = [1, 1]}>>) {
  return
}

// -----

// expected-error @below {{mfma warpsPerCTA must be two powers of two}}
func.func @mfma_warps(%x: tensor<32x32xf32, #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [1, 1, 1]}>>) {
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
// expected-error @below {{dot_op opIdx must be 0 (A) or 1 (B), got 2}}
func.func @dot_op_idx(%x: tensor<16x16xf16, #tile_gpu.dot_op<{opIdx = 2, parent = #mma, kWidth = 2}>>) {
  return
}

// -----

#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
// expected-error @below {{dot_op parent must be an mma, mfma or wmma layout, got #tile_gpu.blocked}}
func.func @dot_op_parent(%x: tensor<16x16xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #blocked, kWidth = 2}>>) {
  return
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
// expected-error @below {{dot_op of an mma parent has kWidth 2 (16-bit) or 1 (tf32), got 4}}
func.func @dot_op_mma_kwidth(%x: tensor<16x16xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 4}>>) {
  return
}

// -----

#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [1, 1]}>
// expected-error @below {{dot_op of an mfma parent has kWidth 4 (16-bit) or 1 (f32), got 2}}
func.func @dot_op_mfma_kwidth(%x: tensor<32x8xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 2}>>) {
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @memdesc_index_shape(%ring: !tile_gpu.memdesc<2x64x64xf16, #shared>, %i: i32) {
  // expected-error @below {{'tile_gpu.memdesc_index' op result must be one stage of the source: '!tile_gpu.memdesc<2x64x64xf16, #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>>' -> '!tile_gpu.memdesc<64x32xf16, #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>>'}}
  %s = tile_gpu.memdesc_index %ring[%i] : !tile_gpu.memdesc<2x64x64xf16, #shared> -> !tile_gpu.memdesc<64x32xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @memdesc_index_rank(%ring: !tile_gpu.memdesc<64x64xf16, #shared>, %i: i32) {
  // expected-error @below {{result must be one stage of the source}}
  %s = tile_gpu.memdesc_index %ring[%i] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<64x64xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @memdesc_index_elem(%ring: !tile_gpu.memdesc<2x64x64xf16, #shared>, %i: i32) {
  // expected-error @below {{result must be one stage of the source}}
  %s = tile_gpu.memdesc_index %ring[%i] : !tile_gpu.memdesc<2x64x64xf16, #shared> -> !tile_gpu.memdesc<64x64xbf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
func.func @local_load_shape(%buf: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{'tile_gpu.local_load' op tile 'tensor<64x32xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>, kWidth = 2}>>' does not match buffer '!tile_gpu.memdesc<64x64xf16, #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>>'}}
  %a = tile_gpu.local_load %buf : !tile_gpu.memdesc<64x64xf16, #shared> -> tensor<64x32xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @local_load_elem(%buf: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{'tile_gpu.local_load' op tile 'tensor<64x64xbf16}}
  %a = tile_gpu.local_load %buf : !tile_gpu.memdesc<64x64xf16, #shared> -> tensor<64x64xbf16, #blocked>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @local_store(%x: tensor<32x64xf16, #blocked>, %buf: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{'tile_gpu.local_store' op tile 'tensor<32x64xf16, #tile_gpu.blocked}}
  tile_gpu.local_store %x, %buf : tensor<32x64xf16, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @async_copy_pointee(%p: tensor<64x64x!tile.ptr<f32>, #blocked>, %buf: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{'tile_gpu.async_copy_global_to_local' op pointers 'tensor<64x64x!tile.ptr<f32>}}
  tile_gpu.async_copy_global_to_local %p, %buf : tensor<64x64x!tile.ptr<f32>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @async_copy_shape(%p: tensor<64x32x!tile.ptr<f16>, #blocked>, %buf: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{do not match buffer '!tile_gpu.memdesc<64x64xf16}}
  tile_gpu.async_copy_global_to_local %p, %buf : tensor<64x32x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @async_copy_not_pointers(%p: tensor<64x64xf16, #blocked>, %buf: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{'tile_gpu.async_copy_global_to_local' op pointers 'tensor<64x64xf16}}
  tile_gpu.async_copy_global_to_local %p, %buf : tensor<64x64xf16, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @async_copy_mask(%p: tensor<64x64x!tile.ptr<f16>, #blocked>, %buf: !tile_gpu.memdesc<64x64xf16, #shared>, %m: tensor<64x32xi1, #blocked>) {
  // expected-error @below {{'tile_gpu.async_copy_global_to_local' op mask shape does not match the pointers}}
  tile_gpu.async_copy_global_to_local %p, %buf mask %m : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>, tensor<64x32xi1, #blocked>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @memdesc_subview_bounds(%t: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{at its offsets exceeds the source}}
  %s = tile_gpu.memdesc_subview %t[0, 56] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<64x16xf16, #shared>
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @memdesc_subview_offsets(%t: !tile_gpu.memdesc<64x64xf16, #shared>) {
  // expected-error @below {{result must be a sub-tile of the source with one offset per dimension}}
  %s = tile_gpu.memdesc_subview %t[0] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<64x16xf16, #shared>
  return
}

// -----

// Placements and buffers are checked where they are parsed: the fuzzer's order = [2, 0] on a
// 2-D TMA destination indexed past the shape in the cuda lowering (a SEGV under ASan).
// expected-error @below {{shared placement order must be a permutation of [0, 2), got [2, 0]}}
#bad_order = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [2, 0], pad = 0, blockCols = 64}>

// -----

// expected-error @below {{shared placement vec, perPhase and maxPhase must be powers of two, got 8, 0, 8}}
#zero_phase = #tile_gpu.shared<{vec = 8, perPhase = 0, maxPhase = 8, order = [1, 0], pad = 0}>

// -----

// expected-error @below {{shared placement blockCols must be 0 (no blocks) or a power of two, got 48}}
#odd_blocks = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 48}>

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// expected-error @below {{memdesc of rank 4 with a placement of rank 2: the rank must be the placement's, or one more (a leading stage dimension)}}
func.func @memdesc_rank(%t: !tile_gpu.memdesc<2x2x64x64xf16, #shared>) {
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// expected-error @below {{memdesc dimensions must be positive, got 2 dimension(s)}}
func.func @memdesc_empty(%t: !tile_gpu.memdesc<0x64xf16, #shared>) {
  return
}

// -----

#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// expected-error @below {{memdesc element type must be an integer or a float, not 'index'}}
func.func @memdesc_index_elements(%t: !tile_gpu.memdesc<64x64xindex, #shared>) {
  return
}

// -----

#blocked = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{memdesc placement must be a #tile_gpu.shared, not #tile_gpu.blocked}}
func.func @memdesc_blocked(%t: !tile_gpu.memdesc<128xf32, #blocked>) {
  return
}

// -----

// The fuzzer's 4702111234474983746-row buffer overflowed int64 in the wgmma verifier's
// placement suggestion (UBSan).
#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// expected-error @below {{memdesc of more than 2^32 bytes}}
func.func @memdesc_huge(%t: !tile_gpu.memdesc<64x4702111234474983746xf16, #shared>) {
  return
}

// -----

#wg = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
// expected-error @below {{slice dim 2 is out of range for a rank-2 parent}}
func.func @mma_slice_dim(%x: tensor<64xf32, #tile_gpu.slice<{dim = 2, parent = #wg}>>) {
  return
}

// -----

// expected-error @below {{slice parent must be a blocked, slice or matrix-unit accumulator layout}}
func.func @slice_parent(%x: tensor<64xf32, #tile_gpu.slice<{dim = 0, parent = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>}>>) {
  return
}
