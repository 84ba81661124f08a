// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 -split-input-file -verify-diagnostics
// RUN: not tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx1030 2>&1 | FileCheck %s --check-prefix=TARGET

// TARGET: error: unsupported target 'hip:gfx1030'; supported: cuda:sm_80, cuda:sm_86, cuda:sm_89, cuda:sm_90, cuda:sm_90a, hip:gfx90a, hip:gfx942, hip:gfx1100

// f32 and f64 max / min go through integer atomics (C12); 16-bit floats have none to use.
func.func @fmax(%p: !tile.ptr<f16>, %v: f16) attributes {tile.kernel} {
  // expected-error @below {{atomic max on 'f16' is not supported by hip:gfx942}}
  %o = tile.atomic_rmw max, acq_rel, gpu, %p, %v : !tile.ptr<f16>
  return
}

// -----

func.func @i16_add(%p: !tile.ptr<i16>, %v: i16) attributes {tile.kernel} {
  // expected-error @below {{atomic add on 'i16' is not supported by hip:gfx942}}
  %o = tile.atomic_rmw add, relaxed, gpu, %p, %v : !tile.ptr<i16>
  return
}
