// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --tile-strip-device-asserts | FileCheck %s --check-prefix=STRIP

// tile.print (tiles of one shape and scalars, hex, no operands) and tile.assert (a tile and a
// scalar condition); tile-strip-device-asserts removes the asserts and keeps the prints.

// CHECK-LABEL: func.func @debug
// CHECK-SAME: (%[[X:.*]]: tensor<4xf32>, %[[I:.*]]: tensor<4xi32>, %[[C:.*]]: tensor<4xi1>, %[[S:.*]]: i64, %[[B:.*]]: i1)
// CHECK-NEXT: tile.print "x = " %[[X]], %[[I]], %[[S]] : tensor<4xf32>, tensor<4xi32>, i64
// CHECK-NEXT: tile.print "s" %[[S]] hex : i64
// CHECK-NEXT: tile.print "here"
// CHECK-NEXT: tile.assert %[[C]], "x in range" : tensor<4xi1>
// CHECK-NEXT: tile.assert %[[B]], "scalar" : i1
// STRIP-LABEL: func.func @debug
// STRIP-COUNT-3: tile.print
// STRIP-NOT: tile.assert
func.func @debug(%x: tensor<4xf32>, %i: tensor<4xi32>, %c: tensor<4xi1>, %s: i64, %b: i1) {
  tile.print "x = " %x, %i, %s : tensor<4xf32>, tensor<4xi32>, i64
  tile.print "s" %s hex : i64
  tile.print "here"
  tile.assert %c, "x in range" : tensor<4xi1>
  tile.assert %b, "scalar" : i1
  return
}
