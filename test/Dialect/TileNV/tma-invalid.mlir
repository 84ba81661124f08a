// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// The barrier and bulk-copy verifiers: a barrier is one i64; a copy reads its map through a
// generic pointer (the maps are a kernel parameter); its box has one coordinate per dimension and lands in a placement TMA swizzles (rows of 32, 64 or 128 bytes, at most
// 256 of them). Each case breaks one rule.

#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @barrier_of_two(%bar: !tile_gpu.memdesc<2xi64, #b>) {
  // expected-error @below {{barrier must be one i64 in shared memory}}
  tile_nv.init_barrier %bar, 1 : !tile_gpu.memdesc<2xi64, #b>
  return
}

// -----

#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @no_arrivals(%bar: !tile_gpu.memdesc<1xi64, #b>) {
  // expected-error @below {{expects at least one arrival}}
  tile_nv.init_barrier %bar, 0 : !tile_gpu.memdesc<1xi64, #b>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @one_coordinate(%maps: !tile.ptr<i8, 0>, %dst: !tile_gpu.memdesc<128x64xbf16, #s>, %bar: !tile_gpu.memdesc<1xi64, #b>, %x: i32, %p: i1) {
  // expected-error @below {{expects one coordinate per dimension of the box}}
  tile_nv.async_tma_copy_global_to_local %maps[0] [%x] %dst, %bar, %p : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @software_swizzle(%maps: !tile.ptr<i8, 0>, %dst: !tile_gpu.memdesc<128x64xbf16, #s>, %bar: !tile_gpu.memdesc<1xi64, #b>, %x: i32, %p: i1) {
  // expected-error @below {{destination must be a 2-D tile in a hardware-swizzled placement}}
  tile_nv.async_tma_copy_global_to_local %maps[0] [%x, %x] %dst, %bar, %p : !tile.ptr<i8, 0>, !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @too_many_rows(%maps: !tile.ptr<i8, 0>, %dst: !tile_gpu.memdesc<512x64xbf16, #s>, %bar: !tile_gpu.memdesc<1xi64, #b>, %x: i32, %p: i1) {
  // expected-error @below {{a box has at most 256 rows, not 512}}
  tile_nv.async_tma_copy_global_to_local %maps[0] [%x, %x] %dst, %bar, %p : !tile.ptr<i8, 0>, !tile_gpu.memdesc<512x64xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @maps_in_global_memory(%maps: !tile.ptr<i8>, %dst: !tile_gpu.memdesc<128x64xbf16, #s>, %bar: !tile_gpu.memdesc<1xi64, #b>, %x: i32, %p: i1) {
  // expected-error @below {{expects the kernel's tensor maps as !tile.ptr<i8, 0> (a generic pointer: the maps are a kernel parameter), not '!tile.ptr<i8>'}}
  tile_nv.async_tma_copy_global_to_local %maps[0] [%x, %x] %dst, %bar, %p : !tile.ptr<i8>, !tile_gpu.memdesc<128x64xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  return
}

// -----

// Each CTA of a pair copies half of the box's rows: halves of 4 rows would split a swizzle
// pattern (8 rows).
#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
#b = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @multicast_rows(%maps: !tile.ptr<i8, 0>, %dst: !tile_gpu.memdesc<8x64xbf16, #s>, %bar: !tile_gpu.memdesc<1xi64, #b>, %x: i32, %p: i1) {
  // expected-error @below {{a multicast box is split in two halves of whole 8-row swizzle patterns: its 8 rows are not a multiple of 16}}
  tile_nv.async_tma_copy_global_to_local %maps[0] [%x, %x] %dst, %bar, %p multicast %p map 1 : !tile.ptr<i8, 0>, !tile_gpu.memdesc<8x64xbf16, #s>, !tile_gpu.memdesc<1xi64, #b>
  return
}

// -----

// The store's source follows the same rules as a copy's destination.
#p = #tile_gpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 0}>
func.func @store_unswizzled(%maps: !tile.ptr<i8, 0>, %src: !tile_gpu.memdesc<64x64xbf16, #p>, %x: i32, %y: i32) {
  // expected-error @below {{source must be a 2-D tile in a hardware-swizzled placement}}
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %src : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x64xbf16, #p>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @store_too_many_rows(%maps: !tile.ptr<i8, 0>, %src: !tile_gpu.memdesc<512x64xbf16, #s>, %x: i32, %y: i32) {
  // expected-error @below {{a box has at most 256 rows, not 512}}
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %src : !tile.ptr<i8, 0>, !tile_gpu.memdesc<512x64xbf16, #s>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @store_generic_maps(%maps: !tile.ptr<i8, 1>, %src: !tile_gpu.memdesc<64x64xbf16, #s>, %x: i32, %y: i32) {
  // expected-error @below {{expects the kernel's tensor maps as !tile.ptr<i8, 0>}}
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %src : !tile.ptr<i8, 1>, !tile_gpu.memdesc<64x64xbf16, #s>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @store_partial_atom(%maps: !tile.ptr<i8, 0>, %src: !tile_gpu.memdesc<4x64xbf16, #s>, %x: i32, %y: i32) {
  // expected-error @below {{copies whole 8-row swizzle atoms: 4 rows are not a multiple of 8}}
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %src : !tile.ptr<i8, 0>, !tile_gpu.memdesc<4x64xbf16, #s>
  return
}

// -----

#s = #tile_gpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, blockCols = 64}>
func.func @store_partial_block(%maps: !tile.ptr<i8, 0>, %src: !tile_gpu.memdesc<64x96xbf16, #s>, %x: i32, %y: i32) {
  // expected-error @below {{copies whole column blocks of 64 elements: 96 columns are not a multiple}}
  tile_nv.async_tma_copy_local_to_global %maps[0] [%x, %y] %src : !tile.ptr<i8, 0>, !tile_gpu.memdesc<64x96xbf16, #s>
  return
}
