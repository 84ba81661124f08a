// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Verifiers and parsers of addptr, load, store, make_block_ptr and advance. The custom forms
// derive mask, other and result types from the pointer type, so mismatches between them are
// written in the generic form to reach the verifier.

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

func.func @addptr_shape(%p: tensor<128x!tile.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{'tile.addptr' op offset shape [64] does not match pointer shape [128]; splat or broadcast one of them first}}
  %q = tile.addptr %p, %o : tensor<128x!tile.ptr<f32>>, tensor<64xi32>
  return
}

// -----

func.func @addptr_scalar_offset(%p: tensor<128x!tile.ptr<f32>>, %o: i32) {
  // expected-error @+1 {{'tile.addptr' op offset shape scalar does not match pointer shape [128]; splat or broadcast one of them first}}
  %q = tile.addptr %p, %o : tensor<128x!tile.ptr<f32>>, i32
  return
}

// -----

func.func @addptr_scalar_pointer(%p: !tile.ptr<f32>, %o: tensor<4xi32>) {
  // expected-error @+1 {{'tile.addptr' op offset shape [4] does not match pointer shape scalar; splat or broadcast one of them first}}
  %q = tile.addptr %p, %o : !tile.ptr<f32>, tensor<4xi32>
  return
}

// -----

func.func @addptr_float_offset(%p: !tile.ptr<f32>, %o: f32) {
  // expected-error @+1 {{'tile.addptr' op operand #1 must be integer or tile of integers, but got 'f32'}}
  %q = tile.addptr %p, %o : !tile.ptr<f32>, f32
  return
}

//===----------------------------------------------------------------------===//
// load
//===----------------------------------------------------------------------===//

// -----

func.func @load_mask_shape(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<128xi1>) {
  // expected-error @+1 {{'tile.load' op mask shape [128] does not match pointer shape [64]}}
  %x = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<64xf32>
  return
}

// -----

func.func @load_scalar_mask(%p: tensor<64x!tile.ptr<f32>>, %m: i1) {
  // expected-error @+1 {{'tile.load' op mask shape scalar does not match pointer shape [64]}}
  %x = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
       : (tensor<64x!tile.ptr<f32>>, i1) -> tensor<64xf32>
  return
}

// -----

func.func @load_mask_not_i1(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi8>) {
  // expected-error @+1 {{'tile.load' op operand #1 must be i1 or tile of i1, but got 'tensor<64xi8>'}}
  %x = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<64xi8>) -> tensor<64xf32>
  return
}

// -----

func.func @load_result_shape(%p: tensor<64x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op result shape [32] does not match pointer shape [64]}}
  %x = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}>
       : (tensor<64x!tile.ptr<f32>>) -> tensor<32xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<64x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op result type 'f16' differs from the pointee type 'f32'}}
  %x = "tile.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}>
       : (tensor<64x!tile.ptr<f32>>) -> tensor<64xf16>
  return
}

// -----

func.func @load_other_type(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %o: tensor<64xf16>) {
  // expected-error @+1 {{'tile.load' op 'other' type 'f16' differs from the pointee type 'f32'}}
  %x = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<64xi1>, tensor<64xf16>) -> tensor<64xf32>
  return
}

// -----

func.func @load_other_shape(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>, %o: f32) {
  // expected-error @+1 {{'tile.load' op 'other' shape scalar does not match pointer shape [64]}}
  %x = "tile.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<64xi1>, f32) -> tensor<64xf32>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<64x!tile.ptr<f32>>, %o: tensor<64xf32>) {
  // expected-error @+1 {{'tile.load' op 'other' is the value of masked-off lanes and needs a mask}}
  %x = "tile.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>) -> tensor<64xf32>
  return
}

// -----

func.func @load_boundary_check_without_block_ptr(%p: tensor<64x!tile.ptr<f32>>) {
  // expected-error @+1 {{'tile.load' op boundary_check and padding apply to block pointers only; use a mask}}
  %x = tile.load %p boundary_check = [0] : tensor<64x!tile.ptr<f32>>
  return
}

// -----

func.func @load_padding_without_block_ptr(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<64xi1>) {
  // expected-error @+1 {{'tile.load' op boundary_check and padding apply to block pointers only; use a mask}}
  %x = tile.load %p, %m padding = zero : tensor<64x!tile.ptr<f32>>
  return
}

// -----

// In the custom form the mask's type follows from the pointer: a mask of another shape is a
// type mismatch of the operand.
func.func @load_mask_shape_custom(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<128xi1>) {
  // expected-note @-1 {{prior use here}}
  // expected-error @+1 {{use of value '%m' expects different type than prior uses: 'tensor<64xi1>' vs 'tensor<128xi1>'}}
  %x = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// load and store through block pointers
//===----------------------------------------------------------------------===//

// -----

func.func @block_load_with_mask(%bp: !tile.block_ptr<tensor<64x64xf16>>, %m: tensor<64x64xi1>) {
  // expected-error @+1 {{'tile.load' op a load through a block pointer takes boundary_check and padding, not a mask or other}}
  %x = tile.load %bp, %m : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @block_load_with_other(%bp: !tile.block_ptr<tensor<64xf16>>, %o: tensor<64xf16>) {
  // expected-error @+1 {{'tile.load' op a load through a block pointer takes boundary_check and padding, not a mask or other}}
  %x = "tile.load"(%bp, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}>
       : (!tile.block_ptr<tensor<64xf16>>, tensor<64xf16>) -> tensor<64xf16>
  return
}

// -----

func.func @block_load_result(%bp: !tile.block_ptr<tensor<64x64xf16>>) {
  // expected-error @+1 {{'tile.load' op result type 'tensor<64x32xf16>' differs from the block type 'tensor<64x64xf16>'}}
  %x = "tile.load"(%bp) <{operandSegmentSizes = array<i32: 1, 0, 0>}>
       : (!tile.block_ptr<tensor<64x64xf16>>) -> tensor<64x32xf16>
  return
}

// -----

func.func @block_load_boundary_check_range(%bp: !tile.block_ptr<tensor<64x64xf16>>) {
  // expected-error @+1 {{'tile.load' op boundary_check dimension 2 is out of range or repeated for a rank-2 block}}
  %x = tile.load %bp boundary_check = [0, 2] : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @block_load_boundary_check_negative(%bp: !tile.block_ptr<tensor<64x64xf16>>) {
  // expected-error @+1 {{'tile.load' op boundary_check dimension -1 is out of range or repeated for a rank-2 block}}
  %x = tile.load %bp boundary_check = [-1] : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @block_load_nan_padding_int(%bp: !tile.block_ptr<tensor<64xi32>>) {
  // expected-error @+1 {{'tile.load' op padding = nan needs a floating-point block, got 'tensor<64xi32>'}}
  %x = tile.load %bp boundary_check = [0] padding = nan : !tile.block_ptr<tensor<64xi32>>
  return
}

// -----

func.func @block_store_with_mask(%bp: !tile.block_ptr<tensor<64xf16>>, %v: tensor<64xf16>, %m: tensor<64xi1>) {
  // expected-error @+1 {{'tile.store' op a store through a block pointer takes boundary_check, not a mask}}
  tile.store %bp, %v, %m : !tile.block_ptr<tensor<64xf16>>
  return
}

// -----

func.func @block_store_value(%bp: !tile.block_ptr<tensor<64x64xf16>>, %v: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.store' op value type 'tensor<64x64xf32>' differs from the block type 'tensor<64x64xf16>'}}
  "tile.store"(%bp, %v) : (!tile.block_ptr<tensor<64x64xf16>>, tensor<64x64xf32>) -> ()
  return
}

// -----

func.func @block_store_boundary_check_repeated(%bp: !tile.block_ptr<tensor<64x64xf16>>, %v: tensor<64x64xf16>) {
  // expected-error @+1 {{'tile.store' op boundary_check dimension 1 is out of range or repeated for a rank-2 block}}
  tile.store %bp, %v boundary_check = [1, 1] : !tile.block_ptr<tensor<64x64xf16>>
  return
}

//===----------------------------------------------------------------------===//
// store
//===----------------------------------------------------------------------===//

// -----

func.func @store_value_shape(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<32xf32>) {
  // expected-error @+1 {{'tile.store' op value shape [32] does not match pointer shape [64]}}
  "tile.store"(%p, %v) : (tensor<64x!tile.ptr<f32>>, tensor<32xf32>) -> ()
  return
}

// -----

func.func @store_value_type(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xbf16>) {
  // expected-error @+1 {{'tile.store' op value type 'bf16' differs from the pointee type 'f32'}}
  "tile.store"(%p, %v) : (tensor<64x!tile.ptr<f32>>, tensor<64xbf16>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<4x16x!tile.ptr<f32>>, %v: tensor<4x16xf32>, %m: tensor<16x4xi1>) {
  // expected-error @+1 {{'tile.store' op mask shape [16, 4] does not match pointer shape [4, 16]}}
  "tile.store"(%p, %v, %m) : (tensor<4x16x!tile.ptr<f32>>, tensor<4x16xf32>, tensor<16x4xi1>) -> ()
  return
}

// -----

func.func @store_boundary_check_without_block_ptr(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>) {
  // expected-error @+1 {{'tile.store' op boundary_check applies to block pointers only; use a mask}}
  tile.store %p, %v boundary_check = [0] : tensor<64x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// make_block_ptr and advance
//===----------------------------------------------------------------------===//

// -----

func.func @make_block_ptr_shape(%a: !tile.ptr<f16>, %x: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op shape has 1 entries for a rank-2 block}}
  %bp = tile.make_block_ptr %a, [%x], [%x, %x], [%x, %x] {order = array<i32: 1, 0>}
        : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @make_block_ptr_strides(%a: !tile.ptr<f16>, %x: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op strides has 3 entries for a rank-2 block}}
  %bp = tile.make_block_ptr %a, [%x, %x], [%x, %x, %x], [%x, %x] {order = array<i32: 1, 0>}
        : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @make_block_ptr_offsets(%a: !tile.ptr<f16>, %x: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op offsets has 0 entries for a rank-2 block}}
  %bp = tile.make_block_ptr %a, [%x, %x], [%x, %x], [] {order = array<i32: 1, 0>}
        : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @make_block_ptr_element(%a: !tile.ptr<f32>, %x: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op base points to 'f32' but the block holds 'f16'}}
  %bp = tile.make_block_ptr %a, [%x, %x], [%x, %x], [%x, %x] {order = array<i32: 1, 0>}
        : !tile.ptr<f32> -> !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @make_block_ptr_order_length(%a: !tile.ptr<f16>, %x: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op order has 1 entries for a rank-2 tile}}
  %bp = tile.make_block_ptr %a, [%x, %x], [%x, %x], [%x, %x] {order = array<i32: 0>}
        : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @make_block_ptr_order_permutation(%a: !tile.ptr<f16>, %x: i64) {
  // expected-error @+1 {{'tile.make_block_ptr' op order must be a permutation of [0, 2), got [0, 0]}}
  %bp = tile.make_block_ptr %a, [%x, %x], [%x, %x], [%x, %x] {order = array<i32: 0, 0>}
        : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @make_block_ptr_i32_shape(%a: !tile.ptr<f16>, %x: i64, %y: i32) {
  // expected-error @+1 {{'tile.make_block_ptr' op operand #1 must be variadic of 64-bit signless integer, but got 'i32'}}
  %bp = "tile.make_block_ptr"(%a, %y, %x, %x) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>, order = array<i32: 0>}>
        : (!tile.ptr<f16>, i32, i64, i64) -> !tile.block_ptr<tensor<64xf16>>
  return
}

// -----

func.func @advance_offsets(%bp: !tile.block_ptr<tensor<64x64xf16>>, %x: i64) {
  // expected-error @+1 {{'tile.advance' op offsets has 1 entries for a rank-2 block}}
  %n = tile.advance %bp, [%x] : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// -----

func.func @advance_result(%bp: !tile.block_ptr<tensor<64x64xf16>>, %x: i64) {
  // expected-error @+1 {{'tile.advance' op failed to verify that all of {ptr, result} have same type}}
  %n = "tile.advance"(%bp, %x, %x) : (!tile.block_ptr<tensor<64x64xf16>>, i64, i64) -> !tile.block_ptr<tensor<32x64xf16>>
  return
}

//===----------------------------------------------------------------------===//
// Parser errors of the custom load/store forms
//===----------------------------------------------------------------------===//

// -----

func.func @parse_unknown_cache(%p: tensor<8x!tile.ptr<f32>>) {
  // expected-error @+1 {{unknown cache modifier 'L1'; expected one of none, ca, cg, cs, cv, wb, wt}}
  %x = tile.load %p cache = L1 : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @parse_cache_not_keyword(%p: tensor<8x!tile.ptr<f32>>) {
  // expected-error @+1 {{expected cache modifier keyword; expected one of none, ca, cg, cs, cv, wb, wt}}
  %x = tile.load %p cache = "cg" : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @parse_unknown_evict(%p: tensor<8x!tile.ptr<f32>>) {
  // expected-error @+1 {{unknown eviction policy 'evict_never'; expected one of normal, evict_first, evict_last}}
  %x = tile.load %p evict = evict_never : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @parse_unknown_padding(%bp: !tile.block_ptr<tensor<8xf32>>) {
  // expected-error @+1 {{unknown padding option 'inf'; expected one of zero, nan}}
  %x = tile.load %bp padding = inf : !tile.block_ptr<tensor<8xf32>>
  return
}

// -----

func.func @parse_store_unknown_cache(%p: tensor<8x!tile.ptr<f32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{unknown cache modifier 'cx'; expected one of none, ca, cg, cs, cv, wb, wt}}
  tile.store %p, %v cache = cx : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @parse_store_unknown_evict(%p: tensor<8x!tile.ptr<f32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{unknown eviction policy 'first'; expected one of normal, evict_first, evict_last}}
  tile.store %p, %v evict = first : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @parse_missing_equal(%p: tensor<8x!tile.ptr<f32>>) {
  // expected-error @+1 {{expected '='}}
  %x = tile.load %p cache cg : tensor<8x!tile.ptr<f32>>
  return
}

// -----

func.func @parse_bad_boundary_check(%bp: !tile.block_ptr<tensor<8xf32>>) {
  // expected-error @+1 {{expected '['}}
  %x = tile.load %bp boundary_check = 0 : !tile.block_ptr<tensor<8xf32>>
  return
}

// -----

func.func @parse_load_non_pointer(%p: tensor<8xf32>) {
  // expected-error @+1 {{expected a !tile.ptr, a tile of them or a !tile.block_ptr, got 'tensor<8xf32>'}}
  %x = tile.load %p : tensor<8xf32>
  return
}

// -----

func.func @parse_load_scalar_non_pointer(%p: i64) {
  // expected-error @+1 {{expected a !tile.ptr, a tile of them or a !tile.block_ptr, got 'i64'}}
  %x = tile.load %p : i64
  return
}

// -----

func.func @parse_store_non_pointer(%p: tensor<8xi32>, %v: tensor<8xi32>) {
  // expected-error @+1 {{expected a !tile.ptr, a tile of them or a !tile.block_ptr, got 'tensor<8xi32>'}}
  tile.store %p, %v : tensor<8xi32>
  return
}

// -----

// A tile of block pointers is not pointer-like.
func.func @parse_tile_of_block_ptrs(%p: tensor<4x!tile.block_ptr<tensor<8xf32>>>) {
  // expected-error @+1 {{expected a !tile.ptr, a tile of them or a !tile.block_ptr, got 'tensor<4x!tile.block_ptr<tensor<8xf32>>>'}}
  %x = tile.load %p : tensor<4x!tile.block_ptr<tensor<8xf32>>>
  return
}

// -----

func.func @parse_store_missing_value(%p: tensor<8x!tile.ptr<f32>>) {
  // expected-error @+1 {{expected ','}}
  tile.store %p : tensor<8x!tile.ptr<f32>>
  return
}
