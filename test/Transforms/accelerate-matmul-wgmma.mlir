// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts --tile-gpu-accelerate-matmul=target=cuda:sm_90a -verify-diagnostics | FileCheck %s
// RUN: not tessel-opt %s -split-input-file --tile-gpu-assign-layouts --tile-gpu-accelerate-matmul="target=cuda:sm_90a perf-fallback-error=true" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ERR
// ERR: error: tile.dot runs on mma.sync, not on cuda:sm_90a's wgmma: BLOCK_M = 64 is not a multiple of 16 * num_warps = 128
// RUN: tessel-opt %s -split-input-file --tile-gpu-assign-layouts --tile-gpu-accelerate-matmul=target=cuda:sm_90 | FileCheck %s --check-prefix=SM90 --implicit-check-not="versionMajor = 3"

// On cuda:sm_90a a f16/bf16 dot accumulating in f32 takes Hopper's wgmma (mma version 3) when
// every warp gets its 16 rows of each 64-row instruction (BLOCK_M a multiple of 16 * num_warps)
// and K and N are multiples of 16: warpgroups stack along M (warpsPerCTA = [num_warps, 1]), one
// instruction covers min(N, 256) columns. Otherwise, and on plain sm_90, mma.sync (version 2).

// 128x128x64 bf16 on 4 warps: one warpgroup, m64n128.
// CHECK-DAG:   #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
// CHECK-DAG:   #[[A:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #[[MMA]], kWidth = 2}>
// CHECK-DAG:   #[[B:.+]] = #tile_gpu.dot_op<{opIdx = 1, parent = #[[MMA]], kWidth = 2}>
// CHECK-LABEL: func.func @bf16_4warps
// CHECK:       tile.dot %{{.+}}, %{{.+}}, %{{.+}} : tensor<128x64xbf16, #[[A]]> * tensor<64x128xbf16, #[[B]]> -> tensor<128x128xf32, #[[MMA]]>
// On sm_90 (no wgmma) the same dot takes mma.sync.
// SM90:        #mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// SM90-LABEL:  func.func @bf16_4warps
// SM90:        tile.dot {{.+}} -> tensor<128x128xf32, #mma>
func.func @bf16_4warps(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<128x64x!tile.ptr<bf16>>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<64x128x!tile.ptr<bf16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<128x64x!tile.ptr<bf16>>
  %y = tile.load %pb : tensor<64x128x!tile.ptr<bf16>>
  %z = tile.load %pc : tensor<128x128x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
  tile.store %pc, %d : tensor<128x128x!tile.ptr<f32>>
  return
}

// -----

// The same tile on 8 warps: two warpgroups, one per 64 rows.
// CHECK-DAG:   #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [8, 1], instrShape = [64, 128]}>
// CHECK-LABEL: func.func @bf16_8warps
// CHECK:       tile.dot {{.+}} -> tensor<128x128xf32, #[[MMA]]>
func.func @bf16_8warps(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<128x64x!tile.ptr<bf16>>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<64x128x!tile.ptr<bf16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<128x128x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<128x64x!tile.ptr<bf16>>
  %y = tile.load %pb : tensor<64x128x!tile.ptr<bf16>>
  %z = tile.load %pc : tensor<128x128x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<128x64xbf16> * tensor<64x128xbf16> -> tensor<128x128xf32>
  tile.store %pc, %d : tensor<128x128x!tile.ptr<f32>>
  return
}

// -----

// f16, N = 512: the widest instruction, m64n256, twice along N.
// CHECK-DAG:   #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 256]}>
// CHECK-LABEL: func.func @f16_n512
// CHECK:       tile.dot {{.+}} -> tensor<64x512xf32, #[[MMA]]>
func.func @f16_n512(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<32x512x!tile.ptr<f16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x512x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>>
  %y = tile.load %pb : tensor<32x512x!tile.ptr<f16>>
  %z = tile.load %pc : tensor<64x512x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<64x32xf16> * tensor<32x512xf16> -> tensor<64x512xf32>
  tile.store %pc, %d : tensor<64x512x!tile.ptr<f32>>
  return
}

// -----

// 32x32x32 on 4 warps: 32 rows are fewer than 16 per warp of a 64-row instruction, so
// mma.sync m16n8k16 (warps [2, 2]).
// CHECK-DAG:   #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @too_small_for_wgmma
// CHECK:       tile.dot {{.+}} -> tensor<32x32xf32, #[[MMA]]>
func.func @too_small_for_wgmma(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<32x32x!tile.ptr<bf16>>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<32x32x!tile.ptr<bf16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<32x32x!tile.ptr<bf16>>
  %y = tile.load %pb : tensor<32x32x!tile.ptr<bf16>>
  %z = tile.load %pc : tensor<32x32x!tile.ptr<f32>>
  %d = tile.dot %x, %y, %z : tensor<32x32xbf16> * tensor<32x32xbf16> -> tensor<32x32xf32>
  tile.store %pc, %d : tensor<32x32x!tile.ptr<f32>>
  return
}

// -----

// 64 rows on 8 warps: two warpgroups would need 128; mma.sync instead (warps [2, 4]), with a
// remark that names the config change that gets wgmma back (perf-fallback: an error with
// --Werror=perf-fallback, like the FMA fallback).
// CHECK-DAG:   #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 4], instrShape = [16, 8]}>
// CHECK-LABEL: func.func @m64_8warps
// CHECK:       tile.dot {{.+}} -> tensor<64x128xf32, #[[MMA]]>
func.func @m64_8warps(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<64x64x!tile.ptr<bf16>>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<64x128x!tile.ptr<bf16>>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x128x!tile.ptr<f32>>
  %x = tile.load %pa : tensor<64x64x!tile.ptr<bf16>>
  %y = tile.load %pb : tensor<64x128x!tile.ptr<bf16>>
  %z = tile.load %pc : tensor<64x128x!tile.ptr<f32>>
  // expected-remark @below {{tile.dot runs on mma.sync, not on cuda:sm_90a's wgmma: BLOCK_M = 64 is not a multiple of 16 * num_warps = 128 (each warpgroup takes 64 rows at a time); a larger BLOCK_M or fewer warps uses wgmma}}
  %d = tile.dot %x, %y, %z : tensor<64x64xbf16> * tensor<64x128xbf16> -> tensor<64x128xf32>
  tile.store %pc, %d : tensor<64x128x!tile.ptr<f32>>
  return
}
