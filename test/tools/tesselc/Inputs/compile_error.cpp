#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void broken(const C &c, Ptr<f32> a) {
  Tile<f32> x = load(a + arange(0, c.BLOCK))   // missing semicolon
  store(a, x);
}
TESSEL_KERNEL(broken, ARGS(a), CONFIGS(C{}))
