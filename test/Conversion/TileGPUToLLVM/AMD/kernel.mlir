// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 | FileCheck %s
// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx90a | FileCheck %s

// A kernel becomes an llvm.func with the ROCDL kernel attributes: the amdgpu_kernel calling
// convention (rocdl.kernel), amdgpu-flat-work-group-size "1,<threads>" and the exact 1-D
// workgroup shape, num_warps wavefronts of 64 work-items. Program ids are workgroup ids; the
// program count is ockl's __ockl_get_num_groups (rocdl.grid.dim, i64).
// CHECK: llvm.mlir.global external @tessel_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
// CHECK-LABEL: llvm.func @ids(
// CHECK-SAME:    %{{.*}}: !llvm.ptr<1> {llvm.align = 16 : i64}, %{{.*}}: i64)
// CHECK-SAME:    rocdl.flat_work_group_size = "1,512", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 512, 1, 1>
// CHECK-SAME:    tile.kernel, tile.num_warps = 8 : i32, tile_gpu.shared = 0 : i32
// CHECK:         rocdl.workgroup.id.y : i32
// CHECK:         %[[N:.*]] = rocdl.grid.dim.z : i64
// CHECK:         llvm.trunc %[[N]] : i64 to i32
// CHECK:         rocdl.workitem.id.x : i32
// CHECK:         llvm.return
func.func @ids(%p: !tile.ptr<i32> {tile.divisibility = 16 : i32}, %n: i64) attributes {tile.kernel, tile.num_warps = 8 : i32} {
  %a = tile.program_id 1
  %b = tile.num_programs 2
  %s = arith.addi %a, %b : i32
  tile.store %p, %s : !tile.ptr<i32>
  return
}

// The default num_warps is 4: 256 work-items.
// CHECK-LABEL: llvm.func @default_warps(
// CHECK-SAME:    rocdl.flat_work_group_size = "1,256", rocdl.kernel, rocdl.reqd_work_group_size = array<i32: 256, 1, 1>
// CHECK:         rocdl.workgroup.id.x : i32
func.func @default_warps(%p: !tile.ptr<i32>) attributes {tile.kernel} {
  %a = tile.program_id 0
  tile.store %p, %a : !tile.ptr<i32>
  return
}
