// RUN: tessel-opt %s | FileCheck %s
// RUN: tessel-opt %s | tessel-opt | FileCheck %s

// The tile_nv ops print as they parse: warpgroup_dot on two shared tiles in the hardware-
// swizzled placement (blockCols) into an mma version 3 accumulator, the wait with its
// pendings, the proxy fence. #tile_gpu.shared prints blockCols only when it is set.

// CHECK-DAG: #[[MMA:.+]] = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
// CHECK-DAG: #[[SA:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
// CHECK-DAG: #[[SB:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], pad = 0, blockCols = 32}>
// CHECK-DAG: #[[PLAIN:.+]] = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>{{$}}
#mma = #tile_gpu.mma<{versionMajor = 3, warpsPerCTA = [4, 1], instrShape = [64, 128]}>
#sa = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#sb = #tile_gpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [0, 1], pad = 0, blockCols = 32}>
// blockCols = 0 is the default: it is dropped when printed, the same attribute as no blockCols.
#plain = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 0}>

// CHECK-LABEL: func.func @ops
// CHECK-SAME:    %[[A:[^:]+]]: !tile_gpu.memdesc<128x64xbf16, #[[SA]]>
// CHECK-SAME:    %[[B:[^:]+]]: !tile_gpu.memdesc<64x128xbf16, #[[SB]]>
// CHECK-SAME:    %[[C:[^:]+]]: tensor<128x128xf32, #[[MMA]]>
// CHECK-SAME:    !tile_gpu.memdesc<64x64xf16, #[[PLAIN]]>
func.func @ops(%a: !tile_gpu.memdesc<128x64xbf16, #sa>, %b: !tile_gpu.memdesc<64x128xbf16, #sb>,
               %c: tensor<128x128xf32, #mma>, %p: !tile_gpu.memdesc<64x64xf16, #plain>)
    -> (tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>) {
  // CHECK: tile_nv.fence_async_shared{{$}}
  tile_nv.fence_async_shared
  // CHECK-NEXT: %[[D:.+]] = tile_nv.warpgroup_dot %[[A]], %[[B]], %[[C]] : !tile_gpu.memdesc<128x64xbf16, #[[SA]]>, !tile_gpu.memdesc<64x128xbf16, #[[SB]]>, tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #[[MMA]]>
  %d = tile_nv.warpgroup_dot %a, %b, %c : !tile_gpu.memdesc<128x64xbf16, #sa>, !tile_gpu.memdesc<64x128xbf16, #sb>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
  // CHECK-NEXT: %[[W:.+]] = tile_nv.warpgroup_dot_wait %[[D]] {pendings = 1 : i32} : tensor<128x128xf32, #[[MMA]]>
  %w = tile_nv.warpgroup_dot_wait %d {pendings = 1 : i32} : tensor<128x128xf32, #mma>
  // Several inputs: one result each, in order.
  // CHECK-NEXT: %[[V:.+]]:2 = tile_nv.warpgroup_dot_wait %[[W]], %[[C]] {pendings = 0 : i32} : tensor<128x128xf32, #[[MMA]]>, tensor<128x128xf32, #[[MMA]]>
  %v:2 = tile_nv.warpgroup_dot_wait %w, %c {pendings = 0 : i32} : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
  // CHECK-NEXT: return %[[V]]#0, %[[V]]#1
  return %v#0, %v#1 : tensor<128x128xf32, #mma>, tensor<128x128xf32, #mma>
}
