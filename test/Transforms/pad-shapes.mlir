// RUN: tessel-opt %s --tile-gpu-pad-shapes -split-input-file | FileCheck %s

// A masked load and store of 48 elements: arange(0, 48) becomes arange(0, 64), and both
// accesses AND the user's mask with "index < 48" (the padding lanes touch no memory).
// CHECK-LABEL: func.func @copy48
// CHECK:         %[[R:.*]] = tile.arange 0, 64 {tile_gpu.logical_shape = array<i64: 48>} : tensor<64xi32>
// CHECK:         %[[M:.*]] = arith.cmpi slt, %[[R]], %{{.*}} {tile_gpu.logical_shape = array<i64: 48>} : tensor<64xi32>
// CHECK:         %[[I:.*]] = tile.arange 0, 64 : tensor<64xi32>
// CHECK:         %[[L:.*]] = arith.constant dense<48> : tensor<64xi32>
// CHECK:         %[[V:.*]] = arith.cmpi slt, %[[I]], %[[L]] : tensor<64xi32>
// CHECK:         %[[LM:.*]] = arith.andi %[[M]], %[[V]] {{.*}}: tensor<64xi1>
// CHECK:         %[[X:.*]] = tile.load %{{.*}}, %[[LM]] {tile_gpu.logical_shape = array<i64: 48>} : tensor<64x!tile.ptr<f32>>
// CHECK:         %[[SV:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK:         %[[SM:.*]] = arith.andi %[[M]], %[[SV]] {{.*}}: tensor<64xi1>
// CHECK:         tile.store %{{.*}}, %[[X]], %[[SM]] : tensor<64x!tile.ptr<f32>>
func.func @copy48(%x: !tile.ptr<f32>, %y: !tile.ptr<f32>, %n: i32) {
  %r = tile.arange 0, 48 : tensor<48xi32>
  %ns = tile.splat %n : i32 -> tensor<48xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<48xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<48x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<48x!tile.ptr<f32>>, tensor<48xi32>
  %v = tile.load %xp, %m : tensor<48x!tile.ptr<f32>>
  %ys = tile.splat %y : !tile.ptr<f32> -> tensor<48x!tile.ptr<f32>>
  %yp = tile.addptr %ys, %r : tensor<48x!tile.ptr<f32>>, tensor<48xi32>
  tile.store %yp, %v, %m : tensor<48x!tile.ptr<f32>>
  return
}

// -----

// Power-of-two kernels are left exactly as they are: no mask, no attribute.
// CHECK-LABEL: func.func @pow2
// CHECK-NEXT:    tile.arange 0, 64 : tensor<64xi32>
// CHECK-NOT:     tile_gpu.logical_shape
// CHECK-NOT:     arith.cmpi
// CHECK:         return
func.func @pow2(%x: !tile.ptr<f32>) -> tensor<64xf32> {
  %r = tile.arange 0, 64 : tensor<64xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %xp : tensor<64x!tile.ptr<f32>>
  return %v : tensor<64xf32>
}

// -----

// Sum and max of 100 elements: the padding holds each combiner's identity (-0.0 for addf, so
// that a sum of -0.0s stays -0.0; -inf for maximumf).
// CHECK-LABEL: func.func @sum_max100
// CHECK:         %[[X:.*]] = tile.load %{{.*}}, %{{.*}} {tile_gpu.logical_shape = array<i64: 100>} : tensor<128x!tile.ptr<f32>>
// CHECK:         %[[V:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK:         %[[Z:.*]] = arith.constant dense<-0.000000e+00> : tensor<128xf32>
// CHECK:         %[[XS:.*]] = arith.select %[[V]], %[[X]], %[[Z]] : tensor<128xi1>, tensor<128xf32>
// CHECK:         tile.reduce(%[[XS]]) axis = 0 : (tensor<128xf32>) -> f32
// CHECK:         arith.addf
// CHECK:         %[[V2:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK:         %[[NI:.*]] = arith.constant dense<0xFF800000> : tensor<128xf32>
// CHECK:         %[[XM:.*]] = arith.select %[[V2]], %[[X]], %[[NI]]
// CHECK:         tile.reduce(%[[XM]]) axis = 0 : (tensor<128xf32>) -> f32
// CHECK:         arith.maximumf
func.func @sum_max100(%x: !tile.ptr<f32>, %out: !tile.ptr<f32>) {
  %r = tile.arange 0, 100 : tensor<100xi32>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<100x!tile.ptr<f32>>
  %xp = tile.addptr %xs, %r : tensor<100x!tile.ptr<f32>>, tensor<100xi32>
  %v = tile.load %xp : tensor<100x!tile.ptr<f32>>
  %s = tile.reduce(%v) axis = 0 : (tensor<100xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %mx = tile.reduce(%v) axis = 0 : (tensor<100xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %b, %a : f32
    tile.yield %t : f32
  }
  tile.store %out, %s : !tile.ptr<f32>
  tile.store %out, %mx : !tile.ptr<f32>
  return
}

// -----

// A (3, 100) tile padded to (4, 128). Along axis 0 only the row index is masked (padding
// columns give padding results); along axis 1 only the column index. The results are padded
// tiles: (128) and (4).
// CHECK-LABEL: func.func @rows3
// CHECK:         %[[I0:.*]] = tile.arange 0, 4 : tensor<4xi32>
// CHECK:         %[[C0:.*]] = arith.constant dense<3> : tensor<4xi32>
// CHECK:         %[[M0:.*]] = arith.cmpi slt, %[[I0]], %[[C0]] : tensor<4xi32>
// CHECK:         %[[E0:.*]] = tile.expand_dims %[[M0]] {axis = 1 : i32} : tensor<4xi1> -> tensor<4x1xi1>
// CHECK:         %[[B0:.*]] = tile.broadcast %[[E0]] : tensor<4x1xi1> -> tensor<4x128xi1>
// CHECK:         %[[S0:.*]] = arith.select %[[B0]], %{{.*}}, %{{.*}} : tensor<4x128xi1>, tensor<4x128xf32>
// CHECK:         tile.reduce(%[[S0]]) axis = 0 {tile_gpu.logical_shape = array<i64: 100>} : (tensor<4x128xf32>) -> tensor<128xf32>
// CHECK:         %[[I1:.*]] = tile.arange 0, 128 : tensor<128xi32>
// CHECK:         %[[C1:.*]] = arith.constant dense<100> : tensor<128xi32>
// CHECK:         %[[M1:.*]] = arith.cmpi slt, %[[I1]], %[[C1]] : tensor<128xi32>
// CHECK:         %[[E1:.*]] = tile.expand_dims %[[M1]] {axis = 0 : i32} : tensor<128xi1> -> tensor<1x128xi1>
// CHECK:         %[[B1:.*]] = tile.broadcast %[[E1]] : tensor<1x128xi1> -> tensor<4x128xi1>
// CHECK:         %[[S1:.*]] = arith.select %[[B1]], %{{.*}}, %{{.*}} : tensor<4x128xi1>, tensor<4x128xf32>
// CHECK:         tile.reduce(%[[S1]]) axis = 1 {tile_gpu.logical_shape = array<i64: 3>} : (tensor<4x128xf32>) -> tensor<4xf32>
// CHECK:         return %{{.*}}, %{{.*}} : tensor<128xf32>, tensor<4xf32>
func.func @rows3(%v: tensor<3x100xf32>) -> (tensor<100xf32>, tensor<3xf32>) {
  %d = tile.reduce(%v) axis = 0 : (tensor<3x100xf32>) -> tensor<100xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  %c = tile.reduce(%v) axis = 1 : (tensor<3x100xf32>) -> tensor<3xf32> {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    tile.yield %t : f32
  }
  return %d, %c : tensor<100xf32>, tensor<3xf32>
}

// -----

// argmax (two operands, compare + select): no identity, so the reduce carries an i1 validity
// operand and the combiner skips invalid elements: (va ? (vb ? f(a, b) : a) : b, va | vb).
// CHECK-LABEL: func.func @argmax48
// CHECK:         %[[V:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK:         %{{.*}}:3 = tile.reduce(%{{.*}}, %{{.*}}, %[[V]]) axis = 0 : (tensor<64xf32>, tensor<64xi32>, tensor<64xi1>) -> (f32, i32, i1) {
// CHECK:         ^bb0(%[[A:.*]]: f32, %[[AI:.*]]: i32, %[[VA:.*]]: i1, %[[B:.*]]: f32, %[[BI:.*]]: i32, %[[VB:.*]]: i1):
// CHECK:           %[[GT:.*]] = arith.cmpf ogt, %[[A]], %[[B]] : f32
// CHECK:           %[[F:.*]] = arith.select %[[GT]], %[[A]], %[[B]] : f32
// CHECK:           %[[FI:.*]] = arith.select %[[GT]], %[[AI]], %[[BI]] : i32
// CHECK:           %[[R1:.*]] = arith.select %[[VB]], %[[F]], %[[A]] : f32
// CHECK:           %[[R2:.*]] = arith.select %[[VA]], %[[R1]], %[[B]] : f32
// CHECK:           %[[R3:.*]] = arith.select %[[VB]], %[[FI]], %[[AI]] : i32
// CHECK:           %[[R4:.*]] = arith.select %[[VA]], %[[R3]], %[[BI]] : i32
// CHECK:           %[[VR:.*]] = arith.ori %[[VA]], %[[VB]] : i1
// CHECK:           tile.yield %[[R2]], %[[R4]], %[[VR]] : f32, i32, i1
func.func @argmax48(%v: tensor<48xf32>) -> i32 {
  %r = tile.arange 0, 48 : tensor<48xi32>
  %m:2 = tile.reduce(%v, %r) axis = 0 : (tensor<48xf32>, tensor<48xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %x = arith.select %gt, %a, %b : f32
    %i = arith.select %gt, %ai, %bi : i32
    tile.yield %x, %i : f32, i32
  }
  return %m#1 : i32
}

// -----

// Scans of 100: a forward scan needs no mask (padding comes after every real element); a
// reverse one starts at the last real element: identity in the padding (cumsum), or the
// validity operand for a combiner without one (the linear recurrence, not commutative).
// CHECK-LABEL: func.func @scans100
// CHECK-NOT:     arith.select
// CHECK:         tile.scan(%arg0) axis = 0 {tile_gpu.logical_shape = array<i64: 100>} : (tensor<128xi32>) -> tensor<128xi32>
// CHECK:         %[[V:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK:         %[[Z:.*]] = arith.constant dense<0> : tensor<128xi32>
// CHECK:         %[[S:.*]] = arith.select %[[V]], %arg0, %[[Z]]
// CHECK:         tile.scan(%[[S]]) axis = 0 reverse {tile_gpu.logical_shape = array<i64: 100>} : (tensor<128xi32>) -> tensor<128xi32>
// CHECK:         %[[V2:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK:         tile.scan(%arg0, %arg1, %[[V2]]) axis = 0 reverse {tile_gpu.logical_shape = array<i64: 100>} : (tensor<128xi32>, tensor<128xi32>, tensor<128xi1>) -> (tensor<128xi32>, tensor<128xi32>, tensor<128xi1>)
// CHECK:           arith.ori
func.func @scans100(%a: tensor<100xi32>, %b: tensor<100xi32>) -> (tensor<100xi32>, tensor<100xi32>, tensor<100xi32>) {
  %f = tile.scan(%a) axis = 0 : (tensor<100xi32>) -> tensor<100xi32> {
  ^bb0(%x: i32, %y: i32):
    %t = arith.addi %x, %y : i32
    tile.yield %t : i32
  }
  %r = tile.scan(%a) axis = 0 reverse : (tensor<100xi32>) -> tensor<100xi32> {
  ^bb0(%x: i32, %y: i32):
    %t = arith.addi %x, %y : i32
    tile.yield %t : i32
  }
  %h:2 = tile.scan(%a, %b) axis = 0 reverse : (tensor<100xi32>, tensor<100xi32>) -> (tensor<100xi32>, tensor<100xi32>) {
  ^bb0(%a1: i32, %b1: i32, %a2: i32, %b2: i32):
    %aa = arith.muli %a1, %a2 : i32
    %t = arith.muli %a2, %b1 : i32
    %bb = arith.addi %t, %b2 : i32
    tile.yield %aa, %bb : i32, i32
  }
  return %f, %r, %h#1 : tensor<100xi32>, tensor<100xi32>, tensor<100xi32>
}

// -----

// Loop-carried tiles, expand_dims / broadcast / trans and reshapes that only add or drop unit
// dimensions follow the padded shapes; a non-splat constant is padded with zeros.
// CHECK-LABEL: func.func @shapes
// CHECK:         arith.constant {tile_gpu.logical_shape = array<i64: 3>} dense<[1, 2, 3, 0]> : tensor<4xi32>
// CHECK:         scf.for {{.*}} -> (tensor<4x128xf32>)
// CHECK:         tile.trans %{{.*}} {order = array<i32: 1, 0>, tile_gpu.logical_shape = array<i64: 100, 3>} : tensor<4x128xf32> -> tensor<128x4xf32>
// CHECK:         tile.reshape %{{.*}} {tile_gpu.logical_shape = array<i64: 1, 100, 1, 3>} : tensor<128x4xf32> -> tensor<1x128x1x4xf32>
func.func @shapes(%v: tensor<3x100xf32>, %n: index) -> tensor<1x100x1x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = arith.constant dense<[1, 2, 3]> : tensor<3xi32>
  %kf = arith.sitofp %k : tensor<3xi32> to tensor<3xf32>
  %ke = tile.expand_dims %kf {axis = 1 : i32} : tensor<3xf32> -> tensor<3x1xf32>
  %kb = tile.broadcast %ke : tensor<3x1xf32> -> tensor<3x100xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %v) -> (tensor<3x100xf32>) {
    %t = arith.addf %acc, %kb : tensor<3x100xf32>
    scf.yield %t : tensor<3x100xf32>
  }
  %t = tile.trans %s {order = array<i32: 1, 0>} : tensor<3x100xf32> -> tensor<100x3xf32>
  %r = tile.reshape %t : tensor<100x3xf32> -> tensor<1x100x1x3xf32>
  return %r : tensor<1x100x1x3xf32>
}

// -----

// A failing assert in a padding lane must not stop the kernel: the condition holds there.
// CHECK-LABEL: func.func @assert100
// CHECK:         tile.arange 0, 128 : tensor<128xi32>
// CHECK-NEXT:    arith.constant dense<100> : tensor<128xi32>
// CHECK-NEXT:    %[[V:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<128xi32>
// CHECK:         %[[T:.*]] = arith.constant dense<true> : tensor<128xi1>
// CHECK:         %[[C:.*]] = arith.select %[[V]], %{{.*}}, %[[T]] {{.*}}: tensor<128xi1>, tensor<128xi1>
// CHECK:         tile.assert %[[C]], "x < 5" : tensor<128xi1>
func.func @assert100(%x: tensor<100xi32>) {
  %c5 = arith.constant dense<5> : tensor<100xi32>
  %ok = arith.cmpi slt, %x, %c5 : tensor<100xi32>
  tile.assert %ok, "x < 5" : tensor<100xi1>
  return
}

// -----

// atomic_rmw gets the mask too (the padding lanes add nothing).
// CHECK-LABEL: func.func @atomic48
// CHECK:         %[[V:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<64xi32>
// CHECK:         tile.atomic_rmw add, acq_rel, gpu, %{{.*}}, %{{.*}}, %[[V]] {tile_gpu.logical_shape = array<i64: 48>} : tensor<64x!tile.ptr<f32>>
func.func @atomic48(%p: tensor<48x!tile.ptr<f32>>, %v: tensor<48xf32>) {
  %old = tile.atomic_rmw add, acq_rel, gpu, %p, %v : tensor<48x!tile.ptr<f32>>
  return
}

// -----

// A negative start pads from the same start: arange(-5, 95) -> arange(-5, 123).
// CHECK-LABEL: func.func @negative_start
// CHECK:         tile.arange -5, 123 {tile_gpu.logical_shape = array<i64: 100>} : tensor<128xi32>
func.func @negative_start() -> tensor<100xi32> {
  %r = tile.arange -5, 95 : tensor<100xi32>
  return %r : tensor<100xi32>
}

// -----

// Reshapes whose padded dimension is the outermost of its group keep every element in place:
// (100, 4) -> (400) is (128, 4) -> (512), element (i, j) at 4 i + j either way; (3, 4) -> (12)
// is (4, 4) -> (16); (12) -> (3, 2, 2) is (16) -> (4, 2, 2).
// CHECK-LABEL: func.func @reshape_groups
// CHECK:         tile.reshape %{{.*}} {tile_gpu.logical_shape = array<i64: 400>} : tensor<128x4xf32> -> tensor<512xf32>
// CHECK:         tile.reshape %{{.*}} {tile_gpu.logical_shape = array<i64: 12>} : tensor<4x4xf32> -> tensor<16xf32>
// CHECK:         tile.reshape %{{.*}} {tile_gpu.logical_shape = array<i64: 3, 2, 2>} : tensor<16xf32> -> tensor<4x2x2xf32>
func.func @reshape_groups(%a: tensor<100x4xf32>, %b: tensor<3x4xf32>) -> (tensor<400xf32>, tensor<3x2x2xf32>) {
  %r = tile.reshape %a : tensor<100x4xf32> -> tensor<400xf32>
  %s = tile.reshape %b : tensor<3x4xf32> -> tensor<12xf32>
  %t = tile.reshape %s : tensor<12xf32> -> tensor<3x2x2xf32>
  return %r, %t : tensor<400xf32>, tensor<3x2x2xf32>
}

// -----

// A dot of BLOCK_N = 96: B, C and D pad to 128 columns and the dot records its logical shape
// (tile_nv.warpgroup_dot's valid_n comes from it). The block-pointer load that a bulk copy
// will serve keeps its (64, 96) block type, the box it reads, and loads the padded tile.
// CHECK-LABEL: func.func @dot_n96
// CHECK:         %[[B:.*]] = tile.load %{{.*}} boundary_check = [0, 1] padding = zero {tile_gpu.logical_shape = array<i64: 64, 96>} : !tile.block_ptr<tensor<64x96xf16>> -> tensor<64x128xf16>
// CHECK:         tile.dot %{{.*}}, %[[B]], %{{.*}} {tile_gpu.logical_shape = array<i64: 128, 96>} : tensor<128x64xf16> * tensor<64x128xf16> -> tensor<128x128xf32>
func.func @dot_n96(%a: tensor<128x64xf16>, %p: !tile.ptr<f16>, %k: i64, %n: i64, %c: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %bp = tile.make_block_ptr %p, [%k, %n], [%c1, %k], [%c0, %c0] {order = array<i32: 0, 1>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x96xf16>>
  %b = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x96xf16>>
  %d = tile.dot %a, %b, %c : tensor<128x64xf16> * tensor<64x96xf16> -> tensor<128x96xf32>
  return %d : tensor<128x96xf32>
}
