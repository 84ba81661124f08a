// Forms of tile.dot outside a K loop: no accumulator (zeros), a chained dot whose f32 result,
// cast to f16, feeds the next one (as attention does), and a 16x16 tile.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct DotConfig { int num_warps = 4; };
TESSEL_CONFIG(DotConfig, num_warps)

void dot_noacc(const DotConfig &c, Ptr<f16> a, Ptr<f32> out) {
  Tile<i32> r = arange(0, 32);
  Tile<f16> av = load(a + r(_, None) * 32 + r(None, _));
  Tile<f32> d = dot(av, av);
  store(out + r(_, None) * 32 + r(None, _), d * 2.0);
}
TESSEL_KERNEL(dot_noacc, ARGS(a, out), CONFIGS(DotConfig{}))

void dot_chain(const DotConfig &c, Ptr<f16> q, Ptr<f16> k, Ptr<f16> v, Ptr<f32> out) {
  Tile<i32> r = arange(0, 64);
  Tile<f16> qv = load(q + r(_, None) * 64 + r(None, _));
  Tile<f16> kv = load(k + r(_, None) * 64 + r(None, _));
  Tile<f16> vv = load(v + r(_, None) * 64 + r(None, _));
  Tile<f16> p = cast<f16>(dot(qv, kv));
  store(out + r(_, None) * 64 + r(None, _), dot(p, vv));
}
TESSEL_KERNEL(dot_chain, ARGS(q, k, v, out), CONFIGS(DotConfig{}))

void dot_16(const DotConfig &c, Ptr<bf16> a, Ptr<f32> out) {
  Tile<i32> r = arange(0, 16);
  Tile<bf16> av = load(a + r(_, None) * 16 + r(None, _));
  store(out + r(_, None) * 16 + r(None, _), dot(av, av));
}
TESSEL_KERNEL(dot_16, ARGS(a, out), CONFIGS(DotConfig{.num_warps = 1}))
