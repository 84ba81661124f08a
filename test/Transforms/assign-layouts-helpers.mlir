// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts | FileCheck %s

// Case C18: a helper (not a kernel) taking and returning tiles of different ranks. The return
// does not tie its operands to one layout (that divided by zero), and the signature follows the
// block arguments' new types.
// CHECK-DAG: #[[B2:.+]] = #tile_gpu.blocked<{{.*}}order = [1, 0]}>
// CHECK-DAG: #[[B1:.+]] = #tile_gpu.blocked<{{.*}}order = [0]}>
// CHECK: func.func @two(%{{.+}}: tensor<64x32x!tile.ptr<bf16>, #[[B2]]>, %{{.+}}: tensor<16x!tile.ptr<i8, 3>, #[[B1]]>) -> (tensor<64x32xbf16, #[[B2]]>, tensor<16xi8, #[[B1]]>)
func.func @two(%a: tensor<64x32x!tile.ptr<bf16>>, %b: tensor<16x!tile.ptr<i8, 3>>) -> (tensor<64x32xbf16>, tensor<16xi8>) {
  %x = tile.load %a : tensor<64x32x!tile.ptr<bf16>>
  %y = tile.load %b : tensor<16x!tile.ptr<i8, 3>>
  return %x, %y : tensor<64x32xbf16>, tensor<16xi8>
}

// -----

// CHECK: func.func @one(%{{.+}}: tensor<16x!tile.ptr<i8, 3>, #[[L:.+]]>) -> tensor<16xi8, #[[L]]>
func.func @one(%b: tensor<16x!tile.ptr<i8, 3>>) -> tensor<16xi8> {
  %y = tile.load %b : tensor<16x!tile.ptr<i8, 3>>
  return %y : tensor<16xi8>
}
