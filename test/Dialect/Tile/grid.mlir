// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// tile.program_id and tile.num_programs on each grid axis.

// CHECK-LABEL: func.func @program_ids()
// CHECK-NEXT: %{{.*}} = tile.program_id 0{{$}}
// CHECK-NEXT: %{{.*}} = tile.program_id 1{{$}}
// CHECK-NEXT: %{{.*}} = tile.program_id 2{{$}}
// CHECK-NEXT: return %{{.*}}, %{{.*}}, %{{.*}} : i32, i32, i32
func.func @program_ids() -> (i32, i32, i32) {
  %x = tile.program_id 0
  %y = tile.program_id 1
  %z = tile.program_id 2
  return %x, %y, %z : i32, i32, i32
}

// CHECK-LABEL: func.func @num_programs()
// CHECK-NEXT: %{{.*}} = tile.num_programs 0{{$}}
// CHECK-NEXT: %{{.*}} = tile.num_programs 1{{$}}
// CHECK-NEXT: %{{.*}} = tile.num_programs 2{{$}}
func.func @num_programs() -> (i32, i32, i32) {
  %x = tile.num_programs 0
  %y = tile.num_programs 1
  %z = tile.num_programs 2
  return %x, %y, %z : i32, i32, i32
}

// A discardable attribute survives in the attribute dictionary.
// CHECK-LABEL: func.func @with_attr_dict()
// CHECK-NEXT: %{{.*}} = tile.program_id 1 {note = "row"}
func.func @with_attr_dict() -> i32 {
  %x = tile.program_id 1 {note = "row"}
  return %x : i32
}

// The usual first lines of a kernel: offsets of this program's block.
// CHECK-LABEL: func.func @block_start
// CHECK-NEXT: %[[PID:.*]] = tile.program_id 0
// CHECK-NEXT: %[[BLOCK:.*]] = arith.constant 128 : i32
// CHECK-NEXT: %{{.*}} = arith.muli %[[PID]], %[[BLOCK]] : i32
func.func @block_start() -> i32 {
  %pid = tile.program_id 0
  %c128 = arith.constant 128 : i32
  %start = arith.muli %pid, %c128 : i32
  return %start : i32
}
