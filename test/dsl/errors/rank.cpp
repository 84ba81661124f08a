// Rank and axis misuse: dot of the wrong rank or inner size, reduction axes out of range, a
// tile where a scalar is needed, grid axes, arange bounds, expand_dims and trans arguments.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void dot_rank(const C &c, Ptr<f16> a) {
  Tile<f16> x = load(a + arange(0, 64));         // (64)
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot needs rank-2 tiles, got a [64] and b [64]
  Tile<f32> d = dot(x, x);
}
TESSEL_KERNEL(dot_rank, ARGS(a), CONFIGS(C{}))

void dot_inner(const C &c, Ptr<f16> a) {
  Tile<f16> x = load(a + arange(0, 32)(_, None) * 16 + arange(0, 16)(None, _));  // (32, 16)
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: dot inner dimensions differ: a is [32, 16], b is [32, 16]
  Tile<f32> d = dot(x, x);
}
TESSEL_KERNEL(dot_inner, ARGS(a), CONFIGS(C{}))

void reduce_axis(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, 64));         // (64)
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: sum axis 1 is out of range for a tile of f32 [64]
  store(a, sum(x, 1));
}
TESSEL_KERNEL(reduce_axis, ARGS(a), CONFIGS(C{}))

void scalar_reduce(const C &c, Ptr<f32> a) {
  Float s = load(a);
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: max axis 0 is out of range for an f32 scalar; reductions and scans need a tile of rank >= 1
  store(a, max(s, 0));
}
TESSEL_KERNEL(scalar_reduce, ARGS(a), CONFIGS(C{}))

void not_a_scalar(const C &c, Ptr<f32> a) {
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: expected a scalar, got a tile of f32 [64]
  Float s = load(a + arange(0, 64));
}
TESSEL_KERNEL(not_a_scalar, ARGS(a), CONFIGS(C{}))

void grid_axis(const C &c, Ptr<f32> a) {
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: program_id axis must be 0, 1 or 2, got 3
  Int pid = program_id(3);
}
TESSEL_KERNEL(grid_axis, ARGS(a), CONFIGS(C{}))

void empty_arange(const C &c, Ptr<f32> a) {
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: arange(8, 8): start must be less than end
  Tile<i32> r = arange(8, 8);
}
TESSEL_KERNEL(empty_arange, ARGS(a), CONFIGS(C{}))

void expand_axis(const C &c, Ptr<f32> a) {
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: expand_dims axis 3 is out of range [0, 1] for a tile of i32 [64]
  Tile<i32> r = expand_dims(arange(0, 64), 3);
}
TESSEL_KERNEL(expand_axis, ARGS(a), CONFIGS(C{}))

void trans_order(const C &c, Ptr<f32> a) {
  Tile<i32> r = arange(0, 64)(_, None);          // (64, 1)
  // CHECK: rank.cpp:[[@LINE+1]]:{{[0-9]+}}: error: trans order {0, 0} is not a permutation of the 2 dimensions of a tile of i32 [64, 1]
  Tile<i32> t = trans(r, {0, 0});
}
TESSEL_KERNEL(trans_order, ARGS(a), CONFIGS(C{}))
// CHECK-NOT: error:
