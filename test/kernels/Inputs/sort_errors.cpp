// Misuse of sort, sort_with_indices, topk, split and join: each a trace-time error at the
// caller's line that names the fix (sort.test, topk.test and split-join.test check their
// prefix). This file is also FileCheck's check file: [[@LINE+1]] is the call's line.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int num_warps = 1; };
TESSEL_CONFIG(Config, num_warps)

void sort_12(const Config &c, Ptr<f32> x) {
  Tile<i32> r = arange(0, 12);                                          // (12)
  // SORT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: sort: the axis has 12 elements (shape [12], axis 0); the bitonic sort needs a power of two (a current limit): pad it to 16 with values that sort last (e.g. load with other = inf, or -inf for a descending sort or topk)
  store(x + r, sort(load(x + r)));
}
TESSEL_KERNEL(sort_12, ARGS(x), CONFIGS(Config{}))

void sort_axis0_of_6(const Config &c, Ptr<f32> x) {
  Tile<f32> t = reshape(load(x + arange(0, 48)), {6, 8});               // (6, 8)
  // SORT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: sort_with_indices: the axis has 6 elements (shape [6, 8], axis 0); the bitonic sort needs a power of two (a current limit): pad it to 8
  auto [v, i] = sort_with_indices(t, 0);
}
TESSEL_KERNEL(sort_axis0_of_6, ARGS(x), CONFIGS(Config{}))

void sort_bad_axis(const Config &c, Ptr<f32> x) {
  Tile<f32> t = reshape(load(x + arange(0, 32)), {4, 8});               // (4, 8)
  // SORT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: sort: axis 2 is out of range for a tile of shape [4, 8] (use -2..1)
  store(x + arange(0, 32), reshape(sort(t, 2), {32}));
}
TESSEL_KERNEL(sort_bad_axis, ARGS(x), CONFIGS(Config{}))

void sort_scalar(const Config &c, Ptr<f32> x) {
  // SORT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: sort of a scalar; it sorts along an axis of a tile
  store(x, sort(load(x)));
}
TESSEL_KERNEL(sort_scalar, ARGS(x), CONFIGS(Config{}))

void topk_k3(const Config &c, Ptr<f32> x) {
  // TOPK: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: topk: k = 3 must be a power of two (a current limit): take k = 4 and keep the first 3
  auto [v, i] = topk(load(x + arange(0, 16)), 3);
}
TESSEL_KERNEL(topk_k3, ARGS(x), CONFIGS(Config{}))

void topk_k32(const Config &c, Ptr<f32> x) {
  // TOPK: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: topk: k = 32 is larger than the axis length 16
  auto [v, i] = topk(load(x + arange(0, 16)), 32);
}
TESSEL_KERNEL(topk_k32, ARGS(x), CONFIGS(Config{}))

void topk_k0(const Config &c, Ptr<f32> x) {
  // TOPK: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: topk: k = 0 must be at least 1
  auto [v, i] = topk(load(x + arange(0, 16)), 0);
}
TESSEL_KERNEL(topk_k0, ARGS(x), CONFIGS(Config{}))

void topk_n24(const Config &c, Ptr<f32> x) {
  // TOPK: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: topk: the axis has 24 elements (shape [24], axis 0); the bitonic sort needs a power of two (a current limit): pad it to 32 with values that sort last
  auto [v, i] = topk(load(x + arange(0, 24)), 4);
}
TESSEL_KERNEL(topk_n24, ARGS(x), CONFIGS(Config{}))

void split_3(const Config &c, Ptr<f32> x) {
  Tile<f32> t = reshape(load(x + arange(0, 12)), {4, 3});               // (4, 3)
  // SPLIT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: split(x) needs a last dimension of 2, x is [4, 3]; reshape it to (..., 2) first (or build it with join(a, b))
  auto [a, b] = split(t);
}
TESSEL_KERNEL(split_3, ARGS(x), CONFIGS(Config{}))

void split_scalar(const Config &c, Ptr<f32> x) {
  // SPLIT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: split(x) of a scalar; x needs a last dimension of 2 (join(a, b) makes one)
  auto [a, b] = split(load(x));
}
TESSEL_KERNEL(split_scalar, ARGS(x), CONFIGS(Config{}))

void join_shapes(const Config &c, Ptr<f32> x) {
  Tile<f32> a = load(x + arange(0, 8)), b = load(x + arange(0, 4));     // (8), (4)
  // SPLIT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: join(a, b): a [8] and b [4] must have the same shape; broadcast_to one of them first
  Tile<f32> j = join(a, b);
}
TESSEL_KERNEL(join_shapes, ARGS(x), CONFIGS(Config{}))

void join_rank(const Config &c, Ptr<f32> x) {
  Tile<f32> a = reshape(load(x + arange(0, 16)), {2, 2, 2, 2});         // (2, 2, 2, 2)
  // SPLIT: sort_errors.cpp:[[@LINE+1]]:{{[0-9]+}}: error: join(a, b) of [2, 2, 2, 2] tiles would have rank 5; tiles have at most 4 dimensions (reshape them first)
  Tile<f32> j = join(a, a);
}
TESSEL_KERNEL(join_rank, ARGS(x), CONFIGS(Config{}))
