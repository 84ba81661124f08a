// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// tile.dot: d = a · b + c on (M, K) x (K, N) -> (M, N), each input type with its accumulator,
// and the input precision of f32 inputs.

// CHECK-LABEL: func.func @dot_f16
// CHECK-SAME: (%[[A:.*]]: tensor<128x64xf16>, %[[B:.*]]: tensor<64x256xf16>, %[[C:.*]]: tensor<128x256xf32>)
// CHECK-NEXT: %[[D:.*]] = tile.dot %[[A]], %[[B]], %[[C]] : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>
// CHECK-NEXT: return %[[D]] : tensor<128x256xf32>
func.func @dot_f16(%a: tensor<128x64xf16>, %b: tensor<64x256xf16>, %c: tensor<128x256xf32>)
    -> tensor<128x256xf32> {
  %d = tile.dot %a, %b, %c : tensor<128x64xf16> * tensor<64x256xf16> -> tensor<128x256xf32>  // (BM, BN)
  return %d : tensor<128x256xf32>
}

// CHECK-LABEL: func.func @dot_input_types
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf8E5M2> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
func.func @dot_input_types(%abf: tensor<64x32xbf16>, %bbf: tensor<32x64xbf16>,
                           %a8: tensor<64x32xf8E4M3FN>, %b8: tensor<32x64xf8E4M3FN>,
                           %a5: tensor<64x32xf8E5M2>, %b5: tensor<32x64xf8E5M2>,
                           %c32: tensor<64x64xf32>, %a64: tensor<16x16xf64>, %c64: tensor<16x16xf64>,
                           %ai: tensor<64x32xi8>, %bi: tensor<32x64xi8>, %ci: tensor<64x64xi32>) {
  %0 = tile.dot %abf, %bbf, %c32 : tensor<64x32xbf16> * tensor<32x64xbf16> -> tensor<64x64xf32>
  %1 = tile.dot %a8, %b8, %c32 : tensor<64x32xf8E4M3FN> * tensor<32x64xf8E4M3FN> -> tensor<64x64xf32>
  %2 = tile.dot %a5, %b5, %c32 : tensor<64x32xf8E5M2> * tensor<32x64xf8E5M2> -> tensor<64x64xf32>
  %3 = tile.dot %a64, %a64, %c64 : tensor<16x16xf64> * tensor<16x16xf64> -> tensor<16x16xf64>
  %4 = tile.dot %ai, %bi, %ci : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
  return
}

// `precision = ieee` is the default and is not printed.
// CHECK-LABEL: func.func @dot_precision
// CHECK-SAME: (%[[X:.*]]: tensor<64x32xf32>, %[[Y:.*]]: tensor<32x64xf32>, %[[Z:.*]]: tensor<64x64xf32>)
// CHECK-NEXT: %{{.*}} = tile.dot %[[X]], %[[Y]], %[[Z]] : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %[[X]], %[[Y]], %[[Z]] : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %[[X]], %[[Y]], %[[Z]] precision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %[[X]], %[[Y]], %[[Z]] precision = tf32x3 {note = "v"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
func.func @dot_precision(%x: tensor<64x32xf32>, %y: tensor<32x64xf32>, %z: tensor<64x64xf32>) {
  %0 = tile.dot %x, %y, %z : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %1 = tile.dot %x, %y, %z precision = ieee : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %2 = tile.dot %x, %y, %z precision = tf32 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  %3 = tile.dot %x, %y, %z precision = tf32x3 {note = "v"} : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  return
}

// Small and non-square shapes: M, N and K are independent.
// CHECK-LABEL: func.func @dot_shapes
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x128xf16> * tensor<128x8xf16> -> tensor<16x8xf32>
// CHECK-NEXT: %{{.*}} = tile.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<1x1xf16> * tensor<1x1xf16> -> tensor<1x1xf32>
func.func @dot_shapes(%a: tensor<16x128xf16>, %b: tensor<128x8xf16>, %c: tensor<16x8xf32>,
                      %u: tensor<1x1xf16>, %w: tensor<1x1xf32>) {
  %0 = tile.dot %a, %b, %c : tensor<16x128xf16> * tensor<128x8xf16> -> tensor<16x8xf32>
  %1 = tile.dot %u, %u, %w : tensor<1x1xf16> * tensor<1x1xf16> -> tensor<1x1xf32>
  return
}

// The K loop of a matmul: the accumulator is a loop-carried (BM, BN) f32 tile.
// CHECK-LABEL: func.func @dot_in_loop
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<64x64xf32>)
// CHECK-NEXT: %[[NEW:.*]] = tile.dot %{{.*}}, %{{.*}}, %[[ACC]] : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
// CHECK-NEXT: scf.yield %[[NEW]] : tensor<64x64xf32>
func.func @dot_in_loop(%a: tensor<64x32xf16>, %b: tensor<32x64xf16>, %n: index) -> tensor<64x64xf32> {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32>) {
    %new = tile.dot %a, %b, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    scf.yield %new : tensor<64x64xf32>
  }
  return %r : tensor<64x64xf32>
}
