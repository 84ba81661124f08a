// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// Tile construction and shape ops: arange, splat, broadcast, expand_dims, reshape, trans.

// CHECK-LABEL: func.func @arange()
// CHECK-NEXT: %{{.*}} = tile.arange 0, 128 : tensor<128xi32>
// CHECK-NEXT: %{{.*}} = tile.arange 16, 48 : tensor<32xi32>
// CHECK-NEXT: %{{.*}} = tile.arange -4, 4 : tensor<8xi32>
// CHECK-NEXT: %{{.*}} = tile.arange 7, 8 : tensor<1xi32>
// CHECK-NEXT: %{{.*}} = tile.arange 0, 100 : tensor<100xi32>
func.func @arange() {
  %a = tile.arange 0, 128 : tensor<128xi32>      // (128)
  %b = tile.arange 16, 48 : tensor<32xi32>       // (32)
  %c = tile.arange -4, 4 : tensor<8xi32>         // (8)
  %d = tile.arange 7, 8 : tensor<1xi32>          // (1)
  %e = tile.arange 0, 100 : tensor<100xi32>      // (100): not a power of two, legal IR
  return
}

// CHECK-LABEL: func.func @splat
// CHECK-SAME: (%[[F:.*]]: f32, %[[I:.*]]: i64, %[[B:.*]]: i1, %[[P:.*]]: !tile.ptr<f16>, %[[S:.*]]: !tile.ptr<bf16, 3>)
// CHECK-NEXT: %{{.*}} = tile.splat %[[F]] : f32 -> tensor<64x128xf32>
// CHECK-NEXT: %{{.*}} = tile.splat %[[I]] : i64 -> tensor<16xi64>
// CHECK-NEXT: %{{.*}} = tile.splat %[[B]] : i1 -> tensor<4x4xi1>
// CHECK-NEXT: %{{.*}} = tile.splat %[[P]] : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
// CHECK-NEXT: %{{.*}} = tile.splat %[[S]] : !tile.ptr<bf16, 3> -> tensor<2x8x!tile.ptr<bf16, 3>>
func.func @splat(%f: f32, %i: i64, %b: i1, %p: !tile.ptr<f16>, %s: !tile.ptr<bf16, 3>) {
  %0 = tile.splat %f : f32 -> tensor<64x128xf32>                            // (64, 128)
  %1 = tile.splat %i : i64 -> tensor<16xi64>                                // (16)
  %2 = tile.splat %b : i1 -> tensor<4x4xi1>                                 // (4, 4)
  %3 = tile.splat %p : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>         // (128)
  %4 = tile.splat %s : !tile.ptr<bf16, 3> -> tensor<2x8x!tile.ptr<bf16, 3>> // (2, 8)
  return
}

// CHECK-LABEL: func.func @broadcast
// CHECK-SAME: (%[[ROW:.*]]: tensor<1x128xf32>, %[[COL:.*]]: tensor<64x1xi32>, %[[ONE:.*]]: tensor<1x1x!tile.ptr<f16>>, %[[SAME:.*]]: tensor<8x8xbf16>)
// CHECK-NEXT: %{{.*}} = tile.broadcast %[[ROW]] : tensor<1x128xf32> -> tensor<64x128xf32>
// CHECK-NEXT: %{{.*}} = tile.broadcast %[[COL]] : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK-NEXT: %{{.*}} = tile.broadcast %[[ONE]] : tensor<1x1x!tile.ptr<f16>> -> tensor<16x32x!tile.ptr<f16>>
// CHECK-NEXT: %{{.*}} = tile.broadcast %[[SAME]] : tensor<8x8xbf16> -> tensor<8x8xbf16>
func.func @broadcast(%row: tensor<1x128xf32>, %col: tensor<64x1xi32>,
                     %one: tensor<1x1x!tile.ptr<f16>>, %same: tensor<8x8xbf16>) {
  %0 = tile.broadcast %row : tensor<1x128xf32> -> tensor<64x128xf32>        // (1, 128) -> (64, 128)
  %1 = tile.broadcast %col : tensor<64x1xi32> -> tensor<64x32xi32>          // (64, 1) -> (64, 32)
  %2 = tile.broadcast %one : tensor<1x1x!tile.ptr<f16>> -> tensor<16x32x!tile.ptr<f16>>
  %3 = tile.broadcast %same : tensor<8x8xbf16> -> tensor<8x8xbf16>          // no-op, legal
  return
}

// CHECK-LABEL: func.func @expand_dims
// CHECK-SAME: (%[[V:.*]]: tensor<128xi32>, %[[M:.*]]: tensor<4x8xf16>, %[[P:.*]]: tensor<32x!tile.ptr<f32>>)
// CHECK-NEXT: %{{.*}} = tile.expand_dims %[[V]] {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
// CHECK-NEXT: %{{.*}} = tile.expand_dims %[[V]] {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
// CHECK-NEXT: %{{.*}} = tile.expand_dims %[[M]] {axis = 1 : i32} : tensor<4x8xf16> -> tensor<4x1x8xf16>
// CHECK-NEXT: %{{.*}} = tile.expand_dims %[[M]] {axis = 2 : i32} : tensor<4x8xf16> -> tensor<4x8x1xf16>
// CHECK-NEXT: %{{.*}} = tile.expand_dims %[[P]] {axis = 0 : i32} : tensor<32x!tile.ptr<f32>> -> tensor<1x32x!tile.ptr<f32>>
func.func @expand_dims(%v: tensor<128xi32>, %m: tensor<4x8xf16>, %p: tensor<32x!tile.ptr<f32>>) {
  %0 = tile.expand_dims %v {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>   // (1, 128)
  %1 = tile.expand_dims %v {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>   // (128, 1)
  %2 = tile.expand_dims %m {axis = 1 : i32} : tensor<4x8xf16> -> tensor<4x1x8xf16>
  %3 = tile.expand_dims %m {axis = 2 : i32} : tensor<4x8xf16> -> tensor<4x8x1xf16>
  %4 = tile.expand_dims %p {axis = 0 : i32} : tensor<32x!tile.ptr<f32>> -> tensor<1x32x!tile.ptr<f32>>
  return
}

// CHECK-LABEL: func.func @reshape
// CHECK-SAME: (%[[T:.*]]: tensor<4x32xf32>, %[[P:.*]]: tensor<8x8x!tile.ptr<i8>>)
// CHECK-NEXT: %{{.*}} = tile.reshape %[[T]] : tensor<4x32xf32> -> tensor<128xf32>
// CHECK-NEXT: %{{.*}} = tile.reshape %[[T]] : tensor<4x32xf32> -> tensor<2x2x32xf32>
// CHECK-NEXT: %{{.*}} = tile.reshape %[[T]] : tensor<4x32xf32> -> tensor<32x4xf32>
// CHECK-NEXT: %{{.*}} = tile.reshape %[[P]] : tensor<8x8x!tile.ptr<i8>> -> tensor<64x!tile.ptr<i8>>
func.func @reshape(%t: tensor<4x32xf32>, %p: tensor<8x8x!tile.ptr<i8>>) {
  %0 = tile.reshape %t : tensor<4x32xf32> -> tensor<128xf32>        // (4, 32) -> (128)
  %1 = tile.reshape %t : tensor<4x32xf32> -> tensor<2x2x32xf32>     // (4, 32) -> (2, 2, 32)
  %2 = tile.reshape %t : tensor<4x32xf32> -> tensor<32x4xf32>       // same count, not a transpose
  %3 = tile.reshape %p : tensor<8x8x!tile.ptr<i8>> -> tensor<64x!tile.ptr<i8>>
  return
}

// CHECK-LABEL: func.func @trans
// CHECK-SAME: (%[[X:.*]]: tensor<64x32xf16>, %[[Y:.*]]: tensor<2x4x8xi32>, %[[P:.*]]: tensor<4x16x!tile.ptr<f32>>)
// CHECK-NEXT: %{{.*}} = tile.trans %[[X]] {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
// CHECK-NEXT: %{{.*}} = tile.trans %[[X]] {order = array<i32: 0, 1>} : tensor<64x32xf16> -> tensor<64x32xf16>
// CHECK-NEXT: %{{.*}} = tile.trans %[[Y]] {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>
// CHECK-NEXT: %{{.*}} = tile.trans %[[P]] {order = array<i32: 1, 0>} : tensor<4x16x!tile.ptr<f32>> -> tensor<16x4x!tile.ptr<f32>>
func.func @trans(%x: tensor<64x32xf16>, %y: tensor<2x4x8xi32>, %p: tensor<4x16x!tile.ptr<f32>>) {
  %0 = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>     // (32, 64)
  %1 = tile.trans %x {order = array<i32: 0, 1>} : tensor<64x32xf16> -> tensor<64x32xf16>     // identity
  %2 = tile.trans %y {order = array<i32: 2, 0, 1>} : tensor<2x4x8xi32> -> tensor<8x2x4xi32>  // (8, 2, 4)
  %3 = tile.trans %p {order = array<i32: 1, 0>} : tensor<4x16x!tile.ptr<f32>> -> tensor<16x4x!tile.ptr<f32>>
  return
}

// The 2-D offsets of a (BM, BN) block, as kernels build them.
// CHECK-LABEL: func.func @offsets_2d
// CHECK-NEXT: %[[RM:.*]] = tile.arange 0, 64 : tensor<64xi32>
// CHECK-NEXT: %[[RN:.*]] = tile.arange 0, 32 : tensor<32xi32>
// CHECK-NEXT: %[[EM:.*]] = tile.expand_dims %[[RM]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK-NEXT: %[[EN:.*]] = tile.expand_dims %[[RN]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK-NEXT: %[[BM:.*]] = tile.broadcast %[[EM]] : tensor<64x1xi32> -> tensor<64x32xi32>
// CHECK-NEXT: %[[BN:.*]] = tile.broadcast %[[EN]] : tensor<1x32xi32> -> tensor<64x32xi32>
// CHECK-NEXT: %{{.*}} = arith.addi %[[BM]], %[[BN]] : tensor<64x32xi32>
func.func @offsets_2d(%stride: i32) -> tensor<64x32xi32> {
  %rm = tile.arange 0, 64 : tensor<64xi32>                                    // (BM)
  %rn = tile.arange 0, 32 : tensor<32xi32>                                    // (BN)
  %em = tile.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>   // (BM, 1)
  %en = tile.expand_dims %rn {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>   // (1, BN)
  %bm = tile.broadcast %em : tensor<64x1xi32> -> tensor<64x32xi32>            // (BM, BN)
  %bn = tile.broadcast %en : tensor<1x32xi32> -> tensor<64x32xi32>            // (BM, BN)
  %off = arith.addi %bm, %bn : tensor<64x32xi32>                              // (BM, BN)
  return %off : tensor<64x32xi32>
}
