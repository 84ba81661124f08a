// RUN: tessel-opt %s --tile-gpu-pad-shapes -split-input-file -verify-diagnostics

// Where padding cannot be hidden, the op gets an error that names the fix.

// Padding along K would be summed into every element (along M or N it is allowed:
// pad-shapes.mlir).
func.func @dot(%a: tensor<64x48xf16>, %b: tensor<48x64xf16>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @below {{tile.dot of [64, 48] x [48, 64] on the GPU needs a power-of-two BLOCK_K (padding along K would be summed into the product); BLOCK_M and BLOCK_N may be any size, e.g. 96}}
  %d = tile.dot %a, %b, %c : tensor<64x48xf16> * tensor<48x64xf16> -> tensor<64x64xf32>
  return %d : tensor<64x64xf32>
}

// -----

// A block-pointer store left for a bulk copy would write the padding over the next block.
func.func @block_store(%p: !tile.ptr<f16>, %v: tensor<64x96xf16>, %m: i64, %n: i64) {
  %c1 = arith.constant 1 : i64
  %c0 = arith.constant 0 : i64
  %bp = tile.make_block_ptr %p, [%m, %n], [%n, %c1], [%c0, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x96xf16>>
  // expected-error @below {{a block-pointer store of a [64, 96] block on the GPU (a TMA copy) needs power-of-two block dimensions; round the block up and use boundary_check}}
  tile.store %bp, %v boundary_check = [0, 1] : !tile.block_ptr<tensor<64x96xf16>>
  return
}

// -----

// (2, 50) pads to (2, 64), (100) to (128): element (1, 0) would move from 50 to 64.
func.func @reshape(%x: tensor<2x50xf32>) -> tensor<100xf32> {
  // expected-error @below {{tile.reshape from [2, 50] to [100] cannot run on the GPU's padded tiles: padding to powers of two ([2, 64] -> [128]) puts the elements at different positions (only the outermost dimension of each merged or split group may be padded); reshape power-of-two tiles}}
  %r = tile.reshape %x : tensor<2x50xf32> -> tensor<100xf32>
  return %r : tensor<100xf32>
}

// -----

func.func @cas(%p: tensor<48x!tile.ptr<i32>>, %c: tensor<48xi32>, %v: tensor<48xi32>) {
  // expected-error @below {{tile.atomic_cas on a [48] tile: the GPU pads it to a power of two, and atomic_cas has no mask to keep the padding lanes off memory; use a power-of-two tile (and make the extra lanes compare against a value that never matches)}}
  %o = tile.atomic_cas acq_rel, gpu, %p, %c, %v : tensor<48x!tile.ptr<i32>>
  return
}

// -----

func.func @print(%x: tensor<48xi32>) {
  // expected-error @below {{tile.print of a [48] tile on the GPU would print its padding to a power of two; print a power-of-two tile}}
  tile.print "x = " %x : tensor<48xi32>
  return
}

// -----

// 2147483540 + 128 does not fit in i32.
func.func @arange_range() -> tensor<100xi32> {
  // expected-error @below {{tile.arange 2147483540, 2147483640 padded to a power of two passes the i32 range; start it lower}}
  %r = tile.arange 2147483540, 2147483640 : tensor<100xi32>
  return %r : tensor<100xi32>
}

// -----

// (6) -> (2, 3): the inner 3 would be padded to 4.
func.func @reshape_split(%x: tensor<6xf32>) -> tensor<2x3xf32> {
  // expected-error @below {{tile.reshape from [6] to [2, 3] cannot run on the GPU's padded tiles}}
  %r = tile.reshape %x : tensor<6xf32> -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}
