// Case C13: arith.floordivsi / ceildivsi / ceildivui lower on every GPU target (arith-to-llvm
// has no pattern for them: they failed to legalize) as the truncating division plus a
// correction when the remainder is non-zero: floor(-7 / 2) = -4, ceil(-7 / 2) = -3,
// floor(7 / -2) = -4, ceil(7 / -2) = -3, floor(-8 / 2) = -4, ceil(7u / 2u) = 4.
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s --check-prefix=LOWER
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | FileCheck %s --check-prefix=LOWER
// The values, folded by LLVM's optimizer from constants through the emitted sequence:
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_80 | tessel-translate --target=cuda:sm_80 --emit=llvm - | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | tessel-translate --target=cuda:sm_90a --emit=llvm - | FileCheck %s --check-prefix=NV
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx90a | tessel-translate --target=hip:gfx90a --emit=llvm - | FileCheck %s --check-prefix=AMD
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | tessel-translate --target=hip:gfx942 --emit=llvm - | FileCheck %s --check-prefix=AMD

// LOWER-LABEL: llvm.func @divs
// LOWER:         llvm.sdiv %{{.*}}, %{{.*}} : i32
// LOWER:         llvm.srem %{{.*}}, %{{.*}} : i32
// LOWER:         llvm.sub
// LOWER:         llvm.sdiv %{{.*}}, %{{.*}} : i64
// LOWER:         llvm.srem %{{.*}}, %{{.*}} : i64
// LOWER:         llvm.add
// LOWER:         llvm.udiv %{{.*}}, %{{.*}} : i32
// LOWER:         llvm.urem %{{.*}}, %{{.*}} : i32
// LOWER:         llvm.add
func.func @divs(%a: i32, %b: i32, %c: i64, %d: i64, %o: !tile.ptr<i32>, %o64: !tile.ptr<i64>) attributes {tile.kernel} {
  %f = arith.floordivsi %a, %b : i32
  %g = arith.ceildivsi %c, %d : i64
  %h = arith.ceildivui %a, %b : i32
  tile.store %o, %f : !tile.ptr<i32>
  tile.store %o64, %g : !tile.ptr<i64>
  tile.store %o, %h : !tile.ptr<i32>
  return
}

// NV-LABEL: define void @fold(
// NV:         st.global.b32 {{.*}}i32 -4)
// NV:         st.global.b32 {{.*}}i32 -3)
// NV:         st.global.b32 {{.*}}i32 -4)
// NV:         st.global.b32 {{.*}}i32 -3)
// NV:         st.global.b32 {{.*}}i32 -4)
// NV:         st.global.b32 {{.*}}i32 -4)
// NV:         st.global.b32 {{.*}}i32 4)
// NV:         st.global.v2.b32 {{.*}}i32 -4, i32 -1)
// AMD-LABEL: define amdgpu_kernel void @fold(
// AMD:         store i32 -4
// AMD:         store i32 -3
// AMD:         store i32 -4
// AMD:         store i32 -3
// AMD:         store i32 -4
// AMD:         store i32 -4
// AMD:         store i32 4
// AMD:         store i64 -4
func.func @fold(%o: !tile.ptr<i32>, %o64: !tile.ptr<i64>) attributes {tile.kernel} {
  %c1 = arith.constant 1 : i32
  %m7 = arith.constant -7 : i32
  %p7 = arith.constant 7 : i32
  %m8 = arith.constant -8 : i32
  %p2 = arith.constant 2 : i32
  %m2 = arith.constant -2 : i32
  %m7l = arith.constant -7 : i64
  %p2l = arith.constant 2 : i64
  %r0 = arith.floordivsi %m7, %p2 : i32
  %r1 = arith.ceildivsi %m7, %p2 : i32
  %r2 = arith.floordivsi %p7, %m2 : i32
  %r3 = arith.ceildivsi %p7, %m2 : i32
  %r4 = arith.floordivsi %m8, %p2 : i32
  %r5 = arith.ceildivsi %m8, %p2 : i32
  %r6 = arith.ceildivui %p7, %p2 : i32
  %r7 = arith.floordivsi %m7l, %p2l : i64
  tile.store %o, %r0 : !tile.ptr<i32>
  %o1 = tile.addptr %o, %c1 : !tile.ptr<i32>, i32
  tile.store %o1, %r1 : !tile.ptr<i32>
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<i32>, i32
  tile.store %o2, %r2 : !tile.ptr<i32>
  %o3 = tile.addptr %o2, %c1 : !tile.ptr<i32>, i32
  tile.store %o3, %r3 : !tile.ptr<i32>
  %o4 = tile.addptr %o3, %c1 : !tile.ptr<i32>, i32
  tile.store %o4, %r4 : !tile.ptr<i32>
  %o5 = tile.addptr %o4, %c1 : !tile.ptr<i32>, i32
  tile.store %o5, %r5 : !tile.ptr<i32>
  %o6 = tile.addptr %o5, %c1 : !tile.ptr<i32>, i32
  tile.store %o6, %r6 : !tile.ptr<i32>
  tile.store %o64, %r7 : !tile.ptr<i64>
  return
}
