// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts --tile-gpu-accelerate-matmul=target=cuda:sm_90 -verify-diagnostics | FileCheck %s
// RUN: not tessel-opt %s -split-input-file --tile-gpu-assign-layouts --tile-gpu-accelerate-matmul="target=cuda:sm_90 perf-fallback-error=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR

// A 64x64 GEMM loop over K (BLOCK_K = 32, f16 in, f32 accumulator) on 4 warps: mma.sync's
// accumulator layout on warps [2, 2], operands converted to dot_op layouts inside the loop, the
// accumulator carried in the mma layout (its conversions hoisted out of the scf.for) and
// converted back once after the loop for the store. The loop-carried pointers keep their
// contiguity (AxisInfo through scf.for), so A and B are read 8 halves (16 bytes) at a time; A,
// B and C each get their own blocked layout (their index computations are duplicated per use).
// CHECK-DAG: #[[BC:.+]] = #tile_gpu.blocked<{sizePerThread = [1, 4]
// CHECK-DAG: #[[BA:.+]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4]
// CHECK-DAG: #[[BB:.+]] = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8]
// CHECK-DAG: #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @gemm
// CHECK: %[[INIT:.+]] = tile_gpu.convert_layout %{{.+}} : tensor<64x64xf32, #[[BC]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: %[[LOOP:.+]]:3 = scf.for {{.+}} iter_args(%[[ACC:.+]] = %[[INIT]], {{.+}}) -> (tensor<64x64xf32, #[[MMA]]>, tensor<64x32x!tile.ptr<f16>, #[[BA]]>, tensor<32x64x!tile.ptr<f16>, #[[BB]]>)
// CHECK-NOT: tile_gpu.convert_layout %[[ACC]]
// CHECK: %[[X:.+]] = tile_gpu.convert_layout %{{.+}} : tensor<64x32xf16, #[[BA]]> -> tensor<64x32xf16, #[[A]]>
// CHECK: %[[Y:.+]] = tile_gpu.convert_layout %{{.+}} : tensor<32x64xf16, #[[BB]]> -> tensor<32x64xf16, #[[B]]>
// CHECK-NEXT: %[[D:.+]] = tile.dot %[[X]], %[[Y]], %[[ACC]] : tensor<64x32xf16, #[[A]]> * tensor<32x64xf16, #[[B]]> -> tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: tile_gpu.convert_layout
// CHECK: scf.yield %[[D]], {{.+}} : tensor<64x64xf32, #[[MMA]]>,
// CHECK-NEXT: }
// CHECK-NEXT: %[[OUT:.+]] = tile_gpu.convert_layout %[[LOOP]]#0 : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[BC]]>
// CHECK: tile.store %{{.+}}, %[[OUT]] : tensor<64x64x!tile.ptr<f32>, #[[BC]]>
func.func @gemm(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %b: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                %c: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %kt: i32) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
  %s32 = arith.constant dense<32> : tensor<64x1xi32>
  %s64 = arith.constant dense<64> : tensor<32x1xi32>
  %cs64 = arith.constant dense<64> : tensor<64x1xi32>
  %stepa = arith.constant dense<32> : tensor<64x32xi32>
  %stepb = arith.constant dense<2048> : tensor<32x64xi32>
  %r64 = tile.arange 0, 64 : tensor<64xi32>
  %r32 = tile.arange 0, 32 : tensor<32xi32>
  // A offsets: m * 32 + k
  %am = tile.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %amo = arith.muli %am, %s32 : tensor<64x1xi32>
  %ak = tile.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %amb = tile.broadcast %amo : tensor<64x1xi32> -> tensor<64x32xi32>
  %akb = tile.broadcast %ak : tensor<1x32xi32> -> tensor<64x32xi32>
  %ao = arith.addi %amb, %akb : tensor<64x32xi32>
  %as = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %ap = tile.addptr %as, %ao : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
  // B offsets: k * 64 + n
  %bk = tile.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %bko = arith.muli %bk, %s64 : tensor<32x1xi32>
  %bn = tile.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bkb = tile.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
  %bnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<32x64xi32>
  %bo = arith.addi %bkb, %bnb : tensor<32x64xi32>
  %bs = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %bp = tile.addptr %bs, %bo : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
  %acc:3 = scf.for %k = %c0 to %kt step %c1 iter_args(%acc = %zero, %pa = %ap, %pb = %bp) -> (tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>) : i32 {
    %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
    %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
    %d = tile.dot %x, %y, %acc : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
    %na = tile.addptr %pa, %stepa : tensor<64x32x!tile.ptr<f16>>, tensor<64x32xi32>
    %nb = tile.addptr %pb, %stepb : tensor<32x64x!tile.ptr<f16>>, tensor<32x64xi32>
    scf.yield %d, %na, %nb : tensor<64x64xf32>, tensor<64x32x!tile.ptr<f16>>, tensor<32x64x!tile.ptr<f16>>
  }
  // C offsets: m * 64 + n
  %cmo = arith.muli %am, %cs64 : tensor<64x1xi32>
  %cmb = tile.broadcast %cmo : tensor<64x1xi32> -> tensor<64x64xi32>
  %cnb = tile.broadcast %bn : tensor<1x64xi32> -> tensor<64x64xi32>
  %co = arith.addi %cmb, %cnb : tensor<64x64xi32>
  %cs = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %cp = tile.addptr %cs, %co : tensor<64x64x!tile.ptr<f32>>, tensor<64x64xi32>
  tile.store %cp, %acc#0 : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// f32 inputs with the default ieee precision: mma.sync only multiplies tf32, so the dot stays on
// FMA units in its blocked layout, with a remark (an error with perf-fallback-error) at the dot.
// CHECK-LABEL: func.func @f32_ieee
// CHECK-NOT: tile_gpu.convert_layout
// CHECK: tile.dot {{.+}} -> tensor<64x64xf32, #blocked{{[0-9]*}}>
// CHECK-NOT: tile_gpu.convert_layout
// ERR: accelerate-matmul.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: tile.dot runs on FMA units, not on cuda:sm_90's matrix unit: f32 inputs with precision = ieee need more than mma.sync's tf32 products (precision = tf32 or tf32x3 uses the matrix unit)
// ERR-NEXT: %d = tile.dot %x, %y, %z : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
func.func @f32_ieee(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<64x32x!tile.ptr<f32>>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<f32>>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<f32>>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<f32>>
  // expected-remark @below {{tile.dot runs on FMA units, not on cuda:sm_90's matrix unit: f32 inputs with precision = ieee need more than mma.sync's tf32 products (precision = tf32 or tf32x3 uses the matrix unit)}}
  %d = tile.dot %x, %y, %z : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>>
  return
}

// -----

// One m16n8k16 bf16 tile on one warp: warps [1, 1], kWidth 2.
// CHECK-DAG: #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG: #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @bf16_one_warp
// CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<16x16xbf16, #[[A]]> * tensor<16x16xbf16, #[[B]]> -> tensor<16x16xf32, #[[MMA]]>
func.func @bf16_one_warp(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<16x16x!tile.ptr<bf16>>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<16x16x!tile.ptr<bf16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<16x16x!tile.ptr<bf16>>
  %y = tile.load %pb : tensor<16x16x!tile.ptr<bf16>>
  %z = tile.load %pc : tensor<16x16x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<16x16xbf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  tile.store %pc, %d : tensor<16x16x!tile.ptr<f32>>
  return
}

// -----

// precision = tf32 takes mma.sync m16n8k8: one 32-bit element per register (kWidth 1); 8 warps
// on a 128x64 tile split M first.
// CHECK-DAG: #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [4, 2], instrShape = [16, 8]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 1}>
// CHECK-DAG: #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 1}>
// CHECK-LABEL: func.func @tf32
// CHECK: tile.dot %{{.+}}, %{{.+}}, %{{.+}} precision = tf32 : tensor<128x32xf32, #[[A]]> * tensor<32x64xf32, #[[B]]> -> tensor<128x64xf32, #[[MMA]]>
func.func @tf32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<128x32x!tile.ptr<f32>>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<32x64x!tile.ptr<f32>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<128x64x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<128x32x!tile.ptr<f32>>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<f32>>
  %z = tile.load %pc : tensor<128x64x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z precision = tf32 : tensor<128x32xf32> * tensor<32x64xf32> -> tensor<128x64xf32>
  tile.store %pc, %d : tensor<128x64x!tile.ptr<f32>>
  return
}

// -----

// A tile smaller than one instruction stays on FMA units; the remark names its size.
// CHECK-LABEL: func.func @too_small
// CHECK-NOT: #tile_gpu.dot_op
// CHECK: tile.dot {{.+}} -> tensor<8x8xf32, #blocked
// ERR: accelerate-matmul.mlir:{{[0-9]+}} offset :{{[0-9]+}}:8: error: tile.dot runs on FMA units, not on cuda:sm_90's matrix unit: the tile (8, 8, 8) is smaller than one mma.sync m16n8k16
// ERR-NEXT: %d = tile.dot %x, %y, %z : tensor<8x8xf16> * tensor<8x8xf16> -> tensor<8x8xf32>
// ERR-NOT: error:
func.func @too_small(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<8x8x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<8x8x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<8x8x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<8x8x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<8x8x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<8x8x!tile.ptr<f32>>
  // expected-remark @below {{tile.dot runs on FMA units, not on cuda:sm_90's matrix unit: the tile (8, 8, 8) is smaller than one mma.sync m16n8k16}}
  %d = tile.dot %x, %y, %z : tensor<8x8xf16> * tensor<8x8xf16> -> tensor<8x8xf32>
  tile.store %pc, %d : tensor<8x8x!tile.ptr<f32>>
  return
}
