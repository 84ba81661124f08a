// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize | FileCheck %s

// local_store / local_load move a thread's runs of consecutive elements along the placement's
// contiguous dimension as vectors of up to 16 bytes.
#b = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #tile_gpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#padded = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 8}>
#swizzled = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>

// A padded placement (rows of 64 + 8 halves): one run-time base per thread, then every
// 16-byte vector at a constant offset from it: 32 columns right, 32 rows down (32 * 72).
// CHECK-LABEL: llvm.func @store_padded
// CHECK:         %[[BASE:.*]] = llvm.getelementptr %{{.*}}[%{{.*}}] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[P1:.*]] = llvm.getelementptr %[[BASE]][32] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[P2:.*]] = llvm.getelementptr %[[BASE]][2304] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK-NEXT:    %[[P3:.*]] = llvm.getelementptr %[[BASE]][2336] : (!llvm.ptr<3>) -> !llvm.ptr<3>, f16
// CHECK:         llvm.store %{{.*}}, %[[BASE]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %[[P1]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %[[P2]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK:         llvm.store %{{.*}}, %[[P3]] {alignment = 16 : i64} : vector<8xf16>, !llvm.ptr<3>
// CHECK-NOT:     llvm.store
func.func @store_padded(%x: tensor<64x64xf16, #b>) attributes {tile.num_warps = 4 : i32} {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x64xf16, #padded>
  tile_gpu.local_store %x, %buf : tensor<64x64xf16, #b> -> !tile_gpu.memdesc<64x64xf16, #padded>
  return
}

// A swizzled placement: runs of 4 halves stay inside one 8-half swizzle group, one 8-byte
// load each (the address is computed per access, the swizzle is not linear).
// CHECK-LABEL: llvm.func @load_swizzled
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 8 : i64} : !llvm.ptr<3> -> vector<4xf16>
// CHECK-NOT:     llvm.load
func.func @load_swizzled() -> tensor<64x64xf16, #c> attributes {tile.num_warps = 4 : i32} {
  %buf = tile_gpu.local_alloc {offset = 0 : i32} : !tile_gpu.memdesc<64x64xf16, #swizzled>
  %v = tile_gpu.local_load %buf : !tile_gpu.memdesc<64x64xf16, #swizzled> -> tensor<64x64xf16, #c>
  return %v : tensor<64x64xf16, #c>
}
