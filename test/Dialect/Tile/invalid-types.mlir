// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// Type verifiers of !tile.ptr and !tile.block_ptr (lib/Dialect/Tile/IR/TileTypes.cpp).

// expected-error @+1 {{!tile.ptr pointee must be an integer or float type, got 'index'}}
func.func @ptr_to_index(%p: !tile.ptr<index>)

// -----

// expected-error @+1 {{!tile.ptr pointee must be an integer or float type, got 'tensor<4xf32>'}}
func.func @ptr_to_tensor(%p: !tile.ptr<tensor<4xf32>>)

// -----

// expected-error @+1 {{!tile.ptr pointee must be an integer or float type, got '!tile.ptr<f32>'}}
func.func @ptr_to_ptr(%p: !tile.ptr<!tile.ptr<f32>>)

// -----

// expected-error @+1 {{!tile.block_ptr block must have a static shape, got 'tensor<?x64xf16>'}}
func.func @block_ptr_dynamic(%p: !tile.block_ptr<tensor<?x64xf16>>)

// -----

// expected-error @+1 {{!tile.block_ptr block elements must be integers or floats, got 'index'}}
func.func @block_ptr_of_index(%p: !tile.block_ptr<tensor<4xindex>>)

// -----

// expected-error @+1 {{!tile.block_ptr block elements must be integers or floats, got '!tile.ptr<f32>'}}
func.func @block_ptr_of_pointers(%p: !tile.block_ptr<tensor<4x!tile.ptr<f32>>>)

// -----

// The block of a block pointer is a ranked tensor.
// expected-error @+2 {{invalid kind of type specified}}
// expected-error @+1 {{failed to parse Tile_BlockPtrType parameter 'blockType' which is to be a `::mlir::RankedTensorType`}}
func.func @block_ptr_of_scalar(%p: !tile.block_ptr<f32>)

// -----

// Tiles have static shapes: a dynamic dimension is rejected by the op's type constraint.
func.func @dynamic_tile(%x: tensor<?xf32>) {
  // expected-error @+1 {{'tile.reshape' op operand #0 must be statically shaped tile of numbers or pointers, but got 'tensor<?xf32>'}}
  %y = tile.reshape %x : tensor<?xf32> -> tensor<4xf32>
  return
}

// -----

func.func @dynamic_arange() {
  // expected-error @+1 {{'tile.arange' op result #0 must be statically shaped tensor of 32-bit signless integer values, but got 'tensor<?xi32>'}}
  %y = tile.arange 0, 4 : tensor<?xi32>
  return
}

// -----

func.func @dynamic_dot(%a: tensor<?x4xf16>, %b: tensor<4x8xf16>, %c: tensor<8x8xf32>) {
  // expected-error @+1 {{'tile.dot' op operand #0 must be statically shaped tensor of floating-point or signless integer values, but got 'tensor<?x4xf16>'}}
  %d = "tile.dot"(%a, %b, %c) : (tensor<?x4xf16>, tensor<4x8xf16>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return
}
