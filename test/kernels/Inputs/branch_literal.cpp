// if_then_else branches returning plain literals: a scalar (either branch) and a tile (the
// else-branch), each taking the other branch's type and shape.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int num_warps = 1; };
TESSEL_CONFIG(Config, num_warps)

void branch_literal(const Config &c, Ptr<f32> x, Ptr<f32> out, Int n) {
  Tile<i32> r = arange(0, 4);                                           // (4)
  Tile<f32> v = load(x + r);                                            // (4)
  Float scale = if_then_else(n > 2, [&] { return 2.0; }, [&] { return Float(0.5); });
  Float bias = if_then_else(n > 5, [&] { return Float(10.0); }, [&] { return -1; });
  Tile<f32> t = if_then_else(n > 0, [&] { return v * scale + bias; }, [&] { return 7.0; });
  store(out + r, t);                                                    // (4)
}
TESSEL_KERNEL(branch_literal, ARGS(x, out, n), CONFIGS(Config{}))
