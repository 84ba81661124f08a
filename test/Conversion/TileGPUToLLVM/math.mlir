// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// exp is 2^(x * log2 e) on the SFU; other functions call libdevice; bf16 computes in f32.
// CHECK-LABEL: llvm.func @math
// CHECK:         llvm.fmul %{{.*}}, %{{.*}} : f32
// CHECK:         llvm.inline_asm asm_dialect = att "ex2.approx.ftz.f32 $0, $1;", "=f,f"
// CHECK:         llvm.call @__nv_tanhf(%{{.*}}) : (f32) -> f32
// CHECK:         llvm.call @__nv_log(%{{.*}}) : (f64) -> f64
// CHECK:         %[[E:.*]] = llvm.fpext %{{.*}} : bf16 to f32
// CHECK:         llvm.call @__nv_erff(%[[E]])
// CHECK:         llvm.fptrunc %{{.*}} : f32 to bf16
// CHECK:         llvm.intr.sqrt
// f32 division is PTX div.full.f32 (as Triton's `/`); f64 stays IEEE.
// CHECK:         llvm.inline_asm asm_dialect = att "div.full.f32 $0, $1, $2;", "=f,f,f"
// CHECK:         llvm.fdiv %{{.*}}, %{{.*}} : f64
func.func @math(%a: f32, %b: f64, %c: bf16, %o: !tile.ptr<f32>, %o2: !tile.ptr<f64>, %o3: !tile.ptr<bf16>) attributes {tile.kernel} {
  %e = math.exp %a : f32
  %t = math.tanh %e : f32
  %l = math.log %b : f64
  %r = math.erf %c : bf16
  %s = math.sqrt %t : f32
  %q = arith.divf %s, %a : f32
  %l2 = arith.divf %l, %b : f64
  tile.store %o, %q : !tile.ptr<f32>
  tile.store %o2, %l2 : !tile.ptr<f64>
  tile.store %o3, %r : !tile.ptr<bf16>
  return
}
