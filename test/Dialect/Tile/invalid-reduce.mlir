// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Verifiers of tile.reduce and tile.scan: operands, axis, results and the combiner region.

func.func @reduce_no_operands() {
  // expected-error @+1 {{'tile.reduce' op needs at least one operand}}
  "tile.reduce"() <{axis = 0 : i32}> ({
    "tile.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @reduce_operand_shapes(%x: tensor<4x8xf32>, %i: tensor<8x4xi32>) {
  // expected-error @+1 {{'tile.reduce' op operands have different shapes [4, 8] and [8, 4]}}
  %r:2 = tile.reduce(%x, %i) axis = 1 : (tensor<4x8xf32>, tensor<8x4xi32>) -> (tensor<4xf32>, tensor<8xi32>) {
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tile.yield %a, %b : f32, i32
  }
  return
}

// -----

func.func @reduce_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op reduce axis 2 is out of range for a rank-2 tile}}
  %r = tile.reduce(%x) axis = 2 : (tensor<4x8xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  return
}

// -----

func.func @reduce_negative_axis(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op reduce axis -1 is out of range for a rank-2 tile}}
  %r = tile.reduce(%x) axis = -1 : (tensor<4x8xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  return
}

// -----

func.func @reduce_result_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op has 1 operands but 2 results}}
  %r:2 = tile.reduce(%x) axis = 0 : (tensor<8xf32>) -> (f32, f32) {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @reduce_result_type(%x: tensor<4x8xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 'tensor<4x8xf32>' along axis 1 gives 'tensor<4xf32>', not 'tensor<8xf32>'}}
  %r = tile.reduce(%x) axis = 1 : (tensor<4x8xf32>) -> tensor<8xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  return
}

// -----

// A rank-1 tile reduces to a scalar, not to a rank-0 tile.
func.func @reduce_rank1_to_tensor(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op reducing 'tensor<8xf32>' along axis 0 gives 'f32', not 'tensor<f32>'}}
  %r = tile.reduce(%x) axis = 0 : (tensor<8xf32>) -> tensor<f32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    tile.yield %s : f32
  }
  return
}

// -----

func.func @reduce_combiner_arity(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner must take 2 scalar arguments, got 3}}
  %r = tile.reduce(%x) axis = 0 : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32, %c: f32):
    tile.yield %a : f32
  }
  return
}

// -----

func.func @reduce_combiner_argument_type(%x: tensor<8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{'tile.reduce' op combiner argument #3 must be 'i32', got 'f32'}}
  %r:2 = tile.reduce(%x, %i) axis = 0 : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %b: i32, %c: f32, %d: f32):
    tile.yield %a, %b : f32, i32
  }
  return
}

// -----

func.func @reduce_combiner_tensor_argument(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner argument #0 must be 'f32', got 'tensor<8xf32>'}}
  %r = tile.reduce(%x) axis = 0 : (tensor<8xf32>) -> f32 {
  ^bb0(%a: tensor<8xf32>, %b: f32):
    tile.yield %b : f32
  }
  return
}

// -----

func.func @reduce_combiner_terminator(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner must end with tile.yield}}
  %r = tile.reduce(%x) axis = 0 : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    llvm.unreachable
  }
  return
}

// -----

func.func @reduce_combiner_yield_count(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op combiner must yield 1 values, got 2}}
  %r = tile.reduce(%x) axis = 0 : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    tile.yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @reduce_combiner_yield_type(%x: tensor<8xf32>, %i: tensor<8xi32>) {
  // expected-error @+1 {{'tile.reduce' op combiner yields 'f32' for operand #1 of element type 'i32'}}
  %r:2 = tile.reduce(%x, %i) axis = 0 : (tensor<8xf32>, tensor<8xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tile.yield %a, %c : f32, f32
  }
  return
}

// -----

func.func @reduce_two_blocks(%x: tensor<8xf32>) {
  // expected-error @+1 {{'tile.reduce' op expects region #0 to have 0 or 1 blocks}}
  %r = "tile.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: f32, %b: f32):
    cf.br ^bb1
  ^bb1:
    "tile.yield"(%a) : (f32) -> ()
  }) : (tensor<8xf32>) -> f32
  return
}

// -----

func.func @yield_outside_combiner(%x: f32) {
  // expected-error @+1 {{'tile.yield' op expects parent op to be one of 'tile.reduce, tile.scan'}}
  tile.yield %x : f32
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// -----

func.func @scan_no_operands() {
  // expected-error @+1 {{'tile.scan' op needs at least one operand}}
  "tile.scan"() <{axis = 0 : i32}> ({
    "tile.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @scan_operand_shapes(%x: tensor<8xf32>, %i: tensor<16xi32>) {
  // expected-error @+1 {{'tile.scan' op operands have different shapes [8] and [16]}}
  %r:2 = tile.scan(%x, %i) axis = 0 : (tensor<8xf32>, tensor<16xi32>) -> (tensor<8xf32>, tensor<16xi32>) {
  ^bb0(%a: f32, %b: i32, %c: f32, %d: i32):
    tile.yield %a, %b : f32, i32
  }
  return
}

// -----

func.func @scan_axis(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op scan axis 1 is out of range for a rank-1 tile}}
  %r = tile.scan(%x) axis = 1 : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.yield %s : i32
  }
  return
}

// -----

func.func @scan_result_count(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op has 1 operands but 2 results}}
  %r:2 = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> (tensor<8xi32>, tensor<8xi32>) {
  ^bb0(%a: i32, %b: i32):
    tile.yield %a : i32
  }
  return
}

// -----

func.func @scan_result_type(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op result type 'tensor<8xi64>' differs from operand type 'tensor<8xi32>'}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> tensor<8xi64> {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.yield %s : i32
  }
  return
}

// -----

func.func @scan_scalar_result(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op result #0 must be variadic of statically shaped tensor of floating-point or signless integer values, but got 'i32'}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> i32 {
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tile.yield %s : i32
  }
  return
}

// -----

func.func @scan_combiner_arity(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op combiner must take 2 scalar arguments, got 1}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32):
    tile.yield %a : i32
  }
  return
}

// -----

func.func @scan_combiner_argument_type(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op combiner argument #1 must be 'i32', got 'i64'}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i64):
    tile.yield %a : i32
  }
  return
}

// -----

func.func @scan_combiner_terminator(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op combiner must end with tile.yield}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    llvm.unreachable
  }
  return
}

// -----

func.func @scan_combiner_yield_count(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op combiner must yield 1 values, got 0}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    tile.yield
  }
  return
}

// -----

func.func @scan_combiner_yield_type(%x: tensor<8xi32>) {
  // expected-error @+1 {{'tile.scan' op combiner yields 'i64' for operand #0 of element type 'i32'}}
  %r = tile.scan(%x) axis = 0 : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: i32, %b: i32):
    %w = arith.extsi %a : i32 to i64
    tile.yield %w : i64
  }
  return
}
