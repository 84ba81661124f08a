// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Verifier and parser of tile.dot: operand ranks and shapes, input types, accumulator type and
// input precision.

func.func @dot_rank1(%a: tensor<64xf16>, %b: tensor<64x32xf16>, %c: tensor<64x32xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be rank-2 tiles, got a [64], b [64, 32], c [64, 32]}}
  %d = "tile.dot"(%a, %b, %c) : (tensor<64xf16>, tensor<64x32xf16>, tensor<64x32xf32>) -> tensor<64x32xf32>
  return
}

// -----

func.func @dot_rank3(%a: tensor<2x16x16xf16>, %b: tensor<2x16x16xf16>, %c: tensor<2x16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op operands must be rank-2 tiles, got a [2, 16, 16], b [2, 16, 16], c [2, 16, 16]}}
  %d = tile.dot %a, %b, %c : tensor<2x16x16xf16> * tensor<2x16x16xf16> -> tensor<2x16x16xf32>
  return
}

// -----

func.func @dot_inner(%a: tensor<64x32xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.dot' op inner dimensions differ: a is [64, 32], b is [16, 64]}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<16x64xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_accumulator_shape(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tile.dot' op accumulator shape [64, 64] must be [64, 16]}}
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x16xf16> -> tensor<64x64xf32>
  return
}

// -----

func.func @dot_mixed_inputs(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op a and b have different element types 'f16' and 'bf16'}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_i16(%a: tensor<16x16xi16>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{'tile.dot' op inputs of type 'i16' are not supported; use f16, bf16, fp8, f32, f64 or i8}}
  %d = tile.dot %a, %a, %c : tensor<16x16xi16> * tensor<16x16xi16> -> tensor<16x16xi32>
  return
}

// -----

func.func @dot_i1(%a: tensor<16x16xi1>, %c: tensor<16x16xi32>) {
  // expected-error @+1 {{'tile.dot' op inputs of type 'i1' are not supported; use f16, bf16, fp8, f32, f64 or i8}}
  %d = tile.dot %a, %a, %c : tensor<16x16xi1> * tensor<16x16xi1> -> tensor<16x16xi32>
  return
}

// -----

func.func @dot_f16_accumulator(%a: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // expected-error @+1 {{'tile.dot' op 'f16' inputs accumulate in 'f32', got 'f16'}}
  %d = tile.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_i8_float_accumulator(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op 'i8' inputs accumulate in 'i32', got 'f32'}}
  %d = tile.dot %a, %a, %c : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_f64_f32_accumulator(%a: tensor<16x16xf64>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op 'f64' inputs accumulate in 'f64', got 'f32'}}
  %d = tile.dot %a, %a, %c : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_tf32_on_f16(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op precision = tf32 applies to f32 inputs only, got 'f16'}}
  %d = tile.dot %a, %a, %c precision = tf32 : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_tf32x3_on_bf16(%a: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op precision = tf32x3 applies to f32 inputs only, got 'bf16'}}
  %d = tile.dot %a, %a, %c precision = tf32x3 : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

// c and d have one type.
func.func @dot_result(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @+1 {{'tile.dot' op failed to verify that all of {c, d} have same type}}
  %d = "tile.dot"(%a, %a, %c) : (tensor<16x16xf16>, tensor<16x16xf16>, tensor<16x16xf32>) -> tensor<16x8xf32>
  return
}

// -----

func.func @parse_unknown_precision(%a: tensor<16x16xf32>) {
  // expected-error @+1 {{unknown input precision 'bf16x3'; expected one of ieee, tf32, tf32x3}}
  %d = tile.dot %a, %a, %a precision = bf16x3 : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  return
}
