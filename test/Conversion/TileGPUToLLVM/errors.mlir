// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a -split-input-file -verify-diagnostics
// RUN: not tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_42 2>&1 | FileCheck %s --check-prefix=TARGET

// TARGET: error: unsupported target 'cuda:sm_42'; supported: cuda:sm_80, cuda:sm_86, cuda:sm_89, cuda:sm_90, cuda:sm_90a

// tile.dot lowers on every target now (mma.sync operands through the NVIDIA adapter, blocked
// ones on FMA units: dot.mlir); operands laid out for another vendor's matrix unit (MFMA on
// cuda) are rejected by the conversion instead of miscompiled.
#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [1, 1]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>
func.func @dot_mfma(%a: tensor<32x8xf16, #opa>, %b: tensor<8x32xf16, #opb>, %c: tensor<32x32xf32, #mfma>) -> tensor<32x32xf32, #mfma> {
  // expected-error @below {{failed to legalize operation 'tile.dot'}}
  %d = tile.dot %a, %b, %c : tensor<32x8xf16, #opa> * tensor<8x32xf16, #opb> -> tensor<32x32xf32, #mfma>
  return %d : tensor<32x32xf32, #mfma>
}

// -----

// f32 and f64 max / min go through integer atomics (C12); 16-bit floats have none to use.
func.func @fmax(%p: !tile.ptr<f16>, %v: f16) attributes {tile.kernel} {
  // expected-error @below {{atomic max on 'f16' is not supported by cuda:sm_90a}}
  %o = tile.atomic_rmw max, acq_rel, gpu, %p, %v : !tile.ptr<f16>
  return
}

// -----

func.func @no_layout(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  // expected-error @below {{tile of type 'tensor<128xi32>' has no distributed layout; run --tile-gpu-assign-layouts first}}
  %r = tile.arange 0, 128 : tensor<128xi32>
  return
}
