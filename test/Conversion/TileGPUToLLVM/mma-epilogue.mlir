// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// A GEMM epilogue left in the mma accumulator's layout by tile-gpu-remove-layout-conversions:
// a row of the tile (slice dim 1 of the mma layout: rows g and g + 8 of the 16x16 tile, two
// registers) expanded and broadcast along the columns, a column index (slice dim 0: columns
// 2t, 2t + 1, 2t + 8, 2t + 9) from arange, element-wise math on the accumulator's eight
// registers, then one conversion to the store's layout. Row register 0 feeds accumulator
// registers 0, 1, 4, 5 (row g) and row register 1 registers 2, 3, 6, 7 (row g + 8).
// The (16, 1) tile in the mma layout holds each row twice (registers 0, 1: row g; 2, 3: g + 8).
// CHECK-LABEL: llvm.func @mma_epilogue
// CHECK:         %[[ROW:.*]] = llvm.insertvalue %{{.*}}, %{{.*}}[1] : !llvm.struct<(f32, f32)>
// CHECK:         %[[R0:.*]] = llvm.extractvalue %[[ROW]][0] : !llvm.struct<(f32, f32)>
// CHECK:         %[[R1:.*]] = llvm.extractvalue %[[ROW]][1] : !llvm.struct<(f32, f32)>
// CHECK:         llvm.insertvalue %[[R0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    llvm.insertvalue %[[R0]], %{{.*}}[1] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    llvm.insertvalue %[[R1]], %{{.*}}[2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK-NEXT:    %[[COL:.*]] = llvm.insertvalue %[[R1]], %{{.*}}[3] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         %[[E0:.*]] = llvm.extractvalue %[[COL]][0] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         %[[E2:.*]] = llvm.extractvalue %[[COL]][2] : !llvm.struct<(f32, f32, f32, f32)>
// CHECK:         llvm.insertvalue %[[E0]], %{{.*}}[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
// CHECK-NEXT:    llvm.insertvalue %[[E0]], %{{.*}}[1]
// CHECK-NEXT:    llvm.insertvalue %[[E2]], %{{.*}}[2]
// CHECK-NEXT:    llvm.insertvalue %[[E2]], %{{.*}}[3]
// CHECK-NEXT:    llvm.insertvalue %[[E0]], %{{.*}}[4]
// CHECK-NEXT:    llvm.insertvalue %[[E0]], %{{.*}}[5]
// CHECK-NEXT:    llvm.insertvalue %[[E2]], %{{.*}}[6]
// CHECK-NEXT:    llvm.insertvalue %[[E2]], %{{.*}}[7]
// CHECK-COUNT-8: llvm.fsub
// CHECK-COUNT-8: llvm.icmp "eq"
// CHECK:         llvm.return
#blocked = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#row = #tile_gpu.slice<{dim = 1, parent = #blocked}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [1, 1], instrShape = [16, 8]}>
#mrow = #tile_gpu.slice<{dim = 1, parent = #mma}>
#mcol = #tile_gpu.slice<{dim = 0, parent = #mma}>
func.func @mma_epilogue(%c: !tile.ptr<f32>, %lse: !tile.ptr<f32>, %out: !tile.ptr<bf16>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %pc = tile.splat %c : !tile.ptr<f32> -> tensor<16x16x!tile.ptr<f32>, #blocked>
  %acc0 = tile.load %pc : tensor<16x16x!tile.ptr<f32>, #blocked>
  %acc = tile_gpu.convert_layout %acc0 : tensor<16x16xf32, #blocked> -> tensor<16x16xf32, #mma>
  %pl = tile.splat %lse : !tile.ptr<f32> -> tensor<16x!tile.ptr<f32>, #row>
  %l0 = tile.load %pl : tensor<16x!tile.ptr<f32>, #row>
  %l = tile_gpu.convert_layout %l0 : tensor<16xf32, #row> -> tensor<16xf32, #mrow>
  %l1 = tile.expand_dims %l {axis = 1 : i32} : tensor<16xf32, #mrow> -> tensor<16x1xf32, #mma>
  %lb = tile.broadcast %l1 : tensor<16x1xf32, #mma> -> tensor<16x16xf32, #mma>
  %d = arith.subf %acc, %lb : tensor<16x16xf32, #mma>
  %j = tile.arange 0, 16 : tensor<16xi32, #mcol>
  %j1 = tile.expand_dims %j {axis = 0 : i32} : tensor<16xi32, #mcol> -> tensor<1x16xi32, #mma>
  %jb = tile.broadcast %j1 : tensor<1x16xi32, #mma> -> tensor<16x16xi32, #mma>
  %three = arith.constant dense<3> : tensor<16x16xi32, #mma>
  %hit = arith.cmpi eq, %jb, %three : tensor<16x16xi32, #mma>
  %zero = arith.constant dense<0.0> : tensor<16x16xf32, #mma>
  %g = arith.select %hit, %zero, %d : tensor<16x16xi1, #mma>, tensor<16x16xf32, #mma>
  %t = arith.truncf %g : tensor<16x16xf32, #mma> to tensor<16x16xbf16, #mma>
  %tb = tile_gpu.convert_layout %t : tensor<16x16xbf16, #mma> -> tensor<16x16xbf16, #blocked>
  %po = tile.splat %out : !tile.ptr<bf16> -> tensor<16x16x!tile.ptr<bf16>, #blocked>
  tile.store %po, %tb : tensor<16x16x!tile.ptr<bf16>, #blocked>
  return
}
