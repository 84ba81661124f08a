// RUN: tessel-opt %s -split-input-file --tile-lower-block-pointers=target=cuda:sm_80 -verify-diagnostics
// RUN: not tessel-opt %s -split-input-file --tile-lower-block-pointers 2>&1 | FileCheck %s --check-prefix=TARGET

// What tile-lower-block-pointers cannot rewrite is an error at the op that names the fix, and
// the module is left as it was. Without a target (option or tile.target) the pass cannot ask
// which loads stay block-pointer loads:
// TARGET: error: unsupported target ''

// expected-error @below {{tile-lower-block-pointers cannot pass a block pointer between functions; inline the function (the GPU pipeline's inliner runs first) or pass its base pointer, shape, strides and offsets}}
func.func @argument(%bp: !tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32> {
  %t = tile.load %bp : !tile.block_ptr<tensor<16xf32>>
  return %t : tensor<16xf32>
}

// -----

func.func private @helper(!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
func.func @call(%a: !tile.ptr<f32>, %n: i64) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %x = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16xf32>>
  // expected-error @below {{tile-lower-block-pointers cannot pass a block pointer between functions}}
  %t = func.call @helper(%x) : (!tile.block_ptr<tensor<16xf32>>) -> tensor<16xf32>
  return %t : tensor<16xf32>
}

// -----

func.func @select(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: i1, %n: i64) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %x = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16xf32>>
  %y = tile.make_block_ptr %b, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16xf32>>
  // expected-error @below {{tile-lower-block-pointers cannot lower 'arith.select' on a block pointer; use block pointers only in tile.advance, tile.load, tile.store, and carry them through scf.for, scf.if or scf.while}}
  %z = arith.select %c, %x, %y : !tile.block_ptr<tensor<16xf32>>
  %t = tile.load %z : !tile.block_ptr<tensor<16xf32>>
  return %t : tensor<16xf32>
}

// -----

func.func @region(%a: !tile.ptr<f32>, %n: i64) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %x = scf.execute_region -> !tile.block_ptr<tensor<16xf32>> {
    %y = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16xf32>>
    // expected-error @below {{tile-lower-block-pointers cannot carry a block pointer out of 'scf.execute_region'; carry it through scf.for, scf.if or scf.while}}
    scf.yield %y : !tile.block_ptr<tensor<16xf32>>
  }
  %t = tile.load %x : !tile.block_ptr<tensor<16xf32>>
  return %t : tensor<16xf32>
}

// -----

func.func @rank0(%a: !tile.ptr<f32>) -> tensor<f32> {
  // expected-error @below {{tile-lower-block-pointers cannot lower a rank-0 block pointer; load through its base pointer instead}}
  %x = tile.make_block_ptr %a, [], [], [] {order = array<i32>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<f32>>
  %t = tile.load %x : !tile.block_ptr<tensor<f32>>
  return %t : tensor<f32>
}

// -----

func.func @empty(%a: !tile.ptr<f32>, %n: i64) -> tensor<0xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-error @below {{tile-lower-block-pointers needs block dimensions in [1, 2^31 - 1), the lengths of tile.arange}}
  %x = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<0xf32>>
  %t = tile.load %x : !tile.block_ptr<tensor<0xf32>>
  return %t : tensor<0xf32>
}

// -----

// Without block pointers the pass needs no target and changes nothing.
func.func @none(%a: !tile.ptr<f32>) -> f32 {
  %t = tile.load %a : !tile.ptr<f32>
  return %t : f32
}
