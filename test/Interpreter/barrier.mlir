// tile.barrier: a program reads back, reversed, what it stored; the interpreter runs a
// program's ops in order, so the barrier changes nothing there (on a GPU it is what makes
// another thread's store visible).
// RUN: tessel-run %s --kernel reverse --grid 2 --arg 'buf@i32[16]' --arg 'out@i32[16]' | FileCheck %s
// CHECK: out = [7, 6, 5, 4, 3, 2, 1, 0, 15, 14, 13, 12, 11, 10, 9, 8]
func.func @reverse(%buf: !tile.ptr<i32>, %out: !tile.ptr<i32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %c8 = arith.constant 8 : i32
  %base = arith.muli %pid, %c8 : i32
  %r = tile.arange 0, 8 : tensor<8xi32>
  %bs = tile.splat %base : i32 -> tensor<8xi32>
  %idx = arith.addi %bs, %r : tensor<8xi32>
  %bufs = tile.splat %buf : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %w = tile.addptr %bufs, %idx : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %w, %idx : tensor<8x!tile.ptr<i32>>
  tile.barrier
  %c7 = arith.constant dense<7> : tensor<8xi32>
  %rev = arith.subi %c7, %r : tensor<8xi32>
  %ridx = arith.addi %bs, %rev : tensor<8xi32>
  %rp = tile.addptr %bufs, %ridx : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  %v = tile.load %rp : tensor<8x!tile.ptr<i32>>
  %outs = tile.splat %out : !tile.ptr<i32> -> tensor<8x!tile.ptr<i32>>
  %o = tile.addptr %outs, %idx : tensor<8x!tile.ptr<i32>>, tensor<8xi32>
  tile.store %o, %v : tensor<8x!tile.ptr<i32>>
  return
}
