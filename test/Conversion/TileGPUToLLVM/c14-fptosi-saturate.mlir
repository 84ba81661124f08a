// Case C14: float -> integer casts saturate on every GPU target as on the interpreter: round
// toward zero, clamp to the integer's range, NaN -> 0 (docs/TileIR.md). LLVM's fptosi is poison
// out of range, and NVPTX / AMDGPU convert f16 to 16 bits and truncate (510 -> -2, inf -> -1).
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s --check-prefix=LOWER
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | FileCheck %s --check-prefix=LOWER
// The values, folded by LLVM's optimizer from constants through the emitted sequence (a plain
// fptosi folds to poison):
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | tessel-translate --target=cuda:sm_90a --emit=llvm - | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_80 | tessel-translate --target=cuda:sm_80 --emit=llvm - | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | tessel-translate --target=hip:gfx942 --emit=llvm - | FileCheck %s --check-prefix=AMD
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx90a | tessel-translate --target=hip:gfx90a --emit=llvm - | FileCheck %s --check-prefix=AMD

// LOWER-LABEL: llvm.func @convert
// LOWER:         %[[X:.*]] = llvm.fpext %{{.*}} : f16 to f32
// LOWER:         %[[C:.*]] = llvm.fptosi %[[X]] : f32 to i8
// LOWER:         %[[LO:.*]] = llvm.fcmp "ole" %[[X]], %{{.*}} : f32
// LOWER:         %[[R0:.*]] = llvm.select %[[LO]], %{{.*}}, %[[C]] : i1, i8
// LOWER:         %[[HI:.*]] = llvm.fcmp "oge" %[[X]], %{{.*}} : f32
// LOWER:         %[[R1:.*]] = llvm.select %[[HI]], %{{.*}}, %[[R0]] : i1, i8
// LOWER:         %[[NAN:.*]] = llvm.fcmp "uno" %[[X]], %[[X]] : f32
// LOWER:         llvm.select %[[NAN]], %{{.*}}, %[[R1]] : i1, i8
// LOWER:         llvm.fptoui %{{.*}} : f32 to i8
// LOWER:         llvm.fptosi %{{.*}} : f32 to i32
// LOWER:         llvm.fcmp "uno"
func.func @convert(%h: f16, %f: f32, %o: !tile.ptr<i8>, %o32: !tile.ptr<i32>) attributes {tile.kernel} {
  %a = arith.fptosi %h : f16 to i8
  %b = arith.fptoui %h : f16 to i8
  %c = arith.fptosi %f : f32 to i32
  tile.store %o, %a : !tile.ptr<i8>
  tile.store %o, %b : !tile.ptr<i8>
  tile.store %o32, %c : !tile.ptr<i32>
  return
}

// f16 [inf, 510, -200, nan, -inf, 300, -1.5, 127.9] -> i8 [127, 127, -128, 0, -128, 127, -1, 127]
// and u8 [255, 255, 0, 0, 0, 255, 0, 127]; f32 [1e10, -1e10, nan] -> i32 [2147483647,
// -2147483648, 0]. (NVIDIA stores an i8 from a 16-bit register: -128 is i16 128, -1 is 255.)
// NV-LABEL: define void @fold(
// NV:         st.global.u8 {{.*}}i16 127)
// NV:         st.global.u8 {{.*}}i16 127)
// NV:         st.global.u8 {{.*}}i16 128)
// NV:         st.global.u8 {{.*}}i16 0)
// NV:         st.global.u8 {{.*}}i16 128)
// NV:         st.global.u8 {{.*}}i16 127)
// NV:         st.global.u8 {{.*}}i16 255)
// NV:         st.global.u8 {{.*}}i16 127)
// NV:         st.global.u8 {{.*}}i16 255)
// NV:         st.global.u8 {{.*}}i16 255)
// NV:         st.global.u8 {{.*}}i16 0)
// NV:         st.global.u8 {{.*}}i16 0)
// NV:         st.global.u8 {{.*}}i16 0)
// NV:         st.global.u8 {{.*}}i16 255)
// NV:         st.global.u8 {{.*}}i16 0)
// NV:         st.global.u8 {{.*}}i16 127)
// NV:         st.global.b32 {{.*}}i32 2147483647)
// NV:         st.global.b32 {{.*}}i32 -2147483648)
// NV:         st.global.b32 {{.*}}i32 0)
// AMD-LABEL: define amdgpu_kernel void @fold(
// AMD:         store i8 127,
// AMD:         store i8 127,
// AMD:         store i8 -128,
// AMD:         store i8 0,
// AMD:         store i8 -128,
// AMD:         store i8 127,
// AMD:         store i8 -1,
// AMD:         store i8 127,
// AMD:         store i8 -1,
// AMD:         store i8 -1,
// AMD:         store i8 0,
// AMD:         store i8 0,
// AMD:         store i8 0,
// AMD:         store i8 -1,
// AMD:         store i8 0,
// AMD:         store i8 127,
// AMD:         store i32 2147483647,
// AMD:         store i32 -2147483648,
// AMD:         store i32 0,
func.func @fold(%o: !tile.ptr<i8>, %o32: !tile.ptr<i32>) attributes {tile.kernel} {
  %c1 = arith.constant 1 : i32
  %x0 = arith.constant 0x7C00 : f16
  %x1 = arith.constant 510.0 : f16
  %x2 = arith.constant -200.0 : f16
  %x3 = arith.constant 0x7E00 : f16
  %x4 = arith.constant 0xFC00 : f16
  %x5 = arith.constant 300.0 : f16
  %x6 = arith.constant -1.5 : f16
  %x7 = arith.constant 127.9 : f16
  %si0 = arith.fptosi %x0 : f16 to i8
  tile.store %o, %si0 : !tile.ptr<i8>
  %si1 = arith.fptosi %x1 : f16 to i8
  %p1 = tile.addptr %o, %c1 : !tile.ptr<i8>, i32
  tile.store %p1, %si1 : !tile.ptr<i8>
  %si2 = arith.fptosi %x2 : f16 to i8
  %p2 = tile.addptr %p1, %c1 : !tile.ptr<i8>, i32
  tile.store %p2, %si2 : !tile.ptr<i8>
  %si3 = arith.fptosi %x3 : f16 to i8
  %p3 = tile.addptr %p2, %c1 : !tile.ptr<i8>, i32
  tile.store %p3, %si3 : !tile.ptr<i8>
  %si4 = arith.fptosi %x4 : f16 to i8
  %p4 = tile.addptr %p3, %c1 : !tile.ptr<i8>, i32
  tile.store %p4, %si4 : !tile.ptr<i8>
  %si5 = arith.fptosi %x5 : f16 to i8
  %p5 = tile.addptr %p4, %c1 : !tile.ptr<i8>, i32
  tile.store %p5, %si5 : !tile.ptr<i8>
  %si6 = arith.fptosi %x6 : f16 to i8
  %p6 = tile.addptr %p5, %c1 : !tile.ptr<i8>, i32
  tile.store %p6, %si6 : !tile.ptr<i8>
  %si7 = arith.fptosi %x7 : f16 to i8
  %p7 = tile.addptr %p6, %c1 : !tile.ptr<i8>, i32
  tile.store %p7, %si7 : !tile.ptr<i8>
  %ui0 = arith.fptoui %x0 : f16 to i8
  %p8 = tile.addptr %p7, %c1 : !tile.ptr<i8>, i32
  tile.store %p8, %ui0 : !tile.ptr<i8>
  %ui1 = arith.fptoui %x1 : f16 to i8
  %p9 = tile.addptr %p8, %c1 : !tile.ptr<i8>, i32
  tile.store %p9, %ui1 : !tile.ptr<i8>
  %ui2 = arith.fptoui %x2 : f16 to i8
  %p10 = tile.addptr %p9, %c1 : !tile.ptr<i8>, i32
  tile.store %p10, %ui2 : !tile.ptr<i8>
  %ui3 = arith.fptoui %x3 : f16 to i8
  %p11 = tile.addptr %p10, %c1 : !tile.ptr<i8>, i32
  tile.store %p11, %ui3 : !tile.ptr<i8>
  %ui4 = arith.fptoui %x4 : f16 to i8
  %p12 = tile.addptr %p11, %c1 : !tile.ptr<i8>, i32
  tile.store %p12, %ui4 : !tile.ptr<i8>
  %ui5 = arith.fptoui %x5 : f16 to i8
  %p13 = tile.addptr %p12, %c1 : !tile.ptr<i8>, i32
  tile.store %p13, %ui5 : !tile.ptr<i8>
  %ui6 = arith.fptoui %x6 : f16 to i8
  %p14 = tile.addptr %p13, %c1 : !tile.ptr<i8>, i32
  tile.store %p14, %ui6 : !tile.ptr<i8>
  %ui7 = arith.fptoui %x7 : f16 to i8
  %p15 = tile.addptr %p14, %c1 : !tile.ptr<i8>, i32
  tile.store %p15, %ui7 : !tile.ptr<i8>
  %f0 = arith.constant 1.0e10 : f32
  %f1 = arith.constant -1.0e10 : f32
  %f2 = arith.constant 0x7FC00000 : f32
  %i0 = arith.fptosi %f0 : f32 to i32
  tile.store %o32, %i0 : !tile.ptr<i32>
  %i1 = arith.fptosi %f1 : f32 to i32
  %q1 = tile.addptr %o32, %c1 : !tile.ptr<i32>, i32
  tile.store %q1, %i1 : !tile.ptr<i32>
  %i2 = arith.fptosi %f2 : f32 to i32
  %q2 = tile.addptr %q1, %c1 : !tile.ptr<i32>, i32
  tile.store %q2, %i2 : !tile.ptr<i32>
  return
}
