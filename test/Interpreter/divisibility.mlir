// tile.divisibility is a promise the launch must keep (the GPU runtime rejects a launch that
// breaks it; so does the interpreter, so that a test catches it first).
// RUN: tessel-run %s --grid 1 --arg 'x@f32[16]=1' --arg i64=32 | FileCheck %s --check-prefix=OK
// RUN: not tessel-run %s --grid 1 --arg 'x@f32[16]=1' --arg i64=30 2>&1 | FileCheck %s --check-prefix=BAD
// OK: x = [2, 1, 1
// BAD: error: argument #1 'arg1' of 'k' breaks its tile.divisibility = 16: 30 is not a multiple of 16
func.func @k(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %v = tile.load %x : !tile.ptr<f32>
  %w = arith.addf %v, %v : f32
  tile.store %x, %w : !tile.ptr<f32>
  return
}
