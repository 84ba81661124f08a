// RUN: tessel-opt %s --tile-gpu-pipeline | FileCheck %s
// RUN: tessel-opt %s --tile-gpu-pipeline --canonicalize --tile-gpu-allocate-shared-memory --tile-gpu-insert-barriers | FileCheck %s --check-prefix=BAR

// CDNA has no asynchronous copy: the adapter stages MFMA operands through registers. With
// num_stages = 3 the loop loads iteration k + 2 at the top, keeps it in registers across the
// dot and stores it after, into the stage this iteration read: rings of 2 stages (not 3),
// K contiguous and rows padded by 16 bytes (the AMD adapter's placement). No async ops.
#a = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mfma = #tile_gpu.mfma<{nonKDim = 32, warpsPerCTA = [2, 2]}>
#opA = #tile_gpu.dot_op<{opIdx = 0, parent = #mfma, kWidth = 4}>
#opB = #tile_gpu.dot_op<{opIdx = 1, parent = #mfma, kWidth = 4}>

// CHECK-DAG: #[[SA:.*]] = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 8}>
// CHECK-DAG: #[[SB:.*]] = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0, 1], pad = 8}>
// CHECK-LABEL: func.func @gemm_loop
// CHECK:       %[[RA:.*]] = tile_gpu.local_alloc : !tile_gpu.memdesc<2x64x64xf16, #[[SA]]>
// CHECK:       %[[RB:.*]] = tile_gpu.local_alloc : !tile_gpu.memdesc<2x64x64xf16, #[[SB]]>
// CHECK:       %[[L0:.*]] = tile.load %{{.*}}, %{{.*}} : tensor<64x64x!tile.ptr<f16>, #blocked>
// CHECK:       tile.load
// CHECK-NEXT:  tile_gpu.local_store %[[L0]]
// CHECK-NEXT:  tile_gpu.local_store
// CHECK:       tile.load
// CHECK:       tile.load
// CHECK-NEXT:  tile_gpu.local_store
// CHECK-NEXT:  tile_gpu.local_store
// CHECK:       scf.for {{.*}} iter_args({{.*}}, %[[COUNT:.*]] = %c0_i32{{.*}}) -> ({{.*}}, i32)
// CHECK:         %[[RD:.*]] = arith.remui %[[COUNT]], %c2
// CHECK-NEXT:    tile_gpu.memdesc_index %[[RA]][%[[RD]]]
// CHECK-NEXT:    %[[X:.*]] = tile_gpu.local_load
// CHECK:         %[[WR0:.*]] = arith.addi %[[COUNT]], %c2
// CHECK:         %[[WR:.*]] = arith.remui %[[WR0]], %c2
// CHECK-NEXT:    %[[SA0:.*]] = tile_gpu.memdesc_index %[[RA]][%[[WR]]]
// CHECK-NEXT:    %[[NA:.*]] = tile.load
// CHECK:         %[[SB0:.*]] = tile_gpu.memdesc_index %[[RB]]
// CHECK-NEXT:    %[[NB:.*]] = tile.load
// CHECK-NEXT:    tile.dot %[[X]]
// CHECK-NEXT:    tile_gpu.local_store %[[NA]], %[[SA0]]
// CHECK-NEXT:    tile_gpu.local_store %[[NB]], %[[SB0]]
// CHECK:         scf.yield
// CHECK-NOT:   tile_gpu.async

// The store refills the stage the dot just read: after the canonicalizer the read and the
// write name the same stage, so a barrier separates them; the back edge orders the next
// iteration's reads.
// BAR-LABEL: func.func @gemm_loop
// BAR:       scf.for
// BAR:         tile_gpu.barrier
// BAR-NEXT:    tile_gpu.local_load
// BAR:         tile.dot
// BAR-NEXT:    tile_gpu.barrier
// BAR-NEXT:    tile_gpu.local_store
// BAR-NEXT:    tile_gpu.local_store
// BAR-NEXT:    arith.addi
// BAR-NEXT:    scf.yield
module attributes {tile.target = "hip:gfx942"} {
func.func @gemm_loop(%A: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %B: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mfma> attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mfma>
  %stepA = arith.constant dense<64> : tensor<64x64xi32, #a>
  %stepB = arith.constant dense<4096> : tensor<64x64xi32, #b>
  %ra = tile.arange 0, 64 : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #a}>>
  %rae = tile.expand_dims %ra {axis = 0 : i32} : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #a}>> -> tensor<1x64xi32, #a>
  %rab = tile.broadcast %rae : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
  %pas = tile.splat %A : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #a>
  %pa0 = tile.addptr %pas, %rab : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
  %rb = tile.arange 0, 64 : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b}>>
  %rbe = tile.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
  %rbb = tile.broadcast %rbe : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %pbs = tile.splat %B : !tile.ptr<f16> -> tensor<64x64x!tile.ptr<f16>, #b>
  %pb0 = tile.addptr %pbs, %rbb : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mfma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #b>) : i32 {
    %x = tile.load %pa : tensor<64x64x!tile.ptr<f16>, #a>
    %y = tile.load %pb : tensor<64x64x!tile.ptr<f16>, #b>
    %xa = tile_gpu.convert_layout %x : tensor<64x64xf16, #a> -> tensor<64x64xf16, #opA>
    %yb = tile_gpu.convert_layout %y : tensor<64x64xf16, #b> -> tensor<64x64xf16, #opB>
    %d = tile.dot %xa, %yb, %acc : tensor<64x64xf16, #opA> * tensor<64x64xf16, #opB> -> tensor<64x64xf32, #mfma>
    %pa1 = tile.addptr %pa, %stepA : tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64xi32, #a>
    %pb1 = tile.addptr %pb, %stepB : tensor<64x64x!tile.ptr<f16>, #b>, tensor<64x64xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<64x64xf32, #mfma>, tensor<64x64x!tile.ptr<f16>, #a>, tensor<64x64x!tile.ptr<f16>, #b>
  }
  return %r#0 : tensor<64x64xf32, #mfma>
}
}
