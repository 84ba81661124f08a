// pow and clamp on f32 and bf16 tiles: out = pow(x, y), lim = clamp(x, -1.0, 2.0).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 8; int num_warps = 1; };
TESSEL_CONFIG(Config, BLOCK, num_warps)

template <class T>
void pow_clamp(const Config &c, Ptr<T> x, Ptr<T> y, Ptr<T> out, Ptr<T> lim) {
  Tile<i32> r = arange(0, c.BLOCK);                                     // (BLOCK)
  Tile<T> xv = load(x + r);                                             // (BLOCK)
  store(out + r, cast<T>(pow(cast<f32>(xv), cast<f32>(load(y + r)))));
  store(lim + r, clamp(xv, -1.0, 2.0));
}
TESSEL_KERNEL(pow_clamp, DTYPES(f32, bf16), ARGS(x, y, out, lim), CONFIGS(Config{}))
