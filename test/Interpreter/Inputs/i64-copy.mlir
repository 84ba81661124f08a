// o[0] = x[0]; o[1] = the i64 scalar s; o[2] = x[0] + 1 (exact 64-bit arithmetic).
func.func @copy(%x: !tile.ptr<i64>, %o: !tile.ptr<i64>, %s: i64) attributes {tile.kernel} {
  %v = tile.load %x : !tile.ptr<i64>
  tile.store %o, %v : !tile.ptr<i64>
  %c1 = arith.constant 1 : i32
  %o1 = tile.addptr %o, %c1 : !tile.ptr<i64>, i32
  tile.store %o1, %s : !tile.ptr<i64>
  %one = arith.constant 1 : i64
  %w = arith.addi %v, %one : i64
  %o2 = tile.addptr %o1, %c1 : !tile.ptr<i64>, i32
  tile.store %o2, %w : !tile.ptr<i64>
  return
}
