// Block pointers: make_block_ptr, advance, loads with a boundary check and padding, stores.
// RUN: tesselc %s -o - | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BM = 64; int BK = 32; };
TESSEL_CONFIG(Config, BM, BK)

void block_ptrs(const Config &c, Ptr<f16> a, Ptr<f16> out, Int M, Int K, Int stride) {
  Int pid = program_id(0);
  BlockPtr<f16> bp = make_block_ptr(a, {M, K}, {stride, 1}, {pid * c.BM, 0}, {c.BM, c.BK}, {1, 0});
  Tile<f16> t = load(bp, {0, 1}, Padding::zero);  // (BM, BK)
  bp = advance(bp, {0, c.BK});
  t = t + load(bp);                               // (BM, BK)
  BlockPtr<f16> ob = make_block_ptr(out, {M, K}, {stride, 1}, {pid * c.BM, 0}, {c.BM, c.BK}, {1, 0});
  store(ob, t, {0});
}
TESSEL_KERNEL(block_ptrs, ARGS(a, out, M, K, stride), CONFIGS(Config{}))

// CHECK-LABEL: func.func @block_ptrs__BM_64__BK_32(
// CHECK:       %[[OFF:.*]] = arith.muli %{{.*}}, %c64_i64 : i64
// CHECK:       %[[BP:.*]] = tile.make_block_ptr %arg0, [%arg2, %arg3], [%arg4, %c1_i64], [%[[OFF]], %c0_i64] {order = array<i32: 1, 0>} : !tile.ptr<f16> -> !tile.block_ptr<tensor<64x32xf16>>
// CHECK:       %[[A:.*]] = tile.load %[[BP]] boundary_check = [0, 1] padding = zero : !tile.block_ptr<tensor<64x32xf16>>
// CHECK:       %[[NEXT:.*]] = tile.advance %[[BP]], [%c0_i64, %c32_i64] : !tile.block_ptr<tensor<64x32xf16>>
// CHECK:       %[[B:.*]] = tile.load %[[NEXT]] : !tile.block_ptr<tensor<64x32xf16>>
// CHECK:       %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : tensor<64x32xf16>
// CHECK:       %[[OB:.*]] = tile.make_block_ptr %arg1
// CHECK:       tile.store %[[OB]], %[[SUM]] boundary_check = [0] : !tile.block_ptr<tensor<64x32xf16>>
