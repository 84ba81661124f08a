// RUN: tessel-opt %s -split-input-file --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// The tile_nv ops on cuda:sm_90a. warpgroup_dot: a wgmma.fence, then per 64-row repetition,
// per instrShape[1] columns and per K step of 16 one wgmma.mma_async (inline PTX, the transpose
// immediates tA, tB set for an M- or N-contiguous operand) on two shared-memory descriptors, then
// one commit_group. Descriptor fields (bits 16-29 leading byte offset >> 4, 32-45 stride byte
// offset >> 4, 62-63 swizzle mode) for rows of R bytes, R = blockCols * 2:
//   K-major, R = 128: LBO 1, SBO 1024 >> 4 = 64, mode 1 (128B):
//       1 << 16 | 64 << 32 | 1 << 62 = 4611686293305360384
//   MN-major, R = 128, K extent 64: LBO 64 * 128 >> 4 = 512, SBO 64, mode 1:
//       512 << 16 | 64 << 32 | 1 << 62 = 4611686293338849280
//   MN-major, R = 128, K extent 32: LBO 32 * 128 >> 4 = 256: 4611686293322072064
//   K-major, R = 64: LBO 1, SBO 512 >> 4 = 32, mode 2 (64B):
//       1 << 16 | 32 << 32 | 2 << 62 = 2^63 + 137439019008, as a signed i64 -9223371899415756800
// Each descriptor's start address is the operand's address plus the byte offset of the step:
// K-major (row r, column k) at r * R + 2 k inside a block of blockCols columns; MN-major
// (K row k, column mn) at (mn / blockCols) * (K extent * R) + k * R. Warpgroup g starts 64 g rows
// down A.

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>

// A (128x64) K-contiguous, B (64x128) N-contiguous: transposes 0, 1. One warpgroup covers 128
// rows in 2 repetitions of 64 (A + 64 * 128 bytes), 1 instruction along N, 4 K steps (A + 32
// bytes, B + 16 * 128 bytes): 8 wgmma. The fence becomes fence.proxy.async.shared::cta, the
// wait a wait_group 1 with the 128 accumulator registers (2 repetitions x 64)
// tied in and out.
// CHECK-LABEL: llvm.func @kn
// CHECK:       nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK:       %[[FOUR:.+]] = llvm.mlir.constant(4 : i32) : i32
// CHECK-NEXT:  %[[G:.+]] = llvm.udiv %{{.+}}, %[[FOUR]] : i32
// CHECK-NEXT:  %[[GS:.+]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK-NEXT:  %[[GO:.+]] = llvm.mul %[[G]], %[[GS]] : i32
// CHECK-NEXT:  %[[PA:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
// CHECK-NEXT:  %[[ABASE:.+]] = llvm.add %[[PA]], %[[GO]] : i32
// CHECK-NEXT:  %[[BBASE:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(96 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(6144 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(8224 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(8256 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(8288 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(6144 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK-NOT:   wgmma.mma_async
// CHECK:       nvvm.wgmma.commit.group.sync.aligned
// CHECK-NOT:   wgmma.mma_async
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "wgmma.wait_group.sync.aligned 1;", "{{(=f,){128}0}},1,{{.+}},127" {{.+}} -> !llvm.struct<({{(f32, ){127}f}}32)>
// CHECK:       llvm.return
func.func @kn(%acc: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<128x64xbf16, #s>
  %b = tile_gpu.local_alloc {offset = 16384 : i32} : !tile_gpu.memdesc<64x128xbf16, #s>
  tile_nv.fence_async_shared
  %d = tile_nv.warpgroup_dot %a, %b, %acc : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #s>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  %w = tile_nv.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
  return %w : tensor<128x128xf32, #mma>
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#st = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, blockCols = 64}>

// The other way round: A M-contiguous (transpose 1, the MN-major descriptor, K steps 16 rows of
// 128 bytes apart, the second repetition one 64-column block further), B K-contiguous
// (transpose 0, the K-major descriptor, K steps of 32 bytes).
// CHECK-LABEL: llvm.func @mk
// CHECK:       %[[PA:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
// CHECK-NEXT:  %[[ABASE:.+]] = llvm.add %[[PA]], %{{.+}} : i32
// CHECK-NEXT:  %[[BBASE:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 1, 0; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 1, 0; }"
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.+}}, p, 1, 1, 1, 0; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(4611686293338849280 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293305360384 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 1, 0; }"
// CHECK-COUNT-3: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.+}}, p, 1, 1, 1, 0; }"
// CHECK-NOT:   wgmma.mma_async
// CHECK:       nvvm.wgmma.commit.group.sync.aligned
// CHECK:       "wgmma.wait_group.sync.aligned 0;"
func.func @mk(%acc: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<128x64xbf16, #st>
  %b = tile_gpu.local_alloc {offset = 16384 : i32} : !tile_gpu.memdesc<64x128xbf16, #st>
  %d = tile_nv.warpgroup_dot %a, %b, %acc : !tile_gpu.memdesc<128x64xbf16, #st>, !tile_gpu.memdesc<64x128xbf16, #st>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  %w = tile_nv.warpgroup_dot_wait %d {pendings = 0 : i32} : tensor<128x128xf32, #mma>
  return %w : tensor<128x128xf32, #mma>
}

// -----

#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s64 = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, blockCols = 32}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>

// f16, A (64x32) in the 64-byte swizzle (mode 2, stride 512 bytes; warpgroup stride 64 * 64),
// N = 256 in two m64n128 instructions: the second reads B two 64-column blocks on
// (2 * 32 * 128 bytes). 1 x 2 x 2 = 4 wgmma.
// CHECK-LABEL: llvm.func @nsplit
// CHECK:       %[[GS:.+]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-NEXT:  llvm.mul %{{.+}}, %[[GS]] : i32
// CHECK-NEXT:  %[[PA:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
// CHECK-NEXT:  %[[ABASE:.+]] = llvm.add %[[PA]], %{{.+}} : i32
// CHECK-NEXT:  %[[BBASE:.+]] = llvm.ptrtoint %{{.+}} : !llvm.ptr<3> to i32
// CHECK:       nvvm.wgmma.fence.aligned
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293322072064 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(2048 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293322072064 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(8192 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293322072064 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK:       %[[OA:.+]] = llvm.mlir.constant(32 : i32) : i32
// CHECK-NEXT:  llvm.add %[[ABASE]], %[[OA]] : i32
// CHECK-NEXT:  %[[OB:.+]] = llvm.mlir.constant(10240 : i32) : i32
// CHECK-NEXT:  llvm.add %[[BBASE]], %[[OB]] : i32
// CHECK:       llvm.mlir.constant(-9223371899415756800 : i64) : i64
// CHECK:       llvm.mlir.constant(4611686293322072064 : i64) : i64
// CHECK:       llvm.inline_asm has_side_effects asm_dialect = att "{ .reg .pred p; setp.ne.b32 p, $130, 0; wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {$0, {{.+}}, $63}, $128, $129, p, 1, 1, 0, 1; }"
// CHECK-NOT:   wgmma.mma_async
// CHECK:       nvvm.wgmma.commit.group.sync.aligned
func.func @nsplit(%acc: tensor<64x256xf32, #mma>) -> tensor<64x256xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x32xf16, #s64>
  %b = tile_gpu.local_alloc {offset = 4096 : i32} : !tile_gpu.memdesc<32x256xf16, #s>
  %d = tile_nv.warpgroup_dot %a, %b, %acc : !tile_gpu.memdesc<64x32xf16, #s64>, !tile_gpu.memdesc<32x256xf16, #s>, tensor<64x256xf32, #mma> -> tensor<64x256xf32, #mma>
  %w = tile_nv.warpgroup_dot_wait %d {pendings = 0 : i32} : tensor<64x256xf32, #mma>
  return %w : tensor<64x256xf32, #mma>
}

// -----

// valid_n = 100 on a 128-column tile (BLOCK_N = 100 padded by tile-gpu-pad-shapes): per
// repetition and K step one m64n104 (100 rounded up to wgmma's step of 8) over the first 52
// accumulator registers; none over the padding's columns. B (K-major, 128 rows) is read from
// its first row as before.
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#sk = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, blockCols = 64}>
// CHECK-LABEL: llvm.func @padded_n
// CHECK-COUNT-8: wgmma.mma_async.sync.aligned.m64n104k16.f32.bf16.bf16 {$0, {{.+}}, $51}, $104, $105, p, 1, 1, 0, 0;
// CHECK-NOT:     wgmma.mma_async
// CHECK:         nvvm.wgmma.commit.group.sync.aligned
func.func @padded_n(%acc: tensor<128x128xf32, #mma>) -> tensor<128x128xf32, #mma> attributes {tile.num_warps = 4 : i32} {
  %a = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<128x64xbf16, #s>
  %b = tile_gpu.local_alloc {offset = 16384 : i32} : !tile_gpu.memdesc<64x128xbf16, #sk>
  %d = tile_nv.warpgroup_dot %a, %b, %acc {valid_n = 100 : i64} : !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<64x128xbf16, #sk>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  %w = tile_nv.warpgroup_dot_wait %d {pendings = 0 : i32} : tensor<128x128xf32, #mma>
  return %w : tensor<128x128xf32, #mma>
}
