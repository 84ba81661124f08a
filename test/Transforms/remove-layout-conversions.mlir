// RUN: tessel-opt %s --tile-gpu-remove-layout-conversions | FileCheck %s

// CHECK: #blocked = #tile_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-DAG: #[[MMA:.*]] = #tile_gpu.mma<{versionMajor = 3
// CHECK-DAG: #[[MROW:.*]] = #tile_gpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-DAG: #[[MCOL:.*]] = #tile_gpu.slice<{dim = 0, parent = #[[MMA]]}>

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

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#st = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#row = #tile_gpu.slice<{dim = 1, parent = #st}>
#col = #tile_gpu.slice<{dim = 0, parent = #st}>

// A GEMM epilogue (acc - lse[:, None], exp, a select on label == column index)
// runs in the accumulator's layout: the rows and columns it reads are rebuilt there (a row
// loaded in memory crosses shared memory as 64 elements; the column index is recomputed), and
// the one full-tile conversion comes after the narrowing to bf16.
// CHECK-LABEL: func.func @sink_into_epilogue
// CHECK:         %[[LSE:.*]] = tile_gpu.convert_layout %arg1 : tensor<64xf32, #{{.*}}> -> tensor<64xf32, #[[MROW]]>
// CHECK:         tile.expand_dims %[[LSE]] {axis = 1 : i32} : tensor<64xf32, #[[MROW]]> -> tensor<64x1xf32, #[[MMA]]>
// CHECK:         arith.subf %arg0, %{{.*}} : tensor<64x128xf32, #[[MMA]]>
// CHECK:         math.exp %{{.*}} : tensor<64x128xf32, #[[MMA]]>
// CHECK:         tile.arange 0, 128 : tensor<128xi32, #[[MCOL]]>
// CHECK:         arith.select %{{.*}} : tensor<64x128xi1, #[[MMA]]>, tensor<64x128xf32, #[[MMA]]>
// CHECK:         %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x128xf32, #[[MMA]]> to tensor<64x128xbf16, #[[MMA]]>
// CHECK-NEXT:    %[[C:.*]] = tile_gpu.convert_layout %[[T]] : tensor<64x128xbf16, #[[MMA]]> -> tensor<64x128xbf16, #{{.*}}>
// CHECK-NEXT:    return %[[C]]
func.func @sink_into_epilogue(%acc: tensor<64x128xf32, #mma>, %lse: tensor<64xf32, #row>,
                              %label: tensor<64xi32, #row>) -> tensor<64x128xbf16, #st> {
  %c = tile_gpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #st>
  %l1 = tile.expand_dims %lse {axis = 1 : i32} : tensor<64xf32, #row> -> tensor<64x1xf32, #st>
  %l = tile.broadcast %l1 : tensor<64x1xf32, #st> -> tensor<64x128xf32, #st>
  %d = arith.subf %c, %l : tensor<64x128xf32, #st>
  %p = math.exp %d : tensor<64x128xf32, #st>
  %j = tile.arange 0, 128 : tensor<128xi32, #col>
  %j1 = tile.expand_dims %j {axis = 0 : i32} : tensor<128xi32, #col> -> tensor<1x128xi32, #st>
  %jb = tile.broadcast %j1 : tensor<1x128xi32, #st> -> tensor<64x128xi32, #st>
  %t1 = tile.expand_dims %label {axis = 1 : i32} : tensor<64xi32, #row> -> tensor<64x1xi32, #st>
  %tb = tile.broadcast %t1 : tensor<64x1xi32, #st> -> tensor<64x128xi32, #st>
  %hit = arith.cmpi eq, %jb, %tb : tensor<64x128xi32, #st>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32, #st>
  %g = arith.select %hit, %zero, %p : tensor<64x128xi1, #st>, tensor<64x128xf32, #st>
  %t = arith.truncf %g : tensor<64x128xf32, #st> to tensor<64x128xbf16, #st>
  return %t : tensor<64x128xbf16, #st>
}

// A full tile loaded in memory is not converted to follow the accumulator: the conversion
// stays on the accumulator.
// CHECK-LABEL: func.func @keep_beside_a_full_tile
// CHECK:         tile_gpu.convert_layout %arg0 : tensor<64x128xf32, #[[MMA]]>
// CHECK-NEXT:    arith.addf
func.func @keep_beside_a_full_tile(%acc: tensor<64x128xf32, #mma>, %r: tensor<64x128xf32, #st>)
    -> tensor<64x128xf32, #st> {
  %c = tile_gpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #st>
  %s = arith.addf %c, %r : tensor<64x128xf32, #st>
  return %s : tensor<64x128xf32, #st>
}

// An accumulator used twice (GELU's x * cdf(x)): the whole epilogue moves, and its one
// conversion comes after the cast.
// CHECK-LABEL: func.func @sink_multi_use
// CHECK-NOT:     tile_gpu.convert_layout
// CHECK:         math.erf %{{.*}} : tensor<64x128xf32, #[[MMA]]>
// CHECK:         %[[T:.*]] = arith.truncf %{{.*}} : tensor<64x128xf32, #[[MMA]]> to tensor<64x128xbf16, #[[MMA]]>
// CHECK-NEXT:    tile_gpu.convert_layout %[[T]] : tensor<64x128xbf16, #[[MMA]]>
// CHECK-NOT:     tile_gpu.convert_layout
func.func @sink_multi_use(%acc: tensor<64x128xf32, #mma>) -> tensor<64x128xbf16, #st> {
  %c = tile_gpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #st>
  %k = arith.constant dense<0.7071067811865476> : tensor<64x128xf32, #st>
  %half = arith.constant dense<0.5> : tensor<64x128xf32, #st>
  %one = arith.constant dense<1.0> : tensor<64x128xf32, #st>
  %a = arith.mulf %c, %k : tensor<64x128xf32, #st>
  %e = math.erf %a : tensor<64x128xf32, #st>
  %e1 = arith.addf %e, %one : tensor<64x128xf32, #st>
  %h = arith.mulf %c, %half : tensor<64x128xf32, #st>
  %g = arith.mulf %h, %e1 : tensor<64x128xf32, #st>
  %t = arith.truncf %g : tensor<64x128xf32, #st> to tensor<64x128xbf16, #st>
  return %t : tensor<64x128xbf16, #st>
}

// Values that part ways (two f32 results leave the epilogue) would need two conversions of
// the same size: the one on the accumulator stays.
// CHECK-LABEL: func.func @keep_when_values_part
// CHECK:         tile_gpu.convert_layout %arg0 : tensor<64x128xf32, #[[MMA]]>
// CHECK-NEXT:    arith.mulf
// CHECK-NEXT:    arith.addf
// CHECK-NOT:     tile_gpu.convert_layout
func.func @keep_when_values_part(%acc: tensor<64x128xf32, #mma>)
    -> (tensor<64x128xf32, #st>, tensor<64x128xf32, #st>) {
  %c = tile_gpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #st>
  %m = arith.mulf %c, %c : tensor<64x128xf32, #st>
  %a = arith.addf %c, %c : tensor<64x128xf32, #st>
  return %m, %a : tensor<64x128xf32, #st>, tensor<64x128xf32, #st>
}

// A tile without a layout (the fuzzer's input) is left alone rather than crashing.
// CHECK-LABEL: func.func @no_layout
// CHECK:         tile_gpu.convert_layout %arg0 : tensor<128xf32> -> tensor<128xf32, #blocked>
func.func @no_layout(%v: tensor<128xf32>) -> tensor<128xf32, #b> {
  %c = tile_gpu.convert_layout %v : tensor<128xf32> -> tensor<128xf32, #b>
  return %c : tensor<128xf32, #b>
}

// Tiles of pointers do not join an epilogue (a select between two base pointers on the
// accumulator's sign): the conversion stays on the accumulator.
// CHECK-LABEL: func.func @keep_pointer_tiles
// CHECK:         tile_gpu.convert_layout %arg0 : tensor<64x128xf32, #[[MMA]]>
// CHECK:         arith.cmpf
// CHECK:         arith.select {{.*}} tensor<64x128x!tile.ptr<f32>, #blocked2>
func.func @keep_pointer_tiles(%acc: tensor<64x128xf32, #mma>, %pa: !tile.ptr<f32>, %pb: !tile.ptr<f32>) {
  %c = tile_gpu.convert_layout %acc : tensor<64x128xf32, #mma> -> tensor<64x128xf32, #st>
  %zero = arith.constant dense<0.0> : tensor<64x128xf32, #st>
  %hit = arith.cmpf ogt, %c, %zero : tensor<64x128xf32, #st>
  %a = tile.splat %pa : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #st>
  %b = tile.splat %pb : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>, #st>
  %p = arith.select %hit, %a, %b : tensor<64x128xi1, #st>, tensor<64x128x!tile.ptr<f32>, #st>
  tile.store %p, %c : tensor<64x128x!tile.ptr<f32>, #st>
  return
}
