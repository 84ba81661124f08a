// RUN: tessel-opt %s --tile-gpu-assign-layouts=threads-per-warp=64 --tile-gpu-accelerate-matmul=target=hip:gfx942 -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s --tile-gpu-assign-layouts=threads-per-warp=64 --tile-gpu-accelerate-matmul -verify-diagnostics | FileCheck %s

// The AMD adapter has no MFMA lowering yet: its getDotEncoding is TargetInfo's default, so
// every dot on hip:gfx942 stays on FMA units in its blocked layout, with a remark. (The second
// RUN takes the target from the module's tile.target.)
// CHECK-LABEL: func.func @f16
// CHECK-NOT: tile_gpu.mfma
// CHECK-NOT: tile_gpu.convert_layout
// CHECK: tile.dot {{.+}} -> tensor<64x64xf32, #blocked{{[0-9]*}}>
module attributes {tile.target = "hip:gfx942"} {
func.func @f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<f32>>
  // expected-remark @below {{tile.dot runs on FMA units, not on hip:gfx942's matrix unit: this target has no matrix unit}}
  %d = tile.dot %x, %y, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>>
  return
}
}
