// Vector add, hand-written tile IR (a template: ELT is the element type, EXT/TRUNC the casts
// to and from f32, BLK the block size; lit instantiates it with sed, see test/kernels).
// out[i] = x[i] + y[i] for i < n; program p handles [p * BLK, (p + 1) * BLK). Offsets are i64:
// the program id is widened before the multiply, so pid * BLK cannot wrap (case C6).
func.func @vector_add(%x: !tile.ptr<ELT>, %y: !tile.ptr<ELT>, %out: !tile.ptr<ELT>, %n: i64)
    attributes {tile.kernel, tile.num_warps = 4 : i32, tessel.config = {BLOCK = BLK : i64}} {
  %pid = tile.program_id 0
  %p64 = arith.extsi %pid : i32 to i64
  %blk = arith.constant BLK : i64
  %start = arith.muli %p64, %blk : i64
  %r = tile.arange 0, BLK : tensor<BLKxi32>                              // (BLK)
  %r64 = arith.extsi %r : tensor<BLKxi32> to tensor<BLKxi64>
  %s = tile.splat %start : i64 -> tensor<BLKxi64>
  %offs = arith.addi %s, %r64 : tensor<BLKxi64>                          // (BLK)
  %ns = tile.splat %n : i64 -> tensor<BLKxi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<BLKxi64>                      // (BLK) mask
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
