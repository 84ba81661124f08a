// RUN: tessel-opt %s -split-input-file --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize | FileCheck %s

// A placement with blockCols (wgmma's 128-byte swizzle) narrower than the row: the contiguous
// dimension is cut into blocks of 64 bf16, each a whole 64-row tile stored after the previous
// one. Element (r, c) sits at (c / 64) * (64 rows * 64) + r * 64 + swizzle(c % 64), the swizzle
// XORing the 8-element group (c % 64) / 8 with the row's phase r % 8. The accesses stay
// 16-byte vectors (a run of 8 never crosses a block or a swizzle group).
#b = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blk = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>

// CHECK-LABEL: llvm.func @store_blocks
// CHECK-DAG:   %[[C4096:.+]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-DAG:   %[[C64:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK-DAG:   %[[C8:.+]] = llvm.mlir.constant(8 : i32) : i32
// CHECK:       %[[BLK:.+]] = llvm.udiv %[[COL:[0-9]+]], %[[C64]] : i32
// CHECK-NEXT:  %[[START:.+]] = llvm.mul %[[BLK]], %[[C4096]] : i32
// CHECK-NEXT:  %[[IN:.+]] = llvm.urem %[[COL]], %[[C64]] : i32
// CHECK-NEXT:  %[[ROWSTART:.+]] = llvm.mul %[[ROW:[0-9]+]], %[[C64]] : i32
// CHECK-NEXT:  %[[GROUP:.+]] = llvm.udiv %[[IN]], %[[C8]] : i32
// CHECK-NEXT:  llvm.udiv %[[ROW]], %{{.+}} : i32
// CHECK-NEXT:  %[[PHASE:.+]] = llvm.urem %{{.+}}, %[[C8]] : i32
// CHECK-NEXT:  %[[XOR:.+]] = llvm.xor %[[GROUP]], %[[PHASE]] : i32
// CHECK-NEXT:  %[[WITHIN:.+]] = llvm.urem %[[IN]], %[[C8]] : i32
// CHECK-NEXT:  %[[GSTART:.+]] = llvm.mul %[[XOR]], %[[C8]] : i32
// CHECK-NEXT:  %[[SW:.+]] = llvm.add %[[GSTART]], %[[WITHIN]] : i32
// CHECK-NEXT:  %[[INBLK:.+]] = llvm.add %[[ROWSTART]], %[[SW]] : i32
// CHECK-NEXT:  %[[OFF:.+]] = llvm.add %[[START]], %[[INBLK]] : i32
// CHECK-NEXT:  llvm.getelementptr %{{.+}}[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
// CHECK-COUNT-8: llvm.store %{{.+}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT:   llvm.store
func.func @store_blocks(%x: tensor<64x128xbf16, #b>) attributes {tile.num_warps = 4 : i32} {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x128xbf16, #blk>
  tile_gpu.local_store %x, %buf : tensor<64x128xbf16, #b> -> !tile_gpu.memdesc<64x128xbf16, #blk>
  return
}

// -----

#b = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#blk = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>

// CHECK-LABEL: llvm.func @load_blocks
// CHECK-DAG:   %[[C4096:.+]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-DAG:   %[[C64:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK:       %[[BLK:.+]] = llvm.udiv %[[COL:[0-9]+]], %[[C64]] : i32
// CHECK-NEXT:  %[[START:.+]] = llvm.mul %[[BLK]], %[[C4096]] : i32
// CHECK-NEXT:  llvm.urem %[[COL]], %[[C64]] : i32
// CHECK-NEXT:  llvm.mul %{{.+}}, %[[C64]] : i32
// CHECK:       %[[OFF:.+]] = llvm.add %[[START]], %{{.+}} : i32
// CHECK-NEXT:  llvm.getelementptr %{{.+}}[%[[OFF]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, bf16
// CHECK-COUNT-8: llvm.load %{{.+}} {alignment = 16 : i64} : !llvm.ptr<3> -> vector<8xbf16>
// CHECK-NOT:   llvm.load
func.func @load_blocks() -> tensor<64x128xbf16, #b> attributes {tile.num_warps = 4 : i32} {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x128xbf16, #blk>
  %v = tile_gpu.local_load %buf : !tile_gpu.memdesc<64x128xbf16, #blk> -> tensor<64x128xbf16, #b>
  return %v : tensor<64x128xbf16, #b>
}

// -----

// K-contiguous (order [0, 1]) 128x64 with blocks of 64 along dimension 0: block (r / 64) starts
// at (r / 64) * (64 columns * 64) = 4096 elements as well.
#c = #tile_gpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#blkt = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, blockCols = 64}>

// CHECK-LABEL: llvm.func @store_blocks_transposed
// CHECK-DAG:   %[[C4096:.+]] = llvm.mlir.constant(4096 : i32) : i32
// CHECK-DAG:   %[[C64:.+]] = llvm.mlir.constant(64 : i32) : i32
// CHECK:       %[[BLK:.+]] = llvm.udiv %[[COL:[0-9]+]], %[[C64]] : i32
// CHECK-NEXT:  llvm.mul %[[BLK]], %[[C4096]] : i32
// CHECK-COUNT-8: llvm.store %{{.+}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<3>
// CHECK-NOT:   llvm.store
func.func @store_blocks_transposed(%x: tensor<128x64xbf16, #c>) attributes {tile.num_warps = 4 : i32} {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<128x64xbf16, #blkt>
  tile_gpu.local_store %x, %buf : tensor<128x64xbf16, #c> -> !tile_gpu.memdesc<128x64xbf16, #blkt>
  return
}
