// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// Round trip of !tile.ptr and !tile.block_ptr: every element type a tile may hold, the address
// space (global, 1, is the default and is elided), tiles of pointers and block pointers.

// CHECK-LABEL: func.func @float_pointees
// CHECK-SAME: (%{{.*}}: !tile.ptr<f16>, %{{.*}}: !tile.ptr<bf16>, %{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f64>, %{{.*}}: !tile.ptr<f8E4M3FN>, %{{.*}}: !tile.ptr<f8E5M2>)
func.func @float_pointees(%a: !tile.ptr<f16>, %b: !tile.ptr<bf16>, %c: !tile.ptr<f32>,
                          %d: !tile.ptr<f64>, %e: !tile.ptr<f8E4M3FN>, %f: !tile.ptr<f8E5M2>) {
  return
}

// CHECK-LABEL: func.func @int_pointees
// CHECK-SAME: (%{{.*}}: !tile.ptr<i1>, %{{.*}}: !tile.ptr<i8>, %{{.*}}: !tile.ptr<i16>, %{{.*}}: !tile.ptr<i32>, %{{.*}}: !tile.ptr<i64>)
func.func @int_pointees(%a: !tile.ptr<i1>, %b: !tile.ptr<i8>, %c: !tile.ptr<i16>,
                        %d: !tile.ptr<i32>, %e: !tile.ptr<i64>) {
  return
}

// The default address space 1 (global) is elided; others are printed.
// CHECK-LABEL: func.func @address_spaces
// CHECK-SAME: (%{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f32>, %{{.*}}: !tile.ptr<f32, 3>, %{{.*}}: !tile.ptr<i8, 0>, %{{.*}}: !tile.ptr<f16, 5>)
func.func @address_spaces(%a: !tile.ptr<f32>, %b: !tile.ptr<f32, 1>, %c: !tile.ptr<f32, 3>,
                          %d: !tile.ptr<i8, 0>, %e: !tile.ptr<f16, 5>) {
  return
}

// CHECK-LABEL: func.func @pointer_tiles
// CHECK-SAME: (%{{.*}}: tensor<128x!tile.ptr<f32>>, %{{.*}}: tensor<64x32x!tile.ptr<f16>>, %{{.*}}: tensor<16x!tile.ptr<bf16, 3>>, %{{.*}}: tensor<2x4x8x!tile.ptr<i8>>)
func.func @pointer_tiles(%a: tensor<128x!tile.ptr<f32>>, %b: tensor<64x32x!tile.ptr<f16>>,
                         %c: tensor<16x!tile.ptr<bf16, 3>>, %d: tensor<2x4x8x!tile.ptr<i8>>) {
  return
}

// CHECK-LABEL: func.func @block_pointers
// CHECK-SAME: (%{{.*}}: !tile.block_ptr<tensor<64x64xf16>>, %{{.*}}: !tile.block_ptr<tensor<128xf32>>, %{{.*}}: !tile.block_ptr<tensor<2x16x32xi8>>, %{{.*}}: !tile.block_ptr<tensor<32x64xf8E5M2>>)
func.func @block_pointers(%a: !tile.block_ptr<tensor<64x64xf16>>, %b: !tile.block_ptr<tensor<128xf32>>,
                          %c: !tile.block_ptr<tensor<2x16x32xi8>>,
                          %d: !tile.block_ptr<tensor<32x64xf8E5M2>>) {
  return
}

// Pointer types as results of a helper (non-kernel) function.
// CHECK-LABEL: func.func @helper_returns
// CHECK-SAME: -> (!tile.ptr<f32, 3>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xf32>>)
// CHECK-NEXT: return %{{.*}}, %{{.*}}, %{{.*}} : !tile.ptr<f32, 3>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xf32>>
func.func @helper_returns(%a: !tile.ptr<f32, 3>, %b: tensor<8x!tile.ptr<f32>>,
                          %c: !tile.block_ptr<tensor<8x8xf32>>)
    -> (!tile.ptr<f32, 3>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xf32>>) {
  return %a, %b, %c : !tile.ptr<f32, 3>, tensor<8x!tile.ptr<f32>>, !tile.block_ptr<tensor<8x8xf32>>
}
