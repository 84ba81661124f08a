// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize | FileCheck %s

// Layout conversions and transposes go through shared memory between two barriers.
#a = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile_gpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: llvm.func @convert
// CHECK:         nvvm.barrier0
// CHECK-COUNT-8: llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
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
