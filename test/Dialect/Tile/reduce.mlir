// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// tile.reduce and tile.scan with their combiner regions and the tile.yield terminator.

// Rank 2 -> rank 1 along either axis.
// CHECK-LABEL: func.func @reduce_rows
// CHECK-SAME: (%[[X:.*]]: tensor<4x128xf32>)
// CHECK-NEXT: %[[MAX:.*]] = tile.reduce(%[[X]]) axis = 1 : (tensor<4x128xf32>) -> tensor<4xf32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT: %[[R:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK-NEXT: tile.yield %[[R]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: %[[SUM:.*]] = tile.reduce(%[[X]]) axis = 0 : (tensor<4x128xf32>) -> tensor<128xf32> {
// CHECK-NEXT: ^bb0(%[[C:.*]]: f32, %[[D:.*]]: f32):
// CHECK-NEXT: %[[S:.*]] = arith.addf %[[C]], %[[D]] : f32
// CHECK-NEXT: tile.yield %[[S]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[MAX]], %[[SUM]] : tensor<4xf32>, tensor<128xf32>
func.func @reduce_rows(%x: tensor<4x128xf32>) -> (tensor<4xf32>, tensor<128xf32>) {
  %max = tile.reduce(%x) axis = 1 : (tensor<4x128xf32>) -> tensor<4xf32> {     // (4)
  ^bb0(%acc: f32, %v: f32):
    %r = arith.maximumf %acc, %v : f32
    tile.yield %r : f32
  }
  %sum = tile.reduce(%x) axis = 0 : (tensor<4x128xf32>) -> tensor<128xf32> {   // (128)
  ^bb0(%acc: f32, %v: f32):
    %s = arith.addf %acc, %v : f32
    tile.yield %s : f32
  }
  return %max, %sum : tensor<4xf32>, tensor<128xf32>
}

// A rank-1 tile reduces to a scalar.
// CHECK-LABEL: func.func @reduce_to_scalar
// CHECK-NEXT: %[[R:.*]] = tile.reduce(%{{.*}}) axis = 0 : (tensor<1024xi32>) -> i32 {
// CHECK-NEXT: ^bb0(%{{.*}}: i32, %{{.*}}: i32):
// CHECK-NEXT: arith.addi
// CHECK-NEXT: tile.yield %{{.*}} : i32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]] : i32
func.func @reduce_to_scalar(%x: tensor<1024xi32>) -> i32 {
  %r = tile.reduce(%x) axis = 0 : (tensor<1024xi32>) -> i32 {
  ^bb0(%acc: i32, %v: i32):
    %s = arith.addi %acc, %v : i32
    tile.yield %s : i32
  }
  return %r : i32
}

// Rank 3 along the middle axis.
// CHECK-LABEL: func.func @reduce_rank3
// CHECK-NEXT: tile.reduce(%{{.*}}) axis = 1 : (tensor<2x8x16xbf16>) -> tensor<2x16xbf16> {
func.func @reduce_rank3(%x: tensor<2x8x16xbf16>) -> tensor<2x16xbf16> {
  %r = tile.reduce(%x) axis = 1 : (tensor<2x8x16xbf16>) -> tensor<2x16xbf16> {
  ^bb0(%acc: bf16, %v: bf16):
    %m = arith.minimumf %acc, %v : bf16
    tile.yield %m : bf16
  }
  return %r : tensor<2x16xbf16>
}

// argmax as a two-operand reduce of (value, index): the combiner takes (acc_v, acc_i, v, i)
// and yields the pair with the larger value, the smaller index on ties.
// CHECK-LABEL: func.func @argmax
// CHECK-SAME: (%[[X:.*]]: tensor<4x128xf32>, %[[I:.*]]: tensor<4x128xi32>)
// CHECK-NEXT: %[[R:.*]]:2 = tile.reduce(%[[X]], %[[I]]) axis = 1 : (tensor<4x128xf32>, tensor<4x128xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
// CHECK-NEXT: ^bb0(%[[AV:.*]]: f32, %[[AI:.*]]: i32, %[[V:.*]]: f32, %[[VI:.*]]: i32):
// CHECK: tile.yield %{{.*}}, %{{.*}} : f32, i32
// CHECK-NEXT: }
// CHECK-NEXT: return %[[R]]#1 : tensor<4xi32>
func.func @argmax(%x: tensor<4x128xf32>, %idx: tensor<4x128xi32>) -> tensor<4xi32> {
  %r:2 = tile.reduce(%x, %idx) axis = 1 : (tensor<4x128xf32>, tensor<4x128xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%av: f32, %ai: i32, %v: f32, %i: i32):
    %gt = arith.cmpf ogt, %v, %av : f32
    %eq = arith.cmpf oeq, %v, %av : f32
    %lt = arith.cmpi slt, %i, %ai : i32
    %tie = arith.andi %eq, %lt : i1
    %take = arith.ori %gt, %tie : i1
    %rv = arith.select %take, %v, %av : f32
    %ri = arith.select %take, %i, %ai : i32
    tile.yield %rv, %ri : f32, i32
  }
  return %r#1 : tensor<4xi32>
}

// A two-operand reduce of a rank-1 tile yields two scalars.
// CHECK-LABEL: func.func @argmin_scalar
// CHECK-NEXT: %{{.*}}:2 = tile.reduce(%{{.*}}, %{{.*}}) axis = 0 : (tensor<64xf16>, tensor<64xi32>) -> (f16, i32) {
func.func @argmin_scalar(%x: tensor<64xf16>, %idx: tensor<64xi32>) -> (f16, i32) {
  %r:2 = tile.reduce(%x, %idx) axis = 0 : (tensor<64xf16>, tensor<64xi32>) -> (f16, i32) {
  ^bb0(%av: f16, %ai: i32, %v: f16, %i: i32):
    %lt = arith.cmpf olt, %v, %av : f16
    %rv = arith.select %lt, %v, %av : f16
    %ri = arith.select %lt, %i, %ai : i32
    tile.yield %rv, %ri : f16, i32
  }
  return %r#0, %r#1 : f16, i32
}

// CHECK-LABEL: func.func @reduce_attr_dict
// CHECK-NEXT: tile.reduce(%{{.*}}) axis = 0 {note = "u"} : (tensor<8xi64>) -> i64 {
func.func @reduce_attr_dict(%x: tensor<8xi64>) -> i64 {
  %r = tile.reduce(%x) axis = 0 {note = "u"} : (tensor<8xi64>) -> i64 {
  ^bb0(%acc: i64, %v: i64):
    %s = arith.maxsi %acc, %v : i64
    tile.yield %s : i64
  }
  return %r : i64
}

// Inclusive prefix sum; `reverse` scans from the end.
// CHECK-LABEL: func.func @scan
// CHECK-SAME: (%[[X:.*]]: tensor<128xi32>, %[[Y:.*]]: tensor<4x64xf32>)
// CHECK-NEXT: %[[C:.*]] = tile.scan(%[[X]]) axis = 0 : (tensor<128xi32>) -> tensor<128xi32> {
// CHECK-NEXT: ^bb0(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] : i32
// CHECK-NEXT: tile.yield %[[S]] : i32
// CHECK-NEXT: }
// CHECK-NEXT: %{{.*}} = tile.scan(%[[X]]) axis = 0 reverse : (tensor<128xi32>) -> tensor<128xi32> {
// CHECK: %{{.*}} = tile.scan(%[[Y]]) axis = 1 : (tensor<4x64xf32>) -> tensor<4x64xf32> {
// CHECK: %{{.*}} = tile.scan(%[[Y]]) axis = 0 reverse {note = "t"} : (tensor<4x64xf32>) -> tensor<4x64xf32> {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT: arith.mulf
func.func @scan(%x: tensor<128xi32>, %y: tensor<4x64xf32>) {
  %0 = tile.scan(%x) axis = 0 : (tensor<128xi32>) -> tensor<128xi32> {            // (128)
  ^bb0(%acc: i32, %v: i32):
    %s = arith.addi %acc, %v : i32
    tile.yield %s : i32
  }
  %1 = tile.scan(%x) axis = 0 reverse : (tensor<128xi32>) -> tensor<128xi32> {
  ^bb0(%acc: i32, %v: i32):
    %s = arith.addi %acc, %v : i32
    tile.yield %s : i32
  }
  %2 = tile.scan(%y) axis = 1 : (tensor<4x64xf32>) -> tensor<4x64xf32> {         // (4, 64)
  ^bb0(%acc: f32, %v: f32):
    %s = arith.addf %acc, %v : f32
    tile.yield %s : f32
  }
  %3 = tile.scan(%y) axis = 0 reverse {note = "t"} : (tensor<4x64xf32>) -> tensor<4x64xf32> {
  ^bb0(%acc: f32, %v: f32):
    %p = arith.mulf %acc, %v : f32
    tile.yield %p : f32
  }
  return
}

// A two-operand scan (e.g. a running max with its position).
// CHECK-LABEL: func.func @scan_two_operands
// CHECK-NEXT: %{{.*}}:2 = tile.scan(%{{.*}}, %{{.*}}) axis = 0 : (tensor<32xf32>, tensor<32xi32>) -> (tensor<32xf32>, tensor<32xi32>) {
// CHECK-NEXT: ^bb0(%{{.*}}: f32, %{{.*}}: i32, %{{.*}}: f32, %{{.*}}: i32):
func.func @scan_two_operands(%x: tensor<32xf32>, %i: tensor<32xi32>) {
  %r:2 = tile.scan(%x, %i) axis = 0 : (tensor<32xf32>, tensor<32xi32>) -> (tensor<32xf32>, tensor<32xi32>) {
  ^bb0(%av: f32, %ai: i32, %v: f32, %vi: i32):
    %gt = arith.cmpf ogt, %v, %av : f32
    %rv = arith.select %gt, %v, %av : f32
    %ri = arith.select %gt, %vi, %ai : i32
    tile.yield %rv, %ri : f32, i32
  }
  return
}
