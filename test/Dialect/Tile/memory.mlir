// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// Pointers and memory: addptr, load and store (mask, other, every cache and eviction hint,
// volatile), block pointers (make_block_ptr, advance) and loads/stores through them.

//===----------------------------------------------------------------------===//
// addptr
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @addptr
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<f32>, %[[PS:.*]]: tensor<128x!tile.ptr<f32>>, %[[Q:.*]]: tensor<4x8x!tile.ptr<f16, 3>>, %[[O32:.*]]: tensor<128xi32>, %[[O64:.*]]: tensor<128xi64>, %[[O2:.*]]: tensor<4x8xi32>, %[[S:.*]]: i64, %[[S32:.*]]: i32)
// CHECK-NEXT: %{{.*}} = tile.addptr %[[P]], %[[S]] : !tile.ptr<f32>, i64
// CHECK-NEXT: %{{.*}} = tile.addptr %[[P]], %[[S32]] : !tile.ptr<f32>, i32
// CHECK-NEXT: %{{.*}} = tile.addptr %[[PS]], %[[O32]] : tensor<128x!tile.ptr<f32>>, tensor<128xi32>
// CHECK-NEXT: %{{.*}} = tile.addptr %[[PS]], %[[O64]] : tensor<128x!tile.ptr<f32>>, tensor<128xi64>
// CHECK-NEXT: %{{.*}} = tile.addptr %[[Q]], %[[O2]] : tensor<4x8x!tile.ptr<f16, 3>>, tensor<4x8xi32>
func.func @addptr(%p: !tile.ptr<f32>, %ps: tensor<128x!tile.ptr<f32>>,
                  %q: tensor<4x8x!tile.ptr<f16, 3>>, %o32: tensor<128xi32>, %o64: tensor<128xi64>,
                  %o2: tensor<4x8xi32>, %s: i64, %s32: i32) {
  %0 = tile.addptr %p, %s : !tile.ptr<f32>, i64
  %1 = tile.addptr %p, %s32 : !tile.ptr<f32>, i32
  %2 = tile.addptr %ps, %o32 : tensor<128x!tile.ptr<f32>>, tensor<128xi32>      // (128)
  %3 = tile.addptr %ps, %o64 : tensor<128x!tile.ptr<f32>>, tensor<128xi64>      // (128)
  %4 = tile.addptr %q, %o2 : tensor<4x8x!tile.ptr<f16, 3>>, tensor<4x8xi32>     // (4, 8)
  return
}

//===----------------------------------------------------------------------===//
// load
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @load_operands
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i64>, %[[PS:.*]]: tensor<128x!tile.ptr<f32>>, %[[M:.*]]: tensor<128xi1>, %[[O:.*]]: tensor<128xf32>, %[[SM:.*]]: i1, %[[SO:.*]]: i64)
// CHECK-NEXT: %{{.*}} = tile.load %[[P]] : !tile.ptr<i64>
// CHECK-NEXT: %{{.*}} = tile.load %[[P]], %[[SM]] : !tile.ptr<i64>
// CHECK-NEXT: %{{.*}} = tile.load %[[P]], %[[SM]], %[[SO]] : !tile.ptr<i64>
// CHECK-NEXT: %{{.*}} = tile.load %[[PS]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.load %[[PS]], %[[M]] : tensor<128x!tile.ptr<f32>>
// CHECK-NEXT: %{{.*}} = tile.load %[[PS]], %[[M]], %[[O]] : tensor<128x!tile.ptr<f32>>
func.func @load_operands(%p: !tile.ptr<i64>, %ps: tensor<128x!tile.ptr<f32>>, %m: tensor<128xi1>,
                         %o: tensor<128xf32>, %sm: i1, %so: i64) {
  %0 = tile.load %p : !tile.ptr<i64>                            // scalar
  %1 = tile.load %p, %sm : !tile.ptr<i64>
  %2 = tile.load %p, %sm, %so : !tile.ptr<i64>
  %3 = tile.load %ps : tensor<128x!tile.ptr<f32>>               // (128)
  %4 = tile.load %ps, %m : tensor<128x!tile.ptr<f32>>
  %5 = tile.load %ps, %m, %o : tensor<128x!tile.ptr<f32>>
  return
}

// The result type is the pointee with the pointer's shape.
// CHECK-LABEL: func.func @load_result_types
// CHECK: %[[A:.*]] = tile.load %{{.*}} : tensor<64x32x!tile.ptr<bf16>>
// CHECK: %[[B:.*]] = tile.load %{{.*}} : tensor<16x!tile.ptr<i8, 3>>
// CHECK: return %[[A]], %[[B]] : tensor<64x32xbf16>, tensor<16xi8>
func.func @load_result_types(%a: tensor<64x32x!tile.ptr<bf16>>, %b: tensor<16x!tile.ptr<i8, 3>>)
    -> (tensor<64x32xbf16>, tensor<16xi8>) {
  %x = tile.load %a : tensor<64x32x!tile.ptr<bf16>>             // (64, 32)
  %y = tile.load %b : tensor<16x!tile.ptr<i8, 3>>               // (16)
  return %x, %y : tensor<64x32xbf16>, tensor<16xi8>
}

// Every cache modifier; `none` is the default and is not printed.
// CHECK-LABEL: func.func @load_cache
// CHECK-NEXT: tile.load %[[P:.*]] : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] cache = ca : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] cache = cg : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] cache = cs : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] cache = cv : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] cache = wb : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] cache = wt : tensor<8x!tile.ptr<f16>>
func.func @load_cache(%p: tensor<8x!tile.ptr<f16>>) {
  %0 = tile.load %p cache = none : tensor<8x!tile.ptr<f16>>
  %1 = tile.load %p cache = ca : tensor<8x!tile.ptr<f16>>
  %2 = tile.load %p cache = cg : tensor<8x!tile.ptr<f16>>
  %3 = tile.load %p cache = cs : tensor<8x!tile.ptr<f16>>
  %4 = tile.load %p cache = cv : tensor<8x!tile.ptr<f16>>
  %5 = tile.load %p cache = wb : tensor<8x!tile.ptr<f16>>
  %6 = tile.load %p cache = wt : tensor<8x!tile.ptr<f16>>
  return
}

// Every eviction policy; `normal` is the default and is not printed.
// CHECK-LABEL: func.func @load_evict
// CHECK-NEXT: tile.load %[[P:.*]] : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] evict = evict_first : tensor<8x!tile.ptr<f16>>
// CHECK-NEXT: tile.load %[[P]] evict = evict_last : tensor<8x!tile.ptr<f16>>
func.func @load_evict(%p: tensor<8x!tile.ptr<f16>>) {
  %0 = tile.load %p evict = normal : tensor<8x!tile.ptr<f16>>
  %1 = tile.load %p evict = evict_first : tensor<8x!tile.ptr<f16>>
  %2 = tile.load %p evict = evict_last : tensor<8x!tile.ptr<f16>>
  return
}

// Hints combine, in any order in the input, and print in one canonical order.
// CHECK-LABEL: func.func @load_hints_combined
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tile.ptr<f32>>, %[[M:.*]]: tensor<8xi1>, %[[O:.*]]: tensor<8xf32>)
// CHECK-NEXT: tile.load %[[P]] volatile : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.load %[[P]], %[[M]], %[[O]] cache = cg evict = evict_first : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.load %[[P]], %[[M]], %[[O]] cache = cv evict = evict_last volatile : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.load %[[P]], %[[M]] cache = ca evict = evict_first volatile {note = "x"} : tensor<8x!tile.ptr<f32>>
func.func @load_hints_combined(%p: tensor<8x!tile.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf32>) {
  %0 = tile.load %p volatile : tensor<8x!tile.ptr<f32>>
  %1 = tile.load %p, %m, %o cache = cg evict = evict_first : tensor<8x!tile.ptr<f32>>
  %2 = tile.load %p, %m, %o volatile evict = evict_last cache = cv : tensor<8x!tile.ptr<f32>>
  %3 = tile.load %p, %m evict = evict_first volatile cache = ca {note = "x"} : tensor<8x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// store
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @store
// CHECK-SAME: (%[[P:.*]]: !tile.ptr<i32>, %[[PS:.*]]: tensor<4x32x!tile.ptr<f16>>, %[[V:.*]]: tensor<4x32xf16>, %[[M:.*]]: tensor<4x32xi1>, %[[S:.*]]: i32, %[[SM:.*]]: i1)
// CHECK-NEXT: tile.store %[[P]], %[[S]] : !tile.ptr<i32>
// CHECK-NEXT: tile.store %[[P]], %[[S]], %[[SM]] : !tile.ptr<i32>
// CHECK-NEXT: tile.store %[[PS]], %[[V]] : tensor<4x32x!tile.ptr<f16>>
// CHECK-NEXT: tile.store %[[PS]], %[[V]], %[[M]] : tensor<4x32x!tile.ptr<f16>>
func.func @store(%p: !tile.ptr<i32>, %ps: tensor<4x32x!tile.ptr<f16>>, %v: tensor<4x32xf16>,
                 %m: tensor<4x32xi1>, %s: i32, %sm: i1) {
  tile.store %p, %s : !tile.ptr<i32>
  tile.store %p, %s, %sm : !tile.ptr<i32>
  tile.store %ps, %v : tensor<4x32x!tile.ptr<f16>>              // (4, 32)
  tile.store %ps, %v, %m : tensor<4x32x!tile.ptr<f16>>
  return
}

// CHECK-LABEL: func.func @store_hints
// CHECK-SAME: (%[[P:.*]]: tensor<8x!tile.ptr<f32>>, %[[V:.*]]: tensor<8xf32>, %[[M:.*]]: tensor<8xi1>)
// CHECK-NEXT: tile.store %[[P]], %[[V]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] cache = ca : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] cache = cg : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] cache = cs : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] cache = cv : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] cache = wb : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] cache = wt : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] evict = evict_first : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]] evict = evict_last : tensor<8x!tile.ptr<f32>>
// CHECK-NEXT: tile.store %[[P]], %[[V]], %[[M]] cache = cs evict = evict_first {note = "y"} : tensor<8x!tile.ptr<f32>>
func.func @store_hints(%p: tensor<8x!tile.ptr<f32>>, %v: tensor<8xf32>, %m: tensor<8xi1>) {
  tile.store %p, %v cache = none : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v cache = ca : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v cache = cg : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v cache = cs : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v cache = cv : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v cache = wb : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v cache = wt : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v evict = normal : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v evict = evict_first : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v evict = evict_last : tensor<8x!tile.ptr<f32>>
  tile.store %p, %v, %m evict = evict_first cache = cs {note = "y"} : tensor<8x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// Block pointers
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @make_block_ptr
// CHECK-SAME: (%[[A:.*]]: !tile.ptr<f16>, %[[V:.*]]: !tile.ptr<f32>, %[[M:.*]]: i64, %[[K:.*]]: i64, %[[S0:.*]]: i64, %[[S1:.*]]: i64, %[[O0:.*]]: i64, %[[O1:.*]]: i64)
// CHECK-NEXT: %{{.*}} = tile.make_block_ptr %[[A]], [%[[M]], %[[K]]], [%[[S0]], %[[S1]]], [%[[O0]], %[[O1]]] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.make_block_ptr %[[A]], [%[[M]], %[[K]]], [%[[S0]], %[[S1]]], [%[[O0]], %[[O1]]] {order = array<i32: 0, 1>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<32x32xf16>>
// CHECK-NEXT: %{{.*}} = tile.make_block_ptr %[[V]], [%[[M]]], [%[[S1]]], [%[[O0]]] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<256xf32>>
func.func @make_block_ptr(%a: !tile.ptr<f16>, %v: !tile.ptr<f32>, %M: i64, %K: i64, %s0: i64,
                          %s1: i64, %o0: i64, %o1: i64) {
  %0 = tile.make_block_ptr %a, [%M, %K], [%s0, %s1], [%o0, %o1] {order = array<i32: 1, 0>}
       : !tile.ptr<f16> -> !tile.block_ptr<tensor<128x64xf16>>            // (128, 64), row-major
  %1 = tile.make_block_ptr %a, [%M, %K], [%s0, %s1], [%o0, %o1] {order = array<i32: 0, 1>}
       : !tile.ptr<f16> -> !tile.block_ptr<tensor<32x32xf16>>             // (32, 32), column-major
  %2 = tile.make_block_ptr %v, [%M], [%s1], [%o0] {order = array<i32: 0>}
       : !tile.ptr<f32> -> !tile.block_ptr<tensor<256xf32>>               // (256)
  return
}

// CHECK-LABEL: func.func @advance
// CHECK-SAME: (%[[BP:.*]]: !tile.block_ptr<tensor<128x64xf16>>, %[[B1:.*]]: !tile.block_ptr<tensor<256xf32>>, %[[X:.*]]: i64, %[[Y:.*]]: i64)
// CHECK-NEXT: %[[N:.*]] = tile.advance %[[BP]], [%[[X]], %[[Y]]] : !tile.block_ptr<tensor<128x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.advance %[[N]], [%[[Y]], %[[X]]] : !tile.block_ptr<tensor<128x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.advance %[[B1]], [%[[X]]] : !tile.block_ptr<tensor<256xf32>>
func.func @advance(%bp: !tile.block_ptr<tensor<128x64xf16>>, %b1: !tile.block_ptr<tensor<256xf32>>,
                   %x: i64, %y: i64) {
  %0 = tile.advance %bp, [%x, %y] : !tile.block_ptr<tensor<128x64xf16>>
  %1 = tile.advance %0, [%y, %x] : !tile.block_ptr<tensor<128x64xf16>>
  %2 = tile.advance %b1, [%x] : !tile.block_ptr<tensor<256xf32>>
  return
}

// Loads through a block pointer take boundary_check and padding instead of a mask; the result
// is the block type.
// CHECK-LABEL: func.func @block_ptr_load
// CHECK-SAME: (%[[BP:.*]]: !tile.block_ptr<tensor<64x64xf16>>, %[[BI:.*]]: !tile.block_ptr<tensor<32xi32>>)
// CHECK-NEXT: %[[L0:.*]] = tile.load %[[BP]] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.load %[[BP]] boundary_check = [0] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.load %[[BP]] boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.load %[[BP]] boundary_check = [1, 0] padding = nan : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.load %[[BP]] boundary_check = [] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.load %[[BP]] cache = cg evict = evict_last volatile boundary_check = [1] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: %{{.*}} = tile.load %[[BI]] boundary_check = [0] padding = zero : !tile.block_ptr<tensor<32xi32>>
// CHECK-NEXT: return %[[L0]] : tensor<64x64xf16>
func.func @block_ptr_load(%bp: !tile.block_ptr<tensor<64x64xf16>>, %bi: !tile.block_ptr<tensor<32xi32>>)
    -> tensor<64x64xf16> {
  %0 = tile.load %bp : !tile.block_ptr<tensor<64x64xf16>>                                // (64, 64)
  %1 = tile.load %bp boundary_check = [0] : !tile.block_ptr<tensor<64x64xf16>>
  %2 = tile.load %bp boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
  %3 = tile.load %bp padding = nan boundary_check = [1, 0] : !tile.block_ptr<tensor<64x64xf16>>
  %4 = tile.load %bp boundary_check = [] : !tile.block_ptr<tensor<64x64xf16>>
  %5 = tile.load %bp padding = zero boundary_check = [1] volatile evict = evict_last cache = cg
       : !tile.block_ptr<tensor<64x64xf16>>
  %6 = tile.load %bi boundary_check = [0] padding = zero : !tile.block_ptr<tensor<32xi32>>  // (32)
  return %0 : tensor<64x64xf16>
}

// CHECK-LABEL: func.func @block_ptr_store
// CHECK-SAME: (%[[BP:.*]]: !tile.block_ptr<tensor<64x64xf16>>, %[[V:.*]]: tensor<64x64xf16>)
// CHECK-NEXT: tile.store %[[BP]], %[[V]] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: tile.store %[[BP]], %[[V]] boundary_check = [0] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: tile.store %[[BP]], %[[V]] boundary_check = [0, 1] : !tile.block_ptr<tensor<64x64xf16>>
// CHECK-NEXT: tile.store %[[BP]], %[[V]] cache = wt evict = evict_first boundary_check = [1] : !tile.block_ptr<tensor<64x64xf16>>
func.func @block_ptr_store(%bp: !tile.block_ptr<tensor<64x64xf16>>, %v: tensor<64x64xf16>) {
  tile.store %bp, %v : !tile.block_ptr<tensor<64x64xf16>>
  tile.store %bp, %v boundary_check = [0] : !tile.block_ptr<tensor<64x64xf16>>
  tile.store %bp, %v boundary_check = [0, 1] : !tile.block_ptr<tensor<64x64xf16>>
  tile.store %bp, %v boundary_check = [1] evict = evict_first cache = wt : !tile.block_ptr<tensor<64x64xf16>>
  return
}

// A (BM, BK) tile of A walked along K, as a matmul's main loop does.
// CHECK-LABEL: func.func @block_ptr_loop
// CHECK: %[[BP:.*]] = tile.make_block_ptr
// CHECK: %{{.*}}:2 = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[IT:.*]] = %[[BP]], %[[ACC:.*]] = %{{.*}}) -> (!tile.block_ptr<tensor<64x32xf16>>, tensor<64x32xf16>)
// CHECK-NEXT: %[[T:.*]] = tile.load %[[IT]] boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x32xf16>>
// CHECK-NEXT: %[[SUM:.*]] = arith.addf %[[ACC]], %[[T]] : tensor<64x32xf16>
// CHECK-NEXT: %[[NEXT:.*]] = tile.advance %[[IT]], [%{{.*}}, %{{.*}}] : !tile.block_ptr<tensor<64x32xf16>>
// CHECK-NEXT: scf.yield %[[NEXT]], %[[SUM]] : !tile.block_ptr<tensor<64x32xf16>>, tensor<64x32xf16>
func.func @block_ptr_loop(%a: !tile.ptr<f16>, %M: i64, %K: i64, %sam: i64, %n: index)
    -> tensor<64x32xf16> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c32 = arith.constant 32 : i64
  %i0 = arith.constant 0 : index
  %i1 = arith.constant 1 : index
  %zero = arith.constant dense<0.0> : tensor<64x32xf16>
  %bp = tile.make_block_ptr %a, [%M, %K], [%sam, %c1], [%c0, %c0] {order = array<i32: 1, 0>}
        : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  %r:2 = scf.for %i = %i0 to %n step %i1 iter_args(%it = %bp, %acc = %zero)
      -> (!tile.block_ptr<tensor<64x32xf16>>, tensor<64x32xf16>) {
    %t = tile.load %it boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x32xf16>>
    %sum = arith.addf %acc, %t : tensor<64x32xf16>                              // (BM, BK)
    %next = tile.advance %it, [%c0, %c32] : !tile.block_ptr<tensor<64x32xf16>>
    scf.yield %next, %sum : !tile.block_ptr<tensor<64x32xf16>>, tensor<64x32xf16>
  }
  return %r#1 : tensor<64x32xf16>
}

// A full masked copy kernel: offsets, mask, masked load with `other`, masked store.
// CHECK-LABEL: func.func @copy
// CHECK-SAME: (%[[OUT:.*]]: !tile.ptr<f32>, %[[IN:.*]]: !tile.ptr<f32>, %[[N:.*]]: i32)
// CHECK: %[[MASK:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : tensor<1024xi32>
// CHECK: %[[IP:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
// CHECK: %[[X:.*]] = tile.load %[[IP]], %[[MASK]], %{{.*}} : tensor<1024x!tile.ptr<f32>>
// CHECK: %[[OP:.*]] = tile.addptr %{{.*}}, %{{.*}} : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
// CHECK: tile.store %[[OP]], %[[X]], %[[MASK]] : tensor<1024x!tile.ptr<f32>>
func.func @copy(%out: !tile.ptr<f32>, %in: !tile.ptr<f32>, %n: i32) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %c1024 = arith.constant 1024 : i32
  %start = arith.muli %pid, %c1024 : i32
  %cols = tile.arange 0, 1024 : tensor<1024xi32>                              // (BLOCK)
  %starts = tile.splat %start : i32 -> tensor<1024xi32>
  %offs = arith.addi %starts, %cols : tensor<1024xi32>                        // (BLOCK)
  %ns = tile.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>                       // (BLOCK)
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %ins = tile.splat %in : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %ip = tile.addptr %ins, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  %x = tile.load %ip, %mask, %zero : tensor<1024x!tile.ptr<f32>>              // (BLOCK)
  %outs = tile.splat %out : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>>
  %op = tile.addptr %outs, %offs : tensor<1024x!tile.ptr<f32>>, tensor<1024xi32>
  tile.store %op, %x, %mask : tensor<1024x!tile.ptr<f32>>
  return
}

//===----------------------------------------------------------------------===//
// barrier
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @barrier
// CHECK:         tile.store
// CHECK-NEXT:    tile.barrier
// CHECK-NEXT:    tile.load
func.func @barrier(%p: !tile.ptr<f32>) -> f32 {
  %x = arith.constant 1.0 : f32
  tile.store %p, %x : !tile.ptr<f32>
  tile.barrier
  %y = tile.load %p : !tile.ptr<f32>
  return %y : f32
}
