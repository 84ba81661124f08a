// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize --cse | FileCheck %s

// 4096 elements over 8 warps: 16 per thread, a 5-step butterfly over the lanes, then the 8 warp
// partials through shared memory.
#b = #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: llvm.func @sum
// CHECK-SAME:    tile_gpu.shared = 32 : i32
// CHECK-COUNT-5: nvvm.shfl.sync bfly %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : f32 -> f32
// CHECK-NOT:     nvvm.shfl.sync
// CHECK:         nvvm.barrier0
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         nvvm.barrier0
// CHECK-COUNT-8: llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @sum(%p: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %o: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %c = tile.arange 0, 4096 : tensor<4096xi32, #b>
  %ps = tile.splat %p : !tile.ptr<f32> -> tensor<4096x!tile.ptr<f32>, #b>
  %pp = tile.addptr %ps, %c : tensor<4096x!tile.ptr<f32>, #b>, tensor<4096xi32, #b>
  %v = tile.load %pp : tensor<4096x!tile.ptr<f32>, #b>
  %s = tile.reduce(%v) axis = 0 : (tensor<4096xf32, #b>) -> f32 {
  ^bb0(%a: f32, %x: f32):
    %t = arith.addf %a, %x : f32
    tile.yield %t : f32
  }
  tile.store %o, %s : !tile.ptr<f32>
  return
}

// Rows reduced inside each warp: no shared memory, no barrier.
#r = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-LABEL: llvm.func @row_max
// CHECK-NOT:     nvvm.barrier0
// CHECK-COUNT-5: nvvm.shfl.sync bfly
// CHECK-NOT:     nvvm.barrier0
// CHECK:         llvm.return
func.func @row_max(%x: tensor<4x128xf32, #r>) -> tensor<4xf32, #tile_gpu.slice<{dim = 1, parent = #r}>> {
  %m = tile.reduce(%x) axis = 1 : (tensor<4x128xf32, #r>) -> tensor<4xf32, #tile_gpu.slice<{dim = 1, parent = #r}>> {
  ^bb0(%a: f32, %y: f32):
    %t = arith.maximumf %a, %y : f32
    tile.yield %t : f32
  }
  return %m : tensor<4xf32, #tile_gpu.slice<{dim = 1, parent = #r}>>
}
