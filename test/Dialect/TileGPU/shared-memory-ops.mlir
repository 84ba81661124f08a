// RUN: tessel-opt %s | FileCheck %s
// RUN: tessel-opt %s | tessel-opt | FileCheck %s

// The shared-memory ops of a two-stage pipelined K loop, as the pipeliner will produce them.

#blocked = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#shared = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>

// CHECK: #[[DOT:.+]] = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
// CHECK-LABEL: func.func @ops
func.func @ops(%ptrs: tensor<64x64x!tile.ptr<f16>, #blocked>, %m: tensor<64x64xi1, #blocked>,
               %x: tensor<64x64xf16, #blocked>, %i: i32) {
  // CHECK: %[[RING:.+]] = tile_gpu.local_alloc : !tile_gpu.memdesc<2x64x64xf16, #shared>
  %ring = tile_gpu.local_alloc : !tile_gpu.memdesc<2x64x64xf16, #shared>
  // CHECK: tile_gpu.local_alloc {offset = 1024 : i32} : !tile_gpu.memdesc<64x64xf16, #shared>
  %fixed = tile_gpu.local_alloc {offset = 1024 : i32} : !tile_gpu.memdesc<64x64xf16, #shared>
  // CHECK: %[[SLOT:.+]] = tile_gpu.memdesc_index %[[RING]][%{{.+}}] : !tile_gpu.memdesc<2x64x64xf16, #shared> -> !tile_gpu.memdesc<64x64xf16, #shared>
  %slot = tile_gpu.memdesc_index %ring[%i] : !tile_gpu.memdesc<2x64x64xf16, #shared> -> !tile_gpu.memdesc<64x64xf16, #shared>
  // CHECK: tile_gpu.memdesc_subview %[[SLOT]][0, 16] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<64x16xf16, #shared>
  %view = tile_gpu.memdesc_subview %slot[0, 16] : !tile_gpu.memdesc<64x64xf16, #shared> -> !tile_gpu.memdesc<64x16xf16, #shared>
  // CHECK: tile_gpu.async_copy_global_to_local %{{.+}}, %[[SLOT]] mask %{{.+}} : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>, tensor<64x64xi1, #blocked>
  tile_gpu.async_copy_global_to_local %ptrs, %slot mask %m : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>, tensor<64x64xi1, #blocked>
  // CHECK: tile_gpu.async_copy_global_to_local %{{.+}}, %[[SLOT]] : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>{{$}}
  tile_gpu.async_copy_global_to_local %ptrs, %slot : tensor<64x64x!tile.ptr<f16>, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  // CHECK-NEXT: tile_gpu.async_commit_group
  tile_gpu.async_commit_group
  // CHECK-NEXT: tile_gpu.async_wait {num = 1 : i32}
  tile_gpu.async_wait {num = 1 : i32}
  // CHECK-NEXT: tile_gpu.barrier
  tile_gpu.barrier
  // CHECK: tile_gpu.local_load %[[SLOT]] : !tile_gpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #[[DOT]]>
  %a = tile_gpu.local_load %slot : !tile_gpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>
  // CHECK: tile_gpu.local_store %{{.+}}, %[[SLOT]] : tensor<64x64xf16, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  tile_gpu.local_store %x, %slot : tensor<64x64xf16, #blocked> -> !tile_gpu.memdesc<64x64xf16, #shared>
  return
}
