// REQUIRES: shell
// Unknown ops: a located error and exit code 1, never a crash.
// RUN: rm -rf %t && split-file --leading-lines %s %t

// RUN: tessel-opt %t/custom.mlir 2> %t/custom.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CUSTOM --input-file=%t/custom.err
// RUN: tessel-opt %t/generic.mlir 2> %t/generic.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=GENERIC --input-file=%t/generic.err
// RUN: tessel-opt %t/dialect.mlir 2> %t/dialect.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DIALECT --input-file=%t/dialect.err
// RUN: tessel-opt %t/upstream.mlir 2> %t/upstream.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=UPSTREAM --input-file=%t/upstream.err
// An unknown op is an error whatever passes run after parsing.
// RUN: tessel-opt --canonicalize %t/custom.mlir 2> %t/custom-canon.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CUSTOM --input-file=%t/custom-canon.err

//--- custom.mlir
func.func @f() {
  // CUSTOM: custom.mlir:[[@LINE+1]]:8: error: custom op 'tile.frobnicate' is unknown
  %x = tile.frobnicate 0
  return
}

//--- generic.mlir
func.func @f() {
  // GENERIC: generic.mlir:[[@LINE+1]]:8: error: unregistered operation 'tile.frobnicate' found in dialect ('tile') that does not allow unknown operations
  %x = "tile.frobnicate"() : () -> i32
  return
}

//--- dialect.mlir
func.func @f() {
  // DIALECT: dialect.mlir:[[@LINE+1]]:8: error: Dialect `triton' not found for custom op 'triton.load'
  %x = triton.load 0
  return
}

//--- upstream.mlir
func.func @f(%x: f32) -> f32 {
  // UPSTREAM: upstream.mlir:[[@LINE+1]]:8: error: custom op 'arith.addff' is unknown
  %y = arith.addff %x, %x : f32
  return %y : f32
}
