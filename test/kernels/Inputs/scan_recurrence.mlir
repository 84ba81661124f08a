// The linear recurrence h[t] = a[t] * h[t-1] + b[t] (h[-1] = 0) as a two-operand scan: the
// pairs (a, b) compose as (a1, b1) then (a2, b2) -> (a1 a2, a2 b1 + b2), associative but not
// commutative. i32 so that every target's result is exact; BLK lanes, one program.
func.func @recurrence(%pa: !tile.ptr<i32>, %pb: !tile.ptr<i32>, %ph: !tile.ptr<i32>)
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %r = tile.arange 0, 256 : tensor<256xi32>
  %r64 = arith.extsi %r : tensor<256xi32> to tensor<256xi64>
  %as = tile.splat %pa : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %ap = tile.addptr %as, %r64 : tensor<256x!tile.ptr<i32>>, tensor<256xi64>
  %a = tile.load %ap : tensor<256x!tile.ptr<i32>>
  %bs = tile.splat %pb : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %bp = tile.addptr %bs, %r64 : tensor<256x!tile.ptr<i32>>, tensor<256xi64>
  %b = tile.load %bp : tensor<256x!tile.ptr<i32>>
  %s:2 = tile.scan(%a, %b) axis = 0 : (tensor<256xi32>, tensor<256xi32>) -> (tensor<256xi32>, tensor<256xi32>) {
  ^bb0(%a1: i32, %b1: i32, %a2: i32, %b2: i32):
    %aa = arith.muli %a1, %a2 : i32
    %t = arith.muli %a2, %b1 : i32
    %bb = arith.addi %t, %b2 : i32
    tile.yield %aa, %bb : i32, i32
  }
  %hs = tile.splat %ph : !tile.ptr<i32> -> tensor<256x!tile.ptr<i32>>
  %hp = tile.addptr %hs, %r64 : tensor<256x!tile.ptr<i32>>, tensor<256xi64>
  tile.store %hp, %s#1 : tensor<256x!tile.ptr<i32>>
  return
}
