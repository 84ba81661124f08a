// An enabled lane outside every buffer stops the run with the op's location, the program id,
// the lane and the element offset; nothing is read or written and the tool exits non-zero.
// RUN: not tessel-run %s --kernel oob_load --grid 3 --arg 'x@f32[100]=1' --arg 'o@f32[100]' 2>&1 | FileCheck %s --check-prefix=LOAD
// RUN: not tessel-run %s --kernel oob_store --grid 2,2 --arg 'o@f32[10]' 2>&1 | FileCheck %s --check-prefix=STORE
// RUN: not tessel-run %s --kernel oob_load --grid 1 --arg 'x@f32[10]=1' --arg 'o@f32[100]' 2>&1 | FileCheck %s --check-prefix=FIRST

// The load is unmasked (the store is masked): lanes 36..63 of program 1 (offsets 100..127)
// and all of program 2 are out of bounds; the lowest program id is reported.
// LOAD: out-of-bounds.mlir:[[@LINE+10]]:8: error: out-of-bounds tile.load of f32 in program_id (1, 0, 0), lane 36 of 64: element offset 100 from the start of buffer 'x', which holds 100 elements (valid offsets 0..99); nothing was accessed
func.func @oob_load(%x: !tile.ptr<f32>, %o: !tile.ptr<f32>) attributes {tile.kernel} {
  %pid = tile.program_id 0
  %c64 = arith.constant 64 : i32
  %base = arith.muli %pid, %c64 : i32
  %r = tile.arange 0, 64 : tensor<64xi32>
  %b = tile.splat %base : i32 -> tensor<64xi32>
  %offs = arith.addi %b, %r : tensor<64xi32>
  %px = tile.splat %x : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %p = tile.addptr %px, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %v = tile.load %p : tensor<64x!tile.ptr<f32>>
  %po = tile.splat %o : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>>
  %q = tile.addptr %po, %offs : tensor<64x!tile.ptr<f32>>, tensor<64xi32>
  %c100 = arith.constant dense<100> : tensor<64xi32>
  %m = arith.cmpi slt, %offs, %c100 : tensor<64xi32>
  tile.store %q, %v, %m : tensor<64x!tile.ptr<f32>>
  return
}

// FIRST: error: out-of-bounds tile.load of f32 in program_id (0, 0, 0), lane 10 of 64: element offset 10 from the start of buffer 'x', which holds 10 elements

// A scalar store before the buffer: program (1, 1) writes o[-1]; the lowest failing program is
// reported whatever the thread schedule.
// STORE: out-of-bounds.mlir:[[@LINE+9]]:3: error: out-of-bounds tile.store of f32 in program_id (1, 1, 0), lane 0 of 1: element offset -1 from the start of buffer 'o', which holds 10 elements
func.func @oob_store(%o: !tile.ptr<f32>) attributes {tile.kernel} {
  %x = tile.program_id 0
  %y = tile.program_id 1
  %prod = arith.muli %x, %y : i32
  %c0 = arith.constant 0 : i32
  %neg = arith.subi %c0, %prod : i32
  %q = tile.addptr %o, %neg : !tile.ptr<f32>, i32
  %one = arith.constant 1.0 : f32
  tile.store %q, %one : !tile.ptr<f32>
  return
}
