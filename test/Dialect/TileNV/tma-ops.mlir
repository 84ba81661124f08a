// RUN: tessel-opt %s | FileCheck %s
// RUN: tessel-opt %s | tessel-opt | FileCheck %s

// The mbarrier and bulk-copy ops print as they parse: a barrier is one i64 of shared memory
// (a stage of a ring memdesc<S x 1 x i64>); the copy names the kernel's tensor-map array, the
// map, the box's coordinates (innermost first), its destination in the swizzled placement,
// the barrier it completes on and the predicate.

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

// CHECK-LABEL: func.func @ops
// CHECK-SAME:    %[[MAPS:[^:]+]]: !tile.ptr<i8, 0>
func.func @ops(%maps: !tile.ptr<i8, 0>, %dst: !tile_gpu.memdesc<128x128xbf16, #s>,
               %bar: !tile_gpu.memdesc<1xi64, #b>, %x: i32, %y: i32, %p: i1) {
  // CHECK: tile_nv.init_barrier %{{.+}}, 1 : !tile_gpu.memdesc<1xi64, #{{.+}}>
  tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<1xi64, #b>
  // CHECK-NEXT: tile_nv.barrier_expect %{{.+}}, 32768, %{{.+}} : !tile_gpu.memdesc<1xi64, #{{.+}}>
  tile_nv.barrier_expect %bar, 32768, %p : !tile_gpu.memdesc<1xi64, #b>
  // CHECK-NEXT: tile_nv.async_tma_copy_global_to_local %[[MAPS]][1] [%{{.+}}, %{{.+}}] %{{.+}}, %{{.+}}, %{{.+}} : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x128xbf16, #{{.+}}>, !tile_gpu.memdesc<1xi64, #{{.+}}>
  tile_nv.async_tma_copy_global_to_local %maps[1] [%x, %y] %dst, %bar, %p : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x128xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  // A 2-CTA cluster's forms: a copy multicast where %p holds (through the half box's map 2),
  // an arrival on the peer's barrier, the cluster barrier and the CTA's rank.
  // CHECK-NEXT: tile_nv.async_tma_copy_global_to_local %[[MAPS]][1] [%{{.+}}, %{{.+}}] %{{.+}}, %{{.+}}, %{{.+}} multicast %{{.+}} map 2 : !tile.ptr<i8, 0>
  tile_nv.async_tma_copy_global_to_local %maps[1] [%x, %y] %dst, %bar, %p multicast %p map 2 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x128xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  // The store: the buffer's tile into the box at the coordinates, through map 0.
  // CHECK-NEXT: tile_nv.async_tma_copy_local_to_global %[[MAPS]][0] [%{{.+}}, %{{.+}}] %{{.+}} : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x128xbf16, #{{.+}}>
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %dst : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x128xbf16, #s>
  // CHECK-NEXT: %[[RANK:.+]] = tile_nv.cluster_cta_rank : i32
  %rank = tile_nv.cluster_cta_rank : i32
  // CHECK-NEXT: tile_nv.arrive_barrier %{{.+}}, %{{.+}} cta %[[RANK]] : !tile_gpu.memdesc<1xi64, #{{.+}}>
  tile_nv.arrive_barrier %bar, %p cta %rank : !tile_gpu.memdesc<1xi64, #b>
  // CHECK-NEXT: tile_nv.cluster_barrier
  tile_nv.cluster_barrier
  // CHECK-NEXT: tile_nv.wait_barrier %{{.+}}, %{{.+}} : !tile_gpu.memdesc<1xi64, #{{.+}}>
  tile_nv.wait_barrier %bar, %x : !tile_gpu.memdesc<1xi64, #b>
  // CHECK-NEXT: tile_nv.inval_barrier %{{.+}} : !tile_gpu.memdesc<1xi64, #{{.+}}>
  tile_nv.inval_barrier %bar : !tile_gpu.memdesc<1xi64, #b>
  // The warp's index, warp-uniform (a warp-specialized kernel's producer warp branches on it).
  // CHECK-NEXT: tile_nv.warp_id : i32
  %warp = tile_nv.warp_id : i32
  return
}
