// RUN: tessel-opt %s -split-input-file --tile-lower-block-pointers=target=cuda:sm_80 | FileCheck %s --implicit-check-not=block_ptr --implicit-check-not=tile.advance
// RUN: tessel-opt %s -split-input-file --tile-lower-block-pointers=target=hip:gfx942 | FileCheck %s --implicit-check-not=block_ptr --implicit-check-not=tile.advance

// boundary_check = [0, 1], padding = zero: a pointer tile from one scalar start and i64 lane
// offsets, masked by 0 <= offset_d + i < shape_d in both dimensions; masked-off lanes read 0.
// The stride-1 dimension is not multiplied (AxisInfo sees it contiguous); the other is
// multiplied by its stride, as `a + rows(_, None) * stride + cols(None, _)` in the DSL.
// CHECK-LABEL: func.func @load_zero(
// CHECK-SAME: %[[A:[^:]+]]: !tile.ptr<f16>, %[[M:[^:]+]]: i64, %[[K:[^:]+]]: i64, %[[S:[^:]+]]: i64, %[[OM:[^:]+]]: i64, %[[OK:[^:]+]]: i64)
// CHECK: %[[ROWOFF:.+]] = arith.muli %[[OM]], %[[S]] : i64
// CHECK: %[[R:.+]] = tile.arange 0, 64 : tensor<64xi32>
// CHECK: %[[RE:.+]] = tile.expand_dims %[[R]] {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
// CHECK: %[[R64:.+]] = arith.extsi %[[RE]] : tensor<64x1xi32> to tensor<64x1xi64>
// CHECK: %[[SS:.+]] = tile.splat %[[S]] : i64 -> tensor<64x1xi64>
// CHECK: %[[RS:.+]] = arith.muli %[[R64]], %[[SS]] : tensor<64x1xi64>
// CHECK: %[[RB:.+]] = tile.broadcast %[[RS]] : tensor<64x1xi64> -> tensor<64x32xi64>
// CHECK: %[[RPOS:.+]] = arith.addi %[[R64]], %{{.+}} : tensor<64x1xi64>
// CHECK: %[[RLT:.+]] = arith.cmpi slt, %[[RPOS]], %{{.+}} : tensor<64x1xi64>
// CHECK: %[[RGE:.+]] = arith.cmpi sge, %[[RPOS]], %{{.+}} : tensor<64x1xi64>
// CHECK: %[[RIN:.+]] = arith.andi %[[RGE]], %[[RLT]] : tensor<64x1xi1>
// CHECK: %[[RMASK:.+]] = tile.broadcast %[[RIN]] : tensor<64x1xi1> -> tensor<64x32xi1>
// CHECK: %[[START:.+]] = arith.addi %[[ROWOFF]], %[[OK]] : i64
// CHECK: %[[C:.+]] = tile.arange 0, 32 : tensor<32xi32>
// CHECK: %[[CE:.+]] = tile.expand_dims %[[C]] {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
// CHECK: %[[C64:.+]] = arith.extsi %[[CE]] : tensor<1x32xi32> to tensor<1x32xi64>
// CHECK-NEXT: %[[CB:.+]] = tile.broadcast %[[C64]] : tensor<1x32xi64> -> tensor<64x32xi64>
// CHECK-NEXT: %[[LANES:.+]] = arith.addi %[[RB]], %[[CB]] : tensor<64x32xi64>
// CHECK: %[[CPOS:.+]] = arith.addi %[[C64]], %{{.+}} : tensor<1x32xi64>
// CHECK: arith.cmpi slt, %[[CPOS]], %{{.+}} : tensor<1x32xi64>
// CHECK: arith.cmpi sge, %[[CPOS]], %{{.+}} : tensor<1x32xi64>
// CHECK: %[[CMASK:.+]] = tile.broadcast %{{.+}} : tensor<1x32xi1> -> tensor<64x32xi1>
// CHECK: %[[MASK:.+]] = arith.andi %[[RMASK]], %[[CMASK]] : tensor<64x32xi1>
// CHECK: %[[BASE:.+]] = tile.addptr %[[A]], %[[START]] : !tile.ptr<f16>, i64
// CHECK: %[[BASES:.+]] = tile.splat %[[BASE]] : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
// CHECK: %[[PTRS:.+]] = tile.addptr %[[BASES]], %[[LANES]] : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi64>
// CHECK: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : tensor<64x32xf16>
// CHECK: %[[T:.+]] = tile.load %[[PTRS]], %[[MASK]], %[[ZERO]] cache = cg : tensor<64x32x!tile.ptr<f16>>
// CHECK: return %[[T]]
func.func @load_zero(%a: !tile.ptr<f16>, %M: i64, %K: i64, %s: i64, %om: i64, %ok: i64) -> tensor<64x32xf16> {
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %a, [%M, %K], [%s, %c1], [%om, %ok] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
  %t = tile.load %bp boundary_check = [0, 1] padding = zero cache = cg : !tile.block_ptr<tensor<64x32xf16>>
  return %t : tensor<64x32xf16>
}

// -----

// padding = nan: masked-off lanes read NaN. Only dimension 1 is checked, and its offset is the
// constant 0, so its lanes are never below 0: one comparison, against the shape.
// CHECK-LABEL: func.func @load_nan(
// CHECK-NOT: arith.cmpi sge
// CHECK: %[[LT:.+]] = arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<1x8xi64>
// CHECK-NOT: arith.cmpi
// CHECK: %[[MASK:.+]] = tile.broadcast %[[LT]] : tensor<1x8xi1> -> tensor<16x8xi1>
// CHECK: %[[NAN:.+]] = arith.constant dense<0x7FC00000> : tensor<16x8xf32>
// CHECK: tile.load %{{.+}}, %[[MASK]], %[[NAN]] : tensor<16x8x!tile.ptr<f32>>
func.func @load_nan(%a: !tile.ptr<f32>, %M: i64, %K: i64, %s: i64, %om: i64) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %a, [%M, %K], [%s, %c1], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16x8xf32>>
  %t = tile.load %bp boundary_check = [1] padding = nan : !tile.block_ptr<tensor<16x8xf32>>
  return %t : tensor<16x8xf32>
}

// -----

// No boundary check: no mask and no `other` (padding is ignored, as on the interpreter). With no
// stride the constant 1, both dimensions are multiplied by their strides.
// CHECK-LABEL: func.func @load_unchecked(
// CHECK-NOT: arith.cmpi
// CHECK: tile.arange 0, 16 : tensor<16xi32>
// CHECK: arith.muli %{{.+}}, %{{.+}} : tensor<16x1xi64>
// CHECK: tile.arange 0, 8 : tensor<8xi32>
// CHECK: arith.muli %{{.+}}, %{{.+}} : tensor<1x8xi64>
// CHECK-NOT: arith.cmpi
// CHECK: %[[T:.+]] = tile.load %{{[^,]+}} : tensor<16x8x!tile.ptr<f32>>
// CHECK-NEXT: return %[[T]]
func.func @load_unchecked(%a: !tile.ptr<f32>, %M: i64, %K: i64, %sm: i64, %sk: i64, %om: i64) -> tensor<16x8xf32> {
  %c0 = arith.constant 0 : i64
  %bp = tile.make_block_ptr %a, [%M, %K], [%sm, %sk], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16x8xf32>>
  %t = tile.load %bp padding = zero : !tile.block_ptr<tensor<16x8xf32>>
  return %t : tensor<16x8xf32>
}

// -----

// A store with boundary_check: the same mask, no lane outside it is written; the eviction hint
// stays. Column-major (order [0, 1], stride 1 along dimension 0): dimension 0 is the
// contiguous one.
// CHECK-LABEL: func.func @store(
// CHECK-SAME: %[[V:[^:]+]]: tensor<8x64xbf16>
// CHECK: tile.arange 0, 8 : tensor<8xi32>
// CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<8x1xi64>
// CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : tensor<8x1xi64>
// CHECK: tile.arange 0, 64 : tensor<64xi32>
// CHECK: arith.cmpi slt, %{{.+}}, %{{.+}} : tensor<1x64xi64>
// CHECK: arith.cmpi sge, %{{.+}}, %{{.+}} : tensor<1x64xi64>
// CHECK: %[[MASK:.+]] = arith.andi %{{.+}}, %{{.+}} : tensor<8x64xi1>
// CHECK: %[[PTRS:.+]] = tile.addptr %{{.+}}, %{{.+}} : tensor<8x64x!tile.ptr<bf16>>, tensor<8x64xi64>
// CHECK: tile.store %[[PTRS]], %[[V]], %[[MASK]] evict = evict_first : tensor<8x64x!tile.ptr<bf16>>
func.func @store(%a: !tile.ptr<bf16>, %v: tensor<8x64xbf16>, %M: i64, %N: i64, %s: i64, %om: i64, %on: i64) {
  %c1 = arith.constant 1 : i64
  %bp = tile.make_block_ptr %a, [%M, %N], [%c1, %s], [%om, %on] {order = array<i32: 0, 1>} : !tile.ptr<bf16> -> !tile.block_ptr<tensor<8x64xbf16>>
  tile.store %bp, %v boundary_check = [0, 1] evict = evict_first : !tile.block_ptr<tensor<8x64xbf16>>
  return
}

// -----

// A GEMM's K loop with block pointers carried and advanced (A along K: [0, 64], B along K:
// [64, 0]). The loop carries only the offsets that an advance moves (A's column, B's row):
// the others, the bases, shapes and strides are the values before the loop. The lane offsets
// and the masks of the dimensions that do not move are hoisted out of the loop; per iteration
// the scalar start, the moving dimension's mask and the loads remain, and the advances are
// i64 additions.
// CHECK-LABEL: func.func @gemm(
// CHECK-SAME: %[[A:[^:]+]]: !tile.ptr<f16>, %[[B:[^:]+]]: !tile.ptr<f16>, %[[C:[^:]+]]: !tile.ptr<f32>
// CHECK: %[[ALANES:.+]] = arith.addi %{{.+}}, %{{.+}} : tensor<64x64xi64>
// CHECK: %[[BLANES:.+]] = arith.addi %{{.+}}, %{{.+}} : tensor<64x64xi64>
// CHECK: %[[LOOP:.+]]:3 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%[[ACC:.+]] = %{{.+}}, %[[AK:.+]] = %c0_i64, %[[BK:.+]] = %c0_i64) -> (tensor<64x64xf32>, i64, i64)
// CHECK-NOT: tile.arange
// CHECK: %[[ASTART:.+]] = arith.addi %{{.+}}, %[[AK]] : i64
// CHECK: tile.splat %[[AK]] : i64 -> tensor<1x64xi64>
// CHECK: %[[ABASE:.+]] = tile.addptr %[[A]], %[[ASTART]] : !tile.ptr<f16>, i64
// CHECK: %[[ABASES:.+]] = tile.splat %[[ABASE]]
// CHECK: %[[APTRS:.+]] = tile.addptr %[[ABASES]], %[[ALANES]]
// CHECK: %[[VA:.+]] = tile.load %[[APTRS]], %{{.+}}, %{{.+}} : tensor<64x64x!tile.ptr<f16>>
// CHECK: arith.muli %[[BK]], %{{.+}} : i64
// CHECK: %[[BBASE:.+]] = tile.addptr %[[B]], %{{.+}} : !tile.ptr<f16>, i64
// CHECK: %[[BBASES:.+]] = tile.splat %[[BBASE]]
// CHECK: %[[BPTRS:.+]] = tile.addptr %[[BBASES]], %[[BLANES]]
// CHECK: %[[VB:.+]] = tile.load %[[BPTRS]], %{{.+}}, %{{.+}} : tensor<64x64x!tile.ptr<f16>>
// CHECK: %[[D:.+]] = tile.dot %[[VA]], %[[VB]], %[[ACC]]
// CHECK-NOT: tile.arange
// CHECK: %[[NA:.+]] = arith.addi %[[AK]], %c64_i64 : i64
// CHECK: %[[NB:.+]] = arith.addi %[[BK]], %c64_i64 : i64
// CHECK: scf.yield %[[D]], %[[NA]], %[[NB]] : tensor<64x64xf32>, i64, i64
// CHECK: tile.arange 0, 64
// CHECK: %[[CBASE:.+]] = tile.addptr %[[C]], %{{.+}} : !tile.ptr<f32>, i64
// CHECK: %[[CPTRS:.+]] = tile.addptr %{{.+}}, %{{.+}} : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi64>
// CHECK: tile.store %[[CPTRS]], %[[LOOP]]#0, %{{.+}} : tensor<64x64x!tile.ptr<f32>>
func.func @gemm(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>, %M: i64, %N: i64, %K: i64, %sam: i64, %sbk: i64, %scm: i64, %om: i64, %on: i64, %kt: i64) {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c64 = arith.constant 64 : i64
  %acc0 = arith.constant dense<0.0> : tensor<64x64xf32>
  %ap = tile.make_block_ptr %a, [%M, %K], [%sam, %c1], [%om, %c0] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  %bp = tile.make_block_ptr %b, [%K, %N], [%sbk, %c1], [%c0, %on] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x64xf16>>
  %r:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %acc0, %x = %ap, %y = %bp) -> (tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x64xf16>>) : i64 {
    %va = tile.load %x boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    %vb = tile.load %y boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x64xf16>>
    %d = tile.dot %va, %vb, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
    %nx = tile.advance %x, [%c0, %c64] : !tile.block_ptr<tensor<64x64xf16>>
    %ny = tile.advance %y, [%c64, %c0] : !tile.block_ptr<tensor<64x64xf16>>
    scf.yield %d, %nx, %ny : tensor<64x64xf32>, !tile.block_ptr<tensor<64x64xf16>>, !tile.block_ptr<tensor<64x64xf16>>
  }
  %cp = tile.make_block_ptr %c, [%M, %N], [%scm, %c1], [%om, %on] {order = array<i32: 1, 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<64x64xf32>>
  tile.store %cp, %r#0 boundary_check = [0, 1] : !tile.block_ptr<tensor<64x64xf32>>
  return
}

// -----

// A loop that yields another block pointer than the one it advances carries all the parts
// (base, shape, strides, offsets); scf.if and scf.while results carry all of them too.
// CHECK-LABEL: func.func @swap(
// CHECK: scf.for %{{.+}} iter_args({{.+}}) -> (tensor<16xf32>, !tile.ptr<f32>, i64, i64, i64, !tile.ptr<f32>, i64, i64, i64)
// CHECK: scf.yield {{.+}} : tensor<16xf32>, !tile.ptr<f32>, i64, i64, i64, !tile.ptr<f32>, i64, i64, i64
// CHECK: scf.if %{{.+}} -> (!tile.ptr<f32>, i64, i64, i64)
// CHECK: scf.while (%{{.+}}) : (i64, !tile.ptr<f32>, i64, i64, i64) -> (i64, !tile.ptr<f32>, i64, i64, i64)
// CHECK: scf.condition(%{{.+}}) %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}}, %{{.+}} : i64, !tile.ptr<f32>, i64, i64, i64
func.func @swap(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %n: i64, %cond: i1) -> tensor<16xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %c16 = arith.constant 16 : i64
  %zero = arith.constant dense<0.0> : tensor<16xf32>
  %x0 = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16xf32>>
  %y0 = tile.make_block_ptr %b, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<16xf32>>
  %r:3 = scf.for %i = %c0 to %n step %c16 iter_args(%acc = %zero, %x = %x0, %y = %y0) -> (tensor<16xf32>, !tile.block_ptr<tensor<16xf32>>, !tile.block_ptr<tensor<16xf32>>) : i64 {
    %t = tile.load %x boundary_check = [0] padding = zero : !tile.block_ptr<tensor<16xf32>>
    %s = arith.addf %acc, %t : tensor<16xf32>
    %nx = tile.advance %x, [%c16] : !tile.block_ptr<tensor<16xf32>>
    scf.yield %s, %y, %nx : tensor<16xf32>, !tile.block_ptr<tensor<16xf32>>, !tile.block_ptr<tensor<16xf32>>
  }
  %p = scf.if %cond -> (!tile.block_ptr<tensor<16xf32>>) {
    scf.yield %r#1 : !tile.block_ptr<tensor<16xf32>>
  } else {
    scf.yield %r#2 : !tile.block_ptr<tensor<16xf32>>
  }
  %w:2 = scf.while (%j = %c0, %q = %p) : (i64, !tile.block_ptr<tensor<16xf32>>) -> (i64, !tile.block_ptr<tensor<16xf32>>) {
    %more = arith.cmpi slt, %j, %n : i64
    scf.condition(%more) %j, %q : i64, !tile.block_ptr<tensor<16xf32>>
  } do {
  ^bb0(%j2: i64, %q2: !tile.block_ptr<tensor<16xf32>>):
    %j3 = arith.addi %j2, %c16 : i64
    %q3 = tile.advance %q2, [%c16] : !tile.block_ptr<tensor<16xf32>>
    scf.yield %j3, %q3 : i64, !tile.block_ptr<tensor<16xf32>>
  }
  %u = tile.load %w#1 boundary_check = [0] padding = zero : !tile.block_ptr<tensor<16xf32>>
  %v = arith.addf %r#0, %u : tensor<16xf32>
  return %v : tensor<16xf32>
}
