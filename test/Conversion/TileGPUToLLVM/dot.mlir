// RUN: tessel-opt %s -split-input-file --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// tile.dot on cuda:sm_90a. With dot_op operands of an mma parent (what tile-gpu-accelerate-matmul
// produces), the NVIDIA adapter lowers it to mma.sync, one instruction per 16x8 output tile and
// K step; in blocked layouts the shared lowering computes it on FMA units.

// f16: nvvm.mma.sync m16n8k16 on vector<2xf16> fragment registers; a 16x16 result on one warp
// is two 16x8 instructions (one K step).
// CHECK-LABEL: llvm.func @mma_f16
// CHECK-COUNT-2: nvvm.mma.sync A[{{.+}}] B[{{.+}}] C[{{.+}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (vector<2xf16>, vector<2xf16>, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
func.func @mma_f16(%a: !tile.ptr<f16>, %b: !tile.ptr<f16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>, #blocked>
  %pb = tile.splat %b : !tile.ptr<f16> -> tensor<16x16x!tile.ptr<f16>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<16x16x!tile.ptr<f16>, #blocked>
  %y = tile.load %pb : tensor<16x16x!tile.ptr<f16>, #blocked>
  %z = tile.load %pc : tensor<16x16x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<16x16xf16, #blocked> -> tensor<16x16xf16, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #mma>
  %d = tile.dot %xa, %yb, %zc : tensor<16x16xf16, #opa> * tensor<16x16xf16, #opb> -> tensor<16x16xf32, #mma>
  %db = tile_gpu.convert_layout %d : tensor<16x16xf32, #mma> -> tensor<16x16xf32, #blocked>
  tile.store %pc, %db : tensor<16x16x!tile.ptr<f32>, #blocked>
  return
}

// -----

// bf16: inline PTX (MLIR 19's nvvm.mma.sync does not accept bf16 fragments), four A, two B and
// four C registers; 16x16x32 is two output tiles of two K steps each.
// CHECK-LABEL: llvm.func @mma_bf16
// CHECK-COUNT-4: llvm.inline_asm asm_dialect = att "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {$0, $1, $2, $3}, {$4, $5, $6, $7}, {$8, $9}, {$10, $11, $12, $13};", "=f,=f,=f,=f,r,r,r,r,r,r,0,1,2,3" {{.+}} : (i32, i32, i32, i32, i32, i32, f32, f32, f32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: mma.sync
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>
func.func @mma_bf16(%a: !tile.ptr<bf16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<bf16> -> tensor<16x32x!tile.ptr<bf16>, #blocked>
  %pb = tile.splat %b : !tile.ptr<bf16> -> tensor<32x16x!tile.ptr<bf16>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<16x32x!tile.ptr<bf16>, #blocked>
  %y = tile.load %pb : tensor<32x16x!tile.ptr<bf16>, #blocked>
  %z = tile.load %pc : tensor<16x16x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<16x32xbf16, #blocked> -> tensor<16x32xbf16, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<32x16xbf16, #blocked> -> tensor<32x16xbf16, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #mma>
  %d = tile.dot %xa, %yb, %zc : tensor<16x32xbf16, #opa> * tensor<32x16xbf16, #opb> -> tensor<16x16xf32, #mma>
  %db = tile_gpu.convert_layout %d : tensor<16x16xf32, #mma> -> tensor<16x16xf32, #blocked>
  tile.store %pc, %db : tensor<16x16x!tile.ptr<f32>, #blocked>
  return
}

// -----

// precision = tf32: m16n8k8 with tf32 fragments, each f32 bitcast to one i32 register.
// CHECK-LABEL: llvm.func @mma_tf32
// CHECK: llvm.bitcast %{{.+}} : f32 to i32
// CHECK: nvvm.mma.sync A[{{.+}}] B[{{.+}}] C[{{.+}}] {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<tf32>, multiplicandBPtxType = #nvvm.mma_type<tf32>, shape = #nvvm.shape<m = 16, n = 8, k = 8>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
func.func @mma_tf32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #blocked>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<8x8x!tile.ptr<f32>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<16x8x!tile.ptr<f32>, #blocked>
  %y = tile.load %pb : tensor<8x8x!tile.ptr<f32>, #blocked>
  %z = tile.load %pc : tensor<16x8x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<16x8xf32, #blocked> -> tensor<16x8xf32, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<8x8xf32, #blocked> -> tensor<8x8xf32, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<16x8xf32, #blocked> -> tensor<16x8xf32, #mma>
  %d = tile.dot %xa, %yb, %zc precision = tf32 : tensor<16x8xf32, #opa> * tensor<8x8xf32, #opb> -> tensor<16x8xf32, #mma>
  %db = tile_gpu.convert_layout %d : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #blocked>
  tile.store %pc, %db : tensor<16x8x!tile.ptr<f32>, #blocked>
  return
}

// -----

// precision = tf32x3: each f32 operand split into its tf32 high part ((bits + 0x1000) &
// 0xffffe000) and the f32 remainder; three m16n8k8 per K step (lo*hi, hi*lo, hi*hi).
// CHECK-LABEL: llvm.func @mma_tf32x3
// CHECK: llvm.and %{{.+}}, %{{.+}} : i32
// CHECK: llvm.fsub
// CHECK-COUNT-3: nvvm.mma.sync A[{{.+}}] B[{{.+}}] C[{{.+}}] {{.*}}multiplicandAPtxType = #nvvm.mma_type<tf32>{{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 8>}
// CHECK-NOT: nvvm.mma.sync
// CHECK: llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#opa = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 1}>
#opb = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 1}>
func.func @mma_tf32x3(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #blocked>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<8x8x!tile.ptr<f32>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x8x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<16x8x!tile.ptr<f32>, #blocked>
  %y = tile.load %pb : tensor<8x8x!tile.ptr<f32>, #blocked>
  %z = tile.load %pc : tensor<16x8x!tile.ptr<f32>, #blocked>
  %xa = tile_gpu.convert_layout %x : tensor<16x8xf32, #blocked> -> tensor<16x8xf32, #opa>
  %yb = tile_gpu.convert_layout %y : tensor<8x8xf32, #blocked> -> tensor<8x8xf32, #opb>
  %zc = tile_gpu.convert_layout %z : tensor<16x8xf32, #blocked> -> tensor<16x8xf32, #mma>
  %d = tile.dot %xa, %yb, %zc precision = tf32x3 : tensor<16x8xf32, #opa> * tensor<8x8xf32, #opb> -> tensor<16x8xf32, #mma>
  %db = tile_gpu.convert_layout %d : tensor<16x8xf32, #mma> -> tensor<16x8xf32, #blocked>
  tile.store %pc, %db : tensor<16x8x!tile.ptr<f32>, #blocked>
  return
}

// -----

// Blocked operands: the FMA lowering stages a and b through shared memory, then loops over K
// (an LLVM loop, not unrolled) with one llvm.intr.fma per accumulator element a thread holds.
// CHECK-LABEL: llvm.func @fma_f32
// CHECK-SAME: tile_gpu.shared = {{[1-9][0-9]*}} : i32
// CHECK-NOT: mma.sync
// CHECK: llvm.store %{{.+}}, %{{.+}} : f32, !llvm.ptr<3>
// CHECK: nvvm.barrier0
// CHECK: llvm.br ^[[HEAD:bb[0-9]+]](
// CHECK: ^[[HEAD]](%[[K:[0-9]+]]: i32, {{.+}}):
// CHECK-NEXT: %[[KN:.+]] = llvm.mlir.constant(16 : i32) : i32
// CHECK-NEXT: %[[CMP:.+]] = llvm.icmp "slt" %[[K]], %[[KN]] : i32
// CHECK-NEXT: llvm.cond_br %[[CMP]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]](
// CHECK: ^[[BODY]]:
// CHECK: llvm.load %{{.+}} : !llvm.ptr<3> -> f32
// CHECK-COUNT-8: llvm.intr.fma(%{{.+}}, %{{.+}}, %{{.+}}) : (f32, f32, f32) -> f32
// CHECK-NOT: llvm.intr.fma
// CHECK: llvm.br ^[[HEAD]](
// CHECK: ^[[EXIT]](
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
func.func @fma_f32(%a: !tile.ptr<f32>, %b: !tile.ptr<f32>, %c: !tile.ptr<f32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pa = tile.splat %a : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blocked>
  %pb = tile.splat %b : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blocked>
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blocked>
  %x = tile.load %pa : tensor<16x16x!tile.ptr<f32>, #blocked>
  %y = tile.load %pb : tensor<16x16x!tile.ptr<f32>, #blocked>
  %z = tile.load %pc : tensor<16x16x!tile.ptr<f32>, #blocked>
  %d = tile.dot %x, %y, %z : tensor<16x16xf32, #blocked> * tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #blocked>
  tile.store %pc, %d : tensor<16x16x!tile.ptr<f32>, #blocked>
  return
}
