// RUN: tessel-opt %s --convert-tile-gpu-to-llvm=target=hip:gfx942 --canonicalize | FileCheck %s

#b = #tile_gpu.blocked<{sizePerThread = [8], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>

// The zero constant disabled lanes of predicated loads read.
// CHECK: llvm.mlir.global internal constant @__tessel_amd_zero(dense<0> : tensor<16xi8>) {addr_space = 1 : i32, alignment = 16 : i64} : !llvm.array<16 x i8>

// Aligned, contiguous, unmasked: one 16-byte LLVM vector load and store per 8 bf16.
// CHECK-LABEL: llvm.func @plain
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK-NOT:     llvm.load
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<8xbf16>, !llvm.ptr<1>
func.func @plain(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<bf16> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = tile.arange 0, 2048 : tensor<2048xi32, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<2048x!tile.ptr<bf16>, #b>, tensor<2048xi32, #b>
  %v = tile.load %xp : tensor<2048x!tile.ptr<bf16>, #b>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>, #b>
  %op = tile.addptr %os, %c : tensor<2048x!tile.ptr<bf16>, #b>, tensor<2048xi32, #b>
  tile.store %op, %v : tensor<2048x!tile.ptr<bf16>, #b>
  return
}

// Masked with n a multiple of 8, branch-free: the load reads through `mask ? ptr : zero`
// (a 16-byte zero constant of the code object), keeps its 16-byte width, and `other` (1.0;
// one of zero would need no select: disabled lanes read the zeros) is selected into them.
// The store calls an always-inline helper whose branch the backend turns into an exec-masked
// region; cache = cs becomes !nontemporal.
// CHECK-LABEL: llvm.func @masked
// CHECK:         %[[ZERO:.*]] = llvm.mlir.addressof @__tessel_amd_zero : !llvm.ptr<1>
// CHECK:         %[[M:.*]] = llvm.icmp "slt"
// CHECK:         %[[A:.*]] = llvm.select %[[M]], %{{.*}}, %[[ZERO]] : i1, !llvm.ptr<1>
// CHECK:         llvm.load %[[A]] {alignment = 16 : i64} : !llvm.ptr<1> -> vector<8xbf16>
// CHECK-COUNT-8: llvm.select %[[M]]
// CHECK:         llvm.call @__tessel_amd_store_v8bf16_p1_a16_nt(%[[M]], %{{.*}}, %{{.*}}) : (i1, !llvm.ptr<1>, vector<8xbf16>) -> ()
func.func @masked(%x: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %o: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %n: i32 {tile.divisibility = 8 : i32}) attributes {tile.kernel} {
  %c = tile.arange 0, 2048 : tensor<2048xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<2048xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<2048xi32, #b>
  %one = arith.constant dense<1.0> : tensor<2048xbf16, #b>
  %xs = tile.splat %x : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>, #b>
  %xp = tile.addptr %xs, %c : tensor<2048x!tile.ptr<bf16>, #b>, tensor<2048xi32, #b>
  %v = tile.load %xp, %m, %one cache = cg : tensor<2048x!tile.ptr<bf16>, #b>
  %os = tile.splat %o : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>, #b>
  %op = tile.addptr %os, %c : tensor<2048x!tile.ptr<bf16>, #b>, tensor<2048xi32, #b>
  tile.store %op, %v, %m cache = cs : tensor<2048x!tile.ptr<bf16>, #b>
  return
}

// Unknown n: the mask may change at every element, so every access is one element.
// CHECK-LABEL: llvm.func @unaligned_mask
// CHECK-COUNT-8: llvm.load %{{.*}} {alignment = 2 : i64} : !llvm.ptr<1> -> f16
// CHECK-NOT:     llvm.load
func.func @unaligned_mask(%x: !tile.ptr<f16> {tile.divisibility = 16 : i32}, %n: i32) -> tensor<2048xf16, #b> {
  %c = tile.arange 0, 2048 : tensor<2048xi32, #b>
  %ns = tile.splat %n : i32 -> tensor<2048xi32, #b>
  %m = arith.cmpi slt, %c, %ns : tensor<2048xi32, #b>
  %xs = tile.splat %x : !tile.ptr<f16> -> tensor<2048x!tile.ptr<f16>, #b>
  %xp = tile.addptr %xs, %c : tensor<2048x!tile.ptr<f16>, #b>, tensor<2048xi32, #b>
  %v = tile.load %xp, %m : tensor<2048x!tile.ptr<f16>, #b>
  return %v : tensor<2048xf16, #b>
}

// Cache hints that LLVM 19 can express on AMDGPU: evict_first is !nontemporal (nt); cv and
// volatile are volatile accesses (sc0 sc1 on gfx942); ca / cg / wb / wt / evict_last have no
// spelling for global memory and leave a plain access.
#w = #tile_gpu.blocked<{sizePerThread = [4], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @hints
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64, nontemporal} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         llvm.load volatile %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         llvm.load volatile %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr<1> -> vector<4xf32>
// CHECK:         llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr<1>
func.func @hints(%x: !tile.ptr<f32> {tile.divisibility = 16 : i32}) attributes {tile.kernel} {
  %c = tile.arange 0, 1024 : tensor<1024xi32, #w>
  %xs = tile.splat %x : !tile.ptr<f32> -> tensor<1024x!tile.ptr<f32>, #w>
  %xp = tile.addptr %xs, %c : tensor<1024x!tile.ptr<f32>, #w>, tensor<1024xi32, #w>
  %a = tile.load %xp evict = evict_first : tensor<1024x!tile.ptr<f32>, #w>
  %b = tile.load %xp cache = cv : tensor<1024x!tile.ptr<f32>, #w>
  %d = tile.load %xp volatile : tensor<1024x!tile.ptr<f32>, #w>
  %e = tile.load %xp cache = ca evict = evict_last : tensor<1024x!tile.ptr<f32>, #w>
  %s0 = arith.addf %a, %b : tensor<1024xf32, #w>
  %s1 = arith.addf %d, %e : tensor<1024xf32, #w>
  %s = arith.addf %s0, %s1 : tensor<1024xf32, #w>
  tile.store %xp, %s cache = wb : tensor<1024x!tile.ptr<f32>, #w>
  return
}

// A scalar store is done by work-item 0 only, through the predicated helper.
// CHECK-LABEL: llvm.func @scalar_store
// CHECK:         %[[TID:.*]] = rocdl.workitem.id.x : i32
// CHECK:         %[[FIRST:.*]] = llvm.icmp "eq" %[[TID]], %{{.*}} : i32
// CHECK:         llvm.call @__tessel_amd_store_f32_p1_a4(%[[FIRST]], %{{.*}}, %{{.*}})
func.func @scalar_store(%o: !tile.ptr<f32>, %v: f32) attributes {tile.kernel} {
  tile.store %o, %v : !tile.ptr<f32>
  return
}

// A tile narrower than the layout is replicated; only owners store.
#r = #tile_gpu.blocked<{sizePerThread = [1], threadsPerWarp = [64], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: llvm.func @replicated_store
// CHECK:         %[[OWN:.*]] = llvm.icmp "ult" %{{.*}}, %{{.*}} : i32
// CHECK:         llvm.call @__tessel_amd_store_f32_p1_a4(%[[OWN]], %{{.*}}, %{{.*}})
func.func @replicated_store(%o: !tile.ptr<f32>) attributes {tile.kernel} {
  %c = tile.arange 0, 64 : tensor<64xi32, #r>
  %v = arith.sitofp %c : tensor<64xi32, #r> to tensor<64xf32, #r>
  %os = tile.splat %o : !tile.ptr<f32> -> tensor<64x!tile.ptr<f32>, #r>
  %op = tile.addptr %os, %c : tensor<64x!tile.ptr<f32>, #r>, tensor<64xi32, #r>
  tile.store %op, %v : tensor<64x!tile.ptr<f32>, #r>
  return
}

// tile.barrier: s_barrier alone orders nothing; HIP's __syncthreads brackets it with
// workgroup-scope release and acquire fences, which cover global memory.
// CHECK-LABEL: llvm.func @barrier
// CHECK:         llvm.call @__tessel_amd_store_f32_p1_a4
// CHECK-NEXT:    llvm.fence syncscope("workgroup") release
// CHECK-NEXT:    rocdl.s.barrier
// CHECK-NEXT:    llvm.fence syncscope("workgroup") acquire
// CHECK-NEXT:    llvm.load
func.func @barrier(%p: !tile.ptr<f32>, %x: f32) -> f32 {
  tile.store %p, %x : !tile.ptr<f32>
  tile.barrier
  %y = tile.load %p : !tile.ptr<f32>
  return %y : f32
}

// The predicated store helper of @masked: if (pred) store, with the access's hints.
// CHECK-LABEL: llvm.func internal @__tessel_amd_store_v8bf16_p1_a16_nt(
// CHECK-SAME:    %[[P:.*]]: i1, %[[PTR:.*]]: !llvm.ptr<1>, %[[V:.*]]: vector<8xbf16>)
// CHECK-SAME:    always_inline
// CHECK:         llvm.cond_br %[[P]], ^[[STORE:.*]], ^[[EXIT:.*]]
// CHECK:       ^[[STORE]]:
// CHECK:         llvm.store %[[V]], %[[PTR]] {alignment = 16 : i64, nontemporal} : vector<8xbf16>, !llvm.ptr<1>
// CHECK:         llvm.br ^[[EXIT]]
// CHECK:       ^[[EXIT]]:
// CHECK:         llvm.return
