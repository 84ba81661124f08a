// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// Loop-carried tiles travel as LLVM structs through the loop's block arguments.
#b = #tile_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @loop
// CHECK:         llvm.br ^bb1(%{{.*}}, %{{.*}} : i64, !llvm.struct<(f32, f32, f32, f32)>)
// CHECK:       ^bb1(%{{.*}}: i64, %{{.*}}: !llvm.struct<(f32, f32, f32, f32)>):
// CHECK:         llvm.cond_br
// CHECK-COUNT-4: llvm.fadd
func.func @loop(%n: i64, %x: tensor<512xf32, #b>) -> tensor<512xf32, #b> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<512xf32, #b>) : i64 {
    %s = arith.addf %acc, %x : tensor<512xf32, #b>
    scf.yield %s : tensor<512xf32, #b>
  }
  return %r : tensor<512xf32, #b>
}
