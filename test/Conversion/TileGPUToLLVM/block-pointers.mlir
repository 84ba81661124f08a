// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_80 -split-input-file -verify-diagnostics

// No block pointer reaches the GPU lowering: a load an adapter keeps for its bulk tensor copies
// (TargetInfo::loadsBlockThroughTensorMap; none on sm_80) is staged by tile-gpu-pipeline or
// copied in place by the adapter, and one that reaches the lowering is an error saying so; every other block-pointer op means
// tile-lower-block-pointers did not run (tesselc's GPU pipeline runs it before the
// layout passes: test/Transforms/lower-block-pointers.mlir, test/tools/tesselc/block-pointers.test).

func.func @advance(%a: !tile.ptr<f32>, %n: i64) attributes {tile.kernel} {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  // expected-error @below {{'tile.make_block_ptr' on a block pointer reached the GPU lowering; run --tile-lower-block-pointers before the layout passes}}
  %x = tile.make_block_ptr %a, [%n], [%c1], [%c0] {order = array<i32: 0>} : !tile.ptr<f32> -> !tile.block_ptr<tensor<128xf32>>
  %y = tile.advance %x, [%c1] : !tile.block_ptr<tensor<128xf32>>
  return
}

// -----

#blocked = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

func.func @load(%x: !tile.block_ptr<tensor<128xf32, #blocked>>, %o: tensor<128x!tile.ptr<f32>, #blocked>) {
  // expected-error @below {{a block-pointer load kept for cuda:sm_80's bulk tensor copies (TMA) reached the lowering: neither tile-gpu-pipeline nor the adapter's layout passes staged it}}
  %t = tile.load %x boundary_check = [0] padding = zero : !tile.block_ptr<tensor<128xf32, #blocked>>
  tile.store %o, %t : tensor<128x!tile.ptr<f32>, #blocked>
  return
}
