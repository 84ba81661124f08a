// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// The dialect's discardable attributes (lib/Dialect/Tile/IR/TileDialect.cpp): the kernel
// signature, tile.num_warps, tile.num_stages, tile.target, tile.divisibility and unknown names.

//===----------------------------------------------------------------------===//
// tile.kernel
//===----------------------------------------------------------------------===//

// expected-error @+1 {{'builtin.module' op 'tile.kernel' may only be set on a func.func}}
module attributes {tile.kernel} {
}

// -----

// The marker stays on the llvm.func a kernel lowers to.
llvm.func @llvm_kernel() attributes {tile.kernel} {
  llvm.return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.kernel' must be a unit attribute}}
func.func @kernel_not_unit() attributes {tile.kernel = true} {
  return
}

// -----

// expected-error @+1 {{'func.func' op kernel must not return values; write results through pointers}}
func.func @kernel_returns(%x: f32) -> f32 attributes {tile.kernel} {
  return %x : f32
}

// -----

// expected-error @+1 {{'func.func' op kernel argument #1 has type 'tensor<128xf32>'; kernel arguments are !tile.ptr pointers and scalars}}
func.func @kernel_tile_argument(%p: !tile.ptr<f32>, %x: tensor<128xf32>) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'func.func' op kernel argument #0 has type 'tensor<8x!tile.ptr<f32>>'; kernel arguments are !tile.ptr pointers and scalars}}
func.func @kernel_pointer_tile_argument(%p: tensor<8x!tile.ptr<f32>>) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'func.func' op kernel argument #0 has type '!tile.block_ptr<tensor<8x8xf16>>'; kernel arguments are !tile.ptr pointers and scalars}}
func.func @kernel_block_ptr_argument(%p: !tile.block_ptr<tensor<8x8xf16>>) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'func.func' op kernel argument #2 has type 'index'; kernel arguments are !tile.ptr pointers and scalars}}
func.func @kernel_index_argument(%p: !tile.ptr<f32>, %n: i32, %i: index) attributes {tile.kernel} {
  return
}

//===----------------------------------------------------------------------===//
// tile.num_warps and tile.num_stages
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got 3 : i32}}
func.func @num_warps_not_power_of_two() attributes {tile.kernel, tile.num_warps = 3 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got 64 : i32}}
func.func @num_warps_too_large() attributes {tile.kernel, tile.num_warps = 64 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got 0 : i32}}
func.func @num_warps_zero() attributes {tile.kernel, tile.num_warps = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got -4 : i32}}
func.func @num_warps_negative() attributes {tile.kernel, tile.num_warps = -4 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got 4 : i64}}
func.func @num_warps_i64() attributes {tile.kernel, tile.num_warps = 4 : i64} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got 4 : si32}}
func.func @num_warps_signed() attributes {tile.kernel, tile.num_warps = 4 : si32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_warps' must be an i32 power of two in [1, 32], got "4"}}
func.func @num_warps_string() attributes {tile.kernel, tile.num_warps = "4"} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_stages' must be a positive i32, got 0 : i32}}
func.func @num_stages_zero() attributes {tile.kernel, tile.num_stages = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_stages' must be a positive i32, got -1 : i32}}
func.func @num_stages_negative() attributes {tile.kernel, tile.num_stages = -1 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_stages' must be a positive i32, got 2 : i64}}
func.func @num_stages_i64() attributes {tile.kernel, tile.num_stages = 2 : i64} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.num_stages' must be a positive i32, got 2 : ui32}}
func.func @num_stages_unsigned() attributes {tile.kernel, tile.num_stages = 2 : ui32} {
  return
}

//===----------------------------------------------------------------------===//
// tile.target
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'func.func' op 'tile.target' belongs on a builtin.module, not on this op}}
func.func @target_on_func() attributes {tile.target = "cuda:sm_90a"} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.target' must be a string, got 90 : i32}}
module attributes {tile.target = 90 : i32} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.target' must be 'interpreter', 'cuda:<arch>' or 'hip:<arch>', got 'sm_90a'}}
module attributes {tile.target = "sm_90a"} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.target' must be 'interpreter', 'cuda:<arch>' or 'hip:<arch>', got 'cuda:'}}
module attributes {tile.target = "cuda:"} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.target' must be 'interpreter', 'cuda:<arch>' or 'hip:<arch>', got 'hip:'}}
module attributes {tile.target = "hip:"} {
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.target' must be 'interpreter', 'cuda:<arch>' or 'hip:<arch>', got 'CUDA:sm_80'}}
module attributes {tile.target = "CUDA:sm_80"} {
}

//===----------------------------------------------------------------------===//
// Unknown attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'func.func' op unknown tile dialect attribute 'tile.numwarps'}}
func.func @unknown_attr() attributes {tile.kernel, tile.numwarps = 4 : i32} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op unknown tile dialect attribute 'tile.arch'}}
module attributes {tile.arch = "sm_90a"} {
}

//===----------------------------------------------------------------------===//
// tile.divisibility and other argument attributes
//===----------------------------------------------------------------------===//

// -----

// expected-error @+1 {{'func.func' op unknown tile dialect argument attribute 'tile.align'}}
func.func @unknown_arg_attr(%p: !tile.ptr<f32> {tile.align = 16 : i32}) attributes {tile.kernel} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.divisibility' of argument #1 must be an i32 power of two, got 12 : i32}}
func.func @divisibility_not_power_of_two(%p: !tile.ptr<f32>, %n: i32 {tile.divisibility = 12 : i32}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.divisibility' of argument #0 must be an i32 power of two, got 0 : i32}}
func.func @divisibility_zero(%p: !tile.ptr<f32> {tile.divisibility = 0 : i32}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.divisibility' of argument #0 must be an i32 power of two, got 16 : i64}}
func.func @divisibility_i64(%p: !tile.ptr<f32> {tile.divisibility = 16 : i64}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.divisibility' of argument #0 must be an i32 power of two, got true}}
func.func @divisibility_bool(%p: !tile.ptr<f32> {tile.divisibility = true}) {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.divisibility' applies to pointer and integer arguments, not argument #1 of type 'f32'}}
func.func @divisibility_float(%p: !tile.ptr<f32>, %x: f32 {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  return
}

// -----

// A declaration has no entry block; the argument's type comes from the signature (this used to
// crash the verifier).
// expected-error @+1 {{'func.func' op 'tile.divisibility' applies to pointer and integer arguments, not argument #0 of type 'f16'}}
func.func private @divisibility_declaration(f16 {tile.divisibility = 16 : i32})

// -----

// expected-error @+1 {{'func.func' op 'tile.cluster_size' must be a positive i32, got 0 : i32}}
func.func @cluster_size_zero() attributes {tile.cluster_size = 0 : i32} {
  return
}

// -----

// expected-error @+1 {{'func.func' op 'tile.fp_fusion' belongs on a builtin.module, not on this op}}
func.func @fp_fusion_on_func() attributes {tile.fp_fusion = false} {
  return
}

// -----

// expected-error @+1 {{'builtin.module' op 'tile.fp_fusion' must be a bool, got 0 : i32}}
module attributes {tile.fp_fusion = 0 : i32} {
}
