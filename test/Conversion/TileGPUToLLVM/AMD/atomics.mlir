// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 --canonicalize | FileCheck %s

// Atomics are LLVM atomicrmw / cmpxchg with the AMDGPU synchronization scope of the op's scope
// (gpu: agent, cta: workgroup, sys: the default system scope); LLVM picks the instruction or a
// compare-and-swap loop. Predicated ones go through an always-inline `if (pred)` helper.
#b = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [2], order = [0]}>
// CHECK-LABEL: llvm.func @rmw
// CHECK:         llvm.atomicrmw add %{{.*}}, %{{.*}} syncscope("agent") monotonic : !llvm.ptr<1>, i32
// CHECK:         llvm.atomicrmw umax %{{.*}}, %{{.*}} syncscope("workgroup") acquire : !llvm.ptr<1>, i32
// CHECK:         llvm.atomicrmw xchg %{{.*}}, %{{.*}} release : !llvm.ptr<1>, i32
// CHECK:         llvm.call @__tessel_amd_atomic_fadd_f32_p1_acq_rel_agent(%{{.*}}, %{{.*}}, %{{.*}}) : (i1, !llvm.ptr<1>, f32) -> f32
func.func @rmw(%p: tensor<128x!tile.ptr<i32>, #b>, %v: tensor<128xi32, #b>,
               %f: tensor<128x!tile.ptr<f32>, #b>, %fv: tensor<128xf32, #b>, %m: tensor<128xi1, #b>)
    -> (tensor<128xi32, #b>, tensor<128xi32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>) {
  %0 = tile.atomic_rmw add, relaxed, gpu, %p, %v : tensor<128x!tile.ptr<i32>, #b>
  %1 = tile.atomic_rmw umax, acquire, cta, %p, %v : tensor<128x!tile.ptr<i32>, #b>
  %2 = tile.atomic_rmw xchg, release, sys, %p, %v : tensor<128x!tile.ptr<i32>, #b>
  %3 = tile.atomic_rmw add, acq_rel, gpu, %f, %fv, %m : tensor<128x!tile.ptr<f32>, #b>
  return %0, %1, %2, %3 : tensor<128xi32, #b>, tensor<128xi32, #b>, tensor<128xi32, #b>, tensor<128xf32, #b>
}

// A scalar atomic runs in work-item 0 (its predicate); the old value reaches every thread
// through LDS. One that releases waits at a barrier first, so it publishes every thread's
// earlier stores. cmpxchg takes the bits of a float; its failure ordering drops the release.
// CHECK-LABEL: llvm.func @scalar
// CHECK:         rocdl.s.barrier
// CHECK:         %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK:         %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
// CHECK:         llvm.call @__tessel_amd_cas_f32_p1_acq_rel_system(%[[FIRST]], %{{.*}}, %{{.*}}, %{{.*}}) : (i1, !llvm.ptr<1>, f32, f32) -> f32
// CHECK:         rocdl.s.barrier
// CHECK:         llvm.store %{{.*}}, %{{.*}} : f32, !llvm.ptr<3>
// CHECK:         rocdl.s.barrier
// CHECK:         llvm.load %{{.*}} : !llvm.ptr<3> -> f32
func.func @scalar(%p: !tile.ptr<f32>, %c: f32, %v: f32) -> f32 {
  %o = tile.atomic_cas acq_rel, sys, %p, %c, %v : !tile.ptr<f32>
  return %o : f32
}

// A relaxed or acquiring scalar atomic orders nothing before it: no barrier ahead of it.
// CHECK-LABEL: llvm.func @scalar_acquire
// CHECK-NOT:     rocdl.s.barrier
// CHECK:         rocdl.workitem.id.x
// CHECK:         llvm.call @__tessel_amd_atomic_add_i32
func.func @scalar_acquire(%p: !tile.ptr<i32>, %v: i32) -> i32 {
  %o = tile.atomic_rmw add, acquire, gpu, %p, %v : !tile.ptr<i32>
  return %o : i32
}

// CHECK-LABEL: llvm.func internal @__tessel_amd_atomic_fadd_f32_p1_acq_rel_agent(
// CHECK-SAME:    %[[P:.*]]: i1, %[[PTR:.*]]: !llvm.ptr<1>, %[[V:.*]]: f32) -> f32
// CHECK:         %[[POISON:.*]] = llvm.mlir.poison : f32
// CHECK:         llvm.cond_br %[[P]], ^[[DO:.*]], ^[[EXIT:.*]](%[[POISON]] : f32)
// CHECK:       ^[[DO]]:
// CHECK:         %[[OLD:.*]] = llvm.atomicrmw fadd %[[PTR]], %[[V]] syncscope("agent") acq_rel : !llvm.ptr<1>, f32
// CHECK:         llvm.br ^[[EXIT]](%[[OLD]] : f32)
// CHECK:       ^[[EXIT]](%[[R:.*]]: f32):
// CHECK:         llvm.return %[[R]] : f32

// CHECK-LABEL: llvm.func internal @__tessel_amd_cas_f32_p1_acq_rel_system(
// CHECK:         %[[C:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[N:.*]] = llvm.bitcast %{{.*}} : f32 to i32
// CHECK:         %[[PAIR:.*]] = llvm.cmpxchg %{{.*}}, %[[C]], %[[N]] acq_rel acquire : !llvm.ptr<1>, i32
// CHECK:         %[[OLD:.*]] = llvm.extractvalue %[[PAIR]][0] : !llvm.struct<(i32, i1)>
// CHECK:         llvm.bitcast %[[OLD]] : i32 to f32
