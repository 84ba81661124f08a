// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Verifiers and parsers of tile.atomic_rmw and tile.atomic_cas.

func.func @rmw_value_shape(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<32xf32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op value shape [32] does not match pointer shape [64]}}
  %o = "tile.atomic_rmw"(%p, %v) <{kind = #tile.rmw<add>, sem = #tile.sem<relaxed>, scope = #tile.scope<gpu>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<32xf32>) -> tensor<64xf32>
  return
}

// -----

func.func @rmw_value_type(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf16>) {
  // expected-error @+1 {{'tile.atomic_rmw' op value type 'f16' differs from the pointee type 'f32'}}
  %o = "tile.atomic_rmw"(%p, %v) <{kind = #tile.rmw<add>, sem = #tile.sem<relaxed>, scope = #tile.scope<gpu>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<64xf16>) -> tensor<64xf32>
  return
}

// -----

func.func @rmw_result_type(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{'tile.atomic_rmw' op result type 'i64' differs from the pointee type 'i32'}}
  %o = "tile.atomic_rmw"(%p, %v) <{kind = #tile.rmw<add>, sem = #tile.sem<relaxed>, scope = #tile.scope<gpu>}>
       : (!tile.ptr<i32>, i32) -> i64
  return
}

// -----

func.func @rmw_mask_shape(%p: tensor<64x!tile.ptr<f32>>, %v: tensor<64xf32>, %m: i1) {
  // expected-error @+1 {{'tile.atomic_rmw' op mask shape scalar does not match pointer shape [64]}}
  %o = "tile.atomic_rmw"(%p, %v, %m) <{kind = #tile.rmw<add>, sem = #tile.sem<relaxed>, scope = #tile.scope<gpu>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<64xf32>, i1) -> tensor<64xf32>
  return
}

// -----

// i1 has no atomic arithmetic.
func.func @rmw_add_bool(%p: !tile.ptr<i1>, %v: i1) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic add needs an integer (i8 to i64) or float pointee, got 'i1'}}
  %o = tile.atomic_rmw add, relaxed, gpu, %p, %v : !tile.ptr<i1>
  return
}

// -----

func.func @rmw_max_bool(%p: tensor<8x!tile.ptr<i1>>, %v: tensor<8xi1>) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic max needs an integer (i8 to i64) or float pointee, got 'i1'}}
  %o = tile.atomic_rmw max, relaxed, gpu, %p, %v : tensor<8x!tile.ptr<i1>>
  return
}

// -----

func.func @rmw_umax_float(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic umax needs an integer (i8 to i64) pointee, got 'f32'}}
  %o = tile.atomic_rmw umax, relaxed, gpu, %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @rmw_and_float(%p: !tile.ptr<f16>, %v: f16) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic and needs an integer (i8 to i64) pointee, got 'f16'}}
  %o = tile.atomic_rmw and, relaxed, gpu, %p, %v : !tile.ptr<f16>
  return
}

// -----

func.func @rmw_xor_bool(%p: !tile.ptr<i1>, %v: i1) {
  // expected-error @+1 {{'tile.atomic_rmw' op atomic xor needs an integer (i8 to i64) pointee, got 'i1'}}
  %o = tile.atomic_rmw xor, relaxed, gpu, %p, %v : !tile.ptr<i1>
  return
}

// -----

func.func @rmw_block_ptr_generic(%p: !tile.block_ptr<tensor<8xf32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{'tile.atomic_rmw' op operand #0 must be pointer or tile of pointers, but got '!tile.block_ptr<tensor<8xf32>>'}}
  %o = "tile.atomic_rmw"(%p, %v) <{kind = #tile.rmw<add>, sem = #tile.sem<relaxed>, scope = #tile.scope<gpu>}>
       : (!tile.block_ptr<tensor<8xf32>>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @cas_cmp_type(%p: !tile.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @+1 {{'tile.atomic_cas' op cmp type 'i64' differs from the pointee type 'i32'}}
  %o = "tile.atomic_cas"(%p, %c, %v) <{sem = #tile.sem<acq_rel>, scope = #tile.scope<gpu>}>
       : (!tile.ptr<i32>, i64, i32) -> i32
  return
}

// -----

func.func @cas_cmp_shape(%p: tensor<8x!tile.ptr<i32>>, %c: i32, %v: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op cmp shape scalar does not match pointer shape [8]}}
  %o = "tile.atomic_cas"(%p, %c, %v) <{sem = #tile.sem<acq_rel>, scope = #tile.scope<gpu>}>
       : (tensor<8x!tile.ptr<i32>>, i32, tensor<8xi32>) -> tensor<8xi32>
  return
}

// -----

func.func @cas_value_type(%p: !tile.ptr<i32>, %c: i32, %v: f32) {
  // expected-error @+1 {{'tile.atomic_cas' op value type 'f32' differs from the pointee type 'i32'}}
  %o = "tile.atomic_cas"(%p, %c, %v) <{sem = #tile.sem<acq_rel>, scope = #tile.scope<gpu>}>
       : (!tile.ptr<i32>, i32, f32) -> i32
  return
}

// -----

func.func @cas_result_shape(%p: tensor<8x!tile.ptr<i32>>, %c: tensor<8xi32>, %v: tensor<8xi32>) {
  // expected-error @+1 {{'tile.atomic_cas' op result shape [4] does not match pointer shape [8]}}
  %o = "tile.atomic_cas"(%p, %c, %v) <{sem = #tile.sem<acq_rel>, scope = #tile.scope<gpu>}>
       : (tensor<8x!tile.ptr<i32>>, tensor<8xi32>, tensor<8xi32>) -> tensor<4xi32>
  return
}

// -----

func.func @cas_i8(%p: !tile.ptr<i8>, %c: i8, %v: i8) {
  // expected-error @+1 {{'tile.atomic_cas' op atomic_cas needs a 16-, 32- or 64-bit pointee, got 'i8'}}
  %o = tile.atomic_cas acq_rel, gpu, %p, %c, %v : !tile.ptr<i8>
  return
}

// -----

func.func @cas_f8(%p: !tile.ptr<f8E4M3FN>, %c: f8E4M3FN, %v: f8E4M3FN) {
  // expected-error @+1 {{'tile.atomic_cas' op atomic_cas needs a 16-, 32- or 64-bit pointee, got 'f8E4M3FN'}}
  %o = tile.atomic_cas relaxed, cta, %p, %c, %v : !tile.ptr<f8E4M3FN>
  return
}

//===----------------------------------------------------------------------===//
// Parser errors
//===----------------------------------------------------------------------===//

// -----

func.func @parse_unknown_rmw(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{unknown atomic operation 'mul'; expected one of add, max, min, umax, umin, and, or, xor, xchg}}
  %o = tile.atomic_rmw mul, relaxed, gpu, %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @parse_unknown_sem(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{unknown memory semantic 'seq_cst'; expected one of relaxed, acquire, release, acq_rel}}
  %o = tile.atomic_rmw add, seq_cst, gpu, %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @parse_unknown_scope(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{unknown memory scope 'device'; expected one of gpu, cta, sys}}
  %o = tile.atomic_rmw add, relaxed, device, %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @parse_cas_unknown_sem(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{unknown memory semantic 'acqrel'; expected one of relaxed, acquire, release, acq_rel}}
  %o = tile.atomic_cas acqrel, gpu, %p, %v, %v : !tile.ptr<i32>
  return
}

// -----

func.func @parse_cas_unknown_scope(%p: !tile.ptr<i32>, %v: i32) {
  // expected-error @+1 {{unknown memory scope 'block'; expected one of gpu, cta, sys}}
  %o = tile.atomic_cas acq_rel, block, %p, %v, %v : !tile.ptr<i32>
  return
}

// -----

func.func @parse_rmw_operand_first(%p: !tile.ptr<f32>, %v: f32) {
  // expected-error @+1 {{expected atomic operation keyword; expected one of add, max, min, umax, umin, and, or, xor, xchg}}
  %o = tile.atomic_rmw %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @parse_rmw_non_pointer(%p: tensor<8xf32>, %v: tensor<8xf32>) {
  // expected-error @+1 {{expected a !tile.ptr, a tile of them or a !tile.block_ptr, got 'tensor<8xf32>'}}
  %o = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<8xf32>
  return
}

// -----

func.func @parse_cas_non_pointer(%p: i32, %v: i32) {
  // expected-error @+1 {{expected a !tile.ptr, a tile of them or a !tile.block_ptr, got 'i32'}}
  %o = tile.atomic_cas acq_rel, gpu, %p, %v, %v : i32
  return
}

// -----

func.func @parse_rmw_block_ptr(%p: !tile.block_ptr<tensor<8xf32>>, %v: tensor<8xf32>) {
  // expected-error @+1 {{atomics take a !tile.ptr or a tile of them, not the block pointer '!tile.block_ptr<tensor<8xf32>>'}}
  %o = tile.atomic_rmw add, relaxed, gpu, %p, %v : !tile.block_ptr<tensor<8xf32>>
  return
}

// -----

func.func @parse_cas_block_ptr(%p: !tile.block_ptr<tensor<8xi32>>, %v: tensor<8xi32>) {
  // expected-error @+1 {{atomics take a !tile.ptr or a tile of them, not the block pointer '!tile.block_ptr<tensor<8xi32>>'}}
  %o = tile.atomic_cas acq_rel, gpu, %p, %v, %v : !tile.block_ptr<tensor<8xi32>>
  return
}
