// A kernel already in the LLVM dialect + ROCDL: tessel-translate compiles it as it is.
module {
  llvm.func @handwritten(%p: !llvm.ptr<1>) attributes {rocdl.kernel, rocdl.flat_work_group_size = "1,64", tile.kernel} {
    %tid = rocdl.workitem.id.x : i32
    %q = llvm.getelementptr %p[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    llvm.store %tid, %q : i32, !llvm.ptr<1>
    llvm.return
  }
}
