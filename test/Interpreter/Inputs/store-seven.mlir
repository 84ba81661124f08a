// Every program stores 7 to x[program_id(0)]: a grid that runs any program changes x.
func.func @k(%x: !tile.ptr<i32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %p = tile.addptr %x, %pid : !tile.ptr<i32>, i32
  %c = arith.constant 7 : i32
  tile.store %p, %c : !tile.ptr<i32>
  return
}
