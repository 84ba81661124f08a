// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a | FileCheck %s

// A kernel becomes an llvm.func with the NVVM kernel attributes; pointer arguments carry the
// alignment their divisibility promises; program ids read NVVM special registers.
// CHECK: llvm.mlir.global external @tessel_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @ids(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i64)
// CHECK-SAME:    nvvm.kernel, nvvm.maxntid = array<i32: 256, 1, 1>
// CHECK-SAME:    tile.kernel, tile.num_warps = 8 : i32, tile_gpu.shared = 0 : i32
// CHECK:         nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK:         nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK:         llvm.return
func.func @ids(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %n: i64) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %a = tile.program_id 1
  %b = tile.num_programs 2
  %s = arith.addi %a, %b : i32
  tile.store %p, %s : !tile.ptr<i32>
  return
}
