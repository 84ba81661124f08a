// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --mlir-print-op-generic | tessel-opt | FileCheck %s
// RUN: tessel-opt %s --emit-bytecode | tessel-opt | FileCheck %s

// The dialect's discardable attributes: tile.kernel, tile.num_warps and tile.num_stages on a
// kernel, tile.target on the module, tile.divisibility on kernel arguments.

// CHECK: module attributes {tile.target = "cuda:sm_90a"} {
module attributes {tile.target = "cuda:sm_90a"} {

// CHECK-LABEL: func.func @kernel
// CHECK-SAME: (%{{.*}}: !tile.ptr<f32>, %{{.*}}: i32, %{{.*}}: f32) attributes {tile.kernel} {
func.func @kernel(%p: !tile.ptr<f32>, %n: i32, %x: f32) attributes {tile.kernel} {
  return
}

// CHECK-LABEL: func.func @configured
// CHECK-SAME: attributes {tile.kernel, tile.num_stages = 3 : i32, tile.num_warps = 8 : i32}
func.func @configured(%p: !tile.ptr<bf16>) attributes {tile.kernel, tile.num_warps = 8 : i32, tile.num_stages = 3 : i32} {
  return
}

// Every legal num_warps value; num_stages has no upper bound.
// CHECK-LABEL: func.func @warps1
// CHECK-SAME: attributes {tile.kernel, tile.num_stages = 1 : i32, tile.num_warps = 1 : i32}
func.func @warps1() attributes {tile.kernel, tile.num_warps = 1 : i32, tile.num_stages = 1 : i32} { return }
// CHECK-LABEL: func.func @warps2
// CHECK-SAME: attributes {tile.kernel, tile.num_warps = 2 : i32}
func.func @warps2() attributes {tile.kernel, tile.num_warps = 2 : i32} { return }
// CHECK-LABEL: func.func @warps4
// CHECK-SAME: attributes {tile.kernel, tile.num_warps = 4 : i32}
func.func @warps4() attributes {tile.kernel, tile.num_warps = 4 : i32} { return }
// CHECK-LABEL: func.func @warps16
// CHECK-SAME: attributes {tile.kernel, tile.num_stages = 7 : i32, tile.num_warps = 16 : i32}
func.func @warps16() attributes {tile.kernel, tile.num_warps = 16 : i32, tile.num_stages = 7 : i32} { return }
// CHECK-LABEL: func.func @warps32
// CHECK-SAME: attributes {tile.kernel, tile.num_warps = 32 : i32}
func.func @warps32() attributes {tile.kernel, tile.num_warps = 32 : i32} { return }

// tile.divisibility on pointer and integer arguments (i32 and i64).
// CHECK-LABEL: func.func @divisibility
// CHECK-SAME: (%{{.*}}: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %{{.*}}: !tile.ptr<f16, 3> {tile.divisibility = 128 : i32}, %{{.*}}: i32 {tile.divisibility = 8 : i32}, %{{.*}}: i64 {tile.divisibility = 1 : i32}, %{{.*}}: f32)
// CHECK-SAME: attributes {tile.kernel}
func.func @divisibility(%a: !tile.ptr<f16> {tile.divisibility = 16 : i32},
                        %b: !tile.ptr<f16, 3> {tile.divisibility = 128 : i32},
                        %n: i32 {tile.divisibility = 8 : i32}, %m: i64 {tile.divisibility = 1 : i32},
                        %x: f32) attributes {tile.kernel} {
  return
}

// A declaration (no body) may carry argument attributes too: an external kernel's signature.
// CHECK-LABEL: func.func private @declared
// CHECK-SAME: (!tile.ptr<f32> {tile.divisibility = 16 : i32}, i32 {tile.divisibility = 4 : i32})
// CHECK-SAME: attributes {tile.kernel}
func.func private @declared(!tile.ptr<f32> {tile.divisibility = 16 : i32}, i32 {tile.divisibility = 4 : i32})
    attributes {tile.kernel}

// A helper that is not a kernel may take and return tiles; it is inlined into kernels.
// CHECK-LABEL: func.func @helper
// CHECK-SAME: (%{{.*}}: tensor<128xf32>) -> tensor<128xf32> {
// CHECK-NOT: tile.kernel
func.func @helper(%x: tensor<128xf32>) -> tensor<128xf32> {
  return %x : tensor<128xf32>
}

}

// Every accepted target spelling, one module each (nested modules keep them in one file).
// CHECK-LABEL: module @targets
// CHECK: module @interp attributes {tile.target = "interpreter"}
// CHECK: module @sm80 attributes {tile.target = "cuda:sm_80"}
// CHECK: module @gfx90a attributes {tile.target = "hip:gfx90a"}
// CHECK: module @gfx942 attributes {tile.target = "hip:gfx942"}
module @targets {
  module @interp attributes {tile.target = "interpreter"} {}
  module @sm80 attributes {tile.target = "cuda:sm_80"} {}
  module @gfx90a attributes {tile.target = "hip:gfx90a"} {}
  module @gfx942 attributes {tile.target = "hip:gfx942"} {}
}
