// RUN: tessel-opt %s --tile-gpu-assign-layouts -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s --tile-gpu-assign-layouts=threads-per-warp=64 -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=WAVE64

// bf16 rows, 16-byte aligned and contiguous: 8 elements (16 bytes) per thread, 32 lanes and 8
// warps along the row; the reduction result is a scalar.
// CHECK: #[[B:.*]] = #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
// CHECK-LABEL: func.func @row
// CHECK:         tile.load %{{.*}} : tensor<4096x!tile.ptr<bf16>, #[[B]]>
// CHECK:         tile.reduce(%{{.*}}) axis = 0 : (tensor<4096xf32, #[[B]]>) -> f32
// WAVE64: #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [64], warpsPerCTA = [8], order = [0]}>
func.func @row(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) -> f32 attributes {tile.num_warps = 8 : i32} {
  %c = tile.arange 0, 4096 : tensor<4096xi32>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<4096x!tile.ptr<bf16>>
  %p = tile.addptr %xs, %c : tensor<4096x!tile.ptr<bf16>>, tensor<4096xi32>
  %v = tile.load %p : tensor<4096x!tile.ptr<bf16>>
  %f = arith.extf %v : tensor<4096xbf16> to tensor<4096xf32>
  %s = tile.reduce(%f) axis = 0 : (tensor<4096xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  return %s : f32
}

// -----

// Several rows per program reduced along the row: warps go along the rows so that each
// reduction stays inside a warp; row and column indices are slices of the 2-D layout.
// CHECK: #[[B:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[S1:.*]] = #tile_gpu.slice<{dim = 1, parent = #[[B]]}>
// CHECK-DAG: #[[S0:.*]] = #tile_gpu.slice<{dim = 0, parent = #[[B]]}>
// CHECK-LABEL: func.func @rows
// CHECK:         tile.arange 0, 4 : tensor<4xi32, #[[S1]]>
// CHECK:         tile.arange 0, 256 : tensor<256xi32, #[[S0]]>
// CHECK:         tile.reduce(%{{.*}}) axis = 1 : (tensor<4x256xf32, #[[B]]>) -> tensor<4xf32, #[[S1]]>
// CHECK-NOT:     tile_gpu.convert_layout
func.func @rows(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %stride: i64 {tile.divisibility = 4 : i32}) -> tensor<4x1xf32> {
  %r = tile.arange 0, 4 : tensor<4xi32>
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %r64 = arith.extsi %re : tensor<4x1xi32> to tensor<4x1xi64>
  %st = tile.splat %stride : i64 -> tensor<4x1xi64>
  %ro = arith.muli %r64, %st : tensor<4x1xi64>
  %rb = tile.broadcast %ro : tensor<4x1xi64> -> tensor<4x256xi64>
  %c = tile.arange 0, 256 : tensor<256xi32>
  %ce = tile.expand_dims %c {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
  %c64 = arith.extsi %ce : tensor<1x256xi32> to tensor<1x256xi64>
  %cb = tile.broadcast %c64 : tensor<1x256xi64> -> tensor<4x256xi64>
  %off = arith.addi %rb, %cb : tensor<4x256xi64>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<4x256x!tile.ptr<f32>>
  %p = tile.addptr %xs, %off : tensor<4x256x!tile.ptr<f32>>, tensor<4x256xi64>
  %v = tile.load %p : tensor<4x256x!tile.ptr<f32>>
  %s = tile.reduce(%v) axis = 1 : (tensor<4x256xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %se = tile.expand_dims %s {axis = 1 : i32} : tensor<4xf32> -> tensor<4x1xf32>
  return %se : tensor<4x1xf32>
}

// -----

// A (512, 8) view of a bf16 block reduced along its 8 columns (OnlineSoftmax.h) whose pointer
// promises no alignment, so that its loads are single elements: the 8 columns still stay in one
// thread, whose reduction then takes no shuffles (the vector width alone gave 8 lanes per row
// and 16 rows per thread).
// CHECK: #[[B:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @short_reduced_axis
// CHECK:         tile.load %{{.*}} : tensor<512x8x!tile.ptr<bf16>, #[[B]]>
// CHECK:         tile.reduce(%{{.*}}) axis = 1 : (tensor<512x8xbf16, #[[B]]>)
// WAVE64: #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [64, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
func.func @short_reduced_axis(%x: !tile.ptr<bf16>) -> tensor<512xbf16> attributes {tile.num_warps = 8 : i32} {
  %r = tile.arange 0, 512 : tensor<512xi32>
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %eight = arith.constant dense<8> : tensor<512x1xi32>
  %ro = arith.muli %re, %eight : tensor<512x1xi32>
  %rb = tile.broadcast %ro : tensor<512x1xi32> -> tensor<512x8xi32>
  %c = tile.arange 0, 8 : tensor<8xi32>
  %ce = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %ce : tensor<1x8xi32> -> tensor<512x8xi32>
  %off = arith.addi %rb, %cb : tensor<512x8xi32>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<512x8x!tile.ptr<bf16>>
  %p = tile.addptr %xs, %off : tensor<512x8x!tile.ptr<bf16>>, tensor<512x8xi32>
  %v = tile.load %p : tensor<512x8x!tile.ptr<bf16>>
  %m = tile.reduce(%v) axis = 1 : (tensor<512x8xbf16>) -> tensor<512xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %t = arith.maximumf %a, %b : bf16
    tile.yield %t : bf16
  }
  return %m : tensor<512xbf16>
}

// -----

// The same view in f32 is 32 bytes a row, more than one vector: the vector width alone decides
// (single elements here, 8 lanes a row), as it does for a short fastest dimension that is not
// reduced.
// CHECK: #[[B:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @long_reduced_axis
// CHECK:         tile.reduce(%{{.*}}) axis = 1 : (tensor<512x8xf32, #[[B]]>)
func.func @long_reduced_axis(%x: !tile.ptr<f32>) -> tensor<512xf32> attributes {tile.num_warps = 8 : i32} {
  %r = tile.arange 0, 512 : tensor<512xi32>
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %eight = arith.constant dense<8> : tensor<512x1xi32>
  %ro = arith.muli %re, %eight : tensor<512x1xi32>
  %rb = tile.broadcast %ro : tensor<512x1xi32> -> tensor<512x8xi32>
  %c = tile.arange 0, 8 : tensor<8xi32>
  %ce = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %ce : tensor<1x8xi32> -> tensor<512x8xi32>
  %off = arith.addi %rb, %cb : tensor<512x8xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<512x8x!tile.ptr<f32>>
  %p = tile.addptr %xs, %off : tensor<512x8x!tile.ptr<f32>>, tensor<512x8xi32>
  %v = tile.load %p : tensor<512x8x!tile.ptr<f32>>
  %m = tile.reduce(%v) axis = 1 : (tensor<512x8xf32>) -> tensor<512xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    tile.yield %t : f32
  }
  return %m : tensor<512xf32>
}

// -----

// CHECK: #[[B:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
// CHECK-LABEL: func.func @short_axis_not_reduced
// CHECK:         tile.reduce(%{{.*}}) axis = 0 : (tensor<512x8xbf16, #[[B]]>)
func.func @short_axis_not_reduced(%x: !tile.ptr<bf16>) -> tensor<8xbf16> attributes {tile.num_warps = 8 : i32} {
  %r = tile.arange 0, 512 : tensor<512xi32>
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<512xi32> -> tensor<512x1xi32>
  %eight = arith.constant dense<8> : tensor<512x1xi32>
  %ro = arith.muli %re, %eight : tensor<512x1xi32>
  %rb = tile.broadcast %ro : tensor<512x1xi32> -> tensor<512x8xi32>
  %c = tile.arange 0, 8 : tensor<8xi32>
  %ce = tile.expand_dims %c {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %cb = tile.broadcast %ce : tensor<1x8xi32> -> tensor<512x8xi32>
  %off = arith.addi %rb, %cb : tensor<512x8xi32>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<512x8x!tile.ptr<bf16>>
  %p = tile.addptr %xs, %off : tensor<512x8x!tile.ptr<bf16>>, tensor<512x8xi32>
  %v = tile.load %p : tensor<512x8x!tile.ptr<bf16>>
  %m = tile.reduce(%v) axis = 0 : (tensor<512x8xbf16>) -> tensor<8xbf16> {
  ^bb0(%a: bf16, %b: bf16):
    %t = arith.maximumf %a, %b : bf16
    tile.yield %t : bf16
  }
  return %m : tensor<8xbf16>
}

// -----

// One arange used as rows and as columns is duplicated, not converted.
// CHECK-LABEL: func.func @shared_arange
// CHECK-COUNT-2: tile.arange 0, 16
// CHECK-NOT:     tile_gpu.convert_layout
func.func @shared_arange() -> tensor<16x16xi32> {
  %r = tile.arange 0, 16 : tensor<16xi32>
  %a = tile.expand_dims %r {axis = 1 : i32} : tensor<16xi32> -> tensor<16x1xi32>
  %b = tile.expand_dims %r {axis = 0 : i32} : tensor<16xi32> -> tensor<1x16xi32>
  %ab = tile.broadcast %a : tensor<16x1xi32> -> tensor<16x16xi32>
  %bb = tile.broadcast %b : tensor<1x16xi32> -> tensor<16x16xi32>
  %s = arith.addi %ab, %bb : tensor<16x16xi32>
  return %s : tensor<16x16xi32>
}

// -----

// A loaded row used both as rows and as columns needs a conversion.
// CHECK-LABEL: func.func @needs_conversion
// CHECK:         tile_gpu.convert_layout
func.func @needs_conversion(%x: !tile.ptr<f32>) -> tensor<16x16xf32> {
  %r = tile.arange 0, 16 : tensor<16xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>>
  %p = tile.addptr %xs, %r : tensor<16x!tile.ptr<f32>>, tensor<16xi32>
  %v = tile.load %p : tensor<16x!tile.ptr<f32>>
  %a = tile.expand_dims %v {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %b = tile.expand_dims %v {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>
  %ab = tile.broadcast %a : tensor<16x1xf32> -> tensor<16x16xf32>
  %bb = tile.broadcast %b : tensor<1x16xf32> -> tensor<16x16xf32>
  %s = arith.addf %ab, %bb : tensor<16x16xf32>
  return %s : tensor<16x16xf32>
}

// -----

// Loop-carried tiles share the layout of their init and yield.
// CHECK-LABEL: func.func @loop
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (tensor<256xf32, #[[L:.*]]>)
// CHECK:           scf.yield %{{.*}} : tensor<256xf32, #[[L]]>
func.func @loop(%x: !tile.ptr<f32>, %n: i64) -> tensor<256xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %z = arith.constant dense<0.0> : tensor<256xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<256xf32>) : i64 {
    %c = tile.arange 0, 256 : tensor<256xi32>
    %xs = tile.splat %x : !tile.ptr<f32> -> tensor<256x!tile.ptr<f32>>
    %p = tile.addptr %xs, %c : tensor<256x!tile.ptr<f32>>, tensor<256xi32>
    %v = tile.load %p : tensor<256x!tile.ptr<f32>>
    %s = arith.addf %acc, %v : tensor<256xf32>
    scf.yield %s : tensor<256xf32>
  }
  return %r : tensor<256xf32>
}

// -----

func.func @not_power_of_two() -> tensor<1000xi32> {
  // expected-error @below {{tile shape [1000] is not a power of two in every dimension; GPU layouts need power-of-two blocks (run tile-gpu-pad-shapes first)}}
  %r = tile.arange 0, 1000 : tensor<1000xi32>
  return %r : tensor<1000xi32>
}

// -----

// A GEMM's row index (rm, computed: not duplicated) addresses A's (128, 64) tile and C's
// (128, 128) tile. One layout for both would replicate A across threads (a 128x128 layout
// holds a 128x64 tile twice): the two tiles get layouts of their own and the row index is
// converted between their slices.
// CHECK-DAG: #[[A:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[C:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SA:.*]] = #tile_gpu.slice<{dim = 1, parent = #[[A]]}>
// CHECK-DAG: #[[SC:.*]] = #tile_gpu.slice<{dim = 1, parent = #[[C]]}>
// CHECK-LABEL: func.func @gemm_rows
// CHECK:         tile_gpu.convert_layout %{{.*}} : tensor<128xi32, #[[SA]]> -> tensor<128xi32, #[[SC]]>
// CHECK:         tile.load %{{.*}} : tensor<128x64x!tile.ptr<f16>, #[[A]]>
// CHECK:         tile.store %{{.*}}, %{{.*}} : tensor<128x128x!tile.ptr<f16>, #[[C]]>
func.func @gemm_rows(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %pid: i32, %m: i32) attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 128 : tensor<128xi32>
  %ps = tile.splat %pid : i32 -> tensor<128xi32>
  %rp = arith.addi %r, %ps : tensor<128xi32>
  %ms = tile.splat %m : i32 -> tensor<128xi32>
  %rm = arith.remsi %rp, %ms : tensor<128xi32>
  %rme = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %rmc = tile.expand_dims %rm {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c64 = arith.constant dense<64> : tensor<128x1xi32>
  %ra = arith.muli %rme, %c64 : tensor<128x1xi32>
  %rab = tile.broadcast %ra : tensor<128x1xi32> -> tensor<128x64xi32>
  %k = tile.arange 0, 64 : tensor<64xi32>
  %ke = tile.expand_dims %k {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %kb = tile.broadcast %ke : tensor<1x64xi32> -> tensor<128x64xi32>
  %offa = arith.addi %rab, %kb : tensor<128x64xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
  %pa = tile.addptr %as, %offa : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  %x = tile.load %pa : tensor<128x64x!tile.ptr<f16>>
  %c128 = arith.constant dense<128> : tensor<128x1xi32>
  %rc = arith.muli %rmc, %c128 : tensor<128x1xi32>
  %rcb = tile.broadcast %rc : tensor<128x1xi32> -> tensor<128x128xi32>
  %n = tile.arange 0, 128 : tensor<128xi32>
  %ne = tile.expand_dims %n {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %nb = tile.broadcast %ne : tensor<1x128xi32> -> tensor<128x128xi32>
  %offc = arith.addi %rcb, %nb : tensor<128x128xi32>
  %cs = tile.splat %c : !tile.ptr<f16> -> tensor<128x128x!tile.ptr<f16>>
  %pc = tile.addptr %cs, %offc : tensor<128x128x!tile.ptr<f16>>, tensor<128x128xi32>
  %h = arith.constant dense<1.0> : tensor<128x128xf16>
  tile.store %pc, %h : tensor<128x128x!tile.ptr<f16>>
  %as2 = tile.splat %c : !tile.ptr<f16> -> tensor<128x64x!tile.ptr<f16>>
  %pa2 = tile.addptr %as2, %offa : tensor<128x64x!tile.ptr<f16>>, tensor<128x64xi32>
  tile.store %pa2, %x : tensor<128x64x!tile.ptr<f16>>
  return
}

// -----

// A GEMM's B (K, N) stored K-contiguous (offsets k + n * stride_bn, stride_bn a multiple of 8)
// shares its column index rn = pid * 128 + arange with C's store, which is N-contiguous. The
// index arithmetic (arange, splat, addi, expand_dims, ...) is duplicated per use, so that B's load
// gets its own K-major layout (8 bf16 = 16 bytes per thread down K, order [0, 1]) and C's store
// an N-major one, with no conversion between them.
// CHECK-DAG: #[[B:.*]] = #tile_gpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-DAG: #[[C:.*]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[SB:.*]] = #tile_gpu.slice<{dim = 0, parent = #[[B]]}>
// CHECK-DAG: #[[SC:.*]] = #tile_gpu.slice<{dim = 0, parent = #[[C]]}>
// CHECK-LABEL: func.func @gemm_b_kmajor
// CHECK-DAG:     tile.arange 0, 128 : tensor<128xi32, #[[SB]]>
// CHECK-DAG:     tile.arange 0, 128 : tensor<128xi32, #[[SC]]>
// CHECK-DAG:     arith.addi %{{.*}}, %{{.*}} : tensor<128xi32, #[[SB]]>
// CHECK-DAG:     arith.addi %{{.*}}, %{{.*}} : tensor<128xi32, #[[SC]]>
// CHECK:         tile.load %{{.*}} : tensor<64x128x!tile.ptr<bf16>, #[[B]]>
// CHECK:         tile.store %{{.*}}, %{{.*}} : tensor<128x128x!tile.ptr<bf16>, #[[C]]>
// CHECK-NOT:     tile_gpu.convert_layout
// CHECK:         return
func.func @gemm_b_kmajor(%b: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %c: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %pid: i32, %stride_bn: i32 {tile.divisibility = 8 : i32}) -> tensor<64x128xbf16> attributes {tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 128 : tensor<128xi32>
  %p = arith.constant 128 : i32
  %off = arith.muli %pid, %p : i32
  %os = tile.splat %off : i32 -> tensor<128xi32>
  %rn = arith.addi %os, %r : tensor<128xi32>
  // B offsets: k + rn * stride_bn
  %k = tile.arange 0, 64 : tensor<64xi32>
  %ke = tile.expand_dims %k {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %kb = tile.broadcast %ke : tensor<64x1xi32> -> tensor<64x128xi32>
  %rnb = tile.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %ss = tile.splat %stride_bn : i32 -> tensor<1x128xi32>
  %ns = arith.muli %rnb, %ss : tensor<1x128xi32>
  %nb = tile.broadcast %ns : tensor<1x128xi32> -> tensor<64x128xi32>
  %offb = arith.addi %kb, %nb : tensor<64x128xi32>
  %bs = tile.splat %b : !tile.ptr<bf16> -> tensor<64x128x!tile.ptr<bf16>>
  %pb = tile.addptr %bs, %offb : tensor<64x128x!tile.ptr<bf16>>, tensor<64x128xi32>
  %y = tile.load %pb : tensor<64x128x!tile.ptr<bf16>>
  // C offsets: m * 128 + rn
  %m = tile.arange 0, 128 : tensor<128xi32>
  %me = tile.expand_dims %m {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  %c128 = arith.constant dense<128> : tensor<128x1xi32>
  %mo = arith.muli %me, %c128 : tensor<128x1xi32>
  %mb = tile.broadcast %mo : tensor<128x1xi32> -> tensor<128x128xi32>
  %rnc = tile.expand_dims %rn {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
  %ncb = tile.broadcast %rnc : tensor<1x128xi32> -> tensor<128x128xi32>
  %offc = arith.addi %mb, %ncb : tensor<128x128xi32>
  %cs = tile.splat %c : !tile.ptr<bf16> -> tensor<128x128x!tile.ptr<bf16>>
  %pc = tile.addptr %cs, %offc : tensor<128x128x!tile.ptr<bf16>>, tensor<128x128xi32>
  %h = arith.constant dense<1.0> : tensor<128x128xbf16>
  tile.store %pc, %h : tensor<128x128x!tile.ptr<bf16>>
  return %y : tensor<64x128xbf16>
}
