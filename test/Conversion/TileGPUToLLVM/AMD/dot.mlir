// RUN: tessel-opt %s -split-input-file --convert-tile-gpu-to-llvm=target=hip:gfx942 --canonicalize --cse | FileCheck %s

// tile.dot on hip:gfx942 with dot_op operands of an mfma parent (what tile-gpu-accelerate-matmul
// produces): the AMD adapter lowers it to rocdl.mfma, one instruction per nonKDim x nonKDim
// block and K step, the accumulator chained through the K steps as vector<16xf32> (32x32) or
// vector<4xf32> (16x16), cbsz = abid = blgp = 0. Operands reach their dot_op layouts through
// LDS: each lane reads its 4 consecutive K elements as one vector.

// f16, 32x32 on one wave, K = 16: two v_mfma_f32_32x32x8_f16, the second accumulating onto the
// first; A and B as vector<4xf16> read from LDS in one load each per K step.
// CHECK-LABEL: llvm.func @mfma_f16
// CHECK: %[[Z:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-COUNT-2: llvm.load %{{.+}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xf16>
// CHECK: %[[R:.+]] = rocdl.mfma.f32.32x32x8f16 %{{.+}}, %{{.+}}, %{{.+}}, %[[Z]], %[[Z]], %[[Z]] : (vector<4xf16>, vector<4xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK: rocdl.mfma.f32.32x32x8f16 %{{.+}}, %{{.+}}, %[[R]], %[[Z]], %[[Z]], %[[Z]] : (vector<4xf16>, vector<4xf16>, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-NOT: rocdl.mfma
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [1, 1]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>
func.func @mfma_f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<32x16x!tile.ptr<f16>, #blocked>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<16x32x!tile.ptr<f16>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<32x16x!tile.ptr<f16>, #blocked>
  %y = tile.load %pb : tensor<16x32x!tile.ptr<f16>, #blocked>
  %z = tile.load %pc : tensor<32x32x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<32x16xf16, #blocked> -> tensor<32x16xf16, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<16x32xf16, #blocked> -> tensor<16x32xf16, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mfma>
  %d = tile.dot %xa, %yb, %zc : tensor<32x16xf16, #opa> * tensor<16x32xf16, #opb> -> tensor<32x32xf32, #mfma>
  %db = tile_gpu.convert_layout %d : tensor<32x32xf32, #mfma> -> tensor<32x32xf32, #blocked>
  tile.store %pc, %db : tensor<32x32x!tile.ptr<f32>, #blocked>
  return
}

// -----

// bf16, 16x16 blocks on waves [2, 2], 64x64x32: per wave 2x2 blocks of 2 K steps, eight
// v_mfma_f32_16x16x16_bf16 (the _1k form: vector<4xi16> operands, bf16 bitcast to i16).
// CHECK-LABEL: llvm.func @mfma_bf16
// CHECK: llvm.bitcast %{{.+}} : bf16 to i16
// CHECK-COUNT-8: rocdl.mfma.f32.16x16x16bf16.1k %{{.+}} : (vector<4xi16>, vector<4xi16>, vector<4xf32>, i32, i32, i32) -> vector<4xf32>
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tile_gpu.mfma<{nonKDim = 16, warpsPerCTA = [2, 2]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>
func.func @mfma_bf16(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<64x32x!tile.ptr<bf16>, #blocked>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<32x64x!tile.ptr<bf16>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<64x64x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<64x32x!tile.ptr<bf16>, #blocked>
  %y = tile.load %pb : tensor<32x64x!tile.ptr<bf16>, #blocked>
  %z = tile.load %pc : tensor<64x64x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<64x32xbf16, #blocked> -> tensor<64x32xbf16, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<32x64xbf16, #blocked> -> tensor<32x64xbf16, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<64x64xf32, #blocked> -> tensor<64x64xf32, #mfma>
  %d = tile.dot %xa, %yb, %zc : tensor<64x32xbf16, #opa> * tensor<32x64xbf16, #opb> -> tensor<64x64xf32, #mfma>
  %db = tile_gpu.convert_layout %d : tensor<64x64xf32, #mfma> -> tensor<64x64xf32, #blocked>
  tile.store %pc, %db : tensor<64x64x!tile.ptr<f32>, #blocked>
  return
}

// -----

// f32: v_mfma_f32_32x32x2_f32 on one f32 per lane (kWidth 1), 32x32x8 = four K steps.
// CHECK-LABEL: llvm.func @mfma_f32
// CHECK-COUNT-4: rocdl.mfma.f32.32x32x2f32 %{{.+}} : (f32, f32, vector<16xf32>, i32, i32, i32) -> vector<16xf32>
// CHECK-NOT: rocdl.mfma
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [1, 1]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 1}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 1}>
func.func @mfma_f32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<32x8x!tile.ptr<f32>, #blocked>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<8x32x!tile.ptr<f32>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<32x32x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<32x8x!tile.ptr<f32>, #blocked>
  %y = tile.load %pb : tensor<8x32x!tile.ptr<f32>, #blocked>
  %z = tile.load %pc : tensor<32x32x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<32x8xf32, #blocked> -> tensor<32x8xf32, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<8x32xf32, #blocked> -> tensor<8x32xf32, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<32x32xf32, #blocked> -> tensor<32x32xf32, #mfma>
  %d = tile.dot %xa, %yb, %zc : tensor<32x8xf32, #opa> * tensor<8x32xf32, #opb> -> tensor<32x32xf32, #mfma>
  %db = tile_gpu.convert_layout %d : tensor<32x32xf32, #mfma> -> tensor<32x32xf32, #blocked>
  tile.store %pc, %db : tensor<32x32x!tile.ptr<f32>, #blocked>
  return
}

// -----

// A 128x256 f32 accumulator (128 KB) does not fit the 64 KB of LDS: blocked -> mfma and back
// convert in two slices of 64 rows each (the row's top bit comes from the register index in
// both layouts), a barrier before and after each slice's stores: 2 x 2 x 2 barriers, 64 KB of
// LDS in all.
// CHECK-LABEL: llvm.func @slices
// CHECK-SAME: tile_gpu.shared = 65536 : i32
// CHECK-COUNT-8: rocdl.s.barrier
// CHECK-NOT: rocdl.s.barrier
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 64], warpsPerCTA = [8, 1], order = [1, 0]}>
#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 4]}>
func.func @slices(%c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<128x256x!tile.ptr<f32>, #blocked>
  %z = tile.load %pc : tensor<128x256x!tile.ptr<f32>, #blocked>
  %acc = tile_gpu.convert_layout %z : tensor<128x256xf32, #blocked> -> tensor<128x256xf32, #mfma>
  %twice = arith.addf %acc, %acc : tensor<128x256xf32, #mfma>
  %db = tile_gpu.convert_layout %twice : tensor<128x256xf32, #mfma> -> tensor<128x256xf32, #blocked>
  tile.store %pc, %db : tensor<128x256x!tile.ptr<f32>, #blocked>
  return
}
