// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=cuda:sm_90a --canonicalize | FileCheck %s

#b = #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Aligned, contiguous, unmasked: one 16-byte LLVM vector load and store per 8 bf16.
// CHECK-LABEL: llvm.func @plain
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK-NOT:     llvm.load
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
func.func @plain(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  %v = tile.load %xp : tensor<1024x!tile.ptr<bf16>, #b>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %op = tile.addptr %os, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  tile.store %op, %v : tensor<1024x!tile.ptr<bf16>, #b>
  return
}

// Masked with n a multiple of 8: predicated 16-byte PTX accesses. The load zeroes its
// registers first, so that ptxas does not keep them live from the entry; masked lanes then
// read zero, so an `other` of zero needs no select.
// CHECK-LABEL: llvm.func @masked
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "mov.b32 $0, 0;\0A\09mov.b32 $1, 0;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 0;\0A\09@$5 ld.global.cg.v4.b32 {$0, $1, $2, $3}, [ $4 ];", "=r,=r,=r,=r,l,b"
// CHECK-NOT:     llvm.select
// CHECK:         llvm.inline_asm has_side_effects asm_dialect = att "@$0 st.global.cs.v4.b32 [ $1 ], {$2, $3, $4, $5};", "b,l,r,r,r,r"
func.func @masked(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 8 : i32}) attributes {tile.kernel} {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  %zero = arith.constant dense<0.0> : tensor<1024xbf16, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  %v = tile.load %xp, %m, %zero cache = cg : tensor<1024x!tile.ptr<bf16>, #b>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %op = tile.addptr %os, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  tile.store %op, %v, %m cache = cs : tensor<1024x!tile.ptr<bf16>, #b>
  return
}

// Any other constant `other` is what the registers are set to before the load (here 1.0 =
// 0x3F80 and -0.0 = 0x8000, two bf16 a word): no select. -inf before a max is the common case.
// CHECK-LABEL: llvm.func @masked_other
// CHECK-NOT:     llvm.select
// CHECK:         "mov.b32 $0, 1065369472;\0A\09mov.b32 $1, 1065369472;\0A\09mov.b32 $2, 1065369472;\0A\09mov.b32 $3, 1065369472;\0A\09@$5 ld.global.v4.b32
// CHECK-NOT:     llvm.select
// CHECK:         "mov.b32 $0, 2147516416;\0A\09mov.b32 $1, 2147516416;\0A\09mov.b32 $2, 2147516416;\0A\09mov.b32 $3, 2147516416;\0A\09@$5 ld.global.v4.b32
// CHECK-NOT:     llvm.select
// CHECK:         llvm.return
func.func @masked_other(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 8 : i32}) -> (tensor<1024xbf16, #b>, tensor<1024xbf16, #b>) {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  %one = arith.constant dense<1.0> : tensor<1024xbf16, #b>
  %negzero = arith.constant dense<-0.0> : tensor<1024xbf16, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  %v = tile.load %xp, %m, %one : tensor<1024x!tile.ptr<bf16>, #b>
  %w = tile.load %xp, %m, %negzero : tensor<1024x!tile.ptr<bf16>, #b>
  return %v, %w : tensor<1024xbf16, #b>, tensor<1024xbf16, #b>
}

// An `other` known only at run time takes a select per element; 64-bit elements split their
// fill over two words (-inf in f64: 0xFFF00000_00000000, low word first).
// CHECK-LABEL: llvm.func @masked_other_runtime
// CHECK:         ld.global.v4.b32
// CHECK-COUNT-8: llvm.select
// CHECK-LABEL: llvm.func @masked_other_f64
// CHECK:         "mov.b32 $0, 0;\0A\09mov.b32 $1, 4293918720;\0A\09mov.b32 $2, 0;\0A\09mov.b32 $3, 4293918720;\0A\09@$5 ld.global.v4.b32
// CHECK-NOT:     llvm.select
func.func @masked_other_runtime(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 8 : i32}, %o: bf16) -> tensor<1024xbf16, #b> {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  %os = tile.splat %o : bf16 -> tensor<1024xbf16, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  %v = tile.load %xp, %m, %os : tensor<1024x!tile.ptr<bf16>, #b>
  return %v : tensor<1024xbf16, #b>
}
#b2 = #tile_gpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @masked_other_f64(%x: !tile.ptr<f64> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 8 : i32}) -> tensor<256xf64, #b2> {
  %c = tile.arange 0, 256 : tensor<256xi32, #b2>
  %ns = tile.splat %n : i32 -> tensor<256xi32, #b2>
  %m = arith.cmpi slt, %c, %ns : tensor<256xi32, #b2>
  %ninf = arith.constant dense<0xFFF0000000000000> : tensor<256xf64, #b2>
  %xs = tile.splat %x : !tile.ptr<f64> -> tensor<256x!tile.ptr<f64>, #b2>
  %xp = tile.addptr %xs, %c : tensor<256x!tile.ptr<f64>, #b2>, tensor<256xi32, #b2>
  %v = tile.load %xp, %m, %ninf : tensor<256x!tile.ptr<f64>, #b2>
  return %v : tensor<256xf64, #b2>
}

// An eviction priority is an L1 one and an L2 one: the L2 priority is a cache policy made by
// createpolicy in the same asm (PTX has `.L2::evict_*` alone only for 256-bit accesses).
// CHECK-LABEL: llvm.func @evict
// CHECK:         "{ .reg .b64 pol;\0A\09createpolicy.fractional.L2::evict_last.b64 pol, 1.0;\0A\09ld.global.L1::evict_last.L2::cache_hint.v4.b32 {$0, $1, $2, $3}, [ $4 ], pol;\0A\09}", "=r,=r,=r,=r,l"
// CHECK:         "{ .reg .b64 pol;\0A\09createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\0A\09@$0 st.global.cs.L2::cache_hint.v4.b32 [ $1 ], {$2, $3, $4, $5}, pol;\0A\09}", "b,l,r,r,r,r"
func.func @evict(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 8 : i32}) attributes {tile.kernel} {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  %v = tile.load %xp evict = evict_last : tensor<1024x!tile.ptr<bf16>, #b>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<1024x!tile.ptr<bf16>, #b>
  %op = tile.addptr %os, %c : tensor<1024x!tile.ptr<bf16>, #b>, tensor<1024xi32, #b>
  tile.store %op, %v, %m cache = cs evict = evict_first : tensor<1024x!tile.ptr<bf16>, #b>
  return
}

// Unknown n: the mask may change at every element, so every access is one element.
// CHECK-LABEL: llvm.func @unaligned_mask
// CHECK-COUNT-8: ld.global.b16
// CHECK-NOT:     ld.global
func.func @unaligned_mask(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<1024xf16, #b> {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<1024xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<1024xi32, #b>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<1024x!tile.ptr<f16>, #b>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<f16>, #b>, tensor<1024xi32, #b>
  %v = tile.load %xp, %m : tensor<1024x!tile.ptr<f16>, #b>
  return %v : tensor<1024xf16, #b>
}

// A scalar store is done by thread 0 only.
// CHECK-LABEL: llvm.func @scalar_store
// CHECK:         %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK:         %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
// CHECK:         "@$0 st.global.b32 [ $1 ], $2;", "b,l,r" %[[FIRST]]
func.func @scalar_store(%o: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
  tile.store %o, %v : !tile.ptr<f32>
  return
}

// A tile narrower than the layout is replicated; only owners store.
#w = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @replicated_store
// CHECK:         llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK:         "@$0 st.global.b32 [ $1 ], $2;"
func.func @replicated_store(%o: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = tile.arange 0, 64 : tensor<64xi32, #w>
  %v = arith.sitofp %c : tensor<64xi32, #w> to tensor<64xf32, #w>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #w>
  %op = tile.addptr %os, %c : tensor<64x!tile.ptr<f32>, #w>, tensor<64xi32, #w>
  tile.store %op, %v : tensor<64x!tile.ptr<f32>, #w>
  return
}

// tile.barrier: __syncthreads (bar.sync 0), which orders the program's global accesses too:
// thread 0's scalar store, then every thread's load.
// CHECK-LABEL: llvm.func @barrier
// CHECK:         "@$0 st.global.b32 [ $1 ], $2;"
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    llvm.load
func.func @barrier(%p: !tile.ptr<f32>, %x: f32) -> f32 {
  tile.store %p, %x : !tile.ptr<f32>
  tile.barrier
  %y = tile.load %p : !tile.ptr<f32>
  return %y : f32
}
