// RUN: tessel-opt %s --tile-gpu-split-dot-k -split-input-file | FileCheck %s
// RUN: tessel-opt %s --tile-gpu-split-dot-k=k-slice=32 -split-input-file | FileCheck %s --check-prefix=K32

#sa = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opA = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opB = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// K = 64 in slices of 16: four views of each operand, four dots chained through the
// accumulator in increasing K; the whole-K loads are gone.
// CHECK-LABEL: func.func @split
// CHECK-NOT:   tile_gpu.local_load %arg
// CHECK:       %[[A0:.*]] = tile_gpu.memdesc_subview %arg0[0, 0] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<64x16xf16, #shared>
// CHECK-NEXT:  %[[LA0:.*]] = tile_gpu.local_load %[[A0]] : !tile_gpu.memdesc<64x16xf16, #shared> -> tensor<64x16xf16, #dot_op>
// CHECK-NEXT:  %[[B0:.*]] = tile_gpu.memdesc_subview %arg1[0, 0] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<16x64xf16, #shared>
// CHECK-NEXT:  %[[LB0:.*]] = tile_gpu.local_load %[[B0]]
// CHECK-NEXT:  %[[D0:.*]] = tile.dot %[[LA0]], %[[LB0]], %arg2 : tensor<64x16xf16, #dot_op> * tensor<16x64xf16, #dot_op1> -> tensor<64x64xf32, #mma>
// CHECK:       tile_gpu.memdesc_subview %arg0[0, 16]
// CHECK:       tile_gpu.memdesc_subview %arg1[16, 0]
// CHECK:       %[[D1:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[D0]]
// CHECK:       tile_gpu.memdesc_subview %arg0[0, 32]
// CHECK:       %[[D2:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[D1]]
// CHECK:       tile_gpu.memdesc_subview %arg0[0, 48]
// CHECK:       tile_gpu.memdesc_subview %arg1[48, 0]
// CHECK:       %[[D3:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[D2]]
// CHECK-NEXT:  return %[[D3]]
// K32:         func.func @split
// K32-COUNT-2: tile.dot
// K32-NEXT:    return
func.func @split(%a: !tile_gpu.memdesc<64x64xf16, #sa>, %b: !tile_gpu.memdesc<64x64xf16, #sa>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %x = tile_gpu.local_load %a : !tile_gpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf16, #opA>
  %y = tile_gpu.local_load %b : !tile_gpu.memdesc<64x64xf16, #sa> -> tensor<64x64xf16, #opB>
  %d = tile.dot %x, %y, %acc : tensor<64x64xf16, #opA> * tensor<64x64xf16, #opB> -> tensor<64x64xf32, #mma>
  return %d : tensor<64x64xf32, #mma>
}

// -----

#sa = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opA = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opB = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// An operand loaded from registers (not shared memory), or K already one slice: left whole.
// CHECK-LABEL: func.func @whole
// CHECK-NOT:   memdesc_subview
// CHECK-COUNT-2: tile.dot
// CHECK-NOT:   memdesc_subview
func.func @whole(%a: !tile_gpu.memdesc<64x16xf16, #sa>, %b: !tile_gpu.memdesc<16x64xf16, #sa>, %x2: tensor<64x64xf16, #opA>, %y2: tensor<64x64xf16, #opB>, %acc: tensor<64x64xf32, #mma>) -> tensor<64x64xf32, #mma> {
  %x = tile_gpu.local_load %a : !tile_gpu.memdesc<64x16xf16, #sa> -> tensor<64x16xf16, #opA>
  %y = tile_gpu.local_load %b : !tile_gpu.memdesc<16x64xf16, #sa> -> tensor<16x64xf16, #opB>
  %d = tile.dot %x, %y, %acc : tensor<64x16xf16, #opA> * tensor<16x64xf16, #opB> -> tensor<64x64xf32, #mma>
  %e = tile.dot %x2, %y2, %d : tensor<64x64xf16, #opA> * tensor<64x64xf16, #opB> -> tensor<64x64xf32, #mma>
  return %e : tensor<64x64xf32, #mma>
}
