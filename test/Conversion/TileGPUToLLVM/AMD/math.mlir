// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | FileCheck %s

// Transcendental functions call ocml (__ocml_<name>_f32 / _f64), declared here and linked from
// the ROCm device libraries only when called; f16 and bf16 compute in f32 and round once;
// sqrt stays an LLVM intrinsic.
// CHECK-DAG: llvm.func @__ocml_exp_f32(f32) -> f32
// CHECK-DAG: llvm.func @__ocml_tanh_f32(f32) -> f32
// CHECK-DAG: llvm.func @__ocml_log_f64(f64) -> f64
// CHECK-DAG: llvm.func @__ocml_erf_f32(f32) -> f32
// CHECK-DAG: llvm.func @__ocml_pow_f32(f32, f32) -> f32
// CHECK-LABEL: llvm.func @math
// CHECK:         %[[E:.*]] = llvm.call @__ocml_exp_f32(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__ocml_tanh_f32(%[[E]]) : (f32) -> f32
// CHECK:         llvm.call @__ocml_log_f64(%{{.*}}) : (f64) -> f64
// CHECK:         %[[X:.*]] = llvm.fpext %{{.*}} : bf16 to f32
// CHECK:         %[[R:.*]] = llvm.call @__ocml_erf_f32(%[[X]]) : (f32) -> f32
// CHECK:         llvm.fptrunc %[[R]] : f32 to bf16
// CHECK:         %[[H:.*]] = llvm.fpext %{{.*}} : f16 to f32
// CHECK:         llvm.call @__ocml_pow_f32(%[[H]], %{{.*}}) : (f32, f32) -> f32
// CHECK:         llvm.fptrunc %{{.*}} : f32 to f16
// CHECK:         llvm.intr.sqrt
// CHECK-NOT:     __nv_
func.func @math(%a: f32, %b: f64, %c: bf16, %h: f16, %o: !tile.ptr<f32>, %o2: !tile.ptr<f64>, %o3: !tile.ptr<bf16>, %o4: !tile.ptr<f16>) attributes {tile.kernel} {
  %e = math.exp %a : f32
  %t = math.tanh %e : f32
  %l = math.log %b : f64
  %r = math.erf %c : bf16
  %p = math.powf %h, %h : f16
  %s = math.sqrt %t : f32
  tile.store %o, %s : !tile.ptr<f32>
  tile.store %o2, %l : !tile.ptr<f64>
  tile.store %o3, %r : !tile.ptr<bf16>
  tile.store %o4, %p : !tile.ptr<f16>
  return
}
