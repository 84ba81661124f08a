// REQUIRES: shell
// Values of the wrong type: a located error and exit code 1, never a crash.
// RUN: rm -rf %t && split-file --leading-lines %s %t

// RUN: tessel-opt %t/pointee.mlir 2> %t/pointee.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=POINTEE --input-file=%t/pointee.err
// RUN: tessel-opt %t/offset.mlir 2> %t/offset.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=OFFSET --input-file=%t/offset.err
// RUN: tessel-opt %t/splat.mlir 2> %t/splat.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=SPLAT --input-file=%t/splat.err
// RUN: tessel-opt %t/dot.mlir 2> %t/dot.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=DOT --input-file=%t/dot.err
// RUN: tessel-opt %t/pointer-type.mlir 2> %t/pointer-type.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=PTR-TYPE --input-file=%t/pointer-type.err
// RUN: tessel-opt %t/kernel-arg.mlir 2> %t/kernel-arg.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=KERNEL-ARG --input-file=%t/kernel-arg.err
// RUN: tessel-opt %t/return.mlir 2> %t/return.err; test $? -eq 1
// RUN: FileCheck %s --check-prefix=RETURN --input-file=%t/return.err

//--- pointee.mlir
// The type after ':' is the pointer type; here it does not match the operand's.
func.func @f(%p: tensor<128x!tile.ptr<f32>>) {
  // POINTEE: pointee.mlir:[[@LINE+1]]:18: error: use of value '%p' expects different type than prior uses: 'tensor<128x!tile.ptr<f16>>' vs 'tensor<128x!tile.ptr<f32>>'
  %x = tile.load %p : tensor<128x!tile.ptr<f16>>
  return
}

//--- offset.mlir
func.func @f(%p: !tile.ptr<f32>, %o: f32) {
  // OFFSET: offset.mlir:[[@LINE+1]]:8: error: 'tile.addptr' op operand #1 must be integer or tile of integers, but got 'f32'
  %q = tile.addptr %p, %o : !tile.ptr<f32>, f32
  return
}

//--- splat.mlir
func.func @f(%x: f32) {
  // SPLAT: splat.mlir:[[@LINE+1]]:8: error: 'tile.splat' op result element type 'bf16' differs from the splatted scalar's type 'f32'
  %t = tile.splat %x : f32 -> tensor<128xbf16>
  return
}

//--- dot.mlir
func.func @f(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %c: tensor<64x64xf16>) {
  // DOT: dot.mlir:[[@LINE+1]]:8: error: 'tile.dot' op 'f16' inputs accumulate in 'f32', got 'f16'
  %d = tile.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf16>
  return
}

//--- pointer-type.mlir
// The error points at the pointee inside the type.
// PTR-TYPE: pointer-type.mlir:[[@LINE+1]]:27: error: !tile.ptr pointee must be an integer or float type, got 'index'
func.func @f(%p: !tile.ptr<index>) {
  return
}

//--- kernel-arg.mlir
// KERNEL-ARG: kernel-arg.mlir:[[@LINE+1]]:1: error: 'func.func' op kernel argument #1 has type 'tensor<128xf32>'; kernel arguments are !tile.ptr pointers and scalars
func.func @k(%p: !tile.ptr<f32>, %x: tensor<128xf32>) attributes {tile.kernel} {
  return
}

//--- return.mlir
func.func @f(%x: tensor<128xf32>) -> tensor<128xf16> {
  // RETURN: return.mlir:[[@LINE+1]]:3: error: type of return operand 0 ('tensor<128xf32>') doesn't match function result type ('tensor<128xf16>') in function @f
  return %x : tensor<128xf32>
}
