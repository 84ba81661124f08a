// RUN: tessel-opt %s --tile-gpu-remove-layout-conversions | FileCheck %s

// CHECK: #blocked = #tile_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

#a = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #tile_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// A cheap value is recomputed in the wanted layout instead of moving through shared memory.
// CHECK-LABEL: func.func @rematerialize
// CHECK-NOT:     tile_gpu.convert_layout
// CHECK:         %[[R:.*]] = tile.arange 0, 128 : tensor<128xi32, #blocked>
// CHECK:         %[[S:.*]] = tile.splat %arg0 : i32 -> tensor<128xi32, #blocked>
// CHECK:         arith.addi %[[R]], %[[S]] : tensor<128xi32, #blocked>
func.func @rematerialize(%x: i32) -> tensor<128xi32, #b> {
  %r = tile.arange 0, 128 : tensor<128xi32, #a>
  %s = tile.splat %x : i32 -> tensor<128xi32, #a>
  %v = arith.addi %r, %s : tensor<128xi32, #a>
  %c = tile_gpu.convert_layout %v : tensor<128xi32, #a> -> tensor<128xi32, #b>
  return %c : tensor<128xi32, #b>
}

// A loaded value must move.
// CHECK-LABEL: func.func @keep
// CHECK:         tile_gpu.convert_layout
func.func @keep(%p: tensor<128x!tile.ptr<f32>, #a>) -> tensor<128xf32, #b> {
  %v = tile.load %p : tensor<128x!tile.ptr<f32>, #a>
  %c = tile_gpu.convert_layout %v : tensor<128xf32, #a> -> tensor<128xf32, #b>
  return %c : tensor<128xf32, #b>
}

// Conversions back and forth fold away.
// CHECK-LABEL: func.func @round_trip
// CHECK-NOT:     tile_gpu.convert_layout
// CHECK:         return %arg0
func.func @round_trip(%v: tensor<128xf32, #a>) -> tensor<128xf32, #a> {
  %c = tile_gpu.convert_layout %v : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %d = tile_gpu.convert_layout %c : tensor<128xf32, #b> -> tensor<128xf32, #a>
  return %d : tensor<128xf32, #a>
}

// A conversion feeding only a narrowing cast moves after it: half the bytes cross shared memory.
// CHECK-LABEL: func.func @narrow_first
// CHECK:         %[[T:.*]] = arith.truncf %arg0 : tensor<128xf32, #blocked1> to tensor<128xbf16, #blocked1>
// CHECK:         %[[C:.*]] = tile_gpu.convert_layout %[[T]] : tensor<128xbf16, #blocked1> -> tensor<128xbf16, #blocked>
// CHECK:         return %[[C]]
func.func @narrow_first(%v: tensor<128xf32, #a>) -> tensor<128xbf16, #b> {
  %c = tile_gpu.convert_layout %v : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %t = arith.truncf %c : tensor<128xf32, #b> to tensor<128xbf16, #b>
  return %t : tensor<128xbf16, #b>
}

// A widening cast, or a second user of the wide value, keeps the conversion where it is.
// CHECK-LABEL: func.func @keep_wide
// CHECK:         tile_gpu.convert_layout %arg0 : tensor<128xf32, #blocked1> -> tensor<128xf32, #blocked>
// CHECK:         arith.truncf
func.func @keep_wide(%v: tensor<128xf32, #a>) -> (tensor<128xbf16, #b>, tensor<128xf32, #b>) {
  %c = tile_gpu.convert_layout %v : tensor<128xf32, #a> -> tensor<128xf32, #b>
  %t = arith.truncf %c : tensor<128xf32, #b> to tensor<128xbf16, #b>
  return %t, %c : tensor<128xbf16, #b>, tensor<128xf32, #b>
}
