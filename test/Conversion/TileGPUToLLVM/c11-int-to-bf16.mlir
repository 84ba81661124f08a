// Case C11: integer -> bf16 rounds once to nearest even on every GPU target. NVPTX before
// sm_90 and AMDGPU convert through f32 (two roundings); the lowering instead rounds the
// magnitude to odd at f32's 24 bits (ctlz, shift, sticky bit), converts that exactly and lets
// fptrunc f32 -> bf16 round once.
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s --check-prefix=LOWER
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | FileCheck %s --check-prefix=LOWER
// The values, folded by LLVM's optimizer from constants through the emitted sequence:
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_80 | tessel-translate --target=cuda:sm_80 --emit=llvm - | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | tessel-translate --target=cuda:sm_90a --emit=llvm - | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | tessel-translate --target=hip:gfx942 --emit=llvm - | FileCheck %s --check-prefix=AMD
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx90a | tessel-translate --target=hip:gfx90a --emit=llvm - | FileCheck %s --check-prefix=AMD

// LOWER-LABEL: llvm.func @convert
// LOWER-NOT:     llvm.sitofp %{{.*}} : i64 to bf16
// LOWER-NOT:     llvm.uitofp %{{.*}} : i64 to bf16
// LOWER:         "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i64) -> i64
// LOWER:         llvm.uitofp %{{.*}} : i32 to f32
// LOWER:         llvm.fptrunc %{{.*}} : f32 to bf16
// LOWER:         "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i64) -> i64
// LOWER:         llvm.fptrunc %{{.*}} : f32 to bf16
// LOWER:         "llvm.intr.ctlz"(%{{.*}}) <{is_zero_poison = false}> : (i32) -> i32
// LOWER:         llvm.fptrunc %{{.*}} : f32 to bf16
// Narrow integers are exact in f32: a plain conversion.
// LOWER:         llvm.sitofp %{{.*}} : i16 to bf16
func.func @convert(%x: i64, %y: i32, %z: i16, %o: !tile.ptr<bf16>) attributes {tile.kernel} {
  %a = arith.sitofp %x : i64 to bf16
  %b = arith.uitofp %x : i64 to bf16
  %c = arith.sitofp %y : i32 to bf16
  %d = arith.sitofp %z : i16 to bf16
  tile.store %o, %a : !tile.ptr<bf16>
  tile.store %o, %b : !tile.ptr<bf16>
  tile.store %o, %c : !tile.ptr<bf16>
  tile.store %o, %d : !tile.ptr<bf16>
  return
}

// 2^62 + 2^54 + 1 -> bf16 0x5E81 (2^62 + 2^55 = 4.64771482e18; a double rounding gives 0x5E80),
// its negation 0xDE81 (-8575 as i16), its bits as unsigned 0x5F40 (1.5 * 2^63), -1 as unsigned
// 0x5F80 (2^64); i32 2^30 + 2^22 + 1 -> 0x4E81 (2^30 + 2^23 = 20097; through f32: 0x4E80).
// NV-LABEL: define void @fold(
// NV:         st.global.b16 {{.*}}i16 24193)
// NV:         st.global.b16 {{.*}}i16 -8575)
// NV:         st.global.b16 {{.*}}i16 24384)
// NV:         st.global.b16 {{.*}}i16 24448)
// NV:         st.global.b16 {{.*}}i16 20097)
// AMD-LABEL: define amdgpu_kernel void @fold(
// AMD:         store bfloat 0xR5E81
// AMD:         store bfloat 0xRDE81
// AMD:         store bfloat 0xR5F40
// AMD:         store bfloat 0xR5F80
// AMD:         store bfloat 0xR4E81
func.func @fold(%o: !tile.ptr<bf16>) attributes {tile.kernel} {
  %c1 = arith.constant 1 : i32
  %x = arith.constant 4629700416936869889 : i64
  %n = arith.constant -4629700416936869889 : i64
  %m = arith.constant -1 : i64
  %y = arith.constant 1077936129 : i32
  %a = arith.sitofp %x : i64 to bf16
  %b = arith.sitofp %n : i64 to bf16
  %c = arith.uitofp %n : i64 to bf16
  %d = arith.uitofp %m : i64 to bf16
  %e = arith.sitofp %y : i32 to bf16
  tile.store %o, %a : !tile.ptr<bf16>
  %o1 = tile.addptr %o, %c1 : !tile.ptr<bf16>, i32
  tile.store %o1, %b : !tile.ptr<bf16>
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<bf16>, i32
  tile.store %o2, %c : !tile.ptr<bf16>
  %o3 = tile.addptr %o2, %c1 : !tile.ptr<bf16>, i32
  tile.store %o3, %d : !tile.ptr<bf16>
  %o4 = tile.addptr %o3, %c1 : !tile.ptr<bf16>, i32
  tile.store %o4, %e : !tile.ptr<bf16>
  return
}
