// Reductions and scans of a (4, 8, 16) tile along each axis, the leading one included.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config {
  int num_warps = 2;
};
TESSEL_CONFIG(Config, num_warps)

void reduce_3d(const Config &c, Ptr<f32> x, Ptr<f32> s0, Ptr<f32> s1, Ptr<f32> m2,
               Ptr<f32> c0) {
  Tile<i32> a = arange(0, 4), b = arange(0, 8), d = arange(0, 16);
  Tile<i32> offs = a(_, None, None) * 128 + b(None, _, None) * 16 + d(None, None, _); // (4, 8, 16)
  Tile<f32> v = load(x + offs);                                                        // (4, 8, 16)
  store(s0 + b(_, None) * 16 + d(None, _), sum(v, 0));                                 // (8, 16)
  store(s1 + a(_, None) * 16 + d(None, _), sum(v, 1));                                 // (4, 16)
  store(m2 + a(_, None) * 8 + b(None, _), max(v, 2));                                  // (4, 8)
  store(c0 + offs, cumsum(v, 0, /*reverse=*/true));                                    // (4, 8, 16)
}
TESSEL_KERNEL(reduce_3d, ARGS(x, s0, s1, m2, c0), CONFIGS(Config{}, Config{.num_warps = 4}))
