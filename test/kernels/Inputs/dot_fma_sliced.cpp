// A (16, K) x (K, 16) f32 dot with exact products (precision ieee): on the GPUs it runs on FMA
// units, and a and b together (32 K floats) exceed shared memory, so the lowering walks K in
// slices. Inputs are scaled and floored to small integers so every order of summation gives
// the same f32 result.
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int K = 4096; int num_warps = 32; };
TESSEL_CONFIG(Config, K, num_warps)

void dot_fma_sliced(const Config &c, Ptr<f32> a, Ptr<f32> b, Ptr<f32> out) {
  Tile<i32> r = arange(0, 16);                                          // (16)
  Tile<i32> k = arange(0, c.K);                                         // (K)
  Tile<f32> av = floor(load(a + expand_dims(r, 1) * c.K + expand_dims(k, 0)) * 8.0); // (16, K)
  Tile<f32> bv = floor(load(b + expand_dims(k, 1) * 16 + expand_dims(r, 0)) * 8.0);  // (K, 16)
  store(out + expand_dims(r, 1) * 16 + expand_dims(r, 0), dot(av, bv));
}
TESSEL_KERNEL(dot_fma_sliced, ARGS(a, b, out), CONFIGS(Config{}))
