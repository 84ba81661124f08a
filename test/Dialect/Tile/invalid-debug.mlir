// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Verifiers and parsers of tile.print and tile.assert.

func.func @print_shapes(%a: tensor<4xf32>, %b: tensor<8xf32>) {
  // expected-error @+1 {{'tile.print' op prints tiles of one shape per line; got 'tensor<8xf32>' after a tile of shape [4]}}
  tile.print "" %a, %b : tensor<4xf32>, tensor<8xf32>
  return
}

// -----

func.func @assert_not_bool(%a: tensor<4xf32>) {
  // expected-error @+1 {{'tile.assert' op operand #0 must be i1 or tile of i1}}
  tile.assert %a, "x" : tensor<4xf32>
  return
}
