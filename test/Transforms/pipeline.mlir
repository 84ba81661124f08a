// RUN: tessel-opt %s --tile-gpu-pipeline | FileCheck %s

// The K loop of a GEMM: A and B advance by BLOCK_K each iteration and feed a dot.
#a = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #tile_gpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b1 = #tile_gpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #tile_gpu.mma<{versionMajor = 2, warpsPerCTA = [2, 2], instrShape = [16, 8]}>
#opA = #tile_gpu.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>
#opB = #tile_gpu.dot_op<{opIdx = 1, parent = #mma, kWidth = 2}>

// num_stages = 3: rings of 3 swizzled stages, iterations 0 and 1 issued before the loop, the
// loop waits for its own stage (at most 1 group pending), reads ring[k % 3] and issues
// iteration k + 2 into ring[(k + 2) % 3], masked off past the end; all copies retire after it.
// CHECK-LABEL: func.func @gemm_loop
// CHECK-DAG:   %[[RA:.*]] = tile_gpu.local_alloc : !tile_gpu.memdesc<3x64x32xf16, #shared>
// CHECK-DAG:   %[[RB:.*]] = tile_gpu.local_alloc : !tile_gpu.memdesc<3x32x64xf16, #shared1>
// CHECK:       %[[IN0:.*]] = arith.cmpi slt, %{{.*}}, %arg2 : i32
// CHECK:       %[[M0:.*]] = tile.splat %[[IN0]] : i1 -> tensor<64x32xi1, #blocked>
// CHECK:       %[[S0:.*]] = tile_gpu.memdesc_index %[[RA]][%{{.*}}]
// CHECK:       tile_gpu.async_copy_global_to_local %{{.*}}, %[[S0]] mask %[[M0]]
// CHECK:       tile_gpu.async_copy_global_to_local
// CHECK-NEXT:  tile_gpu.async_commit_group
// CHECK:       tile_gpu.memdesc_index %[[RA]]
// CHECK:       tile_gpu.async_copy_global_to_local
// CHECK:       tile_gpu.async_copy_global_to_local
// CHECK-NEXT:  tile_gpu.async_commit_group
// CHECK:       scf.for %[[K:.*]] = {{.*}} iter_args({{.*}}, %[[COUNT:.*]] = %c0_i32{{.*}}) -> ({{.*}}, i32)
// CHECK-NEXT:    tile_gpu.async_wait {num = 1 : i32}
// CHECK:         %[[RDA:.*]] = arith.remui %[[COUNT]], %c3
// CHECK-NEXT:    %[[A:.*]] = tile_gpu.memdesc_index %[[RA]][%[[RDA]]]
// CHECK-NEXT:    %[[X:.*]] = tile_gpu.local_load %[[A]] : !tile_gpu.memdesc<64x32xf16, #shared> -> tensor<64x32xf16, #dot_op>
// CHECK:         %[[RDB:.*]] = arith.remui %[[COUNT]], %c3
// CHECK-NEXT:    %[[B:.*]] = tile_gpu.memdesc_index %[[RB]][%[[RDB]]]
// CHECK-NEXT:    %[[Y:.*]] = tile_gpu.local_load %[[B]] : !tile_gpu.memdesc<32x64xf16, #shared1> -> tensor<32x64xf16, #dot_op1>
// CHECK:         %[[AHEAD:.*]] = arith.addi %[[K]], %{{.*}} : i32
// CHECK:         %[[WR0:.*]] = arith.addi %[[COUNT]], %c2
// CHECK:         arith.cmpi slt, %[[AHEAD]], %arg2
// CHECK:         %[[WRA:.*]] = arith.remui %[[WR0]], %c3
// CHECK-NEXT:    tile_gpu.memdesc_index %[[RA]][%[[WRA]]]
// CHECK-NEXT:    tile_gpu.async_copy_global_to_local
// CHECK:         %[[WRB:.*]] = arith.remui %[[WR0]], %c3
// CHECK-NEXT:    tile_gpu.memdesc_index %[[RB]][%[[WRB]]]
// CHECK-NEXT:    tile_gpu.async_copy_global_to_local
// CHECK-NEXT:    tile_gpu.async_commit_group
// CHECK-NEXT:    tile.dot %[[X]], %[[Y]], %{{.*}}
// CHECK-NOT:     tile.load
// CHECK:         scf.yield
// CHECK-NEXT:  }
// CHECK-NEXT:  tile_gpu.async_wait {num = 0 : i32}
module attributes {tile.target = "cuda:sm_80"} {
func.func @gemm_loop(%A: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %B: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %stepA = arith.constant dense<32> : tensor<64x32xi32, #a>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32, #b>
  %ra = tile.arange 0, 32 : tensor<32xi32, #tile_gpu.slice<{dim = 0, parent = #a}>>
  %rae = tile.expand_dims %ra {axis = 0 : i32} : tensor<32xi32, #tile_gpu.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
  %rab = tile.broadcast %rae : tensor<1x32xi32, #a> -> tensor<64x32xi32, #a>
  %pas = tile.splat %A : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #a>
  %pa0 = tile.addptr %pas, %rab : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
  %rb = tile.arange 0, 64 : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b}>>
  %rbe = tile.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
  %rbb = tile.broadcast %rbe : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
  %pbs = tile.splat %B : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #b>
  %pb0 = tile.addptr %pbs, %rbb : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x64x!tile.ptr<f16>, #b>) : i32 {
    %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #b>
    %xa = tile_gpu.convert_layout %x : tensor<64x32xf16, #a> -> tensor<64x32xf16, #opA>
    %yb = tile_gpu.convert_layout %y : tensor<32x64xf16, #b> -> tensor<32x64xf16, #opB>
    %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #opA> * tensor<32x64xf16, #opB> -> tensor<64x64xf32, #mma>
    %pa1 = tile.addptr %pa, %stepA : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
    %pb1 = tile.addptr %pb, %stepB : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x64x!tile.ptr<f16>, #b>
  }
  return %r#0 : tensor<64x64xf32, #mma>
}


// num_stages = 1 leaves the loop alone.
// CHECK-LABEL: func.func @one_stage
// CHECK-NOT:   tile_gpu.local_alloc
// CHECK:       tile.load
// CHECK:       tile.load
func.func @one_stage(%A: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %B: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 1 : i32, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %stepA = arith.constant dense<32> : tensor<64x32xi32, #a>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32, #b>
  %ra = tile.arange 0, 32 : tensor<32xi32, #tile_gpu.slice<{dim = 0, parent = #a}>>
  %rae = tile.expand_dims %ra {axis = 0 : i32} : tensor<32xi32, #tile_gpu.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
  %rab = tile.broadcast %rae : tensor<1x32xi32, #a> -> tensor<64x32xi32, #a>
  %pas = tile.splat %A : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #a>
  %pa0 = tile.addptr %pas, %rab : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
  %rb = tile.arange 0, 64 : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b}>>
  %rbe = tile.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b}>> -> tensor<1x64xi32, #b>
  %rbb = tile.broadcast %rbe : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
  %pbs = tile.splat %B : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #b>
  %pb0 = tile.addptr %pbs, %rbb : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x64x!tile.ptr<f16>, #b>) : i32 {
    %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #b>
    %xa = tile_gpu.convert_layout %x : tensor<64x32xf16, #a> -> tensor<64x32xf16, #opA>
    %yb = tile_gpu.convert_layout %y : tensor<32x64xf16, #b> -> tensor<32x64xf16, #opB>
    %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #opA> * tensor<32x64xf16, #opB> -> tensor<64x64xf32, #mma>
    %pa1 = tile.addptr %pa, %stepA : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
    %pb1 = tile.addptr %pb, %stepB : tensor<32x64x!tile.ptr<f16>, #b>, tensor<32x64xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x64x!tile.ptr<f16>, #b>
  }
  return %r#0 : tensor<64x64xf32, #mma>
}


// B's threads hold single halves (2-byte runs; cp.async copies 4, 8 or 16 bytes): A is
// pipelined, B stays a synchronous load in the loop.
// CHECK-LABEL: func.func @narrow_b
// CHECK:       tile_gpu.local_alloc : !tile_gpu.memdesc<3x64x32xf16
// CHECK-NOT:   tile_gpu.local_alloc
// CHECK:       scf.for
// CHECK:         tile_gpu.local_load
// CHECK:         tile.load %{{.*}} : tensor<32x64x!tile.ptr<f16>, #blocked
// CHECK-NEXT:    tile_gpu.convert_layout
func.func @narrow_b(%A: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %B: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<64x64xf32, #mma> attributes {tile.num_stages = 3 : i32, tile.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #mma>
  %stepA = arith.constant dense<32> : tensor<64x32xi32, #a>
  %stepB = arith.constant dense<2048> : tensor<32x64xi32, #b1>
  %ra = tile.arange 0, 32 : tensor<32xi32, #tile_gpu.slice<{dim = 0, parent = #a}>>
  %rae = tile.expand_dims %ra {axis = 0 : i32} : tensor<32xi32, #tile_gpu.slice<{dim = 0, parent = #a}>> -> tensor<1x32xi32, #a>
  %rab = tile.broadcast %rae : tensor<1x32xi32, #a> -> tensor<64x32xi32, #a>
  %pas = tile.splat %A : !tile.ptr<f16> -> tensor<64x32x!tile.ptr<f16>, #a>
  %pa0 = tile.addptr %pas, %rab : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
  %rb = tile.arange 0, 64 : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b1}>>
  %rbe = tile.expand_dims %rb {axis = 0 : i32} : tensor<64xi32, #tile_gpu.slice<{dim = 0, parent = #b1}>> -> tensor<1x64xi32, #b1>
  %rbb = tile.broadcast %rbe : tensor<1x64xi32, #b1> -> tensor<32x64xi32, #b1>
  %pbs = tile.splat %B : !tile.ptr<f16> -> tensor<32x64x!tile.ptr<f16>, #b1>
  %pb0 = tile.addptr %pbs, %rbb : tensor<32x64x!tile.ptr<f16>, #b1>, tensor<32x64xi32, #b1>
  %r:3 = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero, %pa = %pa0, %pb = %pb0) -> (tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x64x!tile.ptr<f16>, #b1>) : i32 {
    %x = tile.load %pa : tensor<64x32x!tile.ptr<f16>, #a>
    %y = tile.load %pb : tensor<32x64x!tile.ptr<f16>, #b1>
    %xa = tile_gpu.convert_layout %x : tensor<64x32xf16, #a> -> tensor<64x32xf16, #opA>
    %yb = tile_gpu.convert_layout %y : tensor<32x64xf16, #b1> -> tensor<32x64xf16, #opB>
    %d = tile.dot %xa, %yb, %acc : tensor<64x32xf16, #opA> * tensor<32x64xf16, #opB> -> tensor<64x64xf32, #mma>
    %pa1 = tile.addptr %pa, %stepA : tensor<64x32x!tile.ptr<f16>, #a>, tensor<64x32xi32, #a>
    %pb1 = tile.addptr %pb, %stepB : tensor<32x64x!tile.ptr<f16>, #b1>, tensor<32x64xi32, #b1>
    scf.yield %d, %pa1, %pb1 : tensor<64x64xf32, #mma>, tensor<64x32x!tile.ptr<f16>, #a>, tensor<32x64x!tile.ptr<f16>, #b1>
  }
  return %r#0 : tensor<64x64xf32, #mma>
}

}
