// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize | FileCheck %s

// An element-wise op whose result AxisInfo proves constant over aligned runs is computed once
// per run of the thread's elements: `cols < n` with n a multiple of 8 is one compare per
// 8-element chunk (sizePerThread = [8], 4 chunks a thread at 1024 columns on one warp), where a
// compare per element took 32 (and 32 column indices widened to i64 when n is an i64).
#b = #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>

// CHECK-LABEL: llvm.func @mask_runs
// CHECK-COUNT-4: llvm.icmp "slt"
// CHECK-NOT:     llvm.icmp
// CHECK:         llvm.return
func.func @mask_runs(%n: i64 {tile.divisibility = 8 : i32}) -> tensor<1024xi1, #b> {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %c64 = arith.extsi %c : tensor<1024xi32, #b> to tensor<1024xi64, #b>
  %ns = tile.splat %n : i64 -> tensor<1024xi64, #b>
  %m = arith.cmpi slt, %c64, %ns : tensor<1024xi64, #b>
  return %m : tensor<1024xi1, #b>
}

// Runs of 4 (n divisible by 4 only) inside chunks of 8: 8 compares.
// CHECK-LABEL: llvm.func @mask_runs_of_4
// CHECK-COUNT-8: llvm.icmp "slt"
// CHECK-NOT:     llvm.icmp
// CHECK:         llvm.return
func.func @mask_runs_of_4(%n: i32 {tile.divisibility = 4 : i32}) -> tensor<1024xi1, #b> {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  return %m : tensor<1024xi1, #b>
}

// Nothing known of n: one compare per element.
// CHECK-LABEL: llvm.func @mask_any_n
// CHECK-COUNT-32: llvm.icmp "slt"
// CHECK-NOT:     llvm.icmp
// CHECK:         llvm.return
func.func @mask_any_n(%n: i32) -> tensor<1024xi1, #b> {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  return %m : tensor<1024xi1, #b>
}
