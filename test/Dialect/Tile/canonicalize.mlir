// RUN: tessel-opt %s --canonicalize --split-input-file | FileCheck %s

// Folds and canonicalization patterns of the tile dialect (lib/Dialect/Tile/IR/TileCanonicalize.cpp):
// uniform values stay splats of scalars, constants stay constants, no-op shape ops and zero
// pointer offsets disappear. The CHECK-NOT cases are the folds that must not happen.

//===----------------------------------------------------------------------===//
// splat
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @splat_of_float_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<1.500000e+00> : tensor<64x128xf32>
// CHECK-NEXT: return %[[C]]
func.func @splat_of_float_constant() -> tensor<64x128xf32> {
  %c = arith.constant 1.5 : f32
  %t = tile.splat %c : f32 -> tensor<64x128xf32>
  return %t : tensor<64x128xf32>
}

// -----

// CHECK-LABEL: func.func @splat_of_int_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<7> : tensor<128xi32>
// CHECK-NEXT: return %[[C]]
func.func @splat_of_int_constant() -> tensor<128xi32> {
  %c = arith.constant 7 : i32
  %t = tile.splat %c : i32 -> tensor<128xi32>
  return %t : tensor<128xi32>
}

// -----

// CHECK-LABEL: func.func @splat_of_bool_constant
// CHECK-NEXT: %[[C:.*]] = arith.constant dense<true> : tensor<4x4xi1>
// CHECK-NEXT: return %[[C]]
func.func @splat_of_bool_constant() -> tensor<4x4xi1> {
  %c = arith.constant true
  %t = tile.splat %c : i1 -> tensor<4x4xi1>
  return %t : tensor<4x4xi1>
}

// -----

// A splat of an argument is not a constant.
// CHECK-LABEL: func.func @splat_of_argument
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NEXT: %[[T:.*]] = tile.splat %[[X]] : f32 -> tensor<16xf32>
// CHECK-NEXT: return %[[T]]
func.func @splat_of_argument(%x: f32) -> tensor<16xf32> {
  %t = tile.splat %x : f32 -> tensor<16xf32>
  return %t : tensor<16xf32>
}

//===----------------------------------------------------------------------===//
// Shape ops of a splat are splats
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @broadcast_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NEXT: %[[T:.*]] = tile.splat %[[X]] : f32 -> tensor<64x128xf32>
// CHECK-NEXT: return %[[T]]
func.func @broadcast_of_splat(%x: f32) -> tensor<64x128xf32> {
  %s = tile.splat %x : f32 -> tensor<1x128xf32>                         // (1, 128)
  %b = tile.broadcast %s : tensor<1x128xf32> -> tensor<64x128xf32>      // (64, 128)
  return %b : tensor<64x128xf32>
}

// -----

// CHECK-LABEL: func.func @expand_dims_of_splat
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f16>)
// CHECK-NEXT: %[[T:.*]] = tile.splat %[[P]] : !tile.ptr<f16> -> tensor<1x128x!tile.ptr<f16>>
// CHECK-NEXT: return %[[T]]
func.func @expand_dims_of_splat(%p: !tile.ptr<f16>) -> tensor<1x128x!tile.ptr<f16>> {
  %s = tile.splat %p : !tile.ptr<f16> -> tensor<128x!tile.ptr<f16>>
  %e = tile.expand_dims %s {axis = 0 : i32} : tensor<128x!tile.ptr<f16>> -> tensor<1x128x!tile.ptr<f16>>
  return %e : tensor<1x128x!tile.ptr<f16>>
}

// -----

// CHECK-LABEL: func.func @reshape_of_splat
// CHECK-SAME: (%[[X:.*]]: i32)
// CHECK-NEXT: %[[T:.*]] = tile.splat %[[X]] : i32 -> tensor<4x32xi32>
// CHECK-NEXT: return %[[T]]
func.func @reshape_of_splat(%x: i32) -> tensor<4x32xi32> {
  %s = tile.splat %x : i32 -> tensor<128xi32>
  %r = tile.reshape %s : tensor<128xi32> -> tensor<4x32xi32>
  return %r : tensor<4x32xi32>
}

// -----

// CHECK-LABEL: func.func @trans_of_splat
// CHECK-SAME: (%[[X:.*]]: bf16)
// CHECK-NEXT: %[[T:.*]] = tile.splat %[[X]] : bf16 -> tensor<32x64xbf16>
// CHECK-NEXT: return %[[T]]
func.func @trans_of_splat(%x: bf16) -> tensor<32x64xbf16> {
  %s = tile.splat %x : bf16 -> tensor<64x32xbf16>
  %t = tile.trans %s {order = array<i32: 1, 0>} : tensor<64x32xbf16> -> tensor<32x64xbf16>
  return %t : tensor<32x64xbf16>
}

// -----

// A chain of shape ops on a splat becomes one splat.
// CHECK-LABEL: func.func @chain_of_splat
// CHECK-SAME: (%[[X:.*]]: f32)
// CHECK-NEXT: %[[T:.*]] = tile.splat %[[X]] : f32 -> tensor<64x16xf32>
// CHECK-NEXT: return %[[T]]
func.func @chain_of_splat(%x: f32) -> tensor<64x16xf32> {
  %s = tile.splat %x : f32 -> tensor<16xf32>
  %e = tile.expand_dims %s {axis = 0 : i32} : tensor<16xf32> -> tensor<1x16xf32>
  %b = tile.broadcast %e : tensor<1x16xf32> -> tensor<64x16xf32>
  %t = tile.trans %b {order = array<i32: 1, 0>} : tensor<64x16xf32> -> tensor<16x64xf32>
  %r = tile.reshape %t : tensor<16x64xf32> -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}

//===----------------------------------------------------------------------===//
// Shape ops of splat constants fold to constants
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @shape_ops_of_splat_constant
// CHECK-DAG: %[[B:.*]] = arith.constant dense<2.000000e+00> : tensor<8x16xf32>
// CHECK-DAG: %[[E:.*]] = arith.constant dense<2.000000e+00> : tensor<16x1xf32>
// CHECK-DAG: %[[R:.*]] = arith.constant dense<2.000000e+00> : tensor<4x4xf32>
// CHECK-DAG: %[[T:.*]] = arith.constant dense<2.000000e+00> : tensor<16x8xf32>
// CHECK-NOT: tile.
// CHECK: return %[[B]], %[[E]], %[[R]], %[[T]]
func.func @shape_ops_of_splat_constant()
    -> (tensor<8x16xf32>, tensor<16x1xf32>, tensor<4x4xf32>, tensor<16x8xf32>) {
  %row = arith.constant dense<2.0> : tensor<1x16xf32>
  %vec = arith.constant dense<2.0> : tensor<16xf32>
  %mat = arith.constant dense<2.0> : tensor<8x16xf32>
  %b = tile.broadcast %row : tensor<1x16xf32> -> tensor<8x16xf32>
  %e = tile.expand_dims %vec {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %r = tile.reshape %vec : tensor<16xf32> -> tensor<4x4xf32>
  %t = tile.trans %mat {order = array<i32: 1, 0>} : tensor<8x16xf32> -> tensor<16x8xf32>
  return %b, %e, %r, %t : tensor<8x16xf32>, tensor<16x1xf32>, tensor<4x4xf32>, tensor<16x8xf32>
}

// -----

// A shape op of a non-splat constant is not folded: its elements would move.
// CHECK-LABEL: func.func @broadcast_of_non_splat
// CHECK: %[[C:.*]] = arith.constant dense<{{\[}}[0, 1, 2, 3]]> : tensor<1x4xi32>
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[C]] : tensor<1x4xi32> -> tensor<8x4xi32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_non_splat() -> tensor<8x4xi32> {
  %c = arith.constant dense<[[0, 1, 2, 3]]> : tensor<1x4xi32>
  %b = tile.broadcast %c : tensor<1x4xi32> -> tensor<8x4xi32>
  return %b : tensor<8x4xi32>
}

// -----

// CHECK-LABEL: func.func @trans_of_non_splat
// CHECK: %[[C:.*]] = arith.constant dense<{{\[}}[1, 2], [3, 4]]> : tensor<2x2xi32>
// CHECK-NEXT: %[[T:.*]] = tile.trans %[[C]] {order = array<i32: 1, 0>} : tensor<2x2xi32> -> tensor<2x2xi32>
// CHECK-NEXT: return %[[T]]
func.func @trans_of_non_splat() -> tensor<2x2xi32> {
  %c = arith.constant dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
  %t = tile.trans %c {order = array<i32: 1, 0>} : tensor<2x2xi32> -> tensor<2x2xi32>
  return %t : tensor<2x2xi32>
}

// -----

// A broadcast of a non-splat value (an arange) stays.
// CHECK-LABEL: func.func @broadcast_of_arange
// CHECK-NEXT: %[[R:.*]] = tile.arange 0, 32 : tensor<32xi32>
// CHECK-NEXT: %[[E:.*]] = tile.expand_dims %[[R]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[E]] : tensor<1x32xi32> -> tensor<16x32xi32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_of_arange() -> tensor<16x32xi32> {
  %r = tile.arange 0, 32 : tensor<32xi32>
  %e = tile.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %b = tile.broadcast %e : tensor<1x32xi32> -> tensor<16x32xi32>
  return %b : tensor<16x32xi32>
}

//===----------------------------------------------------------------------===//
// No-op shape ops
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @broadcast_to_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @broadcast_to_same_type(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %b = tile.broadcast %x : tensor<8x8xf32> -> tensor<8x8xf32>
  return %b : tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_to_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xf16>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_to_same_type(%x: tensor<4x32xf16>) -> tensor<4x32xf16> {
  %r = tile.reshape %x : tensor<4x32xf16> -> tensor<4x32xf16>
  return %r : tensor<4x32xf16>
}

// -----

// CHECK-LABEL: func.func @trans_identity
// CHECK-SAME: (%[[X:.*]]: tensor<4x8x16xf32>)
// CHECK-NEXT: return %[[X]]
func.func @trans_identity(%x: tensor<4x8x16xf32>) -> tensor<4x8x16xf32> {
  %t = tile.trans %x {order = array<i32: 0, 1, 2>} : tensor<4x8x16xf32> -> tensor<4x8x16xf32>
  return %t : tensor<4x8x16xf32>
}

// -----

// A transpose of a square tile has the operand's type but is not a no-op.
// CHECK-LABEL: func.func @trans_square
// CHECK-SAME: (%[[X:.*]]: tensor<8x8xf32>)
// CHECK-NEXT: %[[T:.*]] = tile.trans %[[X]] {order = array<i32: 1, 0>} : tensor<8x8xf32> -> tensor<8x8xf32>
// CHECK-NEXT: return %[[T]]
func.func @trans_square(%x: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<8x8xf32> -> tensor<8x8xf32>
  return %t : tensor<8x8xf32>
}

// -----

// A reshape to a different shape of the same size is kept.
// CHECK-LABEL: func.func @reshape_kept
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: %[[R:.*]] = tile.reshape %[[X]] : tensor<4x8xf32> -> tensor<8x4xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_kept(%x: tensor<4x8xf32>) -> tensor<8x4xf32> {
  %r = tile.reshape %x : tensor<4x8xf32> -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

//===----------------------------------------------------------------------===//
// Compositions
//===----------------------------------------------------------------------===//

// -----

// trans(trans(x)) whose orders compose to the identity is x.
// CHECK-LABEL: func.func @trans_trans_cancels
// CHECK-SAME: (%[[X:.*]]: tensor<64x32xf16>)
// CHECK-NEXT: return %[[X]]
func.func @trans_trans_cancels(%x: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<64x32xf16> -> tensor<32x64xf16>
  %u = tile.trans %t {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
  return %u : tensor<64x32xf16>
}

// -----

// A rotation and its inverse cancel: (2, 0, 1) then (1, 2, 0).
// CHECK-LABEL: func.func @trans_trans_cancels_rank3
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @trans_trans_cancels_rank3(%x: tensor<2x4x8xf32>) -> tensor<2x4x8xf32> {
  %t = tile.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %u = tile.trans %t {order = array<i32: 1, 2, 0>} : tensor<8x2x4xf32> -> tensor<2x4x8xf32>
  return %u : tensor<2x4x8xf32>
}

// -----

// Otherwise trans(trans(x)) is one trans with the composed order: result dim i of the outer
// trans is dim inner[outer[i]] of x. Here (1, 0, 2) after (2, 0, 1) is (0, 2, 1).
// CHECK-LABEL: func.func @trans_trans_composes
// CHECK-SAME: (%[[X:.*]]: tensor<2x4x8xf32>)
// CHECK-NEXT: %[[T:.*]] = tile.trans %[[X]] {order = array<i32: 0, 2, 1>} : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
// CHECK-NEXT: return %[[T]]
func.func @trans_trans_composes(%x: tensor<2x4x8xf32>) -> tensor<2x8x4xf32> {
  %t = tile.trans %x {order = array<i32: 2, 0, 1>} : tensor<2x4x8xf32> -> tensor<8x2x4xf32>
  %u = tile.trans %t {order = array<i32: 1, 0, 2>} : tensor<8x2x4xf32> -> tensor<2x8x4xf32>
  return %u : tensor<2x8x4xf32>
}

// -----

// CHECK-LABEL: func.func @reshape_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xf32>)
// CHECK-NEXT: %[[R:.*]] = tile.reshape %[[X]] : tensor<4x32xf32> -> tensor<8x16xf32>
// CHECK-NEXT: return %[[R]]
func.func @reshape_reshape(%x: tensor<4x32xf32>) -> tensor<8x16xf32> {
  %a = tile.reshape %x : tensor<4x32xf32> -> tensor<128xf32>
  %b = tile.reshape %a : tensor<128xf32> -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

// -----

// A reshape back to the original shape disappears.
// CHECK-LABEL: func.func @reshape_reshape_round_trip
// CHECK-SAME: (%[[X:.*]]: tensor<4x32xf32>)
// CHECK-NEXT: return %[[X]]
func.func @reshape_reshape_round_trip(%x: tensor<4x32xf32>) -> tensor<4x32xf32> {
  %a = tile.reshape %x : tensor<4x32xf32> -> tensor<128xf32>
  %b = tile.reshape %a : tensor<128xf32> -> tensor<4x32xf32>
  return %b : tensor<4x32xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<1x1xf32>)
// CHECK-NEXT: %[[B:.*]] = tile.broadcast %[[X]] : tensor<1x1xf32> -> tensor<8x16xf32>
// CHECK-NEXT: return %[[B]]
func.func @broadcast_broadcast(%x: tensor<1x1xf32>) -> tensor<8x16xf32> {
  %a = tile.broadcast %x : tensor<1x1xf32> -> tensor<1x16xf32>
  %b = tile.broadcast %a : tensor<1x16xf32> -> tensor<8x16xf32>
  return %b : tensor<8x16xf32>
}

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @addptr_of_zero
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>)
// CHECK-NEXT: return %[[P]]
func.func @addptr_of_zero(%p: !tile.ptr<f32>) -> !tile.ptr<f32> {
  %c0 = arith.constant 0 : i64
  %q = tile.addptr %p, %c0 : !tile.ptr<f32>, i64
  return %q : !tile.ptr<f32>
}

// -----

// CHECK-LABEL: func.func @addptr_of_zero_tile
// CHECK-SAME: (%[[P:.*]]: tensor<128x!tile.ptr<f16>>)
// CHECK-NEXT: return %[[P]]
func.func @addptr_of_zero_tile(%p: tensor<128x!tile.ptr<f16>>) -> tensor<128x!tile.ptr<f16>> {
  %c0 = arith.constant dense<0> : tensor<128xi32>
  %q = tile.addptr %p, %c0 : tensor<128x!tile.ptr<f16>>, tensor<128xi32>
  return %q : tensor<128x!tile.ptr<f16>>
}

// -----

// A splat of zero folds to a zero constant first, then the addptr folds.
// CHECK-LABEL: func.func @addptr_of_splat_zero
// CHECK-SAME: (%[[P:.*]]: tensor<64x!tile.ptr<i8>>)
// CHECK-NEXT: return %[[P]]
func.func @addptr_of_splat_zero(%p: tensor<64x!tile.ptr<i8>>) -> tensor<64x!tile.ptr<i8>> {
  %z = arith.constant 0 : i32
  %zs = tile.splat %z : i32 -> tensor<64xi32>
  %q = tile.addptr %p, %zs : tensor<64x!tile.ptr<i8>>, tensor<64xi32>
  return %q : tensor<64x!tile.ptr<i8>>
}

// -----

// CHECK-LABEL: func.func @addptr_of_nonzero
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>)
// CHECK-NEXT: %[[C:.*]] = arith.constant 4 : i64
// CHECK-NEXT: %[[Q:.*]] = tile.addptr %[[P]], %[[C]] : !tile.ptr<f32>, i64
// CHECK-NEXT: return %[[Q]]
func.func @addptr_of_nonzero(%p: !tile.ptr<f32>) -> !tile.ptr<f32> {
  %c4 = arith.constant 4 : i64
  %q = tile.addptr %p, %c4 : !tile.ptr<f32>, i64
  return %q : !tile.ptr<f32>
}

// -----

// An offset tile that is zero in only some lanes is not zero.
// CHECK-LABEL: func.func @addptr_of_partly_zero
// CHECK: %[[Q:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
// CHECK-NEXT: return %[[Q]]
func.func @addptr_of_partly_zero(%p: tensor<4x!tile.ptr<f32>>) -> tensor<4x!tile.ptr<f32>> {
  %c = arith.constant dense<[0, 0, 0, 1]> : tensor<4xi32>
  %q = tile.addptr %p, %c : tensor<4x!tile.ptr<f32>>, tensor<4xi32>
  return %q : tensor<4x!tile.ptr<f32>>
}

// -----

// CHECK-LABEL: func.func @addptr_of_argument
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[O:.*]]: i32)
// CHECK-NEXT: %[[Q:.*]] = tile.addptr %[[P]], %[[O]] : !tile.ptr<f32>, i32
// CHECK-NEXT: return %[[Q]]
func.func @addptr_of_argument(%p: !tile.ptr<f32>, %o: i32) -> !tile.ptr<f32> {
  %q = tile.addptr %p, %o : !tile.ptr<f32>, i32
  return %q : !tile.ptr<f32>
}

//===----------------------------------------------------------------------===//
// Ops with effects are kept; pure ops without uses go
//===----------------------------------------------------------------------===//

// -----

// CHECK-LABEL: func.func @dead_code
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tile.ptr<f32>>, %[[X:.*]]: tensor<8xf32>)
// CHECK-NEXT: %{{.*}} = tile.load %[[P]] volatile : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, relaxed, gpu, %[[P]], %[[X]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_cas relaxed, gpu, %[[P]], %[[X]], %[[X]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[X]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: return
func.func @dead_code(%p: tensor<8x!tile.ptr<f32>>, %x: tensor<8xf32>) {
  %pid = tile.program_id 0
  %r = tile.arange 0, 8 : tensor<8xi32>
  %l = tile.load %p : tensor<8x!tile.ptr<f32>>
  %v = tile.load %p volatile : tensor<8x!tile.ptr<f32>>
  %o = tile.atomic_rmw add, relaxed, gpu, %p, %x : tensor<8x!tile.ptr<f32>>
  %c = tile.atomic_cas relaxed, gpu, %p, %x, %x : tensor<8x!tile.ptr<f32>>
  tile.store %p, %x : tensor<8x!tile.ptr<f32>>
  return
}
