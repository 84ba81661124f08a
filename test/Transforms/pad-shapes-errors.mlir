// RUN: tessel-opt %s --tile-gpu-pad-shapes -split-input-file -verify-diagnostics

// Where padding cannot be hidden, the op gets an error that names the fix.

func.func @dot(%a: tensor<48x64xf16>, %b: tensor<64x64xf16>, %c: tensor<48x64xf32>) -> tensor<48x64xf32> {
  // expected-error @below {{tile.dot of [48, 64] x [64, 64] on the GPU needs power-of-two BLOCK_M, BLOCK_N and BLOCK_K (the matrix units and their layouts do not mask padding): round the block up to a power of two and mask the loads and stores}}
  %d = tile.dot %a, %b, %c : tensor<48x64xf16> * tensor<64x64xf16> -> tensor<48x64xf32>
  return %d : tensor<48x64xf32>
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
