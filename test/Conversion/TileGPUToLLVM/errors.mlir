// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a -split-input-file -verify-diagnostics
// RUN: not tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_42 2>&1 | FileCheck %s --check-prefix=TARGET

// TARGET: error: unsupported target 'cuda:sm_42'; supported: cuda:sm_80, cuda:sm_90, cuda:sm_90a

#b = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @dot(%a: tensor<16x16xf16, #b>, %b: tensor<16x16xf16, #b>, %c: tensor<16x16xf32, #b>) -> tensor<16x16xf32, #b> {
  // expected-error @below {{tile.dot is not supported by the GPU backends yet}}
  %d = tile.dot %a, %b, %c : tensor<16x16xf16, #b> * tensor<16x16xf16, #b> -> tensor<16x16xf32, #b>
  return %d : tensor<16x16xf32, #b>
}

// -----

func.func @fmax(%p: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
  // expected-error @below {{atomic max on 'f32' is not supported by cuda:sm_90a}}
  %o = tile.atomic_rmw max, acq_rel, gpu, %p, %v : !tile.ptr<f32>
  return
}

// -----

func.func @no_layout(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  // expected-error @below {{tile of type 'tensor<128xi32>' has no distributed layout; run --tile-gpu-assign-layouts first}}
  %r = tile.arange 0, 128 : tensor<128xi32>
  return
}
