// Two kernels in one module (tessel-translate compiles each in turn).
func.func @first(%p: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 1 : i32} {
  %a = tile.program_id 0
  tile.store %p, %a : !tile.ptr<i32>
  return
}
func.func @second(%p: !tile.ptr<i32>) attributes {tile.kernel, tile.num_warps = 2 : i32} {
  %a = tile.num_programs 0
  tile.store %p, %a : !tile.ptr<i32>
  return
}
