// Case C14: float -> int8 out of range. Tessel's one result (docs/TileIR.md), the same on the
// interpreter, NVIDIA and AMD (test/Conversion/TileGPUToLLVM/c14-fptosi-saturate.mlir): round
// toward zero, saturate to the integer's range, NaN -> 0 (PTX cvt.rzi.sat). f16 [inf, 510, -200,
// nan, -inf, 300, -1.5, 127.9] gives i8 [127, 127, -128, 0, -128, 127, -1, 127] (no wrap: 510
// is not -2) and u8 [255, 255, 0, 0, 0, 255, 0, 127] (printed as signed i8: 255 is -1).
// RUN: tessel-run %s --grid 1 --arg 'x@f16:[inf,510,-200,nan,-inf,300,-1.5,127.9]' --arg 's@i8[8]' --arg 'u@i8[8]' | FileCheck %s
// CHECK: s = [127, 127, -128, 0, -128, 127, -1, 127]
// CHECK: u = [-1, -1, 0, 0, 0, -1, 0, 127]
func.func @k(%x: !tile.ptr<f16>, %s: !tile.ptr<i8>, %u: !tile.ptr<i8>) attributes {tile.kernel} {
  %r = tile.arange 0, 8 : tensor<8xi32>
  %px = tile.splat %x : !tile.ptr<f16> -> tensor<8x!tile.ptr<f16>>
  %p = tile.addptr %px, %r : tensor<8x!tile.ptr<f16>>, tensor<8xi32>
  %v = tile.load %p : tensor<8x!tile.ptr<f16>>
  %a = arith.fptosi %v : tensor<8xf16> to tensor<8xi8>
  %b = arith.fptoui %v : tensor<8xf16> to tensor<8xi8>
  %ps = tile.splat %s : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %qs = tile.addptr %ps, %r : tensor<8x!tile.ptr<i8>>, tensor<8xi32>
  tile.store %qs, %a : tensor<8x!tile.ptr<i8>>
  %pu = tile.splat %u : !tile.ptr<i8> -> tensor<8x!tile.ptr<i8>>
  %qu = tile.addptr %pu, %r : tensor<8x!tile.ptr<i8>>, tensor<8xi32>
  tile.store %qu, %b : tensor<8x!tile.ptr<i8>>
  return
}
