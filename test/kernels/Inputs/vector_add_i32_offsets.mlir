// A deliberately wrong vector add for case C6: the offset pid * BLK is computed in i32, so it
// wraps for programs past 2^31 / BLK. On the interpreter the wrapped addresses fall outside
// every buffer and the run stops with a located error instead of reading or writing them.
func.func @vector_add(%x: !tile.ptr<ELT>, %y: !tile.ptr<ELT>, %out: !tile.ptr<ELT>, %n: i64)
    attributes {tile.kernel, tessel.config = {BLOCK = BLK : i64}} {
  %pid = tile.program_id 0
  %blk = arith.constant BLK : i32
  %start = arith.muli %pid, %blk : i32                                   // wraps past 2^31
  %r = tile.arange 0, BLK : tensor<BLKxi32>
  %s = tile.splat %start : i32 -> tensor<BLKxi32>
  %offs32 = arith.addi %s, %r : tensor<BLKxi32>
  %offs = arith.extsi %offs32 : tensor<BLKxi32> to tensor<BLKxi64>
  %ns = tile.splat %n : i64 -> tensor<BLKxi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>
  %xs = tile.splat %x : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %xp = tile.addptr %xs, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %xv = tile.load %xp, %m : tensor<BLKx!tile.ptr<ELT>>
  %ys = tile.splat %y : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %yp = tile.addptr %ys, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  %yv = tile.load %yp, %m : tensor<BLKx!tile.ptr<ELT>>
  %xf = EXT %xv : tensor<BLKxELT> to tensor<BLKxf32>
  %yf = EXT %yv : tensor<BLKxELT> to tensor<BLKxf32>
  %sum = arith.addf %xf, %yf : tensor<BLKxf32>
  %o = TRUNC %sum : tensor<BLKxf32> to tensor<BLKxELT>
  %os = tile.splat %out : !tile.ptr<ELT> -> tensor<BLKx!tile.ptr<ELT>>
  %op = tile.addptr %os, %offs : tensor<BLKx!tile.ptr<ELT>>, tensor<BLKxi64>
  tile.store %op, %o, %m : tensor<BLKx!tile.ptr<ELT>>
  return
}
