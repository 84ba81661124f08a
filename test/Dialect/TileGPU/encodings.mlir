// RUN: tessel-opt %s -split-input-file | FileCheck %s
// RUN: tessel-opt %s -split-input-file | tessel-opt -split-input-file | FileCheck %s

// The matrix-unit encodings print as they parse, with their aliases.

// CHECK: #mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @mma
// CHECK-SAME: tensor<64x64xf32, #mma>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
func.func @mma(%x: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  return %x : tensor<64x64xf32, #mma>
}

// -----

// Rows and columns of an accumulator (a GEMM epilogue's bias or row statistics).
// CHECK-DAG: #[[M:.+]] = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256]}>
// CHECK-DAG: #[[ROWS:.+]] = #tile_gpu.slice<{dim = 1, parent = #[[M]]}>
// CHECK-LABEL: func.func @mma_rows
// CHECK-SAME: tensor<128xf32, #[[ROWS]]>
#wg = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 256]}>
func.func @mma_rows(%x: tensor<128xf32, #tile_gpu.slice<{dim = 1, parent = #wg}>>) {
  return
}

// -----

// CHECK: #mfma = #tile_gpu.mfma<{nonKDim = 16, warpsPerCTA = [4, 1]}>
// CHECK-LABEL: func.func @mfma
// CHECK-SAME: tensor<64x16xf32, #mfma>
#mfma = #tile_gpu.mfma<{nonKDim = 16, warpsPerCTA = [4, 1]}>
func.func @mfma(%x: tensor<64x16xf32, #mfma>) -> tensor<64x16xf32, #mfma> {
  return %x : tensor<64x16xf32, #mfma>
}

// -----

// CHECK-DAG: #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 1}>
// CHECK-LABEL: func.func @dot_op
// CHECK-SAME: tensor<16x16xf16, #[[A]]>
// CHECK-SAME: tensor<8x8xf32, #[[B]]>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
func.func @dot_op(%a: tensor<16x16xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>,
                  %b: tensor<8x8xf32, #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>>) {
  return
}

// -----

// CHECK-DAG: #[[MFMA:.+]] = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 2]}>
// CHECK-DAG: #tile_gpu.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 4}>
#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 2]}>
func.func @dot_op_mfma(%b: tensor<32x64xf16, #tile_gpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>>) {
  return
}

// -----

// CHECK-DAG: #[[S0:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// CHECK-DAG: #[[S1:.+]] = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1], pad = 4}>
// CHECK-LABEL: func.func @memdesc
// CHECK-SAME: !tile_gpu.memdesc<3x128x64xf16, #[[S0]]>
// CHECK-SAME: !tile_gpu.memdesc<64x32xbf16, #[[S1]]>
#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @memdesc(%a: !tile_gpu.memdesc<3x128x64xf16, #shared>,
                   %b: !tile_gpu.memdesc<64x32xbf16, #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1], pad = 4}>>) {
  return
}
