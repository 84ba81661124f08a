// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts=threads-per-warp=64 --tile-gpu-accelerate-matmul=target=hip:gfx942 -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts=threads-per-warp=64 --tile-gpu-accelerate-matmul -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts=threads-per-warp=64 --tile-gpu-accelerate-matmul=target=hip:gfx90a 2>&1 | FileCheck %s --check-prefix=GFX90A

// tile.dot on hip:gfx942 (and gfx90a, same candidates): the AMD adapter's ordered MFMA
// candidates, v_mfma_f32_32x32x8 (f16, bf16_1k) / 32x32x2 (f32) first, then 16x16x16 / 16x16x4;
// operands in dot_op layouts with kWidth 4 (16-bit: four K elements per lane) or 1 (f32), waves
// from chooseWarpsPerCTA on the instruction tile. (The second RUN takes the target from the
// module's tile.target.) Dots no MFMA takes stay on FMA units with a remark naming the reason.

// f16, 64x64x32 on 4 waves: 32x32 blocks on waves [2, 2].
// CHECK-DAG: #[[MFMA:.+]] = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 2]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MFMA]], kWidth = 4}>
// CHECK-DAG: #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 4}>
// CHECK-LABEL: func.func @f16
// CHECK: %[[X:.+]] = tile_gpu.convert_layout %{{.+}} : tensor<64x32xf16, #{{.+}}> -> tensor<64x32xf16, #[[A]]>
// CHECK-NEXT: %[[Y:.+]] = tile_gpu.convert_layout %{{.+}} : tensor<32x64xf16, #{{.+}}> -> tensor<32x64xf16, #[[B]]>
// CHECK-NEXT: %[[Z:.+]] = tile_gpu.convert_layout %{{.+}} : tensor<64x64xf32, #{{.+}}> -> tensor<64x64xf32, #[[MFMA]]>
// CHECK-NEXT: tile.dot %[[X]], %[[Y]], %[[Z]] : tensor<64x32xf16, #[[A]]> * tensor<32x64xf16, #[[B]]> -> tensor<64x64xf32, #[[MFMA]]>
// GFX90A-LABEL: func.func @f16
// GFX90A: tile.dot {{.+}} -> tensor<64x64xf32, #mfma>
module attributes {tile.target = "hip:gfx942"} {
func.func @f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<64x32xf16> * tensor<32x64xf16> -> tensor<64x64xf32>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>>
  return
}
}

// -----

// bf16 on 8 waves, 128x256x64: waves [2, 4] (the library GEMM's largest config).
// CHECK-DAG: #[[MFMA:.+]] = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 4]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MFMA]], kWidth = 4}>
// CHECK-LABEL: func.func @bf16
// CHECK: tile.dot {{.+}} : tensor<128x64xbf16, #[[A]]> * {{.+}} -> tensor<128x256xf32, #[[MFMA]]>
// GFX90A-LABEL: func.func @bf16
// GFX90A: tile.dot {{.+}} -> tensor<128x256xf32, #mfma>
module attributes {tile.target = "hip:gfx942"} {
func.func @bf16(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<128x64x!tile.ptr<bf16>>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<64x256x!tile.ptr<bf16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<128x256x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<128x64x!tile.ptr<bf16>>
  %y = tile.load %pb : tensor<64x256x!tile.ptr<bf16>>
  %z = tile.load %pc : tensor<128x256x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<128x64xbf16> * tensor<64x256xbf16> -> tensor<128x256xf32>
  tile.store %pc, %d : tensor<128x256x!tile.ptr<f32>>
  return
}
}

// -----

// f32 (any precision: the f32 MFMA multiplies in full f32): v_mfma_f32_32x32x2_f32, kWidth 1.
// CHECK-DAG: #[[MFMA:.+]] = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 2]}>
// CHECK-DAG: #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MFMA]], kWidth = 1}>
// CHECK-DAG: #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MFMA]], kWidth = 1}>
// CHECK-LABEL: func.func @f32
// CHECK: tile.dot {{.+}} : tensor<64x8xf32, #[[A]]> * tensor<8x64xf32, #[[B]]> -> tensor<64x64xf32, #[[MFMA]]>
module attributes {tile.target = "hip:gfx942"} {
func.func @f32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<64x8x!tile.ptr<f32>>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<8x64x!tile.ptr<f32>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<64x8x!tile.ptr<f32>>
  %y = tile.load %pb : tensor<8x64x!tile.ptr<f32>>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<64x8xf32> * tensor<8x64xf32> -> tensor<64x64xf32>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<f32>>
  return
}
}

// -----

// A 16-row tile is too small for 32x32 blocks: 16x16x16 on waves [1, 4].
// CHECK-DAG: #[[MFMA:.+]] = #tile_gpu.mfma<{nonKDim = 16, warpsPerCTA = [1, 4]}>
// CHECK-LABEL: func.func @f16_16x16
// CHECK: tile.dot {{.+}} -> tensor<16x64xf32, #[[MFMA]]>
module attributes {tile.target = "hip:gfx942"} {
func.func @f16_16x16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<16x64x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x64x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<16x16x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<16x64x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<16x64x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<16x16xf16> * tensor<16x64xf16> -> tensor<16x64xf32>
  tile.store %pc, %d : tensor<16x64x!tile.ptr<f32>>
  return
}
}

// -----

// K = 8 fits 32x32x8 but not 16x16x16: a 32x32x8 dot takes the 32x32 candidate...
// CHECK-LABEL: func.func @f16_k8
// CHECK: tile.dot {{.+}} -> tensor<32x32xf32, #mfma{{[0-9]*}}>
module attributes {tile.target = "hip:gfx942"} {
func.func @f16_k8(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<32x8x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<8x32x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<32x8x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<8x32x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<32x32x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<32x8xf16> * tensor<8x32xf16> -> tensor<32x32xf32>
  tile.store %pc, %d : tensor<32x32x!tile.ptr<f32>>
  return
}
}

// -----

// ...a 16x16x8 one neither: FMA, with a remark.
// GFX90A: remark: tile.dot runs on FMA units, not on hip:gfx90a's matrix unit: the tile (16, 16, 8) is smaller than one v_mfma_f32_32x32x8_f16 (32, 32, 8) or one v_mfma_f32_16x16x16_f16 (16, 16, 16)
// CHECK-LABEL: func.func @f16_too_small
// CHECK-NOT: tile_gpu.mfma
// CHECK: tile.dot {{.+}} -> tensor<16x16xf32, #blocked{{[0-9]*}}>
module attributes {tile.target = "hip:gfx942"} {
func.func @f16_too_small(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<16x8x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<8x16x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<16x8x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<8x16x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<16x16x!tile.ptr<f32>>
  // expected-remark @below {{tile.dot runs on FMA units, not on hip:gfx942's matrix unit: the tile (16, 16, 8) is smaller than one v_mfma_f32_32x32x8_f16 (32, 32, 8) or one v_mfma_f32_16x16x16_f16 (16, 16, 16)}}
  %d = tile.dot %x, %y, %z : tensor<16x8xf16> * tensor<8x16xf16> -> tensor<16x16xf32>
  tile.store %pc, %d : tensor<16x16x!tile.ptr<f32>>
  return
}
}

// -----

// f64 and integer inputs have no MFMA path here.
// CHECK-LABEL: func.func @f64
// CHECK: tile.dot {{.+}} -> tensor<64x64xf64, #blocked{{[0-9]*}}>
module attributes {tile.target = "hip:gfx942"} {
func.func @f64(%a: !tile.ptr<f64>, %b: !tile.ptr<f64>, %c: !tile.ptr<f64>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f64> -> tensor<64x32x!tile.ptr<f64>>
  %pb = tile.splat %b : !tile.ptr<f64> -> tensor<32x64x!tile.ptr<f64>>
  %pc = tile.splat %c : !tile.ptr<f64> -> tensor<64x64x!tile.ptr<f64>>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<f64>>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<f64>>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<f64>>
  // expected-remark @below {{tile.dot runs on FMA units, not on hip:gfx942's matrix unit: no MFMA path for f64 inputs yet (f16, bf16 and f32 have one)}}
  %d = tile.dot %x, %y, %z : tensor<64x32xf64> * tensor<32x64xf64> -> tensor<64x64xf64>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<f64>>
  return
}
}

// -----

// i8 inputs (v_mfma_i32_* exists, not lowered here).
// CHECK-LABEL: func.func @i8
// CHECK: tile.dot {{.+}} -> tensor<64x64xi32, #blocked{{[0-9]*}}>
module attributes {tile.target = "hip:gfx942"} {
func.func @i8(%a: !tile.ptr<i8>, %b: !tile.ptr<i8>, %c: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<i8> -> tensor<64x32x!tile.ptr<i8>>
  %pb = tile.splat %b : !tile.ptr<i8> -> tensor<32x64x!tile.ptr<i8>>
  %pc = tile.splat %c : !tile.ptr<i32> -> tensor<64x64x!tile.ptr<i32>>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<i8>>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<i8>>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<i32>>
  // expected-remark @below {{tile.dot runs on FMA units, not on hip:gfx942's matrix unit: no MFMA path for i8 inputs yet (f16, bf16 and f32 have one)}}
  %d = tile.dot %x, %y, %z : tensor<64x32xi8> * tensor<32x64xi8> -> tensor<64x64xi32>
  tile.store %pc, %d : tensor<64x64x!tile.ptr<i32>>
  return
}
}
