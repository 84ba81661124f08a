// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// tile.atomic_rmw (every operation, memory semantic and scope, with and without a mask) and
// tile.atomic_cas, on scalar pointers and tiles of pointers.

// CHECK-LABEL: func.func @rmw_kinds_int
// CHECK-SAME: (%[[P:.*]]: tensor<128x!tile.ptr<i32>>, %[[V:.*]]: tensor<128xi32>, %[[M:.*]]: tensor<128xi1>)
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw max, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw min, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw umax, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw umin, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw and, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw or, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw xor, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw xchg, relaxed, gpu, %[[P]], %[[V]] : tensor<128x!tile.ptr<i32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, relaxed, gpu, %[[P]], %[[V]], %[[M]] : tensor<128x!tile.ptr<i32>>
func.func @rmw_kinds_int(%p: tensor<128x!tile.ptr<i32>>, %v: tensor<128xi32>, %m: tensor<128xi1>) {
  %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>    // (128)
  %1 = tile.atomic_rmw max, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %2 = tile.atomic_rmw min, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %3 = tile.atomic_rmw umax, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %4 = tile.atomic_rmw umin, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %5 = tile.atomic_rmw and, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %6 = tile.atomic_rmw or, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %7 = tile.atomic_rmw xor, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %8 = tile.atomic_rmw xchg, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>>
  %9 = tile.atomic_rmw add, relaxed, gpu, %p, %v, %m : tensor<128x!tile.ptr<i32>>
  return
}

// Floats take add, max, min and xchg.
// CHECK-LABEL: func.func @rmw_kinds_float
// CHECK-SAME: (%[[P:.*]]: tensor<4x32x!tile.ptr<f32>>, %[[V:.*]]: tensor<4x32xf32>, %[[M:.*]]: tensor<4x32xi1>, %[[H:.*]]: !tile.ptr<f16>, %[[HV:.*]]: f16)
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : tensor<4x32x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw max, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : tensor<4x32x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw min, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : tensor<4x32x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw xchg, acq_rel, gpu, %[[P]], %[[V]], %[[M]] : tensor<4x32x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, relaxed, cta, %[[H]], %[[HV]] : !tile.ptr<f16>
func.func @rmw_kinds_float(%p: tensor<4x32x!tile.ptr<f32>>, %v: tensor<4x32xf32>, %m: tensor<4x32xi1>,
                           %h: !tile.ptr<f16>, %hv: f16) {
  %0 = tile.atomic_rmw add, acq_rel, gpu, %p, %v, %m : tensor<4x32x!tile.ptr<f32>>  // (4, 32)
  %1 = tile.atomic_rmw max, acq_rel, gpu, %p, %v, %m : tensor<4x32x!tile.ptr<f32>>
  %2 = tile.atomic_rmw min, acq_rel, gpu, %p, %v, %m : tensor<4x32x!tile.ptr<f32>>
  %3 = tile.atomic_rmw xchg, acq_rel, gpu, %p, %v, %m : tensor<4x32x!tile.ptr<f32>>
  %4 = tile.atomic_rmw add, relaxed, cta, %h, %hv : !tile.ptr<f16>                   // scalar
  return
}

// Every memory semantic and scope.
// CHECK-LABEL: func.func @rmw_sem_scope
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i64>, %[[V:.*]]: i64, %[[M:.*]]: i1)
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, relaxed, gpu, %[[P]], %[[V]] : !tile.ptr<i64>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, acquire, cta, %[[P]], %[[V]] : !tile.ptr<i64>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, release, sys, %[[P]], %[[V]] : !tile.ptr<i64>
// CHECK-NEXT: %{{.*}} = tile.atomic_rmw add, acq_rel, gpu, %[[P]], %[[V]], %[[M]] {note = "z"} : !tile.ptr<i64>
// CHECK-NEXT: return %{{.*}} : i64
func.func @rmw_sem_scope(%p: !tile.ptr<i64>, %v: i64, %m: i1) -> i64 {
  %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : !tile.ptr<i64>
  %1 = tile.atomic_rmw add, acquire, cta, %p, %v : !tile.ptr<i64>
  %2 = tile.atomic_rmw add, release, sys, %p, %v : !tile.ptr<i64>
  %3 = tile.atomic_rmw add, acq_rel, gpu, %p, %v, %m {note = "z"} : !tile.ptr<i64>
  return %3 : i64
}

// The result is the old value: the pointee type with the pointer's shape.
// CHECK-LABEL: func.func @rmw_result_type
// CHECK-NEXT: %[[OLD:.*]] = tile.atomic_rmw xchg, relaxed, gpu, %{{.*}}, %{{.*}} : tensor<16x!tile.ptr<bf16, 3>>
// CHECK-NEXT: return %[[OLD]] : tensor<16xbf16>
func.func @rmw_result_type(%p: tensor<16x!tile.ptr<bf16, 3>>, %v: tensor<16xbf16>) -> tensor<16xbf16> {
  %old = tile.atomic_rmw xchg, relaxed, gpu, %p, %v : tensor<16x!tile.ptr<bf16, 3>>
  return %old : tensor<16xbf16>
}

// CHECK-LABEL: func.func @cas
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i32>, %[[C:.*]]: i32, %[[V:.*]]: i32, %[[PS:.*]]: tensor<8x!tile.ptr<f32>>, %[[CS:.*]]: tensor<8xf32>, %[[VS:.*]]: tensor<8xf32>, %[[Q:.*]]: !tile.ptr<i16>, %[[C16:.*]]: i16, %[[R:.*]]: !tile.ptr<f64>, %[[C64:.*]]: f64)
// CHECK-NEXT: %{{.*}} = tile.atomic_cas acq_rel, gpu, %[[P]], %[[C]], %[[V]] : !tile.ptr<i32>
// CHECK-NEXT: %{{.*}} = tile.atomic_cas relaxed, cta, %[[P]], %[[C]], %[[V]] : !tile.ptr<i32>
// CHECK-NEXT: %{{.*}} = tile.atomic_cas acquire, sys, %[[P]], %[[V]], %[[C]] : !tile.ptr<i32>
// CHECK-NEXT: %{{.*}} = tile.atomic_cas release, gpu, %[[PS]], %[[CS]], %[[VS]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.atomic_cas acq_rel, gpu, %[[Q]], %[[C16]], %[[C16]] : !tile.ptr<i16>
// CHECK-NEXT: %[[OLD:.*]] = tile.atomic_cas acq_rel, sys, %[[R]], %[[C64]], %[[C64]] {note = "w"} : !tile.ptr<f64>
// CHECK-NEXT: return %[[OLD]] : f64
func.func @cas(%p: !tile.ptr<i32>, %c: i32, %v: i32, %ps: tensor<8x!tile.ptr<f32>>, %cs: tensor<8xf32>,
               %vs: tensor<8xf32>, %q: !tile.ptr<i16>, %c16: i16, %r: !tile.ptr<f64>, %c64: f64) -> f64 {
  %0 = tile.atomic_cas acq_rel, gpu, %p, %c, %v : !tile.ptr<i32>
  %1 = tile.atomic_cas relaxed, cta, %p, %c, %v : !tile.ptr<i32>
  %2 = tile.atomic_cas acquire, sys, %p, %v, %c : !tile.ptr<i32>
  %3 = tile.atomic_cas release, gpu, %ps, %cs, %vs : tensor<8x!tile.ptr<f32>>          // (8)
  %4 = tile.atomic_cas acq_rel, gpu, %q, %c16, %c16 : !tile.ptr<i16>
  %5 = tile.atomic_cas acq_rel, sys, %r, %c64, %c64 {note = "w"} : !tile.ptr<f64>
  return %5 : f64
}
