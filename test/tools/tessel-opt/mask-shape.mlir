// REQUIRES: shell
// A mask of the wrong shape: a located error naming both shapes and exit code 1, never a crash.
// RUN: rm -rf %t && split-file --leading-lines %s %t

// RUN: tessel-opt %t/load.mlir 2> %t/load.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=LOAD --input-file=%t/load.err
// RUN: tessel-opt %t/store.mlir 2> %t/store.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=STORE --input-file=%t/store.err
// RUN: tessel-opt %t/atomic.mlir 2> %t/atomic.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=ATOMIC --input-file=%t/atomic.err
// RUN: tessel-opt %t/scalar.mlir 2> %t/scalar.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SCALAR --input-file=%t/scalar.err
// RUN: tessel-opt %t/custom.mlir 2> %t/custom.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=CUSTOM --input-file=%t/custom.err
// The verifier runs before any pass: a pipeline does not hide the error.
// RUN: tessel-opt --canonicalize --cse %t/load.mlir 2> %t/load-canon.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=LOAD --input-file=%t/load-canon.err

//--- load.mlir
func.func @f(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<128xi1>) {
  // LOAD: load.mlir:[[@LINE+1]]:8: error: 'tile.load' op mask shape [128] does not match pointer shape [64]
  %x = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
       : (tensor<64x!tile.ptr<f32>>, tensor<128xi1>) -> tensor<64xf32>
  return
}

//--- store.mlir
func.func @f(%p: tensor<4x16x!tile.ptr<f16>>, %v: tensor<4x16xf16>, %m: tensor<16x4xi1>) {
  // STORE: store.mlir:[[@LINE+1]]:3: error: 'tile.store' op mask shape [16, 4] does not match pointer shape [4, 16]
  "tile.store"(%p, %v, %m) : (tensor<4x16x!tile.ptr<f16>>, tensor<4x16xf16>, tensor<16x4xi1>) -> ()
  return
}

//--- atomic.mlir
func.func @f(%p: tensor<32x!tile.ptr<i32>>, %v: tensor<32xi32>, %m: tensor<64xi1>) {
  // ATOMIC: atomic.mlir:[[@LINE+1]]:8: error: 'tile.atomic_rmw' op mask shape [64] does not match pointer shape [32]
  %o = "tile.atomic_rmw"(%p, %v, %m) <{kind = #tile.rmw<add>, sem = #tile.sem<relaxed>, scope = #tile.scope<gpu>}>
       : (tensor<32x!tile.ptr<i32>>, tensor<32xi32>, tensor<64xi1>) -> tensor<32xi32>
  return
}

//--- scalar.mlir
func.func @f(%p: !tile.ptr<f32>, %m: tensor<8xi1>) {
  // SCALAR: scalar.mlir:[[@LINE+1]]:8: error: 'tile.load' op mask shape [8] does not match pointer shape scalar
  %x = "tile.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}>
       : (!tile.ptr<f32>, tensor<8xi1>) -> f32
  return
}

//--- custom.mlir
// In the custom form the mask's type follows from the pointer's, so the mismatch is reported at
// the mask operand.
func.func @f(%p: tensor<64x!tile.ptr<f32>>, %m: tensor<128xi1>) {
  // CUSTOM: custom.mlir:[[@LINE+1]]:22: error: use of value '%m' expects different type than prior uses: 'tensor<64xi1>' vs 'tensor<128xi1>'
  %x = tile.load %p, %m : tensor<64x!tile.ptr<f32>>
  return
}
