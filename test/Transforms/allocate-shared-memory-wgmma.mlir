// RUN: tessel-opt %s --tile-gpu-allocate-shared-memory | FileCheck %s

// wgmma swizzles absolute shared-memory addresses (the XOR pattern repeats every 8 rows of 128
// bytes): a buffer in a placement with blockCols starts at a multiple of 1024 bytes; others
// keep the 16-byte alignment.
#bl = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#plain = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#hw = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>

// CHECK-LABEL: func.func @alignment
// 8x8 f16 = 128 bytes at 0; the 64x64 bf16 (8192 bytes) hardware-swizzled buffer at 1024, not
// 128; the next plain buffer fills the gap at 128; the next hardware-swizzled one goes after
// the first at 1024 + 8192 = 9216 (a multiple of 1024).
// CHECK:       tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<8x8xf16, #shared>
// CHECK-NEXT:  tile_gpu.local_alloc {offset = 1024 : i32} : !tile_gpu.memdesc<64x64xbf16, #shared1>
// CHECK-NEXT:  tile_gpu.local_alloc {offset = 128 : i32} : !tile_gpu.memdesc<8x8xf16, #shared>
// CHECK-NEXT:  tile_gpu.local_alloc {offset = 9216 : i32} : !tile_gpu.memdesc<64x64xbf16, #shared1>
func.func @alignment(%x: tensor<8x8xf16, #bl>) attributes {tile.num_warps = 1 : i32} {
  %a = tile_gpu.local_alloc : !tile_gpu.memdesc<8x8xf16, #plain>
  %b = tile_gpu.local_alloc : !tile_gpu.memdesc<64x64xbf16, #hw>
  %c = tile_gpu.local_alloc : !tile_gpu.memdesc<8x8xf16, #plain>
  %d = tile_gpu.local_alloc : !tile_gpu.memdesc<64x64xbf16, #hw>
  tile_gpu.local_store %x, %a : tensor<8x8xf16, #bl> -> !tile_gpu.memdesc<8x8xf16, #plain>
  tile_gpu.local_store %x, %c : tensor<8x8xf16, #bl> -> !tile_gpu.memdesc<8x8xf16, #plain>
  %lb = tile_gpu.local_load %b : !tile_gpu.memdesc<64x64xbf16, #hw> -> tensor<64x64xbf16, #bl>
  %ld = tile_gpu.local_load %d : !tile_gpu.memdesc<64x64xbf16, #hw> -> tensor<64x64xbf16, #bl>
  %la = tile_gpu.local_load %a : !tile_gpu.memdesc<8x8xf16, #plain> -> tensor<8x8xf16, #bl>
  %lc = tile_gpu.local_load %c : !tile_gpu.memdesc<8x8xf16, #plain> -> tensor<8x8xf16, #bl>
  return
}
