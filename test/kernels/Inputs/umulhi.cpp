// umulhi: the high 32 bits of the unsigned 64-bit product of i32 tiles (Philox's mulhi).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int num_warps = 1; };
TESSEL_CONFIG(Config, num_warps)

void mulhi(const Config &c, Ptr<i32> a, Ptr<i32> b, Ptr<i32> out) {
  Tile<i32> r = arange(0, 8);                                           // (8)
  store(out + r, umulhi(load(a + r), load(b + r)));
}
TESSEL_KERNEL(mulhi, ARGS(a, b, out), CONFIGS(Config{}))
