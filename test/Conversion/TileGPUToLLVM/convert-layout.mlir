// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize | FileCheck %s

// Layout conversions and transposes go through shared memory between two barriers. A thread's
// run of 4 consecutive f32 along the rows is one 16-byte store; #b holds one element per row,
// read one by one. The 128-byte rows lie 36 floats apart (16 bytes of padding).
#a = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile_gpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: llvm.func @convert
// CHECK-DAG:     llvm.mlir.constant(36 : i32)
// CHECK:         nvvm.barrier0
// CHECK-COUNT-2: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr<3> -> f32
// CHECK-NOT:     llvm.load
func.func @convert(%x: tensor<32x32xf32, #a>) -> tensor<32x32xf32, #b> {
  %y = tile_gpu.convert_layout %x : tensor<32x32xf32, #a> -> tensor<32x32xf32, #b>
  return %y : tensor<32x32xf32, #b>
}

// CHECK-LABEL: llvm.func @transpose
// CHECK:         nvvm.barrier0
// CHECK:         nvvm.barrier0
func.func @transpose(%x: tensor<32x32xf32, #a>) -> tensor<32x32xf32, #a> {
  %y = tile.trans %x {order = array<i32: 1, 0>} : tensor<32x32xf32, #a> -> tensor<32x32xf32, #a>
  return %y : tensor<32x32xf32, #a>
}

// The GEMM epilogue: an mma accumulator (pairs of columns per register run) narrowed to bf16,
// to a blocked layout of 8 columns per thread: 4-byte stores of pairs, 16-byte loads, rows of
// 256 bf16 padded to 264.
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#c = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @mma_to_blocked
// CHECK-DAG:     llvm.mlir.constant(264 : i32)
// CHECK:         nvvm.barrier0
// CHECK-COUNT-64: llvm.store %{{.*}}, %{{.*}} {alignment = 4 : i64} : vector<2xbf16>, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
// CHECK:         nvvm.barrier0
// CHECK-COUNT-16: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT:     llvm.load
func.func @mma_to_blocked(%x: tensor<64x256xbf16, #mma>) -> tensor<64x256xbf16, #c> {
  %y = tile_gpu.convert_layout %x : tensor<64x256xbf16, #mma> -> tensor<64x256xbf16, #c>
  return %y : tensor<64x256xbf16, #c>
}
