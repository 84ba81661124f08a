// Case C19: arith.remf is fmod's exact result (sign of the dividend, |r| < |y|), in f32 and f16
// (computed in f32, exact); the GPU lowering calls libdevice / ocml fmod for the same values
// (test/Conversion/TileGPUToLLVM/c19-remf-fmod.mlir).
// RUN: tessel-run %s --kernel rem32 --grid 1 --arg 'x@f32:[1e10,-1e10,16777215,-4,3e38,1,5.5,-0.0]' --arg 'y@f32:[3,7,0.1,2,1e-38,inf,-2,3]' --arg 'o@f32[8]' | FileCheck %s --check-prefix=F32
// RUN: tessel-run %s --kernel rem16 --grid 1 --arg 'x@f16:[65504,-60000,2047,-4,1,0,5.5,-0.0]' --arg 'y@f16:[3,7,0.1,2,inf,0,-2,3]' --arg 'o@f16[8]' | FileCheck %s --check-prefix=F16
// F32: o = [1, -4, 0.0500000194, -0, 4.46639223e-39, 1, 1.5, -0]
// F16: o = [2, -3, 0.0998535156, -0, 1, nan, 1.5, -0]
func.func @rem32(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %r = tile.arange 0, 8 : tensor<8xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %qx = tile.addptr %px, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %py = tile.splat %y : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %qy = tile.addptr %py, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  %a = tile.load %qx : tensor<8x!tile.ptr<f32>>
  %b = tile.load %qy : tensor<8x!tile.ptr<f32>>
  %m = arith.remf %a, %b : tensor<8xf32>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<8x!tile.ptr<f32>>
  %qo = tile.addptr %po, %r : tensor<8x!tile.ptr<f32>>, tensor<8xi32>
  tile.store %qo, %m : tensor<8x!tile.ptr<f32>>
  return
}
func.func @rem16(%x: !tile.ptr<f16>, %y: !tile.ptr<f16>, %o: !tile.ptr<f16>) attributes {tile.kernel} {
  %r = tile.arange 0, 8 : tensor<8xi32>
  %px = tile.splat %x : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %qx = tile.addptr %px, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  %py = tile.splat %y : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %qy = tile.addptr %py, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  %a = tile.load %qx : tensor<8x!tile.ptr<f16>>
  %b = tile.load %qy : tensor<8x!tile.ptr<f16>>
  %m = arith.remf %a, %b : tensor<8xf16>
  %po = tile.splat %o : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %qo = tile.addptr %po, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  tile.store %qo, %m : tensor<8x!tile.ptr<f16>>
  return
}
