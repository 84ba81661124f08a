// Reductions over every axis of a (2, 4) tile: sum (bf16 accumulated in f32), max and min.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int num_warps = 1; };
TESSEL_CONFIG(Config, num_warps)

void reduce_all(const Config &c, Ptr<bf16> x, Ptr<f32> s, Ptr<bf16> hi, Ptr<bf16> lo) {
  Tile<i32> r = arange(0, 2), k = arange(0, 4);
  Tile<bf16> v = load(x + r(_, None) * 4 + k(None, _));                 // (2, 4)
  store(s, sum(v));
  store(hi, max(v));
  store(lo, min(v));
}
TESSEL_KERNEL(reduce_all, ARGS(x, s, hi, lo), CONFIGS(Config{}))
