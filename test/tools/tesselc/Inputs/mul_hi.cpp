// Case C20: the high half of a 32x32-bit multiply as written in a kernel; tesselc's
// canonicalization turns it into arith.mulsi_extended.
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct MulHiConfig { int BLOCK = 4; int num_warps = 1; };
TESSEL_CONFIG(MulHiConfig, BLOCK, num_warps)
void mul_hi(const MulHiConfig &c, Ptr<i32> x, Ptr<i32> y, Ptr<i32> o) {
  Tile<i32> offs = arange(0, c.BLOCK);
  Tile<i32> a = load(x + offs), b = load(y + offs);
  store(o + offs, cast<i32>((cast<i64>(a) * cast<i64>(b)) >> 32));
}
TESSEL_KERNEL(mul_hi, ARGS(x, y, o), CONFIGS(MulHiConfig{}))
