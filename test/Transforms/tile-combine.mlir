// RUN: tessel-opt %s --tile-combine -split-input-file | FileCheck %s

// The per-program part of pid * BLOCK + arange moves into a scalar base; lanes keep i32 offsets.
// CHECK-LABEL: func.func @uniform_offset
// CHECK:         %[[R:.*]] = tile.arange 0, 128 : tensor<128xi32>
// CHECK:         %[[BASE:.*]] = tile.addptr %arg0, %arg1 : !tile.ptr<f32>, i64
// CHECK:         %[[PTRS:.*]] = tile.splat %[[BASE]] : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
// CHECK:         tile.addptr %[[PTRS]], %[[R]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
func.func @uniform_offset(%x: !tile.ptr<f32>, %base: i64) -> tensor<128xf32> {
  %r = tile.arange 0, 128 : tensor<128xi32>
  %r64 = arith.extsi %r : tensor<128xi32> to tensor<128xi64>
  %b = tile.splat %base : i64 -> tensor<128xi64>
  %off = arith.addi %b, %r64 : tensor<128xi64>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<128x!tile.ptr<f32>>
  %p = tile.addptr %xs, %off : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
  %v = tile.load %p : tensor<128x!tile.ptr<f32>>
  return %v : tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @splat_offset
// CHECK:         %[[P:.*]] = tile.addptr %arg0, %arg1 : !tile.ptr<f16>, i64
// CHECK:         tile.splat %[[P]] : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
func.func @splat_offset(%x: !tile.ptr<f16>, %o: i64) -> tensor<4x!tile.ptr<f16>> {
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<4x!tile.ptr<f16>>
  %os = tile.splat %o : i64 -> tensor<4xi64>
  %p = tile.addptr %xs, %os : tensor<4x!tile.ptr<f16>>, tensor<4xi64>
  return %p : tensor<4x!tile.ptr<f16>>
}

// -----

// CHECK-LABEL: func.func @chain
// CHECK:         %[[S:.*]] = arith.addi %arg1, %arg2 : i64
// CHECK:         %[[P:.*]] = tile.addptr %arg0, %[[S]] : !tile.ptr<f32>, i64
// CHECK-NOT:     tile.addptr
func.func @chain(%x: !tile.ptr<f32>, %a: i64, %b: i64) -> !tile.ptr<f32> {
  %p = tile.addptr %x, %a : !tile.ptr<f32>, i64
  %q = tile.addptr %p, %b : !tile.ptr<f32>, i64
  return %q : !tile.ptr<f32>
}

// -----

// An inner addptr with another use is not folded into the outer one.
// CHECK-LABEL: func.func @chain_shared
// CHECK:         %[[P:.*]] = tile.addptr %arg0, %arg1
// CHECK:         tile.addptr %[[P]], %arg2
func.func @chain_shared(%x: !tile.ptr<f32>, %a: i64, %b: i64) -> (!tile.ptr<f32>, !tile.ptr<f32>) {
  %p = tile.addptr %x, %a : !tile.ptr<f32>, i64
  %q = tile.addptr %p, %b : !tile.ptr<f32>, i64
  return %p, %q : !tile.ptr<f32>, !tile.ptr<f32>
}
