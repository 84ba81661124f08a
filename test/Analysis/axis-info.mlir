// RUN: tessel-opt %s --tessel-test-print-axis-info -split-input-file -verify-diagnostics

// pid * BLOCK + arange: contiguous runs of BLOCK starting at multiples of BLOCK; the mask
// against a multiple of 8 is constant over aligned runs of 8.
func.func @offsets(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %n: i64 {tile.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = tile.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %p64 = arith.extsi %pid : i32 to i64
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %c = arith.constant 1024 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %base = arith.muli %p64, %c : i64
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = tile.arange 0, 1024 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r64 = arith.extsi %r : tensor<1024xi32> to tensor<1024xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %b = tile.splat %base : i64 -> tensor<1024xi64>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %b, %r64 : tensor<1024xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [1024]}}
  %ns = tile.splat %n : i64 -> tensor<1024xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [8]}}
  %m = arith.cmpi slt, %offs, %ns : tensor<1024xi64>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>>
  // bytes: gcd(16, 1024 * 2)
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %xp = tile.addptr %xs, %offs : tensor<1024x!tile.ptr<bf16>>, tensor<1024xi64>
  return
}

// -----

// Rows of a 2-D tile: contiguous along columns, constant along rows after broadcast. Row r
// starts at r * stride: a multiple of the stride's 16 for every r, not of the 2^30 that only
// row 0 (the first value of the arange's run) has.
func.func @rows(%stride: i64 {tile.divisibility = 16 : i32}) {
  // expected-remark @below {{contiguity = [8], divisibility = [1073741824], constancy = [1]}}
  %r = tile.arange 0, 8 : tensor<8xi32>
  // expected-remark @below {{contiguity = [8, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %re = tile.expand_dims %r {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  // expected-remark @below {{contiguity = [8, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %r64 = arith.extsi %re : tensor<8x1xi32> to tensor<8x1xi64>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [8, 1]}}
  %s = tile.splat %stride : i64 -> tensor<8x1xi64>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 1]}}
  %ro = arith.muli %r64, %s : tensor<8x1xi64>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [1, 64]}}
  %rb = tile.broadcast %ro : tensor<8x1xi64> -> tensor<8x64xi64>
  return
}

// -----

// Induction variables take the divisibility of their bounds and step.
func.func @loop(%n: i64) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0 = arith.constant 0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
  %c256 = arith.constant 256 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0b = arith.constant 0 : i64
  scf.for %i = %c0 to %n step %c256 : i64 {
    // expected-remark @below {{contiguity = [1], divisibility = [256], constancy = [1]}}
    %j = arith.addi %i, %c0b : i64
  }
  return
}

// -----

// Loop-carried pointers: a tile advanced by a uniform step keeps its contiguity, its
// divisibility (bytes) becomes gcd(init, step); one advanced by a non-uniform step does not.
func.func @carried(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i64,
                   %s: i32 {tile.divisibility = 8 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1]}}
  %c0 = arith.constant 0 : i64
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %c1 = arith.constant 1 : i64
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = tile.arange 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<64x!tile.ptr<f16>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %p = tile.addptr %xs, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [8], constancy = [64]}}
  %step = tile.splat %s : i32 -> tensor<64xi32>
  %out:2 = scf.for %i = %c0 to %n step %c1 iter_args(%q = %p, %u = %p) -> (tensor<64x!tile.ptr<f16>>, tensor<64x!tile.ptr<f16>>) : i64 {
    // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
    %next = tile.addptr %q, %step : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
    // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1]}}
    %skew = tile.addptr %u, %r : tensor<64x!tile.ptr<f16>>, tensor<64xi32>
    scf.yield %next, %skew : tensor<64x!tile.ptr<f16>>, tensor<64x!tile.ptr<f16>>
  }
  return
}
