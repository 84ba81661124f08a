// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Verifiers of arange, splat, broadcast, expand_dims, reshape and trans.

//===----------------------------------------------------------------------===//
// arange
//===----------------------------------------------------------------------===//

func.func @arange_empty() {
  // expected-error @+1 {{'tile.arange' op start 8 must be less than end 8}}
  %r = tile.arange 8, 8 : tensor<0xi32>
  return
}

// -----

func.func @arange_reversed() {
  // expected-error @+1 {{'tile.arange' op start 16 must be less than end 4}}
  %r = tile.arange 16, 4 : tensor<12xi32>
  return
}

// -----

func.func @arange_negative_bounds() {
  // expected-error @+1 {{'tile.arange' op start -2 must be less than end -4}}
  %r = tile.arange -2, -4 : tensor<2xi32>
  return
}

// -----

func.func @arange_length() {
  // expected-error @+1 {{'tile.arange' op arange 0, 64 has 64 elements but the result has shape [128]}}
  %r = tile.arange 0, 64 : tensor<128xi32>
  return
}

// -----

func.func @arange_rank2() {
  // expected-error @+1 {{'tile.arange' op arange 0, 64 has 64 elements but the result has shape [8, 8]}}
  %r = tile.arange 0, 64 : tensor<8x8xi32>
  return
}

// -----

func.func @arange_i64() {
  // expected-error @+1 {{'tile.arange' op result #0 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<4xi64>'}}
  %r = tile.arange 0, 4 : tensor<4xi64>
  return
}

//===----------------------------------------------------------------------===//
// splat
//===----------------------------------------------------------------------===//

// -----

func.func @splat_element_type(%x: f32) {
  // expected-error @+1 {{'tile.splat' op result element type 'f16' differs from the splatted scalar's type 'f32'}}
  %t = tile.splat %x : f32 -> tensor<4xf16>
  return
}

// -----

func.func @splat_pointer_address_space(%p: !tile.ptr<f32>) {
  // expected-error @+1 {{'tile.splat' op result element type '!tile.ptr<f32, 3>' differs from the splatted scalar's type '!tile.ptr<f32>'}}
  %t = tile.splat %p : !tile.ptr<f32> -> tensor<4x!tile.ptr<f32, 3>>
  return
}

// -----

func.func @splat_of_tile(%x: tensor<4xf32>) {
  // expected-error @+1 {{'tile.splat' op operand #0 must be scalar, but got 'tensor<4xf32>'}}
  %t = tile.splat %x : tensor<4xf32> -> tensor<4x4xf32>
  return
}

//===----------------------------------------------------------------------===//
// broadcast
//===----------------------------------------------------------------------===//

// -----

func.func @broadcast_element_type(%x: tensor<1x8xf32>) {
  // expected-error @+1 {{'tile.broadcast' op element type changes from 'f32' to 'f16'}}
  %t = tile.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot change rank from 1 to 2; insert unit dimensions with tile.expand_dims first}}
  %t = tile.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_non_unit(%x: tensor<2x8xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast dimension 0 of size 2 to 4: only unit dimensions broadcast}}
  %t = tile.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_shrink(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.broadcast' op cannot broadcast dimension 1 of size 8 to 1: only unit dimensions broadcast}}
  %t = tile.broadcast %x : tensor<4x8xf32> -> tensor<4x1xf32>
  return
}

//===----------------------------------------------------------------------===//
// expand_dims
//===----------------------------------------------------------------------===//

// -----

func.func @expand_dims_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis 2 is out of range [0, 1] for a rank-1 tile}}
  %t = tile.expand_dims %x {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @expand_dims_negative_axis(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op axis -1 is out of range [0, 1] for a rank-1 tile}}
  %t = tile.expand_dims %x {axis = -1 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @expand_dims_result_shape(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result must be 'tensor<1x8xf32>', got 'tensor<8x1xf32>'}}
  %t = tile.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @expand_dims_result_element(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.expand_dims' op result must be 'tensor<8x1xf32>', got 'tensor<8x1xf16>'}}
  %t = tile.expand_dims %x {axis = 1 : i32} : tensor<8xf32> -> tensor<8x1xf16>
  return
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_element_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reshape' op element type changes from 'f32' to 'i32'}}
  %t = tile.reshape %x : tensor<4x8xf32> -> tensor<32xi32>
  return
}

// -----

func.func @reshape_count(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reshape' op cannot reshape [4, 8] (32 elements) to [64] (64 elements)}}
  %t = tile.reshape %x : tensor<4x8xf32> -> tensor<64xf32>
  return
}

//===----------------------------------------------------------------------===//
// trans
//===----------------------------------------------------------------------===//

// -----

func.func @trans_order_length(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op order has 3 entries for a rank-2 tile}}
  %t = tile.trans %x {order = array<i32: 1, 0, 2>} : tensor<4x8xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @trans_order_repeated(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of [0, 2), got [1, 1]}}
  %t = tile.trans %x {order = array<i32: 1, 1>} : tensor<4x8xf32> -> tensor<8x8xf32>
  return
}

// -----

func.func @trans_order_out_of_range(%x: tensor<2x4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op order must be a permutation of [0, 3), got [0, 3, 1]}}
  %t = tile.trans %x {order = array<i32: 0, 3, 1>} : tensor<2x4x8xf32> -> tensor<2x8x4xf32>
  return
}

// -----

func.func @trans_result(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op result must be 'tensor<8x4xf32>', got 'tensor<4x8xf32>'}}
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @trans_result_element(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.trans' op result must be 'tensor<8x4xf32>', got 'tensor<8x4xbf16>'}}
  %t = tile.trans %x {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xbf16>
  return
}
