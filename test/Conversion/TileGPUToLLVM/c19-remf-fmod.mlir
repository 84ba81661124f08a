// Case C19: float remainder (arith.remf, the DSL's `%` on floats) is fmod's exact result on
// every GPU target, as on the interpreter: libdevice's __nv_fmodf / __nv_fmod on NVIDIA, ocml's
// __ocml_fmod_f32 / _f64 on AMD; f16 and bf16 compute in f32 (exact) and round once (exact
// too: fmod's result is representable). LLVM's own frem lowering divides approximately and
// truncates: an H200 gave 256 for 1e10 % 3 and 0.35 for 16777215 % 0.1.
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | FileCheck %s --check-prefix=AMD
// The values, folded by LLVM's optimizer through ocml's fmod (for libdevice's:
// test/Target/NVIDIA/c19-fmod-libdevice.test):
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | tessel-translate --target=hip:gfx942 --emit=llvm - | FileCheck %s --check-prefix=AMDVAL
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx90a | tessel-translate --target=hip:gfx90a --emit=llvm - | FileCheck %s --check-prefix=AMDVAL

// NV-LABEL: llvm.func @rem
// NV-NOT:     llvm.frem
// NV:         llvm.call @__nv_fmodf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// NV:         llvm.call @__nv_fmod(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// NV:         llvm.fpext %{{.*}} : f16 to f32
// NV:         llvm.call @__nv_fmodf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// NV:         llvm.fptrunc %{{.*}} : f32 to f16
// NV:         llvm.fpext %{{.*}} : bf16 to f32
// NV:         llvm.call @__nv_fmodf(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// NV:         llvm.fptrunc %{{.*}} : f32 to bf16
// NV-NOT:     llvm.frem
// AMD-LABEL: llvm.func @rem
// AMD-NOT:     llvm.frem
// AMD:         llvm.call @__ocml_fmod_f32(%{{.*}}, %{{.*}}) : (f32, f32) -> f32
// AMD:         llvm.call @__ocml_fmod_f64(%{{.*}}, %{{.*}}) : (f64, f64) -> f64
// AMD:         llvm.call @__ocml_fmod_f32
// AMD:         llvm.call @__ocml_fmod_f32
// AMD-NOT:     llvm.frem
func.func @rem(%a: f32, %b: f32, %c: f64, %d: f64, %e: f16, %f: f16, %g: bf16, %h: bf16,
               %o: !tile.ptr<f32>, %o64: !tile.ptr<f64>, %o16: !tile.ptr<f16>, %ob: !tile.ptr<bf16>) attributes {tile.kernel} {
  %r = arith.remf %a, %b : f32
  %r64 = arith.remf %c, %d : f64
  %r16 = arith.remf %e, %f : f16
  %rb = arith.remf %g, %h : bf16
  tile.store %o, %r : !tile.ptr<f32>
  tile.store %o64, %r64 : !tile.ptr<f64>
  tile.store %o16, %r16 : !tile.ptr<f16>
  tile.store %ob, %rb : !tile.ptr<bf16>
  return
}

// f32: 1e10 % 3 = 1, -1e10 % 7 = -4, 16777215 % 0.1 = 0.0500000194 (0x3D4CCCD2 = 1028443346),
// -4 % 2 = -0, 3e38 % 1e-38 = 4.466e-39 (subnormal 0x30A27C = 3187324), 1 % inf = 1.
// f16: 65504 % 3 = 2, -60000 % 7 = -3, 2047 % 0.1 (0.0999755859375) = 0.099853515625 (0x2E64),
// -4 % 2 = -0, 1 % inf = 1.
// AMDVAL-LABEL: define amdgpu_kernel void @fold(
// AMDVAL: store float 1.000000e+00,
// AMDVAL: store float -4.000000e+00,
// AMDVAL: store float 0x3FA9999A40000000,
// AMDVAL: store float -0.000000e+00,
// AMDVAL: store float 0x37F8513E00000000,
// AMDVAL: store float 1.000000e+00,
// AMDVAL: store half 0xH4000,
// AMDVAL: store half 0xHC200,
// AMDVAL: store half 0xH2E64,
// AMDVAL: store half 0xH8000,
// AMDVAL: store half 0xH3C00,
func.func @fold(%o: !tile.ptr<f32>, %h: !tile.ptr<f16>) attributes {tile.kernel} {
  %c1 = arith.constant 1 : i32
  %a0 = arith.constant 1.0e10 : f32
  %b0 = arith.constant 3.0 : f32
  %r0 = arith.remf %a0, %b0 : f32
  tile.store %o, %r0 : !tile.ptr<f32>
  %a1 = arith.constant -1.0e10 : f32
  %b1 = arith.constant 7.0 : f32
  %r1 = arith.remf %a1, %b1 : f32
  %o1 = tile.addptr %o, %c1 : !tile.ptr<f32>, i32
  tile.store %o1, %r1 : !tile.ptr<f32>
  %a2 = arith.constant 16777215.0 : f32
  %b2 = arith.constant 0.1 : f32
  %r2 = arith.remf %a2, %b2 : f32
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<f32>, i32
  tile.store %o2, %r2 : !tile.ptr<f32>
  %a3 = arith.constant -4.0 : f32
  %b3 = arith.constant 2.0 : f32
  %r3 = arith.remf %a3, %b3 : f32
  %o3 = tile.addptr %o2, %c1 : !tile.ptr<f32>, i32
  tile.store %o3, %r3 : !tile.ptr<f32>
  %a4 = arith.constant 3.0e38 : f32
  %b4 = arith.constant 1.0e-38 : f32
  %r4 = arith.remf %a4, %b4 : f32
  %o4 = tile.addptr %o3, %c1 : !tile.ptr<f32>, i32
  tile.store %o4, %r4 : !tile.ptr<f32>
  %a5 = arith.constant 1.0 : f32
  %b5 = arith.constant 0x7F800000 : f32
  %r5 = arith.remf %a5, %b5 : f32
  %o5 = tile.addptr %o4, %c1 : !tile.ptr<f32>, i32
  tile.store %o5, %r5 : !tile.ptr<f32>
  %ha0 = arith.constant 65504.0 : f16
  %hb0 = arith.constant 3.0 : f16
  %hr0 = arith.remf %ha0, %hb0 : f16
  tile.store %h, %hr0 : !tile.ptr<f16>
  %ha1 = arith.constant -60000.0 : f16
  %hb1 = arith.constant 7.0 : f16
  %hr1 = arith.remf %ha1, %hb1 : f16
  %h1 = tile.addptr %h, %c1 : !tile.ptr<f16>, i32
  tile.store %h1, %hr1 : !tile.ptr<f16>
  %ha2 = arith.constant 2047.0 : f16
  %hb2 = arith.constant 0.1 : f16
  %hr2 = arith.remf %ha2, %hb2 : f16
  %h2 = tile.addptr %h1, %c1 : !tile.ptr<f16>, i32
  tile.store %h2, %hr2 : !tile.ptr<f16>
  %ha3 = arith.constant -4.0 : f16
  %hb3 = arith.constant 2.0 : f16
  %hr3 = arith.remf %ha3, %hb3 : f16
  %h3 = tile.addptr %h2, %c1 : !tile.ptr<f16>, i32
  tile.store %h3, %hr3 : !tile.ptr<f16>
  %ha4 = arith.constant 1.0 : f16
  %hb4 = arith.constant 0x7C00 : f16
  %hr4 = arith.remf %ha4, %hb4 : f16
  %h4 = tile.addptr %h3, %c1 : !tile.ptr<f16>, i32
  tile.store %h4, %hr4 : !tile.ptr<f16>
  return
}
